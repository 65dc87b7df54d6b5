// The review screen (docs/review.md), fetched when first shown: your accuracy, the points lost
// per deal as a chart (its numbers in a table for screen readers), every decision with its
// class and each action's value on demand; and "learn from your mistakes": each mistake's
// position as your seat saw it, to choose again, graded by the action's exact value.
import { card } from "./cards.js";
import { $, locale, num, screen, seatName, state, tr, trAny } from "./core.js";
import { rounded } from "./match-review.js";
import { h } from "./words.js";

/** @typedef {import('./match-review.js').Review} Review */
/** @typedef {import('./match-review.js').ReviewDeal} ReviewDeal */
/** @typedef {ReviewDeal['decisions'][number]} Decision */

/** The classes' bounds in points lost, as games/ai/review.py's GRADES (docs/review.md): the
 * most a decision of each loses, a fraction [numerator, denominator]; a blunder loses more. */
export const GRADES = /** @type {const} */ ([["best", 0n, 1n], ["good", 1n, 20n], ["inaccuracy", 3n, 20n], ["mistake", 2n, 5n]]);

/** An exact value of the API ("-7/20") as [numerator, denominator]. @param {string} text @returns {[bigint, bigint]} */
const exact = (text) => {
  const [n, d = "1"] = text.split("/");
  return [BigInt(n), BigInt(d)];
};

/** What choosing `value` loses against `best`, exactly, and its class. @param {string} best @param {string} value */
export function graded(best, value) {
  const [[bn, bd], [vn, vd]] = [exact(best), exact(value)];
  const [lost, per] = [bn * vd - vn * bd, bd * vd];
  const grade = GRADES.find(([, most, of]) => lost * of <= most * per)?.[0] ?? "blunder";
  return { grade, lost: Number((lost * 10000n) / per) / 10000 };
}

/** Which view: the review, or mistake `index` (and what was chosen there, once it was), of
 * which match's review. @type {{ mistake: number | null, chosen: string | null, of?: string }} */
let view = { mistake: null, chosen: null };

const mine = () => /** @type {Review} */ (state.review).seats[0];
/** Your mistakes and blunders, with their deals. */
const mistakes = () => mine().deals.flatMap((deal) => deal.decisions.filter((d) => d.grade === "mistake" || d.grade === "blunder").map((decision) => ({ deal, decision })));
const name = (/** @type {number} */ seat) => {
  const match = state.match;
  return match ? (seat === match.your_seat ? tr("you") : seatName(match.seats[seat])) : num(seat);
};
/** @param {string} key @param {Record<string, string | number>} [vars] */
const say = (key, vars) => tr(/** @type {any} */ (key), vars);

/** Draws the screen, focused on its heading unless `focus` is false (a language switch). */
export function draw(focus = true) {
  state.screen = "review";
  if (view.of !== state.review?.id) view = { mistake: null, chosen: null, of: state.review?.id };
  const body = view.mistake === null ? overview() : practice(view.mistake);
  $("main").replaceChildren(body);
  if (focus) /** @type {HTMLElement} */ (body.querySelector("h2")).focus();
}

/** @param {string} id @param {string} text @param {() => void} run @param {string} [cls] */
function button(id, text, run, cls = "") {
  const element = h("button", { type: "button", id, class: cls, text });
  element.addEventListener("click", run);
  return element;
}

const back = () => button("back-to-table", tr("back_to_table"), async () => (await screen("match")).render());

function overview() {
  const you = mine();
  const count = mistakes().length;
  const classes = Object.entries(you.counts).map(([grade, n]) => `${trAny(`grade_${grade}`)} ${num(n)}`);
  const learn = button("learn", `${tr("learn")} (${num(count)})`, () => ((view = { ...view, mistake: 0, chosen: null }), draw()), "play");
  return h(
    "section",
    { class: "panel review", id: "review", "aria-labelledby": "review-title" },
    h("h2", { id: "review-title", tabindex: -1, text: tr("review_title") }),
    h("p", { class: "summary", text: `${tr("accuracy")}: ${you.accuracy_rounded === null ? "—" : rounded(you.accuracy_rounded).replace(/.(\d)\d/, "$1")} · ${tr("points_lost")}: ${rounded(you.lost_rounded)}` }),
    h("p", { class: "counts", text: classes.join(" · ") }),
    h("p", { class: "basis", text: tr("values_against", { basis: you.bases.map((basis) => trAny(`basis_${basis}`)).join(" · ") }) }),
    chart(you.deals),
    h("div", { class: "row" }, count ? learn : h("p", { text: tr("no_mistakes") }), back()),
    ...you.deals.map(dealSection),
  );
}

