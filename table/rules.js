// The rules with their pictures: the dialog the settings bar opens on every screen, and the
// example hands drawn with the cards. Fetched when first shown: the dialog first opened, or
// the first screen's hands first unfolded.
import { card } from "./cards.js";
import { $, tr, trAny, tradition } from "./core.js";
import { rulesSections } from "./rules-text.js";
import { h } from "./words.js";

/** An example hand of each category, drawn with the cards. */
const EXAMPLES = /** @type {Record<string, readonly string[]>} */ ({
  four_of_a_kind: ["As", "As", "As", "As", "Couli"],
  full_house: ["Shah", "Shah", "Shah", "Bibi", "Bibi"],
  three_of_a_kind: ["Bibi", "Bibi", "Bibi", "As", "Sarbaz"],
  two_pair: ["As", "As", "Sarbaz", "Sarbaz", "Couli"],
  pair: ["Couli", "Couli", "As", "Shah", "Bibi"],
  high_card: ["As", "Shah", "Bibi", "Sarbaz", "Couli"],
});

/** The example hand of `category`, in small cards. @param {string} category */
export function exampleHand(category) {
  const cards = h("span", { class: "mini" });
  for (const rank of EXAMPLES[category]) cards.append(card(rank, trAny(rank), true));
  return cards;
}

export function rulesContent() {
  const close = h("button", { type: "button", class: "quiet", id: "close-rules", text: tr("close") });
  close.addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("rules")).close());
  // Close heads the dialog: focused on opening, it keeps the rules at their beginning (at the
  // end, its focus scrolled the dialog down to Scoring).
  return [
    h("div", { class: "dialog-head" }, h("h2", { id: "rules-title", text: tr("rules_title") }), close),
    tradition(),
    rulesSections({ hands: exampleHand }),
  ];
}

/** The rules, in a modal dialog: Escape or Close shuts it, and focus goes back where it was. */
export function showRules() {
  const dialog = /** @type {HTMLDialogElement} */ ($("rules"));
  dialog.replaceChildren(...rulesContent());
  dialog.showModal();
  /** @type {HTMLElement} */ (dialog.querySelector("#close-rules")).focus();
}
