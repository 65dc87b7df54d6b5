// The review screen (docs/review.md), fetched when first shown: accuracy, points lost per deal,
// each decision's class and values; each mistake's position again, your new choice graded.
import { card } from "./cards.js";
import { $, num, screen, seatName, state, tr, trAny } from "./core.js";
import { exactParts } from "./fractions.js";
import { lostWords, rounded } from "./match-review.js";
import { h } from "./words.js";

/** @typedef {import('./match-review.js').ReviewDeal} Deal */
/** @typedef {Deal['decisions'][number]} Decision */

/** games/ai/review.py's GRADES: the most each class loses; a blunder more. */
export const GRADES = /** @type {const} */ ([["best", 0n, 1n], ["good", 1n, 20n], ["inaccuracy", 3n, 20n], ["mistake", 2n, 5n]]);

/** What `value` loses to `best` (exact: "-7/20"), and its class. @param {string} best @param {string} value */
export function graded(best, value) {
  const [[bn, bd], [vn, vd]] = [best, value].map(exactParts);
  const [lost, per] = [bn * vd - vn * bd, bd * vd];
  return { grade: GRADES.find(([, most, of]) => lost * of <= most * per)?.[0] ?? "blunder", lost: Number((lost * 10000n) / per) / 10000, exact: `${lost}/${per}` };
}

/** The review, or mistake `at` and the action chosen there; of which review. */
let view = /** @type {{ at: number | null, chosen?: string, of?: string }} */ ({ at: null });
const you = () => /** @type {NonNullable<typeof state.review>} */ (state.review).seats[0];
const mistakes = () => you().deals.flatMap((deal) => deal.decisions.filter((d) => d.grade === "mistake" || d.grade === "blunder").map((decision) => ({ deal, decision })));
const name = (/** @type {number} */ seat) => seatName(state.match?.seats[seat] ?? { name: num(seat) }) + (seat === state.match?.your_seat ? ` (${tr("you")})` : "");
const grade = (/** @type {string} */ key) => trAny(`grade_${key}`);
const by = (/** @type {string} */ actor) => tr(actor === "clock" ? "by_clock" : "by_ai");
/** @param {{ accuracy: string | null, accuracy_rounded: number | null }} of */
const accuracy = (of) => (of.accuracy === null || of.accuracy_rounded === null ? "—" : rounded(of.accuracy, of.accuracy_rounded, false, 1));
/** Points to two places, "≈" where rounded. @param {{ lost: string, lost_rounded: number }} of */
const lost = (of) => rounded(of.lost, of.lost_rounded);
/** A deal's number, with its series if several. @param {Deal} deal */
const label = (deal) => (you().deals.some((d) => d.series !== deal.series) ? `${num(deal.series)}.` : "") + num(deal.deal_number);
/** @param {string} id @param {string} text @param {() => void} run @param {string} [cls] */
function button(id, text, run, cls = "") {
  const element = h("button", { type: "button", id, class: cls, text });
  element.addEventListener("click", run);
  return element;
}
/** @param {Partial<typeof view>} next */
const go = (next) => () => ((view = { ...view, ...next }), draw());
/** A table of two columns. @param {string[]} head @param {[string, string][]} rows */
const table = (head, rows) =>
  h("table", {}, h("thead", {}, h("tr", {}, ...head.map((text) => h("th", { scope: "col", text })))), h("tbody", {}, ...rows.map(([th, td]) => h("tr", {}, h("th", { scope: "row", text: th }), h("td", { text: td })))));

/** Draws the screen, its heading focused unless a language switch (`focus` false). */
export function draw(focus = true) {
  state.screen = "review";
  if (view.of !== state.review?.id) view = { at: null, of: state.review?.id };
  const body = view.at === null ? overview() : practice(view.at);
  $("main").replaceChildren(body);
  if (focus) /** @type {HTMLElement} */ (body.querySelector("h2")).focus();
}