/** A deal's label: its number, and its series once there were several. @param {ReviewDeal} deal */
const dealLabel = (deal) => (mine().deals.some((d) => d.series !== deal.series) ? `${num(deal.series)}.${num(deal.deal_number)}` : num(deal.deal_number));

/** Points lost per deal: bars drawn by the page, and the same numbers as a table for screen
 * readers (the picture is hidden from them). @param {ReviewDeal[]} deals */
function chart(deals) {
  const ns = "http://www.w3.org/2000/svg";
  const top = Math.max(0.5, ...deals.map((deal) => deal.lost_rounded));
  const step = 300 / Math.max(deals.length, 6);
  const svg = document.createElementNS(ns, "svg");
  Object.entries({ viewBox: "0 0 320 150", class: "chart lost", "aria-hidden": "true", focusable: "false" }).forEach(([k, v]) => svg.setAttribute(k, v));
  /** @param {string} tag @param {Record<string, string | number>} attrs @param {string} [text] */
  const add = (tag, attrs, text) => {
    const element = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) element.setAttribute(k, String(v));
    if (text) element.textContent = text.replace(/[\u2068\u2069]/g, "");
    svg.append(element);
  };
  add("line", { x1: 10, x2: 310, y1: 125, y2: 125, class: "zero" });
  deals.forEach((deal, i) => {
    const x = 10 + i * step + step / 2;
    const height = (deal.lost_rounded / top) * 100;
    add("rect", { x: x - step * 0.35, y: 125 - height, width: step * 0.7, height, class: deal.counts.blunder + deal.counts.mistake ? "bar bad" : "bar" });
    if (deal.lost_rounded) add("text", { x, y: 120 - height, "text-anchor": "middle" }, rounded(deal.lost_rounded));
    add("text", { x, y: 142, "text-anchor": "middle" }, dealLabel(deal));
  });
  const rows = deals.map((deal) => h("tr", {}, h("th", { scope: "row", text: dealLabel(deal) }), h("td", { text: rounded(deal.lost_rounded) })));
  return h(
    "figure",
    { class: "lost-chart" },
    h("figcaption", { id: "lost-title", text: tr("lost_per_deal") }),
    svg,
    h("table", { class: "visually-hidden", "aria-labelledby": "lost-title" }, h("thead", {}, h("tr", {}, h("th", { scope: "col", text: tr("deal") }), h("th", { scope: "col", text: tr("points_lost") }))), h("tbody", {}, ...rows)),
  );
}

/** A deal's decisions, each with its class and, on demand, every action's value. @param {ReviewDeal} deal */
function dealSection(deal) {
  const accuracy = deal.accuracy_rounded === null ? "" : ` · ${tr("accuracy")}: ${rounded(deal.accuracy_rounded).replace(/.(\d)\d/, "$1")}`;
  return h(
    "section",
    { class: "deal-review", "aria-label": tr("deal_over", { n: deal.deal_number }) },
    h("h3", { text: `${say("deal_short", { n: dealLabel(deal) })}: ${tr("points_lost")} ${rounded(deal.lost_rounded)}${accuracy}` }),
    h("ol", {}, ...deal.decisions.map((decision) => h("li", { "data-grade": decision.grade ?? "" }, decisionLine(decision), decision.values.length ? values(decision) : ""))),
  );
}

/** "Hold, before looking: mistake, −0.42". @param {Decision} decision */
function decisionLine(decision) {
  const when = decision.looked ? "" : `, ${tr("blind")}`;
  const grade = decision.grade ? `${trAny(`grade_${decision.grade}`)}, ${rounded(-(decision.lost_rounded ?? 0), true)}` : tr(decision.by === "clock" ? "by_clock" : "by_ai");
  return h("span", { class: "decision", text: `${trAny(decision.action)}${when}: ${grade}` });
}

/** Every legal action's value, folded away until asked for. @param {Decision} decision @param {boolean} [open] */
function values(decision, open = false) {
  const rows = decision.values.map((value) =>
    h("tr", { class: value.action === decision.action ? "chosen" : "" }, h("th", { scope: "row", text: `${trAny(value.action)}${value.best ? ` (${tr("grade_best")})` : ""}` }), h("td", { text: rounded(value.value_rounded, true) })),
  );
  const table = h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col", text: tr("action") }), h("th", { scope: "col", text: tr("value") }))), h("tbody", {}, ...rows));
  const details = /** @type {HTMLDetailsElement} */ (h("details", {}, h("summary", { text: tr("values") }), table));
  details.open = open;
  return details;
}

