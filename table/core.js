// What every screen of the table shares: the API client, the one state, the catalogue's
// words, the status line, one intent at a time, the confirm dialog, and the screens
// themselves, each fetched the first time it is shown (docs/clients.md, The browser table's
// modules): a first visit never fetches the match table's code.
import { apiClient, Offline, Problem } from "./api.js";
import { store } from "./look.js";
import { fill, h, locale, translate } from "./words.js";

/** @typedef {import('./api.js').MatchView} MatchView */
/** @typedef {import('./api.js').MatchEvent} MatchEvent */
/** @typedef {import('./schema').components['schemas']['DealEndedEvent']} DealEnded */
/** @typedef {import('./schema').components['schemas']['Hint']} Hint */
/** @typedef {import('./schema').components['schemas']['OpenTable']} OpenTable */
/** @typedef {typeof import('./i18n/en.js').default} Catalogue */

/** The game's article; the other languages' Wikipedias have none we could confirm, so they
 * link this one and say it is in English. */
const WIKIPEDIA = "https://en.wikipedia.org/wiki/As-Nas";

export const params = new URLSearchParams(location.search);
// The API's root: ?api=… or the page's <meta name="asnas-api">, else this page's own server.
const apiBase =
  params.get("api") ?? document.querySelector('meta[name="asnas-api"]')?.getAttribute("content") ?? "";
export const tokenKey = `token@${apiBase || location.origin}`;
export const api = apiClient(apiBase, () => store.get(tokenKey));

export const state = {
  /** @type {Catalogue} */ t: /** @type {any} */ (null),
  /** @type {MatchView | null} */ match: null,
  /** Every deal_ended event of the match, for the scoreboard. @type {DealEnded[]} */ deals: [],
  /** The coach's advice, shown while the match is at its version. @type {Hint | null} */ hint: null,
  busy: false,
  /** @type {number} epoch ms until which a 429 holds writes */ heldUntil: 0,
  /** An invite from the address: sit down, see the table, then join. @type {{ match: string, code: string } | null} */ invite: null,
  /** The table an invite shows before joining it. @type {{ invite: { match: string, code: string }, table: OpenTable } | null} */ invitation: null,
  /** This deal's moves, joins and leaves, newest last. @type {MatchEvent[]} */ log: [],
  /** Seats whose human left the table. @type {Set<number>} */ left: new Set(),
  /** The live feed of the open match. @type {{ id: string, stop: () => void, mode: () => string } | null} */ live: null,
  /** Events the feed brought that the table does not show yet. @type {MatchEvent[]} */ pending: [],
  /** Which screen is shown, drawn again on a language switch; none until the first is fetched. @type {ScreenName | null} */ screen: null,
  /** The status line's words, said again in a new language. @type {(() => string) | null} */ said: null,
  /** The seat that resigned the open match, if one did. @type {number | null} */ resigned: null,
  /** Your review of the open match, as last read (docs/review.md). @type {import('./match-review.js').Review | null} */ review: null,
  /** The closed tournament whose standings (deal null) or deal's comparison is shown. @type {{ id: string, deal: number | null } | null} */ tournament: null,
  /** The clock's last seconds already announced, for the turn it ends. @type {string | null} */ warned: null,
};

/** Each screen's module, fetched by the browser the first time the screen is shown. */
const FETCH = {
  start: () => import("./start.js"),
  login: () => import("./login.js"),
  lobby: () => import("./lobby.js"),
  invitation: () => import("./invitation.js"),
  match: () => import("./match.js"),
  review: () => import("./review.js"),
  puzzles: () => import("./puzzles.js"),
  tournament: () => import("./tournament.js"),
};
/** @typedef {keyof typeof FETCH} ScreenName */
/** @typedef {{ [K in ScreenName]: Awaited<ReturnType<typeof FETCH[K]>> }} Screens */

/** The screens fetched so far: what a language switch, a held write or a finished intent may
 * draw again without waiting. @type {Partial<Screens>} */
export const fetched = {};

/** The module of screen `name`, fetched if it was not yet.
 * @template {ScreenName} K @param {K} name @returns {Promise<Screens[K]>} */
export async function screen(name) {
  const module = fetched[name] ?? /** @type {Screens[K]} */ (await FETCH[name]());
  fetched[name] = module;
  return module;
}

/** Opens match `id` on the match table, as it stands. @param {string} id */
export const openMatch = async (id) => (await screen("match")).openMatch(id);

/** Plays a write's events on the match table, then shows its answer.
 * @param {MatchView} answer @param {MatchEvent[]} events */
export const showMatch = async (answer, events) => (await screen("match")).show(answer, events);

/** Shows a screen other than the match's, focused on its first control unless `focus` is
 * false (a language switch keeps the focus where it is).
 * @param {Exclude<ScreenName, "match">} name @param {boolean} [focus] */
export async function showScreen(name, focus = true) {
  (await screen(name)).draw(focus);
}

export const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** A seat's name, a bot's labelled; a table's human seat that nobody has taken yet has none. The AI seats'
 * names are written in the page's script (Darius is داریوش in Persian). */
export function seatName(/** @type {{ name: string | null, kind?: string }} */ seat) {
  if (seat.name === null) return tr("open_seat");
  // A bot is labelled wherever a seat is named (docs/bots.md).
  if (seat.kind === "bot") return tr("bot_seat", { name: seat.name });
  return seat.kind === "ai" && `ai_${seat.name}` in state.t ? trAny(`ai_${seat.name}`) : seat.name;
}

// The page's language and its whole numbers, for the table's modules (words.js says them).
export { locale, num } from "./words.js";

