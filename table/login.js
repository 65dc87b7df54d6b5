// The first screen of a new visitor who opens a friend's invite: a name, and "Sit down"
// registers the player, then shows the friend's table (everyone else starts at start.js).
import { $, api, guarded, leaveMatch, screen, showScreen, state, tokenKey, tr, tradition } from "./core.js";
import { store } from "./look.js";
import { h } from "./words.js";

/** @param {boolean} [focus] false keeps the focus where it is (a language switch) */
export function draw(focus = true) {
  leaveMatch();
  state.screen = "login";
  // A language switch keeps the name being typed.
  const typed = /** @type {HTMLInputElement | null} */ (document.getElementById("player-name"))?.value ?? "";
  const input = h("input", { id: "player-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname", value: typed });
  const form = h(
    "form",
    { id: "login" },
    state.invite && h("p", { class: "invited", text: tr("invited") }),
    h("label", { for: "player-name", text: tr("name") }),
    input,
    h("button", { type: "submit", text: tr("register") }),
    tradition(),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = /** @type {HTMLInputElement} */ (input).value.trim();
    guarded(async () => {
      const player = await api.write("/players", { name });
      store.set(tokenKey, player.token);
      store.set("name", player.name);
      if (state.invite) await (await screen("invitation")).previewTable(state.invite);
      else await showScreen("lobby");
    });
  });
  $("main").replaceChildren(h("h2", { text: tr("title") }), form);
  if (focus) input.focus();
}
