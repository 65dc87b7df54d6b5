// The lobby's name form: a player registered by Start game has a default name, and chooses
// their own here (PATCH /players/me).
import { api, guarded, say, tr } from "./core.js";
import { store } from "./look.js";
import { fill, h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['PlayerProfile']} PlayerProfile */

/** The form, with the player's name as it stands; `greeting` is told the new name.
 * @param {HTMLElement} greeting */
export function renameForm(greeting) {
  const input = /** @type {HTMLInputElement} */ (
    h("input", { id: "rename-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname", value: store.get("name") || "" })
  );
  const form = h(
    "form",
    { id: "rename", class: "row" },
    h("label", { for: "rename-name", text: tr("name") }),
    input,
    h("button", { type: "submit", class: "quiet", text: tr("rename") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(async () => {
      /** @type {PlayerProfile} */
      const me = await api.patch("/players/me", { name: input.value.trim() });
      store.set("name", me.name);
      input.value = me.name;
      fill(greeting, tr("hello", { name: me.name }));
      say(() => tr("renamed", { name: me.name }));
    });
  });
  return form;
}
