// A tournament's match names its tournament, the deal in play and the time to the close
// (docs/tournaments.md); past the deadline, the way to the standings.
import { serverClock } from "./api.js";
import { api, explain, guarded, locale, state, tr } from "./core.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']['Tournament']} Tournament */
/** @typedef {import('./api.js').MatchView} MatchView */

/** Each tournament's terms, read once. @type {Map<string, Promise<Tournament>>} */
const terms = new Map();

/** The bar over the table, filled once the terms are read. @param {MatchView} match */
export function tournamentBar(match) {
  const bar = h("div", { id: "tournament-bar" });
  const id = /** @type {string} */ (match.tournament);
  if (!terms.has(id)) terms.set(id, api.get(`/tournaments/${id}`));
  /** @type {Promise<Tournament>} */ (terms.get(id)).then((tournament) => fill(bar, tournament, match), explain);
  return bar;
}

/** @param {HTMLElement} bar @param {Tournament} tournament @param {MatchView} match */
function fill(bar, tournament, match) {
  if (!bar.isConnected || state.match !== match) return;
  const left = Date.parse(tournament.deadline) - serverClock.now();
  const over = match.status === "finished" || match.status === "abandoned";
  const standings = left > 0 ? null : h("button", { type: "button", id: "tournament-standings", text: tr("see_standings") });
  if (standings)
    standings.addEventListener("click", () => guarded(async () => (await import("./lobby-tournaments.js")).showStandings(tournament.id)));
  bar.replaceChildren(
    h("strong", { text: tournament.name }),
    h("span", { text: over ? tr("tournament_match_over") : tr("deal_of", { n: match.deal_number, of: 12 }) }),
    h("span", { class: "close", text: left > 0 ? tr("tournament_closes", { when: soon(left) }) : tr("tournament_closed") }),
    ...(standings ? [standings] : []),
  );
  // The time left is written again every 15 s, and once more at the close.
  if (left > 0) setTimeout(() => fill(bar, tournament, match), Math.min(15_000, left + 500));
}

/** "in 42 minutes", "in 3 hours", in the page's language. @param {number} ms */
function soon(ms) {
  const format = new Intl.RelativeTimeFormat(locale());
  const minutes = Math.ceil(ms / 60_000);
  if (ms < 60_000) return format.format(Math.ceil(ms / 1000), "second");
  if (minutes < 120) return format.format(minutes, "minute");
  return minutes < 2880 ? format.format(Math.round(minutes / 60), "hour") : format.format(Math.round(minutes / 1440), "day");
}
