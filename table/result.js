// A deal's result as both the table and the spectators' page show it: each seat's category,
// payout and change, its shown hand on a row of its own (cards wide enough to read, with their
// names, on a phone too), and where every hand may be seen, what its cards, its play and the
// others' play made of its change.
import { card } from "./cards.js";
import { points } from "./fractions.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['DealResult']} DealResult */
/** @typedef {import('./schema').components['schemas']['Skill']} Skill */

/**
 * @param {DealResult} deal
 * @param {{ tr: (key: string, vars?: Record<string, string | number>) => string, locale: string,
 *   name: (seat: number) => string, skill: (seat: number, skill: Skill) => string }} page
 */
export function dealPanel(deal, page) {
  const { tr, locale } = page;
  const rows = deal.seats.flatMap((seat) => {
    const hand = h("span", { class: "mini" });
    if (seat.hand) for (const rank of seat.hand) hand.append(card(rank, tr(rank), true));
    else hand.append(tr(seat.folded ? "folded" : "hidden"));
    const skill = seat.skill;
    const figures = skill ? [h("p", { class: "skill", title: `${skill.cards} · ${skill.play} · ${skill.table}`, text: page.skill(seat.seat, skill) })] : [];
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
    h("h2", { id: "deal-title", text: `${tr("deal_over", { n: deal.deal_number })}: ${tr(deal.outcome)}` }),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, ...["seat", "category", "payout", "change"].map((key) => h("th", { scope: "col", text: tr(key) })))),
      h("tbody", {}, ...rows),
    ),
  );
}
