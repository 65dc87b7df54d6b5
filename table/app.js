// The As-Nas table: one human against three AI seats, or friends at one table, through the
// public API only.
import { apiClient, Offline, Problem, serverClock } from "./api.js";
import { card } from "./cards.js";
import { add, approx, signed } from "./fractions.js";
import { follow } from "./live.js";
import { spectatorsPanel } from "./spectators.js";

/** @typedef {import('./api.js').MatchView} MatchView */
/** @typedef {import('./api.js').MatchEvent} MatchEvent */
/** @typedef {import('./api.js').MatchSummary} MatchSummary */
/** @typedef {import('./api.js').WriteAnswer} WriteAnswer */
/** @typedef {import('./schema').components['schemas']['DealResult']} DealResult */
/** @typedef {import('./schema').components['schemas']['Hint']} Hint */
/** @typedef {typeof import('./i18n/en.js').default} Catalogue */

const LANGUAGES = { en: "English", es: "Español", pl: "Polski", da: "Dansk", fr: "Français", fa: "فارسی" };
/** Keyboard shortcuts, one per action; the catalogue names the action. */
const KEYS = { look: "l", call: "c", hold: "h", raise: "r", fold: "f" };
const STEP_MS = 450;
const OPENING_STAKE = 1;
const LOG_LINES = 8;

const params = new URLSearchParams(location.search);
// The API's root: ?api=… or the page's <meta name="asnas-api">, else this page's own server.
const apiBase =
  params.get("api") ?? document.querySelector('meta[name="asnas-api"]')?.getAttribute("content") ?? "";
const store = {
  /** @param {string} name */
  get: (name) => localStorage.getItem(`asnas:${name}`),
  /** @param {string} name @param {string | null} value */
  set: (name, value) =>
    value === null ? localStorage.removeItem(`asnas:${name}`) : localStorage.setItem(`asnas:${name}`, value),
};
const tokenKey = `token@${apiBase || location.origin}`;
const api = apiClient(apiBase, () => store.get(tokenKey));

