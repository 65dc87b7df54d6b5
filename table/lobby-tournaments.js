// The lobby's tournaments (docs/tournaments.md): the open ones and the recent ones, each with its
// name, AI level, entry window, close and entrants; entering is one click, and a closed one
// shows its standings (tournament.js, fetched when first shown).
import { Problem } from "./api.js";
import { api, guarded, levelName, locale, openMatch, say, screen, showMatch, state, tr, trAny } from "./core.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']} S */

/** The closed tournaments shown: the recent ones, not the archive. */
const RECENT_CLOSED = 5;

/** A date and time in the page's language. @param {string} iso */
export const when = (iso) => new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" }).format(new Date(iso));

/** The lobby's section, and what fills it. */
export function tournamentsPanel() {
  const list = h("ul", { id: "tournaments" });
  const section = h(
    "section",
    { class: "panel", "aria-labelledby": "tournaments-title" },
    h("h2", { id: "tournaments-title", text: tr("tournaments") }),
    list,
  );
  const fill = async () => {
    /** @type {S['TournamentListAnswer']} */
    const { tournaments } = await api.get("/tournaments");
    const closed = tournaments.filter((t) => t.phase === "closed").slice(0, RECENT_CLOSED);
    const shown = [...tournaments.filter((t) => t.phase !== "closed"), ...closed];
    list.replaceChildren(...(shown.length ? shown.map(item) : [h("li", { text: tr("no_tournaments") })]));
  };
  return { section, fill };
}

/** @param {S['TournamentTerms']} terms */
function item(terms) {
  const line = [
    trAny(`phase_${terms.phase}`),
    levelName(terms.ai_level),
    tr("tournament_window", { opens: when(terms.entry_opens_at), closes: when(terms.entry_closes_at) }),
    tr("tournament_deadline", { time: when(terms.deadline) }),
    tr("entrants", { n: terms.entrants }),
  ].join(" · ");
  /** @type {Record<string, [string, (id: string) => Promise<void>]>} */
  const actions = { open: ["enter_tournament", enter], playing: ["resume", resumeEntry], closed: ["see_standings", showStandings] };
  const [words, run] = actions[terms.phase] ?? [];
  const button = words ? h("button", { type: "button", "data-action": words, text: trAny(words) }) : null;
  button?.addEventListener("click", () => guarded(() => run(terms.id)));
  return h("li", { "data-tournament": terms.id, "data-phase": terms.phase }, h("strong", { text: terms.name }), h("span", { text: line }), button);
}

/** Enters, and the match opens at once; entered already, your match opens. @param {string} id */
async function enter(id) {
  try {
    /** @type {import('./api.js').WriteAnswer} */
    const answer = await api.write(`/tournaments/${id}/entries`, {});
    await showMatch(answer, answer.events ?? []);
  } catch (error) {
    if (error instanceof Problem && error.code === "already_entered") return resumeEntry(id);
    throw error;
  }
}

/** Your match in the tournament; none, the words for a closed entry. @param {string} id */
async function resumeEntry(id) {
  /** @type {S['Tournament']} */
  const tournament = await api.get(`/tournaments/${id}`);
  if (tournament.your_entry) return openMatch(tournament.your_entry.match);
  if (tournament.phase === "closed") return showStandings(id);
  say(() => tr("problem_entry_closed"), "error");
}

/** A closed tournament's standings. @param {string} id */
export async function showStandings(id) {
  state.tournament = { id, deal: null };
  await (await screen("tournament")).draw();
}
