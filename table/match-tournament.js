// A tournament's match names its tournament, the deal in play and the time to the close
// (docs/tournaments.md); past the deadline, the way to the standings.
import { serverClock } from "./api.js";
import { api, explain, guarded, locale, state, tr } from "./core.js";
import { fill, h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['Tournament']} Tournament */
/** @typedef {import('./api.js').MatchView} MatchView */

/** Each tournament's terms, read once. @type {Map<string, Promise<Tournament>>} */
const terms = new Map();

/** The bar of the match in view, kept across the table's redraws: a bar made anew at each
 * redraw detached its standings button under a click (a browser test waited 30 s on it).
 * @type {{ match: string, bar: HTMLElement, texts: HTMLElement[], timer: number } | null} */
let shown = null;
/** The tournaments this page has seen past their deadline: a close does not come undone when
 * a later answer corrects the page's estimate of the server's time by a second. */
const closed = new Set();

/** The bar over the table, filled once the terms are read. @param {MatchView} match */
export function tournamentBar(match) {
  const id = /** @type {string} */ (match.tournament);
  if (shown?.match !== match.id) {
    const texts = [h("strong"), h("span"), h("span", { class: "close" })];
    shown = { match: match.id, bar: h("div", { id: "tournament-bar" }, ...texts), texts, timer: 0 };
  }
  const bar = shown.bar;
  if (!terms.has(id)) terms.set(id, api.get(`/tournaments/${id}`));
  /** @type {Promise<Tournament>} */ (terms.get(id)).then((tournament) => update(bar, tournament), explain);
  return bar;
}

/** @param {HTMLElement} bar @param {Tournament} tournament */
function update(bar, tournament) {
  const match = state.match;
  if (!shown || shown.bar !== bar || !bar.isConnected || !match) return;
  const left = closed.has(tournament.id) ? 0 : Date.parse(tournament.deadline) - serverClock.now();
  if (left <= 0) closed.add(tournament.id);
  const over = match.status === "finished" || match.status === "abandoned";
  const [name, deal, close] = shown.texts;
  fill(name, tournament.name);
  fill(deal, over ? tr("tournament_match_over") : tr("deal_of", { n: match.deal_number, of: 12 }));
  fill(close, left > 0 ? tr("tournament_closes", { when: soon(left) }) : tr("tournament_closed"));
  let standings = /** @type {HTMLElement | null} */ (bar.querySelector("#tournament-standings"));
  if (left <= 0 && !standings) {
    standings = h("button", { type: "button", id: "tournament-standings" });
    standings.addEventListener("click", () => guarded(async () => (await import("./lobby-tournaments.js")).showStandings(tournament.id)));
    bar.append(standings);
  }
  if (standings) fill(standings, tr("see_standings"));
  // The time left is written again every 15 s, and once more at the close: one timer a bar.
  clearTimeout(shown.timer);
  if (left > 0) shown.timer = setTimeout(() => update(bar, tournament), Math.min(15_000, left + 500));
}

/** "in 42 minutes", "in 3 hours", in the page's language. @param {number} ms */
function soon(ms) {
  const format = new Intl.RelativeTimeFormat(locale());
  const minutes = Math.ceil(ms / 60_000);
  if (ms < 60_000) return format.format(Math.ceil(ms / 1000), "second");
  if (minutes < 120) return format.format(minutes, "minute");
  return minutes < 2880 ? format.format(Math.round(minutes / 60), "hour") : format.format(Math.round(minutes / 1440), "day");
}
