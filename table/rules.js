// The rules, in a modal dialog opened from the settings bar on every screen; fetched when
// they are first opened.
import { card } from "./cards.js";
import { $, tr, trAny, tradition } from "./core.js";
import { h } from "./words.js";

/** @typedef {import('./core.js').Catalogue} Catalogue */

/** Example hands of each category, strongest first, drawn with the cards. */
const EXAMPLES = /** @type {const} */ ([
  ["four_of_a_kind", ["As", "As", "As", "As", "Couli"]],
  ["full_house", ["Shah", "Shah", "Shah", "Bibi", "Bibi"]],
  ["three_of_a_kind", ["Bibi", "Bibi", "Bibi", "As", "Sarbaz"]],
  ["two_pair", ["As", "As", "Sarbaz", "Sarbaz", "Couli"]],
  ["pair", ["Couli", "Couli", "As", "Shah", "Bibi"]],
  ["high_card", ["As", "Shah", "Bibi", "Sarbaz", "Couli"]],
]);

export function rulesContent() {
  /** @param {keyof Catalogue} title @param {keyof Catalogue} text */
  const part = (title, text) => h("section", {}, h("h3", { text: tr(title) }), h("p", { text: tr(text) }));
  const close = h("button", { type: "button", class: "quiet", id: "close-rules", text: tr("close") });
  close.addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("rules")).close());
  // Close heads the dialog: focused on opening, it keeps the rules at their beginning (at the
  // end, its focus scrolled the dialog down to Scoring).
  return [
    h("div", { class: "dialog-head" }, h("h2", { id: "rules-title", text: tr("rules_title") }), close),
    tradition(),
    part("rules_goal_h", "rules_goal"),
    part("rules_setup_h", "rules_setup"),
    part("rules_turn_h", "rules_turn"),
    h(
      "section",
      {},
      h("h3", { text: tr("rules_ranks_h") }),
      h("p", { text: tr("rules_ranks") }),
      h(
        "ol",
        { class: "ranking" },
        ...EXAMPLES.map(([category, hand]) => {
          const cards = h("span", { class: "mini" });
          for (const rank of hand) cards.append(card(rank, trAny(rank), true));
          return h("li", {}, h("span", { class: "category", text: trAny(category) }), cards);
        }),
      ),
      h("p", { text: tr("rules_ties") }),
    ),
    part("rules_score_h", "rules_score"),
  ];
}

/** The rules, in a modal dialog: Escape or Close shuts it, and focus goes back where it was. */
export function showRules() {
  const dialog = /** @type {HTMLDialogElement} */ ($("rules"));
  dialog.replaceChildren(...rulesContent());
  dialog.showModal();
  /** @type {HTMLElement} */ (dialog.querySelector("#close-rules")).focus();
}
