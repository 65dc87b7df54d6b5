// The first screen, as the seed page has it: the tradition and its article, the one-line
// description, Start game, the tagline, who plays, and the rules open beside it (folded under
// their heading on a phone). Start game deals a match against three AI seats at once: the
// click, never the page's load, registers a new visitor with a default name, which the lobby
// lets them change. Tables for friends, open tables and quick play are one step away.
import { $, api, guarded, leaveMatch, mySeed, say, showMatch, showScreen, state, tokenKey, tr, trAny } from "./core.js";
import { store } from "./look.js";
import { CATEGORIES, rulesSections } from "./rules-text.js";
import { h } from "./words.js";

/** @typedef {import('./api.js').WriteAnswer} WriteAnswer */

/** The game's article; the other languages' Wikipedias have none we could confirm. */
const WIKIPEDIA = "https://en.wikipedia.org/wiki/As-Nas";

/** A new visitor becomes a player on their first click, named by default. */
async function registered() {
  if (store.get(tokenKey)) return;
  const player = await api.write("/players", { name: tr("default_name") });
  store.set(tokenKey, player.token);
  store.set("name", player.name);
}

/** A match against three AI seats, at the level last chosen in the lobby. */
async function startGame() {
  await registered();
  /** @type {WriteAnswer} */
  const answer = await api.write("/matches", { ai_level: store.get("level") || "normal", ...mySeed() });
  await showMatch(answer, answer.events ?? []);
}

/** The rules' example hands, drawn the first time they are unfolded (rules.js, with the cards). */
function handPictures() {
  const pictures = /** @type {HTMLDetailsElement} */ (
    h("details", { id: "rules-hands", class: "hands" }, h("summary", { text: tr("rules_show_hands") }))
  );
  pictures.addEventListener("toggle", async () => {
    if (!pictures.open || pictures.querySelector(".ranking")) return;
    const { exampleHand } = await import("./rules.js");
    pictures.append(
      h(
        "ol",
        { class: "ranking" },
        ...CATEGORIES.map(([category]) => h("li", {}, h("span", { class: "category", text: trAny(category) }), exampleHand(category))),
      ),
    );
  });
  return pictures;
}

/** @param {boolean} [focus] false keeps the focus where it is (a language switch) */
export function draw(focus = true) {
  leaveMatch();
  state.screen = "start";
  if (focus) say("");
  history.replaceState(null, "", location.pathname + location.search);
  const begin = h("button", { type: "button", id: "start-game", class: "play start", text: tr("start_game") });
  begin.addEventListener("click", () => guarded(startGame));
  const returning = Boolean(store.get(tokenKey));
  const more = h("button", { type: "button", id: "more-ways", class: "quiet", text: tr(returning ? "start_lobby" : "start_more") });
  more.addEventListener("click", () =>
    guarded(async () => {
      await registered();
      await showScreen("lobby");
    }),
  );
  // Open beside the intro where there is room; on a phone folded under its heading, below Start.
  const wasOpen = /** @type {HTMLDetailsElement | null} */ (document.getElementById("start-rules"))?.open;
  const rules = /** @type {HTMLDetailsElement} */ (
    h(
      "details",
      { id: "start-rules", class: "panel rules-panel" },
      h("summary", {}, h("h2", { text: tr("rules") })),
      rulesSections({ pictures: handPictures() }),
    )
  );
  rules.open = wasOpen ?? matchMedia("(min-width: 48rem)").matches;
  const intro = h(
    "section",
    { class: "intro", "aria-label": tr("brand") },
    h(
      "p",
      { class: "tradition" },
      h("strong", { text: tr("tradition") }),
      " ",
      h("a", { href: WIKIPEDIA, hreflang: "en", target: "_blank", rel: "noopener", text: tr("wikipedia_short") }),
    ),
    h("p", { class: "description", text: tr("tradition_line") }),
    begin,
    h("p", { class: "tagline", text: tr("start_tagline") }),
    h("p", { class: "players", text: tr("start_players") }),
    more,
  );
  $("main").replaceChildren(h("div", { class: "start-screen" }, intro, rules));
  if (focus) begin.focus();
}