function overview() {
  const mine = you();
  const count = mistakes().length;
  return h(
    "section",
    { class: "panel review", id: "review", "aria-labelledby": "review-title" },
    h("h2", { id: "review-title", tabindex: -1, text: tr("review_title") }),
    h("p", { text: `${tr("accuracy")}: ${accuracy(mine)} · ${tr("points_lost")}: ${lost(mine)}` }),
    h("p", { text: Object.entries(mine.counts).map(([key, n]) => `${grade(key)} ${num(n)}`).join(" · ") }),
    h("p", { text: tr("values_against", { basis: mine.bases.map((basis) => trAny(`basis_${basis}`)).join(" · ") }) }),
    chart(mine.deals),
    h("div", { class: "row" }, count ? button("learn", `${tr("learn")} (${num(count)})`, go({ at: 0, chosen: undefined }), "play") : h("p", { text: tr("no_mistakes") }), button("back-to-table", tr("back_to_table"), async () => (await screen("match")).render())),
    ...mine.deals.map((deal) =>
      h(
        "section",
        { "aria-label": `${tr("deal")} ${label(deal)}` },
        h("h3", { text: `${tr("deal")} ${label(deal)}: ${tr("points_lost")} ${lost(deal)} · ${tr("accuracy")} ${accuracy(deal)}` }),
        h("ol", {}, ...deal.decisions.map((d) => h("li", { "data-grade": d.grade ?? "" }, `${trAny(d.action)}${d.looked || d.action === "look" ? "" : `, ${tr("blind")}`}: ${d.grade ? grade(d.grade) + (d.lost_rounded ? `, ${lostWords(d)}` : "") : by(d.by)}`, d.values.length ? values(d) : ""))),
      ),
    ),
  );
}

/** Points lost per deal as bars (right to left in Persian), its numbers in its label. @param {Deal[]} deals */
function chart(deals) {
  const ns = "http://www.w3.org/2000/svg";
  const top = Math.max(0.5, ...deals.map((deal) => deal.lost_rounded));
  const step = 300 / Math.max(deals.length, 6);
  const rtl = document.documentElement.dir === "rtl";
  const figures = deals.map((deal) => `${label(deal)}: ${lost(deal)}`).join(", ");
  /** @param {string} tag @param {Record<string, string | number>} attrs @param {string} [text] */
  const make = (tag, attrs, text = "") => {
    const element = document.createElementNS(ns, tag);
    Object.entries(attrs).forEach(([k, v]) => element.setAttribute(k, String(v).replace(/[\u2068\u2069]/g, "")));
    element.textContent = text.replace(/[\u2068\u2069]/g, "");
    return element;
  };
  const svg = make("svg", { viewBox: "0 0 320 150", class: "chart lost", role: "img", "aria-label": `${tr("lost_per_deal")}: ${figures}` });
  const add = (/** @type {Parameters<typeof make>} */ ...args) => svg.append(make(...args));
  add("line", { x1: 10, x2: 310, y1: 125, y2: 125, class: "zero" });
  deals.forEach((deal, i) => {
    const x = rtl ? 310 - (i + 0.5) * step : 10 + (i + 0.5) * step;
    const tall = (deal.lost_rounded / top) * 100;
    add("rect", { x: x - step * 0.35, y: 125 - tall, width: step * 0.7, height: tall, class: deal.counts.mistake + deal.counts.blunder ? "bad" : "" });
    // Without "≈" over a bar, where two short bars' figures would run into each other; the
    // chart's label says it.
    if (deal.lost_rounded) add("text", { x, y: 120 - tall, "text-anchor": "middle" }, lost(deal).replace("≈", ""));
    add("text", { x, y: 142, "text-anchor": "middle" }, label(deal));
  });
  return h("figure", {}, h("figcaption", { "aria-hidden": "true", text: tr("lost_per_deal") }), svg);
}

