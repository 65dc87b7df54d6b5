// The match's scores: what a deal's end and the match's end say, the deal's result panel's
// words, the final standings, and the scoreboard with its chart.
import { locale, num, seatName, state, tr, trAny } from "./core.js";
import { add, approx, isolate, points } from "./fractions.js";
import { skillLegend, skillLine } from "./result.js";
import { h } from "./words.js";

/** @typedef {import('./api.js').MatchView} MatchView */
/** @typedef {import('./core.js').Catalogue} Catalogue */
/** @typedef {import('./schema').components['schemas']['DealResult']} DealResult */

/** What a deal's result panel (result.js) needs of this page. @param {MatchView} match */
export function resultWords(match) {
  return {
    tr: (/** @type {string} */ key, /** @type {Record<string, string | number>} */ vars = {}) => tr(/** @type {keyof Catalogue} */ (key), vars),
    locale: locale(),
    name: (/** @type {number} */ seat) => seatName(match.seats[seat]),
    you: match.your_seat,
  };
}

/** Names joined in the page's language ("Darius and Shirin"). @param {number[]} seats @param {MatchView} match */
function names(seats, match) {
  const list = seats.map((seat) => isolate(seatName(match.seats[seat])));
  return new Intl.ListFormat(locale(), { type: "conjunction" }).format(list);
}

/** What a deal's end says aloud: who took the pot, and with what. @param {MatchView} match @param {DealResult} deal */
export function dealWords(match, deal) {
  const won = deal.seats.find((seat) => seat.seat === deal.winners[0]);
  const category = won?.category ? ` (${trAny(won.category)})` : "";
  return `${tr("deal_over", { n: deal.deal_number })}: ${trAny(deal.outcome)} · ${names(deal.winners, match)}${category} ${won ? points(won.delta, locale(), true) : ""}`;
}

/** Who won the match, and who resigned it if someone did. @param {MatchView} match */
export function finalWords(match) {
  const winners = match.winners ?? [];
  const won = tr("won", { names: names(winners, match), n: winners.length });
  return state.resigned === null ? won : `${tr("resigned", { name: seatName(match.seats[state.resigned]) })} ${won}`;
}

/** The final standings, ranked as the server ranks them: its winners first (after a
 * resignation the resigning seat is never among them, even when it leads), then by total, the
 * resigning seat last. @param {MatchView} match */
export function standings(match) {
  const winners = match.winners ?? [];
  const rank = (/** @type {{ seat: number }} */ seat) => (winners.includes(seat.seat) ? 0 : seat.seat === state.resigned ? 2 : 1);
  const page = resultWords(match);
  const order = [...match.seats].sort((a, b) => rank(a) - rank(b) || approx(b.total) - approx(a.total));
  return h(
    "section",
    { class: "panel", id: "standings", "aria-labelledby": "standings-title" },
    h("h2", { id: "standings-title", tabindex: -1, text: tr("final") }),
    h("p", { class: "won", text: finalWords(match) }),
    h(
      "ol",
      {},
      ...order.map((seat) =>
        h("li", {
          class: winners.includes(seat.seat) ? "winner" : "",
          text: `${seatName(seat)}: ${points(seat.total, locale())}${seat.seat === state.resigned ? ` (${tr("resigned_mark")})` : ""}${match.skill ? ` · ${skillLine(match.skill[seat.seat], page, seat.seat === match.your_seat)}` : ""}`,
        }),
      ),
    ),
    ...(match.skill ? [skillLegend(page)] : []),
  );
}

const COLOURS = ["var(--seat0)", "var(--seat1)", "var(--seat2)", "var(--seat3)"];

/** Every deal's changes, running totals, and a small chart of them. @param {MatchView} match */
export function scoreboard(match) {
  let running = match.seats.map(() => "0");
  const lines = [running];
  const rows = state.deals.map((deal) => {
    running = running.map((total, i) => add(total, deal.seats[i].delta));
    lines.push(running);
    return h(
      "tr",
      {},
      h("th", { scope: "row", text: num(deal.deal_number) }),
      ...deal.seats.map((seat, i) =>
        h("td", {}, h("span", { class: "delta", text: points(seat.delta, locale(), true) }), " ", h("span", { class: "run", text: `(${points(running[i], locale())})` })),
      ),
    );
  });
  return h(
    "section",
    { class: "panel", id: "scoreboard", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title", text: tr("scoreboard") }),
    chart(lines, match),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: tr("deal") }), ...match.seats.map((seat) => h("th", { scope: "col", "data-seat": seat.seat, text: seatName(seat) })))),
      h("tbody", {}, ...rows),
    ),
  );
}

/** @param {string[][]} lines running totals after 0..n deals @param {MatchView} match */
function chart(lines, match) {
  const values = lines.flat().map(approx);
  const top = Math.max(1, ...values);
  const bottom = Math.min(-1, ...values);
  const x = (/** @type {number} */ deal) => 10 + deal * 25;
  const y = (/** @type {number} */ value) => 10 + ((top - value) / (top - bottom)) * 100;
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("viewBox", "0 0 320 120");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", tr("chart"));
  svg.classList.add("chart");
  const zero = document.createElementNS(svgNs, "line");
  Object.entries({ x1: 10, x2: 310, y1: y(0), y2: y(0), class: "zero" }).forEach(([k, v]) => zero.setAttribute(k, String(v)));
  svg.append(zero);
  match.seats.forEach((seat, i) => {
    const line = document.createElementNS(svgNs, "polyline");
    line.setAttribute("points", lines.map((row, deal) => `${x(deal)},${y(approx(row[i]))}`).join(" "));
    line.setAttribute("stroke", COLOURS[i]);
    line.setAttribute("data-seat", String(seat.seat));
    svg.append(line);
  });
  return svg;
}