/** The catalogue's text for `key` (words.js: plurals, the page's digits, values isolated).
 * @param {keyof Catalogue} key @param {Record<string, string | number>} [vars] */
export const tr = (key, vars = {}) => translate(state.t, locale(), key, vars);
/** A key made at run time; `fallback` when the catalogue lacks it. @param {string} key @param {keyof Catalogue} [fallback] */
export const trAny = (key, fallback) => tr(/** @type {keyof Catalogue} */ (key in state.t || !fallback ? key : fallback));

/** The status line, a live region: what just happened in the open match, read aloud. It is
 * given the words as a function, so that a language switch can say them again in the new one.
 * @param {string | (() => string)} words @param {"info" | "error"} [kind] */
export function say(words, kind = "info") {
  const status = $("status");
  // Each measure lays the whole page out: at the page's top nothing is above the line to keep.
  const before = scrollY > 0 ? status.offsetHeight : null;
  state.said = typeof words === "string" ? null : words;
  fill(status, typeof words === "string" ? words : words());
  status.dataset.kind = kind;
  // The line sits above all the page holds: when its words take a line more (or less), all
  // below would move, a deal's result out of view on a phone while its review is worked out.
  // Scrolled past the line, the page keeps what the player reads where it was (Chromium's
  // scroll anchoring did not).
  if (before === null) return;
  const grown = status.offsetHeight - before;
  if (grown && scrollY > status.offsetTop) scrollBy(0, grown);
}

/** Shows what went wrong in words, and does what the API asks (reload, wait). @param {unknown} error */
export async function explain(error) {
  if (error instanceof Problem) {
    if (error.code === "stale_version" && state.match) {
      await openMatch(state.match.id);
      say(() => tr("stale"), "error");
    } else if (error.status === 429) {
      holdFor(error.retryAfter || 1);
    } else if (error.status === 401) {
      store.set(tokenKey, null);
      await showScreen("start");
      say(() => tr("signed_out"), "error");
    } else {
      // The catalogue's words for the problem's stable code; the server's English detail never.
      say(() => trAny(`problem_${error.code}`, "error"), "error");
    }
  } else if (error instanceof Offline) {
    say(() => tr("offline"), "error");
  } else {
    console.error(error);
    say(() => tr("error"), "error");
  }
}

/** A 429: count down from Retry-After, writes held until then. @param {number} seconds */
function holdFor(seconds) {
  state.heldUntil = Date.now() + seconds * 1000;
  const tick = () => {
    const left = Math.ceil((state.heldUntil - Date.now()) / 1000);
    if (left > 0) {
      say(() => tr("throttled", { s: left, n: left }), "error");
      setTimeout(tick, 250);
    } else {
      say("");
      fetched.match?.renderActions();
    }
  };
  tick();
  fetched.match?.renderActions();
}

/** One user intent at a time: a second click while one is in flight does nothing. @param {() => Promise<void>} work */
export async function guarded(work) {
  if (state.busy || Date.now() < state.heldUntil) return;
  state.busy = true;
  document.body.setAttribute("aria-busy", "true");
  fetched.match?.renderActions();
  try {
    await work();
  } catch (error) {
    await explain(error);
  } finally {
    state.busy = false;
    document.body.removeAttribute("aria-busy");
    fetched.match?.renderActions();
  }
  fetched.match?.catchUp();
}

/** The player's own client seed, as the lobby's form keeps it, for a body. */
export const mySeed = () => {
  const seed = store.get("client_seed");
  return seed ? { client_seed: seed } : {};
};

/** @param {string} level */
export const levelName = (level) => trAny(level === "normal" ? "normal_level" : level);

/** A time of day in the page's language. @param {string} iso */
export const clockTime = (iso) => new Date(iso).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** Closes the open match's live feed and forgets the match. */
export function leaveMatch() {
  state.live?.stop();
  Object.assign(state, { match: null, live: null, pending: [], log: [], deals: [], left: new Set(), hint: null, resigned: null, review: null });
}

/** A few words on the game's tradition, with its Wikipedia article. */
export function tradition() {
  return h(
    "p",
    { class: "tradition" },
    h("strong", { text: tr("tradition") }),
    " ",
    tr("tradition_line"),
    " ",
    h("a", { href: WIKIPEDIA, hreflang: "en", target: "_blank", rel: "noopener", text: tr("wikipedia") }),
  );
}

/** Asks before something that cannot be undone: a modal dialog, Cancel focused, so Enter or
 * Escape loses nothing. Resolves true on the go-ahead.
 * @param {string} question @param {string} go the go-ahead button's words @param {...Node} extra */
export function ask(question, go, ...extra) {
  const dialog = /** @type {HTMLDialogElement} */ ($("confirm"));
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  const cancel = h("button", { type: "button", class: "quiet", value: "cancel", text: tr("cancel") });
  const yes = h("button", { type: "button", class: "play", value: "yes", "data-confirm": "yes", text: go });
  dialog.replaceChildren(
    h("h2", { id: "confirm-title", text: tr("confirm") }),
    h("p", { id: "confirm-text", text: question }),
    ...extra,
    h("div", { class: "row" }, cancel, yes),
  );
  dialog.returnValue = "";
  return new Promise((resolve) => {
    cancel.addEventListener("click", () => dialog.close("cancel"));
    yes.addEventListener("click", () => dialog.close("yes"));
    dialog.addEventListener(
      "close",
      () => {
        resolve(dialog.returnValue === "yes");
        if (opener?.isConnected) opener.focus();
      },
      { once: true },
    );
    dialog.showModal();
    cancel.focus();
  });
}