const state = {
  /** @type {Catalogue} */ t: /** @type {any} */ (null),
  /** @type {MatchView | null} */ match: null,
  /** Every deal_ended event of the match, for the scoreboard. @type {DealResult[]} */ deals: [],
  /** The coach's advice, shown while the match is at its version. @type {Hint | null} */ hint: null,
  busy: false,
  /** @type {number} epoch ms until which a 429 holds writes */ heldUntil: 0,
  /** An invite from the address: sit down, then join. @type {{ match: string, code: string } | null} */ invite: null,
  /** This deal's moves, joins and leaves, newest last. @type {MatchEvent[]} */ log: [],
  /** Seats whose human left the table. @type {Set<number>} */ left: new Set(),
  /** The live feed of the open match. @type {{ id: string, stop: () => void, mode: () => string } | null} */ live: null,
  /** Events the feed brought that the table does not show yet. @type {MatchEvent[]} */ pending: [],
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** A seat's name; a table's human seat that nobody has taken yet has none. */
function seatName(/** @type {{ name: string | null }} */ seat) {
  return seat.name ?? tr("open_seat");
}

/**
 * @param {string} tag @param {Record<string, string | boolean | number>} [attrs]
 * @param {...(Node | string | null | false)} children
 */
function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false) continue;
    if (name === "text") element.textContent = String(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** @param {keyof Catalogue} key @param {Record<string, string | number>} [vars] */
function tr(key, vars = {}) {
  return String(state.t[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}
const trAny = (/** @type {string} */ key) => tr(/** @type {keyof Catalogue} */ (key));

function reducedMotion() {
  const choice = store.get("motion") || "system";
  return choice === "reduced" || (choice === "system" && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** @param {string} text @param {"info" | "error"} [kind] */
function say(text, kind = "info") {
  const status = $("status");
  status.textContent = text;
  status.dataset.kind = kind;
}

/** Shows what went wrong in words, and does what the API asks (reload, wait). @param {unknown} error */
async function explain(error) {
  if (error instanceof Problem) {
    if (error.code === "stale_version" && state.match) {
      await openMatch(state.match.id);
      say(tr("stale"), "error");
    } else if (error.status === 429) {
      holdFor(error.retryAfter || 1);
    } else if (error.status === 401) {
      store.set(tokenKey, null);
      renderLogin();
      say(tr("signed_out"), "error");
    } else {
      say(tr("error", { detail: error.message }), "error");
    }
  } else if (error instanceof Offline) {
    say(tr("offline"), "error");
  } else {
    say(tr("error", { detail: String(error) }), "error");
  }
}

/** A 429: count down from Retry-After, writes held until then. @param {number} seconds */
function holdFor(seconds) {
  state.heldUntil = Date.now() + seconds * 1000;
  const tick = () => {
    const left = Math.ceil((state.heldUntil - Date.now()) / 1000);
    if (left > 0) {
      say(tr("throttled", { s: left }), "error");
      setTimeout(tick, 250);
    } else {
      say("");
      renderActions();
    }
  };
  tick();
  renderActions();
}

/** One user intent at a time: a second click while one is in flight does nothing. @param {() => Promise<void>} work */
async function guarded(work) {
  if (state.busy || Date.now() < state.heldUntil) return;
  state.busy = true;
  document.body.setAttribute("aria-busy", "true");
  renderActions();
  try {
    await work();
  } catch (error) {
    await explain(error);
  } finally {
    state.busy = false;
    document.body.removeAttribute("aria-busy");
    renderActions();
  }
  catchUp();
}

// ---- settings ----

/** @param {string} lang */
async function setLanguage(lang) {
  const code = lang in LANGUAGES ? lang : "en";
  state.t = (await import(`./i18n/${code}.js`)).default;
  store.set("lang", code);
  document.documentElement.lang = code;
  document.documentElement.dir = state.t.dir;
  document.title = tr("title");
  renderSettings();
  render();
}

function applyLook() {
  document.documentElement.dataset.contrast = store.get("contrast") || "system";
  document.documentElement.dataset.motion = reducedMotion() ? "reduced" : "full";
}

function renderSettings() {
  /** @param {string} id @param {string} label @param {Record<string, string>} options @param {string} value @param {(v: string) => void} change */
  const select = (id, label, options, value, change) => {
    const element = /** @type {HTMLSelectElement} */ (h("select", { id }));
    for (const [key, text] of Object.entries(options)) element.append(h("option", { value: key, text }));
    element.value = value;
    element.addEventListener("change", () => change(element.value));
    return h("label", { for: id }, h("span", { text: label }), element);
  };
  /** A look preference, kept in the browser; "system" follows the browser's own. @param {"contrast" | "motion"} name @param {string[]} choices */
  const look = (name, choices) =>
    select(
      name,
      tr(name),
      Object.fromEntries(choices.map((choice) => [choice, trAny(choice)])),
      store.get(name) || "system",
      (value) => (store.set(name, value), applyLook()),
    );
  $("settings").replaceChildren(
    select("lang", tr("language"), LANGUAGES, store.get("lang") || "en", setLanguage),
    look("contrast", ["system", "normal", "high"]),
    look("motion", ["system", "full", "reduced"]),
  );
}

// ---- login and lobby ----

function renderLogin() {
  leaveMatch();
  const input = h("input", { id: "player-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname" });
  const form = h(
    "form",
    { id: "login" },
    state.invite && h("p", { class: "invited", text: tr("invited") }),
    h("label", { for: "player-name", text: tr("name") }),
    input,
    h("button", { type: "submit", text: tr("register") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = /** @type {HTMLInputElement} */ (input).value.trim();
    guarded(async () => {
      const player = await api.write("/players", { name });
      store.set(tokenKey, player.token);
      store.set("name", player.name);
      if (state.invite) await joinTable(state.invite);
      else renderLobby();
    });
  });
  $("main").replaceChildren(form);
  input.focus();
}

function renderLobby() {
  leaveMatch();
  history.replaceState(null, "", location.pathname + location.search);
  const level = /** @type {HTMLSelectElement} */ (h("select", { id: "ai-level" }));
  for (const name of ["easy", "normal", "hard", "expert"])
    level.append(h("option", { value: name, text: trAny(name === "normal" ? "normal_level" : name) }));
  level.value = store.get("level") || "normal";
  const humans = /** @type {HTMLSelectElement} */ (h("select", { id: "humans" }));
  for (const n of [1, 2, 3, 4]) humans.append(h("option", { value: n, text: n === 1 ? tr("alone") : String(n) }));
  const seconds = /** @type {HTMLInputElement} */ (
    h("input", { id: "turn-seconds", type: "number", min: 10, max: 86400, value: store.get("seconds") ?? 60, placeholder: tr("no_clock") })
  );
  const clock = h("label", { for: "turn-seconds", text: tr("turn_seconds") });
  const start = h("button", { type: "submit", id: "new-match", text: tr("new_match") });
  const table = () => humans.value !== "1";
  // Seconds per turn only mean something with friends at the table.
  const showClock = () => {
    clock.hidden = seconds.hidden = !table();
    start.textContent = tr(table() ? "new_table" : "new_match");
  };
  humans.addEventListener("change", showClock);
  showClock();
  const form = h(
    "form",
    { id: "new" },
    h("label", { for: "ai-level", text: tr("level") }),
    level,
    h("label", { for: "humans", text: tr("humans") }),
    humans,
    clock,
    seconds,
    start,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    store.set("level", level.value);
    guarded(async () => {
      // Alone, the request stays exactly what it always was.
      const body = table()
        ? { ai_level: level.value, humans: Number(humans.value), turn_seconds: seconds.value ? Number(seconds.value) : null }
        : { ai_level: level.value };
      if (table()) store.set("seconds", seconds.value);
      /** @type {WriteAnswer} */
      const answer = await api.write("/matches", body);
      await show(answer, answer.events ?? []);
    });
  });
  const forget = h("button", { type: "button", class: "quiet", text: tr("forget") });
  forget.addEventListener("click", () => (store.set(tokenKey, null), renderLogin()));
  const list = h("ul", { id: "matches" });
  $("main").replaceChildren(
    h("h2", { text: tr("hello", { name: store.get("name") || "" }) }),
    form,
    h("h2", { text: tr("your_matches") }),
    list,
    forget,
  );
  start.focus();
  // The list arrives while the form is already usable.
  listMatches(list).catch(explain);
}

/** Your matches, newest first, each with a button to resume it. @param {HTMLElement} list */
async function listMatches(list) {
  /** @type {{results: MatchSummary[]}} */
  const page = await api.get("/matches?page_size=20");
  if (!page.results.length) list.append(h("li", { text: tr("no_matches") }));
  for (const summary of page.results) {
    const resume = h("button", { type: "button", text: tr("resume") });
    resume.addEventListener("click", () => guarded(() => openMatch(summary.id)));
    list.append(
      h(
        "li",
        {},
        h("span", { text: `${tr("deal_of", { n: summary.deal_number })} · ${trAny(summary.ai_level)} · ${summary.totals.join(" / ")}` }),
        resume,
      ),
    );
  }
}

// ---- a match ----

/** Takes the next seat at a friend's table; the invite then leaves the address bar.
 * @param {{ match: string, code: string }} invite */
async function joinTable(invite) {
  state.invite = null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    /** @type {WriteAnswer} */
    const answer = await api.write(`/matches/${invite.match}/join`, { invite: invite.code });
    await show(answer, answer.events ?? []);
  } catch (error) {
    if (error instanceof Problem && error.code === "already_seated") return openMatch(invite.match);
    renderLobby();
    if (error instanceof Problem && error.status === 404) say(tr("invite_bad"), "error");
    else throw error;
  }
}

/** Closes the open match's live feed and forgets the match. */
function leaveMatch() {
  state.live?.stop();
  Object.assign(state, { match: null, live: null, pending: [], log: [], deals: [], left: new Set(), hint: null });
}

/** Follows the open match live when others (friends, or the clock) may move in it. */
function syncLive() {
  const match = state.match;
  const wanted =
    match && (match.humans > 1 || match.turn_seconds !== null) && !["finished", "abandoned"].includes(match.status)
      ? match.id
      : null;
  if (state.live?.id === wanted) return;
  state.live?.stop();
  state.live = null;
  if (!match || !wanted) return;
  const feed = follow(api, wanted, match.version, (event) => {
    state.pending.push(event);
    catchUp();
  });
  state.live = { id: wanted, ...feed };
}

/** Shows what the live feed brought: the match as it now stands, reached move by move. */
async function catchUp() {
  const match = state.match;
  if (state.busy || !match) return;
  const fresh = state.pending.filter((event) => event.seq > match.version);
  state.pending = [];
  if (!fresh.length) return;
  await guarded(async () => {
    const now = await api.get(`/matches/${match.id}`);
    const last = fresh[fresh.length - 1].seq;
    // The match may have moved on past what the feed brought so far: fetch the rest.
    const events = now.version > last ? [...fresh, ...(await eventsAfter(match.id, last))] : fresh;
    await show(now, events.filter((event) => event.seq <= now.version));
  });
}

/** Every event of the match after `after`, page by page. @param {string} id @param {number} after */
async function eventsAfter(id, after) {
  /** @type {MatchEvent[]} */
  const events = [];
  for (;;) {
    const page = await api.get(`/matches/${id}/events?after=${after}`);
    events.push(...page.events);
    if (!page.has_more || !page.events.length) return events;
    after = page.events[page.events.length - 1].seq;
  }
}

/** @param {string} id */
async function openMatch(id) {
  const match = await api.get(`/matches/${id}`);
  leaveMatch();
  remember(await eventsAfter(id, 0), match.series);
  state.match = match;
  location.hash = `match=${id}`;
  render();
}

/** Keeps the current series' deal results, this deal's log, and who left.
 * @param {MatchEvent[]} events @param {number} series */
function remember(events, series) {
  for (const event of events) {
    if (event.type === "match_restarted") state.deals = [];
    if (event.type === "deal_ended" && event.series === series) state.deals.push(event);
    if (event.type === "deal_started") state.log = [];
    if (event.type === "player_left") state.left.add(event.seat);
    if (["action", "player_joined", "player_left"].includes(event.type)) state.log = [...state.log, event].slice(-LOG_LINES);
  }
}

/** POST one intent, then animate what it appended. @param {string} path @param {object} body */
async function act(path, body) {
  const before = /** @type {MatchView} */ (state.match);
  /** @type {WriteAnswer} */
  const answer = await api.write(`/matches/${before.id}${path}`, { expected_version: before.version, ...body });
  // Before the API sent `events` with each write answer, they were one GET away.
  const events = answer.events ?? (await eventsAfter(before.id, before.version));
  await show(answer, events);
}

const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays the events one by one on the table, then shows the answer. @param {MatchView} answer @param {MatchEvent[]} events */
async function show(answer, events) {
  // A match new to the page (just created or joined) is played from the answer itself: each
  // event below sets what it changes, so the moves before your first turn show one by one too.
  if (state.match?.id !== answer.id) leaveMatch();
  const view = structuredClone(state.match ?? answer);
  if (!state.match && events.some((event) => event.type === "deal_started"))
    Object.assign(view, { status: "waiting", deal_number: 0, dealer: null });
  remember(events, answer.series);
  for (const event of events) {
    if (event.type === "deal_started") {
      // A new deal: the dealer's opening stake alone is in the pot (docs/rules.md, One deal 3).
      for (const seat of view.seats)
        Object.assign(seat, { stake: seat.seat === event.dealer ? OPENING_STAKE : 0, folded: false, looked: false });
      Object.assign(view, {
        status: "in_deal",
        deal_number: event.deal_number,
        dealer: event.dealer,
        pot: OPENING_STAKE,
        high_stake: OPENING_STAKE,
        turn: null,
        legal_actions: [],
        your_cards: null,
        your_category: null,
        last_deal: null,
      });
    }
    if (event.type === "player_joined") Object.assign(view.seats[event.seat], { name: event.name });
    if (event.type === "player_left") Object.assign(view.seats[event.seat], { away: true });
    if (event.type !== "action" && event.type !== "player_joined" && event.type !== "player_left") continue;
    // Your own move is in the answer already, unless the clock made it for you.
    if (event.type === "action" && event.seat === view.your_seat && event.by !== "clock") continue;
    const seat = view.seats[event.seat];
    if (event.type === "action") {
      seat.stake = event.stake;
      seat.folded ||= event.action === "fold";
      seat.looked ||= event.action === "look" || event.action === "fold";
      seat.away = event.by === "clock" || state.left.has(event.seat);
      Object.assign(view, { pot: event.pot, high_stake: event.high_stake, turn: event.seat, legal_actions: [] });
    }
    state.match = view;
    render();
    say(logLine(event, view));
    const element = document.querySelector(`[data-seat="${event.seat}"]`);
    element?.classList.add("acting");
    if (!reducedMotion()) await pause(STEP_MS);
  }
  state.match = answer;
  history.replaceState(null, "", `${location.pathname}${location.search}#match=${answer.id}`);
  render();
  if (answer.status === "in_deal" && answer.turn === answer.your_seat) {
    performance.mark("asnas:your-turn");
  }
}

function render() {
  if (!state.t) return;
  const match = state.match;
  if (!match) return;
  const you = match.your_seat;
  const seats = match.seats.map((seat) => {
    const flags = [
      seat.seat === match.dealer && tr("dealer"),
      match.status === "in_deal" && seat.seat === match.turn && tr("to_act"),
      seat.folded && tr("folded"),
      seat.looked && !seat.folded && tr("looked"),
      seat.away && tr(state.left.has(seat.seat) ? "left" : "away"),
    ].filter(Boolean);
    const clock = match.turn_deadline && match.status === "in_deal" && seat.seat === match.turn;
    return h(
      "section",
      {
        class: `seat seat-${(seat.seat - you + 4) % 4}${seat.folded ? " folded" : ""}${seat.away ? " away" : ""}${seat.name === null ? " open" : ""}${seat.seat === match.turn && match.status === "in_deal" ? " turn" : ""}`,
        "data-seat": seat.seat,
        "aria-label": `${seatName(seat)}${seat.seat === you ? ` (${tr("you")})` : ""}`,
      },
      h("h3", { text: seat.seat === you ? `${seatName(seat)} (${tr("you")})` : seatName(seat) }),
      h("p", { class: "stake", text: `${tr("stake")}: ${seat.stake}` }),
      h("p", { class: "total", text: `${tr("total")}: ${seat.total}` }),
      h("p", { class: "flags", text: flags.join(" · ") }),
      clock && h("p", { id: "clock", class: "clock", role: "timer", "aria-label": tr("time_left") }),
    );
  });
  const open = match.seats.filter((seat) => seat.name === null).length;
  const cards = h("div", { class: "hand", role: "group", "aria-label": tr("your_cards") });
  for (let i = 0; i < 5; i++) {
    const rank = match.your_cards?.[i] ?? null;
    cards.append(card(rank, rank ? trAny(rank) : tr("card_down")));
  }
  const category = match.your_category ? h("p", { class: "category", text: trAny(match.your_category) }) : null;
  $("main").replaceChildren(
    h(
      "div",
      { class: "table", id: "table", "data-status": match.status, "data-version": match.version },
      h(
        "div",
        { class: "felt" },
        h("p", { class: "deal-no", text: match.status === "waiting" ? tr("waiting", { n: open }) : tr("deal_of", { n: match.deal_number }) }),
        h("p", { class: "pot", text: `${tr("pot")}: ${match.pot}` }),
        h("p", { class: "high", text: `${tr("high_stake")}: ${match.high_stake}` }),
      ),
      ...seats,
    ),
    ...(match.status === "waiting" ? [] : [h("div", { class: "mine" }, cards, category)]),
    h("div", { id: "actions", class: "actions" }),
    ...(match.invite ? [invitePanel(match, match.invite)] : []),
    spectatorsPanel(match, api, (view) => { state.match = view; render(); }),
    ...((match.humans > 1 && state.log.length) || state.log.some((event) => "by" in event && event.by === "clock") ? [logPanel(match)] : []),
    ...(state.hint && state.hint.version === match.version ? [hintPanel(state.hint)] : []),
    ...(match.status !== "in_deal" && match.last_deal ? [dealPanel(match, match.last_deal)] : []),
    ...(match.status === "finished" ? [standings(match)] : []),
    h("div", { id: "match-tools", class: "tools" }),
    ...(match.status === "waiting" ? [] : [scoreboard(match)]),
  );
  renderActions();
  tickClock();
  syncLive();
}

/** The turn clock, counted down by the server's time. */
function tickClock() {
  const element = document.getElementById("clock");
  const deadline = state.match?.turn_deadline;
  if (!element || !deadline) return;
  const turn = state.match?.turn_seconds ?? Infinity;
  const left = Math.min(turn, Math.max(0, Math.ceil((Date.parse(deadline) - serverClock.now()) / 1000)));
  element.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  element.classList.toggle("low", left <= 10);
}
setInterval(tickClock, 1000);

/** What an event of the log says. @param {MatchEvent} event @param {MatchView} match */
function logLine(event, match) {
  if (event.type === "player_joined") return tr("joined", { name: event.name });
  if (event.type === "player_left") return tr("left_table", { name: seatName(match.seats[event.seat]) });
  if (event.type !== "action") return "";
  const line = tr("acted", { name: seatName(match.seats[event.seat]), action: trAny(event.action) });
  return event.by === "clock" ? `${line} (${tr("by_clock")})` : line;
}

/** This deal's moves, and who came and went. @param {MatchView} match */
function logPanel(match) {
  return h(
    "section",
    { class: "panel", id: "log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title", text: tr("log") }),
    h("ol", {}, ...state.log.map((event) => h("li", { class: "by" in event ? `by-${event.by}` : "", text: logLine(event, match) }))),
  );
}

/** The owner's invite: a link with the code in its fragment, which browsers never send.
 * @param {MatchView} match @param {string} code */
function invitePanel(match, code) {
  const api = params.get("api");
  const link = `${location.origin}${location.pathname}${api ? `?api=${encodeURIComponent(api)}` : ""}#match=${match.id}&invite=${encodeURIComponent(code)}`;
  const field = /** @type {HTMLInputElement} */ (h("input", { id: "invite-link", readonly: true, value: link, "aria-labelledby": "invite-title" }));
  const copy = h("button", { type: "button", id: "copy-invite", text: tr("copy") });
  copy.addEventListener("click", async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      say(tr("copied"));
    } catch {
      // No clipboard (an insecure origin): the link is selected for the reader to copy.
      say(tr("copy_by_hand"));
    }
  });
  return h(
    "section",
    { class: "panel", id: "invite", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title", text: tr("invite_title") }),
    h("p", { text: tr("invite_hint") }),
    h("div", { class: "row" }, field, copy),
  );
}

/** The buttons: legal actions, next deal, restart, resign; rebuilt without losing focus. */
function renderActions() {
  const match = state.match;
  const box = document.getElementById("actions");
  if (!match || !box) return;
  const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.command;
  const held = state.busy || Date.now() < state.heldUntil;
  /** @param {string} command @param {string} label @param {string} key @param {() => Promise<void>} run @param {string} [cls] */
  const button = (command, label, key, run, cls = "") => {
    const element = h("button", {
      type: "button",
      class: cls,
      "data-command": command,
      "aria-keyshortcuts": key.toUpperCase(),
      disabled: held,
    }, label, h("kbd", { "aria-hidden": "true", text: key.toUpperCase() }));
    element.addEventListener("click", () => guarded(run));
    return element;
  };
  const mine = match.status === "in_deal" && match.turn === match.your_seat;
  const buttons = mine
    ? match.legal_actions.map((action) =>
        button(action, trAny(action), KEYS[action], () => act("/actions", { action }), "play"),
      )
    : [];
  if (match.status === "deal_over") buttons.push(button("next", tr("next_deal"), "n", () => act("/next-deal", {}), "play"));
  box.replaceChildren(...buttons);
  const level = store.get("level") || match.ai_level;
  const shared = match.humans > 1;
  const over = ["finished", "abandoned"].includes(match.status);
  const tools = [
    mine &&
      !shared &&
      button("hint", tr("hint"), "?", async () => {
        state.hint = await api.get(`/matches/${match.id}/hint`);
        render();
      }, "quiet"),
    // At a shared table only its owner restarts, once it is over (it would erase the others' game).
    (!shared || (match.your_seat === 0 && match.status === "finished")) &&
      button("restart", tr("restart"), "s", () => act("/restart", { ai_level: level }), "quiet"),
    !over &&
      !shared &&
      button("resign", tr("resign"), "q", async () => {
        if (confirm(tr("confirm_resign"))) await act("/resign", {});
      }, "quiet"),
    !over &&
      shared &&
      !state.left.has(match.your_seat) &&
      button("leave", tr("leave"), "q", async () => {
        if (confirm(tr("confirm_leave"))) await act("/leave", {});
      }, "quiet"),
  ];
  const lobby = h("button", { type: "button", class: "quiet", "data-command": "lobby", text: tr("lobby") });
  lobby.addEventListener("click", () => guarded(async () => renderLobby()));
  $("match-tools").replaceChildren(...tools.filter((b) => b instanceof HTMLElement), lobby);
  if (focused) /** @type {HTMLElement | null} */ (document.querySelector(`[data-command="${focused}"]`))?.focus();
  else if (!document.activeElement || document.activeElement === document.body)
    /** @type {HTMLElement | null} */ (box.querySelector("button"))?.focus();
}

/** The coach's advice: hard's probabilities and exact expected scores. @param {Hint} hint */
function hintPanel(hint) {
  const percent = (/** @type {string} */ p) => `${p} (${Math.round(approx(p) * 100)}%)`;
  // To 4 places: an exact value can run to a hundred digits; it is the cell's title.
  const points = (/** @type {string} */ v) =>
    v === "0" ? "0" : `${approx(v) < 0 ? "−" : "+"}${Math.abs(approx(v)).toFixed(4)}`;
  const strength =
    hint.hand_rank === null
      ? tr("hint_look")
      : tr("hint_strength", {
          rank: hint.hand_rank,
          win: percent(hint.showdown_win ?? "0"),
          tie: hint.showdown_tie ?? "0",
        });
  return h(
    "section",
    { class: "panel", id: "hint", "aria-labelledby": "hint-title" },
    h("h2", { id: "hint-title", text: tr("hint_title") }),
    h("p", { class: "strength", text: strength }),
    h(
      "table",
      {},
      h("tr", {}, ...["hint_action", "hint_hard", "hint_value"].map((key) => h("th", { text: trAny(key) }))),
      ...hint.actions.map((advice) =>
        h(
          "tr",
          { "data-action": advice.action },
          h("td", { text: trAny(advice.action) }),
          h("td", { text: percent(advice.hard_probability) }),
          advice.expected_value === null
            ? h("td", { text: "–" })
            : h("td", { text: points(advice.expected_value), title: signed(advice.expected_value) }),
        ),
      ),
    ),
    h("p", { class: "exact", text: tr("hint_exact") }),
  );
}

/** @param {MatchView} match @param {DealResult} deal */
function dealPanel(match, deal) {
  const rows = deal.seats.map((seat) => {
    const hand = h("span", { class: "mini" });
    if (seat.hand) for (const rank of seat.hand) hand.append(card(rank, trAny(rank)));
    else hand.append(tr(seat.folded ? "folded" : "hidden"));
    return h(
      "tr",
      { class: deal.winners.includes(seat.seat) ? "winner" : "" },
      h("th", { scope: "row", text: seatName(match.seats[seat.seat]) }),
      h("td", {}, hand),
      h("td", { text: seat.category ? trAny(seat.category) : "—" }),
      h("td", { text: seat.payout }),
      h("td", { class: "delta", text: signed(seat.delta) }),
    );
  });
  return h(
    "section",
    { class: "panel", id: "deal-panel", "aria-labelledby": "deal-title" },
    h("h2", { id: "deal-title", text: `${tr("deal_over", { n: deal.deal_number })}: ${tr(deal.outcome)}` }),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, ...["", "hand", "category", "payout", "change"].map((key) => h("th", { scope: "col", text: key ? trAny(key) : "" })))),
      h("tbody", {}, ...rows),
    ),
  );
}

