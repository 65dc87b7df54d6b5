// The owner's spectator panel: who may watch (off, delayed, live), a new watch code, the
// watch link, and how many are watching. The server keeps only the code's hash and shows it
// in the one answer that drew it, so this page keeps it (sessionStorage) to show the link.

/** @typedef {import('./api.js').MatchView} MatchView */
/** @typedef {ReturnType<typeof import('./api.js').apiClient>} Api */

const MODES = ["off", "delayed", "live"];

/** @param {string} id */
const storeKey = (id) => `asnas-watch-${id}`;

/** The matches whose folded control the owner opened: the table is drawn anew at each event. */
const unfolded = new Set();

/**
 * The panel for `match`, as a list of none or one: with spectators off, the owner (seat 0) gets
 * one folded control and the others nothing; with spectators on, the owner's controls, or for
 * the others only the count.
 * @param {MatchView} match @param {Api} api @param {(view: MatchView) => void} show a new view
 * @param {(key: any, vars?: Record<string, string | number>) => string} tr the page's catalogue
 * @returns {HTMLElement[]}
 */
export function spectatorsPanel(match, api, show, tr) {
  if (match.watch_code) sessionStorage.setItem(storeKey(match.id), match.watch_code);
  if (match.spectators === "off") sessionStorage.removeItem(storeKey(match.id));
  const owner = match.your_seat === 0;
  if (match.spectators === "off" && !owner) return [];

  /** @param {string} mode @param {boolean} newCode */
  const choose = async (mode, newCode) => {
    show(await api.write(`/matches/${match.id}/spectators`, { spectators: mode, new_code: newCode }));
  };
  /** Who may watch: the owner's choice, folded or in the panel. */
  const modes = () => {
    const select = document.createElement("select");
    select.id = "spectators-mode";
    select.setAttribute("aria-label", tr("who_may_watch"));
    for (const mode of MODES) select.add(new Option(tr(`watch_${mode}`), mode, false, mode === match.spectators));
    select.addEventListener("change", () => choose(select.value, false));
    return select;
  };
  if (match.spectators === "off") {
    const folded = document.createElement("details");
    folded.className = "look";
    folded.id = "spectators";
    folded.open = unfolded.has(match.id);
    folded.addEventListener("toggle", () => (folded.open ? unfolded.add(match.id) : unfolded.delete(match.id)));
    const summary = document.createElement("summary");
    summary.textContent = `${tr("spectators_title")} · ${tr("watch_off")}`;
    folded.append(summary, modes());
    return [folded];
  }

  const count = document.createElement("p");
  count.id = "watchers";
  count.textContent = tr("watching", { n: match.watchers }).replace(/[\u2068\u2069]/g, "");
  const panel = document.createElement("section");
  panel.className = "panel";
  panel.id = "spectators";
  const title = document.createElement("h2");
  title.textContent = tr("spectators_title");
  panel.append(title, count);
  if (!owner) return [panel];
  panel.append(modes());

  const renew = document.createElement("button");
  renew.type = "button";
  renew.id = "new-watch-code";
  renew.textContent = tr("new_watch_code");
  renew.addEventListener("click", () => choose(match.spectators, true));
  panel.append(renew);
  const code = sessionStorage.getItem(storeKey(match.id));
  const line = document.createElement("input");
  line.id = "watch-link";
  line.readOnly = true;
  line.setAttribute("aria-label", tr("watch_link"));
  // The code in the fragment, which browsers never send. The address keeps only where the API
  // is: the spectator's page speaks the spectator's language, not the owner's ?lang=.
  const apiBase = new URLSearchParams(location.search).get("api");
  const query = apiBase === null ? "" : `?api=${encodeURIComponent(apiBase)}`;
  line.value = code
    ? `${location.origin}${location.pathname.replace(/[^/]*$/, "")}watch.html${query}#watch=${encodeURIComponent(code)}`
    : tr("watch_link_once");
  panel.append(line);
  return [panel];
}
