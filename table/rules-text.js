// The rules' words: five numbered sections, each point a catalogue key of its own
// (../docs/rules.md says the same). The first screen shows them open on the page; the rules
// dialog (rules.js) shows them with the example hands drawn.
import { locale, tr, trAny } from "./core.js";
import { numbers } from "./fractions.js";
import { h } from "./words.js";

/** @typedef {import('./core.js').Catalogue} Catalogue */

/** Each section's heading and its points, in the order the rules give them. */
const SECTIONS = /** @type {const} */ ([
  ["rules_goal_h", ["rules_goal_pots", "rules_goal_match"]],
  [
    "rules_setup_h",
    ["rules_setup_deck", "rules_setup_shuffle", "rules_setup_none", "rules_setup_dealer", "rules_setup_stake", "rules_setup_hidden"],
  ],
  [
    "rules_turn_h",
    [
      "rules_turn_order",
      "rules_turn_blind",
      "rules_turn_look",
      "rules_turn_call",
      "rules_turn_hold",
      "rules_turn_raise",
      "rules_turn_fold",
      "rules_turn_one_left",
      "rules_turn_end",
    ],
  ],
  ["rules_ranks_h", ["rules_ranks_order", "rules_ranks_hands"]],
  ["rules_score_h", ["rules_score_showdown", "rules_score_deal", "rules_score_secret", "rules_score_end", "rules_score_restart"]],
]);
/** After the hands' list, how hands of one category compare. */
const AFTER_HANDS = /** @type {const} */ (["rules_ranks_compare", "rules_ranks_ties"]);

/** The categories, strongest first, with the Persian names docs/rules.md spells (none for
 * four of a kind and high card) and their shapes. */
export const CATEGORIES = /** @type {const} */ ([
  ["four_of_a_kind", "", "4 + 1"],
  ["full_house", "she va juft", "3 + 2"],
  ["three_of_a_kind", "sehta", "3 + 1 + 1"],
  ["two_pair", "do juft", "2 + 2 + 1"],
  ["pair", "juft", "2 + 1 + 1 + 1"],
  ["high_card", "", "1 + 1 + 1 + 1 + 1"],
]);

/**
 * The five sections as a numbered list. `hands(category)` draws a category's example hand,
 * where the cards' art is at hand (the dialog); without it the list has words only, and
 * `pictures` (the first screen's) may append the drawings once they are asked for.
 * @param {{ hands?: (category: string) => Node, pictures?: Node }} [options]
 */
export function rulesSections({ hands, pictures } = {}) {
  const points = (/** @type {readonly (keyof Catalogue)[]} */ keys) =>
    h("ul", {}, ...keys.map((key) => h("li", { "data-rule": key, text: tr(key) })));
  // In Persian the category's own name is the Persian name: it is not said twice.
  const persian = document.documentElement.lang !== "fa";
  const ranking = h(
    "ol",
    { class: "ranking" },
    ...CATEGORIES.map(([category, name, shape]) =>
      h(
        "li",
        { "data-category": category },
        h(
          "span",
          { class: "names" },
          h("span", { class: "category", text: trAny(category) }),
          persian && name ? h("span", { class: "persian", lang: "fa-Latn", text: ` (${name})` }) : null,
        ),
        h("span", { class: "shape", dir: "ltr", text: shape.replace(/\d/g, (digit) => numbers(locale()).format(Number(digit))) }),
        hands ? hands(category) : null,
      ),
    ),
  );
  return h(
    "ol",
    { class: "rules-sections" },
    ...SECTIONS.map(([title, keys]) =>
      h(
        "li",
        {},
        h("h3", { text: tr(title) }),
        points(keys),
        title === "rules_ranks_h" && ranking,
        title === "rules_ranks_h" && points(AFTER_HANDS),
        title === "rules_ranks_h" && pictures ? pictures : null,
      ),
    ),
  );
}