/** @param {MatchView} match */
function standings(match) {
  const order = [...match.seats].sort((a, b) => approx(b.total) - approx(a.total));
  const names = (match.winners ?? []).map((seat) => seatName(match.seats[seat])).join(", ");
  return h(
    "section",
    { class: "panel", id: "standings", "aria-labelledby": "standings-title" },
    h("h2", { id: "standings-title", text: tr("final") }),
    h("p", { class: "won", text: tr("won", { names }) }),
    h(
      "ol",
      {},
      ...order.map((seat) => h("li", { class: match.winners?.includes(seat.seat) ? "winner" : "", text: `${seatName(seat)}: ${seat.total}` })),
    ),
  );
}

const COLOURS = ["var(--seat0)", "var(--seat1)", "var(--seat2)", "var(--seat3)"];

/** Every deal's changes, running totals, and a small chart of them. @param {MatchView} match */
function scoreboard(match) {
  let running = match.seats.map(() => "0");
  const lines = [running];
  const rows = state.deals.map((deal) => {
    running = running.map((total, i) => add(total, deal.seats[i].delta));
    lines.push(running);
    return h(
      "tr",
      {},
      h("th", { scope: "row", text: String(deal.deal_number) }),
      ...deal.seats.map((seat, i) => h("td", {}, h("span", { class: "delta", text: signed(seat.delta) }), " ", h("span", { class: "run", text: `(${running[i]})` }))),
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

// Keyboard shortcuts: a letter presses the button that shows it.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest("input, select, textarea")) return;
  const button = /** @type {HTMLButtonElement | null} */ (
    document.querySelector(`button[aria-keyshortcuts="${event.key.toUpperCase()}"]:not([disabled])`)
  );
  if (button) {
    event.preventDefault();
    button.click();
  }
});

for (const query of ["(prefers-reduced-motion: reduce)", "(prefers-contrast: more)"])
  matchMedia(query).addEventListener("change", applyLook);

async function start() {
  applyLook();
  await setLanguage(params.get("lang") || store.get("lang") || navigator.language.slice(0, 2));
  const fragment = new URLSearchParams(location.hash.slice(1));
  const [match, code] = [fragment.get("match"), fragment.get("invite")];
  if (match && code) state.invite = { match, code };
  if (!store.get(tokenKey)) return renderLogin();
  const invite = state.invite;
  if (invite) return guarded(() => joinTable(invite));
  const resume = location.hash.match(/match=([\w-]+)/);
  if (resume)
    await guarded(() =>
      openMatch(resume[1]).catch((error) => {
        renderLobby();
        throw error;
      }),
    );
  else renderLobby();
}

start();
