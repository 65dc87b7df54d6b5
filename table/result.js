// A deal's result as both the table and the spectators' page show it: each seat's category,
// payout and change, its shown hand on a row of its own (cards wide enough to read, with their
// names, on a phone too), and where every hand may be seen, what its cards, its play and the
// others' play made of its change.
import { card } from "./cards.js";
import { approx, points, skillFigures } from "./fractions.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['DealResult']} DealResult */
/** @typedef {import('./schema').components['schemas']['Skill']} Skill */

/** @typedef {{ tr: (key: string, vars?: Record<string, string | number>) => string, locale: string }} Words */

/** Below this a rounded figure reads 0.00: it says nothing of a folded seat. */
const SILENT = 0.005;

/**
 * A seat's figures as words ("cards +1/2 · your play ≈+0.64 · the others −1/4"); a folded
 * seat's only those that say something (its cards' worth, mostly: a fold plays no further).
 * @param {Skill} skill @param {Words} page @param {boolean} yours @param {boolean} [folded]
 */
export function skillLine(skill, page, yours, folded = false) {
  const shown = skillFigures(skill, page.locale);
  /** @type {[string, "cards" | "play" | "table"][]} */
  const parts = [["skill_cards", "cards"], [yours ? "skill_play_you" : "skill_play", "play"], ["skill_table", "table"]];
  return parts
    .filter(([, part]) => !folded || Math.abs(approx(skill[part])) >= SILENT)
    .map(([key, part]) => page.tr(key, { v: shown[part] }))
    .join(" · ");
}

/** The player's opening or closing of the legend, kept as the table is drawn anew. @type {boolean | null} */
let legendOpen = null;

/** What each figure means (docs/skill.md): open on a wide screen, folded on a phone, where
 * it would push the result below the fold. @param {Words} page */
export function skillLegend(page) {
  const legend = /** @type {HTMLDetailsElement} */ (
    h(
      "details",
      { class: "legend" },
      h("summary", { text: page.tr("legend_title") }),
      h("ul", {}, ...["legend_cards", "legend_play", "legend_table"].map((key) => h("li", { text: page.tr(key) }))),
    )
  );
  legend.open = legendOpen ?? matchMedia("(min-width: 40rem)").matches;
  legend.addEventListener("toggle", () => (legendOpen = legend.open));
  return legend;
}

/**
 * @param {DealResult} deal
 * @param {Words & { name: (seat: number) => string, you: number | null }} page
 */
export function dealPanel(deal, page) {
  const { tr, locale } = page;
  const rows = deal.seats.flatMap((seat) => {
    const hand = h("span", { class: "mini" });
    if (seat.hand) for (const rank of seat.hand) hand.append(card(rank, tr(rank), true));
    else hand.append(tr(seat.folded ? "folded" : "hidden"));
    const skill = seat.skill;
    const words = skill && skillLine(skill, page, seat.seat === page.you, seat.folded);
    const figures = skill && words ? [h("p", { class: "skill", title: `${skill.cards} · ${skill.play} · ${skill.table}`, text: words })] : [];
    const winner = deal.winners.includes(seat.seat) ? "winner" : "";
    return [
      h(
        "tr",
        { class: winner, "data-seat": seat.seat },
        h("th", { scope: "row", text: page.name(seat.seat) }),
        h("td", { text: seat.category ? tr(seat.category) : "—" }),
        h("td", { text: points(seat.payout, locale) }),
        h("td", { class: "delta", text: points(seat.delta, locale, true) }),
      ),
      h("tr", { class: `hand-row ${winner}` }, h("td", { colspan: 4 }, hand, ...figures)),
    ];
  });
  return h(
    "section",
    { class: "panel", id: "deal-panel", "aria-labelledby": "deal-title" },
    h("h2", { id: "deal-title", tabindex: -1, text: `${tr("deal_over", { n: deal.deal_number })}: ${tr(deal.outcome)}` }),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, ...["seat", "category", "payout", "change"].map((key) => h("th", { scope: "col", text: tr(key) })))),
      h("tbody", {}, ...rows),
    ),
    ...(deal.seats.some((seat) => seat.skill) ? [skillLegend(page)] : []),
  );
}