/** Mistake `index` played again: the position as your seat saw it, its choices, and once
 * chosen, how that choice stands to the best. @param {number} index */
function practice(index) {
  const all = mistakes();
  const { deal, decision } = all[index];
  const spot = decision.position;
  const dealer = deal.dealer;
  const seats = spot.seats.map((seat) => {
    const flags = [seat.seat === dealer && tr("dealer"), seat.folded && tr("folded"), seat.looked && !seat.folded && tr("looked")].filter(Boolean);
    return h("li", { text: `${name(seat.seat)}: ${tr("stake")} ${num(seat.stake)}${flags.length ? ` · ${flags.join(" · ")}` : ""}` });
  });
  const hand = h("div", { class: "hand", role: "group", "aria-label": tr("your_cards") });
  for (let i = 0; i < 5; i++) hand.append(card(spot.hand?.[i] ?? null, spot.hand ? trAny(spot.hand[i]) : tr("card_down")));
  const moves = spot.moves.map((move) => h("li", { text: `${name(move.seat)}: ${trAny(move.action)}${move.by === "player" ? "" : ` (${tr(move.by === "clock" ? "by_clock" : "by_ai")})`}` }));
  const choices = decision.values.map((value) => {
    const choice = button(`choose-${value.action}`, trAny(value.action), () => ((view = { ...view, chosen: value.action }), draw(false), $("graded").focus()), "play");
    choice.dataset.choice = value.action;
    if (view.chosen) choice.setAttribute("aria-disabled", "true");
    if (view.chosen === value.action) choice.setAttribute("aria-pressed", "true");
    return choice;
  });
  const next = index + 1 < all.length ? button("next-mistake", tr("next_mistake"), () => ((view = { ...view, mistake: index + 1, chosen: null }), draw()), "play") : null;
  return h(
    "section",
    { class: "panel review practice", id: "practice", "aria-labelledby": "practice-title" },
    h("h2", { id: "practice-title", tabindex: -1, text: tr("mistake_of", { n: index + 1, of: all.length, deal: dealLabel(deal) }) }),
    h("p", { text: `${tr("pot")}: ${num(spot.pot)} · ${tr("high_stake")}: ${num(spot.high_stake)}` }),
    h("ul", { class: "position" }, ...seats),
    hand,
    h("h3", { text: tr("before_you") }),
    moves.length ? h("ol", { class: "moves-before" }, ...moves) : h("p", { text: tr("nobody_yet") }),
    h("p", { id: "choose-title", text: tr("choose_again") }),
    h("div", { class: "actions", role: "group", "aria-labelledby": "choose-title" }, ...(view.chosen ? [] : choices)),
    ...(view.chosen ? outcome(decision, view.chosen) : []),
    h("div", { class: "row" }, ...(view.chosen && next ? [next] : []), button("back-to-review", tr("back_to_review"), () => ((view = { ...view, mistake: null, chosen: null }), draw()), "quiet")),
  );
}

/** The choice graded by its value, the best action's edge, and what was played at the table.
 * @param {Decision} decision @param {string} chosen */
function outcome(decision, chosen) {
  const best = /** @type {Decision['values'][number]} */ (decision.values.find((value) => value.best));
  const value = /** @type {Decision['values'][number]} */ (decision.values.find((v) => v.action === chosen));
  const mark = graded(best.value, value.value);
  const others = decision.values.filter((v) => v.action !== best.action).map((v) => graded(best.value, v.value).lost);
  const edge = mark.lost ? tr("best_was", { action: trAny(best.action), value: rounded(best.value_rounded, true), edge: rounded(mark.lost) }) : tr("best_edge", { edge: rounded(Math.min(...others)) });
  return [
    h("p", { id: "graded", tabindex: -1, class: `graded ${mark.grade}`, "data-grade": mark.grade, text: `${trAny(chosen)}: ${rounded(value.value_rounded, true)} · ${trAny(`grade_${mark.grade}`)}` }),
    h("p", { class: "edge", text: edge }),
    h("p", { text: tr("at_the_table", { action: trAny(decision.action), lost: rounded(decision.lost_rounded ?? 0) }) }),
    values(decision, true),
  ];
}