/** Every legal action's value, on demand. @param {Decision} decision @param {boolean} [open] */
const values = (decision, open = false) =>
  h("details", { open }, h("summary", { text: tr("values") }), table([tr("hint_action"), tr("hint_value")], decision.values.map((v) => [trAny(v.action) + (v.best ? ` (${grade("best")})` : ""), rounded(v.value, v.value_rounded, true)])));

/** Mistake `at` as your seat saw it, to choose again. @param {number} at */
function practice(at) {
  const all = mistakes();
  const { deal, decision } = all[at];
  const spot = decision.position;
  const seats = spot.seats.map((seat) => {
    const flags = [seat.seat === deal.dealer && tr("dealer"), seat.folded && tr("folded"), seat.looked && !seat.folded && tr("looked")];
    return h("li", { text: [`${name(seat.seat)}: ${tr("stake")} ${num(seat.stake)}`, ...flags.filter(Boolean)].join(" · ") });
  });
  const hand = h("div", { class: "hand", role: "group", "aria-label": tr("your_cards") });
  for (let i = 0; i < 5; i++) hand.append(card(spot.hand?.[i] ?? null, spot.hand ? trAny(spot.hand[i]) : tr("card_down")));
  const choices = decision.values.map((v) => {
    const choice = button(`choose-${v.action}`, trAny(v.action), () => (go({ chosen: v.action })(), $("graded").focus()), "play");
    choice.dataset.choice = v.action;
    return choice;
  });
  const next = at + 1 < all.length && view.chosen ? [button("next-mistake", tr("next_mistake"), go({ at: at + 1, chosen: undefined }), "play")] : [];
  return h(
    "section",
    { class: "panel review", id: "practice", "aria-labelledby": "practice-title" },
    h("h2", { id: "practice-title", tabindex: -1, text: tr("mistake_of", { n: at + 1, of: all.length, deal: label(deal) }) }),
    h("p", { text: `${tr("pot")}: ${num(spot.pot)} · ${tr("high_stake")}: ${num(spot.high_stake)}` }),
    h("ul", {}, ...seats),
    hand,
    h("h3", { text: tr("before_you") }),
    h("ol", {}, ...spot.moves.map((move) => h("li", { text: `${name(move.seat)}: ${trAny(move.action)}${move.by === "player" || state.match?.seats[move.seat].kind === "ai" ? "" : ` (${by(move.by)})`}` }))),
    ...(view.chosen ? outcome(decision, view.chosen) : [h("p", { id: "choose-title", text: tr("choose_again") }), h("div", { class: "actions", role: "group", "aria-labelledby": "choose-title" }, ...choices)]),
    h("div", { class: "row" }, ...next, button("back-to-review", tr("back_to_review"), go({ at: null }), "quiet")),
  );
}

/** The choice graded, the best's edge (over yours, or the next best), and what you played.
 * @param {Decision} decision @param {string} chosen */
function outcome(decision, chosen) {
  const [best, value] = [decision.values.find((v) => v.best), decision.values.find((v) => v.action === chosen)].map((v) => v ?? decision.values[0]);
  const mark = graded(best.value, value.value);
  const next = decision.values.filter((v) => v !== best).map((v) => graded(best.value, v.value)).reduce((a, b) => (b.lost < a.lost ? b : a));
  return [
    h("p", { id: "graded", tabindex: -1, "data-grade": mark.grade, text: `${trAny(chosen)}: ${rounded(value.value, value.value_rounded, true)} · ${grade(mark.grade)}` }),
    h("p", { text: mark.lost ? tr("best_was", { action: trAny(best.action), value: rounded(best.value, best.value_rounded, true), edge: rounded(mark.exact, mark.lost) }) : tr("best_edge", { edge: rounded(next.exact, next.lost) }) }),
    h("p", { text: tr("at_the_table", { action: trAny(decision.action), lost: rounded(decision.lost ?? "0", decision.lost_rounded ?? 0) }) }),
    values(decision, true),
  ];
}
