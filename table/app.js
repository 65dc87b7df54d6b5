// The As-Nas table: one human against three AI seats, or friends at one table, through the
// public API only.
import { apiClient, Offline, Problem, serverClock } from "./api.js";
import { card } from "./cards.js";
import { add, approx, isolate, points, skillFigures } from "./fractions.js";
import { follow } from "./live.js";
import { applyLook, LANGUAGES, reducedMotion, slider, SLIDERS, store } from "./look.js";
import { dealPanel } from "./result.js";
import { spectatorsPanel } from "./spectators.js";
import { eventTypes, fill, firstLanguage, h, translate, useLanguage } from "./words.js";

/** @typedef {import('./api.js').MatchView} MatchView */
/** @typedef {import('./api.js').MatchEvent} MatchEvent */
/** @typedef {import('./api.js').MatchSummary} MatchSummary */
/** @typedef {import('./api.js').WriteAnswer} WriteAnswer */
/** @typedef {import('./schema').components['schemas']['DealEndedEvent']} DealEnded */
/** @typedef {import('./schema').components['schemas']['DealResult']} DealResult */
/** @typedef {import('./schema').components['schemas']['PlayerProfile']} PlayerProfile */
/** @typedef {import('./schema').components['schemas']['PaginatedLeaderboardEntryList']} LeaderboardPage */
/** @typedef {import('./schema').components['schemas']['Skill']} Skill */
/** @typedef {import('./schema').components['schemas']['Hint']} Hint */
/** @typedef {import('./schema').components['schemas']['OpenTable']} OpenTable */
/** @typedef {typeof import('./i18n/en.js').default} Catalogue */

/** The game's article; the other languages' Wikipedias have none we could confirm, so they
 * link this one and say it is in English. */
const WIKIPEDIA = "https://en.wikipedia.org/wiki/As-Nas";
const STEP_MS = 450;
const OPENING_STAKE = 1;
const LOG_LINES = 8;
/** How often the lobby asks for the open tables while it is shown. */
const LOBBY_POLL_MS = 5000;

const params = new URLSearchParams(location.search);
// The API's root: ?api=… or the page's <meta name="asnas-api">, else this page's own server.
const apiBase =
  params.get("api") ?? document.querySelector('meta[name="asnas-api"]')?.getAttribute("content") ?? "";
const tokenKey = `token@${apiBase || location.origin}`;
const api = apiClient(apiBase, () => store.get(tokenKey));

const state = {
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
  /** Which screen is shown, drawn again on a language switch. @type {"login" | "lobby" | "invitation" | "match"} */ screen: "login",
  /** The status line's words, said again in a new language. @type {(() => string) | null} */ said: null,
  /** The seat that resigned the open match, if one did. @type {number | null} */ resigned: null,
  /** The clock's last seconds already announced, for the turn it ends. @type {string | null} */ warned: null,
};

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** A seat's name; a table's human seat that nobody has taken yet has none. The AI seats'
 * names are written in the page's script (Darius is داریوش in Persian). */
function seatName(/** @type {{ name: string | null, kind?: string }} */ seat) {
  if (seat.name === null) return tr("open_seat");
  return seat.kind === "ai" && `ai_${seat.name}` in state.t ? trAny(`ai_${seat.name}`) : seat.name;
}

const locale = () => document.documentElement.lang || "en";
/** A whole number in the page's language (Persian digits in Persian), isolated. @param {number} n */
const num = (n) => isolate(new Intl.NumberFormat(locale()).format(n));

/** The catalogue's text for `key` (words.js: plurals, the page's digits, values isolated).
 * @param {keyof Catalogue} key @param {Record<string, string | number>} [vars] */
const tr = (key, vars = {}) => translate(state.t, locale(), key, vars);
/** A key made at run time; `fallback` when the catalogue lacks it. @param {string} key @param {keyof Catalogue} [fallback] */
const trAny = (key, fallback) => tr(/** @type {keyof Catalogue} */ (key in state.t || !fallback ? key : fallback));

/** The status line, a live region: what just happened in the open match, read aloud. It is
 * given the words as a function, so that a language switch can say them again in the new one.
 * @param {string | (() => string)} words @param {"info" | "error"} [kind] */
function say(words, kind = "info") {
  const status = $("status");
  state.said = typeof words === "string" ? null : words;
  fill(status, typeof words === "string" ? words : words());
  status.dataset.kind = kind;
}

/** Shows what went wrong in words, and does what the API asks (reload, wait). @param {unknown} error */
async function explain(error) {
  if (error instanceof Problem) {
    if (error.code === "stale_version" && state.match) {
      await openMatch(state.match.id);
      say(() => tr("stale"), "error");
    } else if (error.status === 429) {
      holdFor(error.retryAfter || 1);
    } else if (error.status === 401) {
      store.set(tokenKey, null);
      renderLogin();
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
  state.t = await useLanguage(lang);
  document.title = tr("title");
  $("brand").textContent = tr("brand");
  renderSettings();
  redraw();
}

/** Every screen in the language now chosen, the status line included; focus stays put. */
function redraw() {
  if (state.screen === "login") renderLogin(false);
  else if (state.screen === "lobby") renderLobby(false);
  else if (state.screen === "invitation") renderInvitation(false);
  else render();
  if (state.said) say(state.said, $("status").dataset.kind === "error" ? "error" : "info");
  const rules = /** @type {HTMLDialogElement | null} */ (document.getElementById("rules"));
  if (rules?.open) rules.replaceChildren(...rulesContent());
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
  /** A look slider, applied as it moves and kept in the browser. @param {typeof SLIDERS[number]} name */
  const range = (name) => {
    const input = /** @type {HTMLInputElement} */ (h("input", { id: name, type: "range", min: 0, max: 100, step: 5, value: slider(name) }));
    const shown = h("output", { for: name, text: `${new Intl.NumberFormat(locale(), { style: "percent" }).format(slider(name) / 100)}` });
    input.addEventListener("input", () => {
      store.set(name, input.value);
      fill(shown, new Intl.NumberFormat(locale(), { style: "percent" }).format(Number(input.value) / 100));
      applyLook();
    });
    return h("label", { for: name }, h("span", { text: tr(name) }), input, shown);
  };
  const rules = h("button", { type: "button", id: "open-rules", class: "quiet", text: tr("rules") });
  rules.addEventListener("click", showRules);
  // The look settings fold away on a phone, where they would push the table below the fold.
  const wasOpen = /** @type {HTMLDetailsElement | null} */ (document.getElementById("look"))?.open;
  const look = /** @type {HTMLDetailsElement} */ (
    h(
      "details",
      { id: "look", class: "look" },
      h("summary", { text: tr("display") }),
      h(
        "div",
        { class: "settings" },
        ...SLIDERS.map(range),
        select(
          "motion",
          tr("motion"),
          Object.fromEntries(["system", "full", "reduced"].map((choice) => [choice, trAny(choice)])),
          store.get("motion") || "system",
          (value) => (store.set("motion", value), applyLook()),
        ),
      ),
    )
  );
  look.open = wasOpen ?? matchMedia("(min-width: 40rem)").matches;
  $("settings").replaceChildren(select("lang", tr("language"), LANGUAGES, store.get("lang") || "en", setLanguage), rules, look);
}

// ---- the rules ----

/** Example hands of each category, strongest first, drawn with the cards. */
const EXAMPLES = /** @type {const} */ ([
  ["four_of_a_kind", ["As", "As", "As", "As", "Couli"]],
  ["full_house", ["Shah", "Shah", "Shah", "Bibi", "Bibi"]],
  ["three_of_a_kind", ["Bibi", "Bibi", "Bibi", "As", "Sarbaz"]],
  ["two_pair", ["As", "As", "Sarbaz", "Sarbaz", "Couli"]],
  ["pair", ["Couli", "Couli", "As", "Shah", "Bibi"]],
  ["high_card", ["As", "Shah", "Bibi", "Sarbaz", "Couli"]],
]);

/** A few words on the game's tradition, with its Wikipedia article. */
function tradition() {
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

function rulesContent() {
  /** @param {keyof Catalogue} title @param {keyof Catalogue} text */
  const part = (title, text) => h("section", {}, h("h3", { text: tr(title) }), h("p", { text: tr(text) }));
  const close = h("button", { type: "button", class: "quiet", id: "close-rules", text: tr("close") });
  close.addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("rules")).close());
  // Close heads the dialog: focused on opening, it keeps the rules at their beginning (at the
  // end, its focus scrolled the dialog down to Scoring).
  return [
    h("div", { class: "dialog-head" }, h("h2", { id: "rules-title", text: tr("rules_title") }), close),
    tradition(),
    part("rules_goal_h", "rules_goal"),
    part("rules_setup_h", "rules_setup"),
    part("rules_turn_h", "rules_turn"),
    h(
      "section",
      {},
      h("h3", { text: tr("rules_ranks_h") }),
      h("p", { text: tr("rules_ranks") }),
      h(
        "ol",
        { class: "ranking" },
        ...EXAMPLES.map(([category, hand]) => {
          const cards = h("span", { class: "mini" });
          for (const rank of hand) cards.append(card(rank, trAny(rank), true));
          return h("li", {}, h("span", { class: "category", text: trAny(category) }), cards);
        }),
      ),
      h("p", { text: tr("rules_ties") }),
    ),
    part("rules_score_h", "rules_score"),
  ];
}

/** The rules, in a modal dialog: Escape or Close shuts it, and focus goes back where it was. */
function showRules() {
  const dialog = /** @type {HTMLDialogElement} */ ($("rules"));
  dialog.replaceChildren(...rulesContent());
  dialog.showModal();
  /** @type {HTMLElement} */ (dialog.querySelector("#close-rules")).focus();
}

/** Asks before something that cannot be undone: a modal dialog, Cancel focused, so Enter or
 * Escape loses nothing. Resolves true on the go-ahead.
 * @param {string} question @param {string} go the go-ahead button's words @param {...Node} extra */
function ask(question, go, ...extra) {
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

// ---- login and lobby ----

/** @param {boolean} [focus] false keeps the focus where it is (a language switch) */
function renderLogin(focus = true) {
  leaveMatch();
  state.screen = "login";
  // A language switch keeps the name being typed.
  const typed = /** @type {HTMLInputElement | null} */ (document.getElementById("player-name"))?.value ?? "";
  const input = h("input", { id: "player-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname", value: typed });
  const form = h(
    "form",
    { id: "login" },
    state.invite && h("p", { class: "invited", text: tr("invited") }),
    h("label", { for: "player-name", text: tr("name") }),
    input,
    h("button", { type: "submit", text: tr("register") }),
    tradition(),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = /** @type {HTMLInputElement} */ (input).value.trim();
    guarded(async () => {
      const player = await api.write("/players", { name });
      store.set(tokenKey, player.token);
      store.set("name", player.name);
      if (state.invite) await previewTable(state.invite);
      else renderLobby();
    });
  });
  $("main").replaceChildren(h("h2", { text: tr("title") }), form);
  if (focus) input.focus();
}

/** The player's own client seed, as the lobby's form keeps it, for a body. */
const mySeed = () => {
  const seed = store.get("client_seed");
  return seed ? { client_seed: seed } : {};
};

/** @param {boolean} [focus] false keeps the focus where it is (a language switch) */
function renderLobby(focus = true) {
  leaveMatch();
  state.screen = "lobby";
  state.invitation = null;
  // The status line speaks of the open match: none is open here.
  if (focus) say("");
  history.replaceState(null, "", location.pathname + location.search);
  const level = /** @type {HTMLSelectElement} */ (h("select", { id: "ai-level" }));
  for (const name of ["easy", "normal", "hard", "expert"]) level.append(h("option", { value: name, text: levelName(name) }));
  level.value = store.get("level") || "normal";
  const humans = /** @type {HTMLSelectElement} */ (h("select", { id: "humans" }));
  for (const n of [1, 2, 3, 4]) humans.append(h("option", { value: n, text: n === 1 ? tr("alone") : num(n) }));
  const seconds = /** @type {HTMLInputElement} */ (
    h("input", { id: "turn-seconds", type: "number", min: 10, max: 86400, value: store.get("seconds") ?? 60, placeholder: tr("no_clock") })
  );
  const clock = h("label", { for: "turn-seconds", text: tr("turn_seconds") });
  const open = /** @type {HTMLInputElement} */ (h("input", { id: "open-table", type: "checkbox" }));
  const openLabel = h("label", { for: "open-table", class: "check" }, open, tr("open_table"));
  const fillAfter = /** @type {HTMLInputElement} */ (
    h("input", { id: "fill-after", type: "number", min: 10, max: 3600, placeholder: "–" })
  );
  const fillLabel = h("label", { for: "fill-after", text: tr("fill_after") });
  // A single-player match is verifiable anyway; a table only by its owner's choice.
  const verifiable = /** @type {HTMLInputElement} */ (h("input", { id: "verifiable-table", type: "checkbox" }));
  const verifiableLabel = h("label", { for: "verifiable-table", class: "check" }, verifiable, tr("verifiable_choice"));
  const clientSeed = /** @type {HTMLInputElement} */ (
    h("input", { id: "client-seed", maxlength: 64, pattern: "[ -~]{1,64}", value: store.get("client_seed") ?? "", placeholder: "–" })
  );
  const start = h("button", { type: "submit", id: "new-match", text: tr("new_match") });
  const table = () => humans.value !== "1";
  // Seconds per turn, an open table and the AI filling it only mean something at a table.
  const showClock = () => {
    clock.hidden = seconds.hidden = openLabel.hidden = fillLabel.hidden = fillAfter.hidden = !table();
    verifiableLabel.hidden = !table();
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
    openLabel,
    fillLabel,
    fillAfter,
    verifiableLabel,
    h("label", { for: "client-seed", text: tr("client_seed") }),
    clientSeed,
    start,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    store.set("level", level.value);
    // Kept for the tables you join too (docs/fairness.md).
    store.set("client_seed", clientSeed.value || null);
    guarded(async () => {
      // Alone, and with no client seed, the request stays exactly what it always was.
      const body = table()
        ? {
            ai_level: level.value,
            humans: Number(humans.value),
            turn_seconds: seconds.value ? Number(seconds.value) : null,
            ...(open.checked ? { open: true } : {}),
            ...(fillAfter.value ? { fill_after: Number(fillAfter.value) } : {}),
            ...(verifiable.checked ? { verifiable: true } : {}),
            ...mySeed(),
          }
        : { ai_level: level.value, ...mySeed() };
      if (table()) store.set("seconds", seconds.value);
      /** @type {WriteAnswer} */
      const answer = await api.write("/matches", body);
      await show(answer, answer.events ?? []);
    });
  });
  const forget = h("button", { type: "button", class: "quiet", text: tr("forget") });
  forget.addEventListener("click", forgetMe);
  const list = h("ul", { id: "matches" });
  const rating = h("p", { id: "rating" });
  const board = h("ol", { id: "leaderboard" });
  const quick = h("button", { type: "button", id: "quick-play", text: tr("quick_play") });
  // A verifiable table shows its folded hands to all after each series: only if asked.
  const quickVerifiable = /** @type {HTMLInputElement} */ (h("input", { id: "quick-verifiable", type: "checkbox" }));
  const quickVerifiableLabel = h("label", { for: "quick-verifiable", class: "check" }, quickVerifiable, tr("quick_verifiable"));
  quick.addEventListener("click", () =>
    guarded(async () => {
      store.set("level", level.value);
      const body = { ...(quickVerifiable.checked ? { verifiable: true } : {}), ...mySeed() };
      /** @type {WriteAnswer} */
      const answer = await api.write("/quick-play", body);
      await show(answer, answer.events ?? []);
    }),
  );
  const tables = h("ul", { id: "open-tables", "aria-live": "polite" });
  $("main").replaceChildren(
    h("h2", { text: tr("hello", { name: store.get("name") || "" }) }),
    rating,
    form,
    h(
      "section",
      { class: "panel", id: "lobby-tables", "aria-labelledby": "open-tables-title" },
      h("div", { class: "row" }, h("h2", { id: "open-tables-title", text: tr("open_tables") }), quick),
      quickVerifiableLabel,
      tables,
    ),
    h("h2", { text: tr("your_matches") }),
    list,
    h("h2", { text: tr("leaderboard") }),
    board,
    forget,
    tradition(),
  );
  if (focus) start.focus();
  // The lists arrive while the form is already usable.
  listMatches(list).catch(explain);
  showRating(rating, board).catch(explain);
  watchTables(tables);
}

/** One decimal, in the page's digits: a rating is a float, never points. @param {number} x */
const decimal = (x) => new Intl.NumberFormat(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);

/** Your rating line, and the leaderboard's first page (docs/ratings.md).
 * @param {HTMLElement} line @param {HTMLElement} board */
async function showRating(line, board) {
  const [/** @type {PlayerProfile} */ me, /** @type {LeaderboardPage} */ page] = await Promise.all([
    api.get("/players/me"),
    api.get("/leaderboard?page_size=10"),
  ]);
  const { displayed, mu, sigma, matches } = me.rating;
  fill(
    line,
    `${tr("rating_line", { value: decimal(displayed), mu: decimal(mu), sigma: decimal(sigma) })} · ${tr("rated_matches", { n: matches })}`,
  );
  if (!page.results.length) board.append(h("li", { class: "empty", text: tr("leaderboard_empty") }));
  for (const entry of page.results) {
    const row = tr("leaderboard_row", { name: entry.name, value: decimal(entry.displayed) });
    const item = h("li", { "data-rank": entry.rank, class: entry.you ? "you" : "" });
    fill(item, `${row}${entry.you ? ` ${tr("you_mark")}` : ""} · ${tr("rated_matches", { n: entry.matches })}`);
    board.append(item);
  }
}

/** The open tables, asked for again every LOBBY_POLL_MS while this list is on the page.
 * @param {HTMLElement} list */
function watchTables(list) {
  const refresh = async () => {
    if (!list.isConnected) return;
    try {
      /** @type {{tables: OpenTable[]}} */
      const lobby = await api.get("/tables");
      if (list.isConnected) listTables(list, lobby.tables);
    } catch (error) {
      if (!(error instanceof Offline)) explain(error);
    }
    if (list.isConnected) setTimeout(refresh, LOBBY_POLL_MS);
  };
  refresh();
}

/** @param {HTMLElement} list @param {OpenTable[]} tables */
function listTables(list, tables) {
  if (!tables.length) return list.replaceChildren(h("li", { text: tr("no_open_tables") }));
  list.replaceChildren(
    ...tables.map((table) => {
      const join = h("button", { type: "button", "data-table": table.id, text: tr("join_table") });
      join.addEventListener("click", () => guarded(() => joinOpenTable(table.id)));
      const clock = table.turn_seconds === null ? tr("no_clock") : tr("turn_clock", { n: table.turn_seconds });
      const flags = [
        ...(table.verifiable ? [tr("verifiable_table")] : []),
        ...(table.spectators !== "off" ? [tr("watchable")] : []),
        ...(table.fill_at ? [tr("fills_at", { time: clockTime(table.fill_at) })] : []),
      ];
      const players = new Intl.ListFormat(locale(), { type: "unit" }).format(table.seats.map((seat) => isolate(seatName(seat))));
      const line = tr("table_line", {
        owner: table.owner,
        free: table.seats_free,
        humans: table.humans,
        clock,
        level: levelName(table.ai_level),
      });
      return h(
        "li",
        { "data-table-id": table.id },
        h("span", { text: [line, players, ...flags].join(" · ") }),
        join,
      );
    }),
  );
}

/** A time of day in the page's language. @param {string} iso */
const clockTime = (iso) => new Date(iso).toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** Takes the next seat at an open table: no invite needed. @param {string} id */
async function joinOpenTable(id) {
  try {
    /** @type {WriteAnswer} */
    const answer = await api.write(`/matches/${id}/join`, mySeed());
    await show(answer, answer.events ?? []);
  } catch (error) {
    if (error instanceof Problem && error.code === "already_seated") return openMatch(id);
    throw error;
  }
}

/** @param {string} level */
const levelName = (level) => trAny(level === "normal" ? "normal_level" : level);

/** Forgets this browser's player, once the player knows what goes with it and may keep the
 * token to come back. */
async function forgetMe() {
  const token = store.get(tokenKey) ?? "";
  const name = store.get("name") || "";
  const field = /** @type {HTMLInputElement} */ (
    h("input", { id: "token", readonly: true, value: token, hidden: true, "aria-label": tr("token", { name }) })
  );
  const reveal = h("button", { type: "button", class: "quiet", id: "show-token", text: tr("show_token") });
  const copy = h("button", { type: "button", class: "quiet", id: "copy-token", text: tr("copy_token") });
  const copied = h("p", { role: "status", id: "token-status" });
  reveal.addEventListener("click", () => {
    field.hidden = false;
    field.select();
    field.focus();
  });
  copy.addEventListener("click", async () => {
    field.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(token);
      fill(copied, tr("token_copied"));
    } catch {
      fill(copied, tr("token_by_hand"));
    }
  });
  const tools = h("div", { class: "row" }, reveal, copy);
  if (await ask(tr("confirm_forget", { name }), tr("forget"), tools, field, copied)) {
    store.set(tokenKey, null);
    renderLogin();
  }
}

/** Your matches, newest first, each with a button to resume it. @param {HTMLElement} list */
async function listMatches(list) {
  /** @type {{results: MatchSummary[]}} */
  const page = await api.get("/matches?page_size=20");
  if (!page.results.length) list.append(h("li", { text: tr("no_matches") }));
  for (const summary of page.results) {
    // Resume where play goes on; a finished or abandoned match only shows how it ended.
    const over = summary.status === "finished" || summary.status === "abandoned";
    const resume = h("button", { type: "button", "data-match": summary.id, text: tr(over ? "see_result" : "resume") });
    resume.addEventListener("click", () => guarded(() => openMatch(summary.id)));
    const totals = summary.totals.map((total) => points(total, locale())).join(" / ");
    list.append(
      h(
        "li",
        { "data-status": summary.status },
        h("span", {
          text: `${trAny(`status_${summary.status}`)} · ${tr("deal_of", { n: summary.deal_number, of: 12 })} · ${levelName(summary.ai_level)} · ${totals}`,
        }),
        resume,
      ),
    );
  }
}

// ---- a match ----

/** Shows a friend's table from its invite without joining it, so that the friend knows
 * what they sit down to (verifiable deals or not above all); the invite then leaves the
 * address bar. @param {{ match: string, code: string }} invite */
async function previewTable(invite) {
  state.invite = null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    /** @type {OpenTable} */
    const table = await api.read(`/matches/${invite.match}/invitation`, { invite: invite.code });
    state.invitation = { invite, table };
    renderInvitation();
  } catch (error) {
    if (error instanceof Problem && error.code === "already_seated") return openMatch(invite.match);
    renderLobby();
    if (error instanceof Problem && error.status === 404) say(() => tr("invite_bad"), "error");
    else throw error;
  }
}

/** The invited table, as the lobby lists an open one but a fact a line, with Join and
 * Cancel. @param {boolean} [focus] false keeps the focus where it is (a language switch) */
function renderInvitation(focus = true) {
  if (!state.invitation) return renderLobby(focus);
  const { invite, table } = state.invitation;
  leaveMatch();
  state.screen = "invitation";
  if (focus) say("");
  const clock = table.turn_seconds === null ? tr("no_clock") : tr("turn_clock", { n: table.turn_seconds });
  const players = new Intl.ListFormat(locale(), { type: "unit" }).format(table.seats.map((seat) => isolate(seatName(seat))));
  const heading = h("h2", { id: "invitation-title", tabindex: -1, text: tr("invitation_title", { owner: table.owner }) });
  const facts = h(
    "ul",
    { class: "facts" },
    h("li", { text: tr("invitation_seats", { n: table.seats_free, humans: table.humans }) }),
    h("li", { text: tr("invitation_players", { players }) }),
    h("li", { text: tr("invitation_clock", { clock }) }),
    h("li", { text: tr("invitation_level", { level: levelName(table.ai_level) }) }),
    h("li", { id: "invitation-fairness", "data-verifiable": String(table.verifiable), text: tr(table.verifiable ? "invitation_verifiable" : "invitation_secret") }),
    h("li", { text: tr("invitation_watch", { mode: trAny(`watch_${table.spectators}`) }) }),
    table.fill_at && h("li", { text: tr("fills_at", { time: clockTime(table.fill_at) }) }),
  );
  const join = h("button", { type: "button", id: "join-invited", text: tr("join_table") });
  join.addEventListener("click", () => guarded(() => joinTable(invite)));
  const cancel = h("button", { type: "button", class: "quiet", id: "cancel-invited", text: tr("cancel") });
  cancel.addEventListener("click", () => renderLobby());
  $("main").replaceChildren(
    h("section", { class: "panel", id: "invitation", "aria-labelledby": "invitation-title" }, heading, facts, h("div", { class: "row" }, join, cancel)),
  );
  if (focus) heading.focus();
}

/** Takes the next seat at the friend's table the invite showed.
 * @param {{ match: string, code: string }} invite */
async function joinTable(invite) {
  try {
    /** @type {WriteAnswer} */
    const answer = await api.write(`/matches/${invite.match}/join`, { invite: invite.code, ...mySeed() });
    await show(answer, answer.events ?? []);
  } catch (error) {
    if (error instanceof Problem && error.code === "already_seated") return openMatch(invite.match);
    renderLobby();
    if (error instanceof Problem && error.status === 404) say(() => tr("invite_bad"), "error");
    else throw error;
  }
}

/** Closes the open match's live feed and forgets the match. */
function leaveMatch() {
  state.live?.stop();
  Object.assign(state, { match: null, live: null, pending: [], log: [], deals: [], left: new Set(), hint: null, resigned: null });
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
  const feed = follow(
    api,
    wanted,
    match.version,
    (event) => {
      state.pending.push(event);
      catchUp();
    },
    eventTypes(state.t),
  );
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
    if (event.type === "match_restarted") Object.assign(state, { deals: [], resigned: null });
    if (event.type === "resigned") state.resigned = event.seat;
    if (event.type === "deal_ended" && event.series === series) state.deals.push(event);
    if (event.type === "deal_started") state.log = [];
    if (event.type === "player_left") state.left.add(event.seat);
    if (logged(event)) state.log = [...state.log, event].slice(-LOG_LINES);
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
  if (events.some((event) => event.type === "deal_ended")) await readFigures(answer);
}

/** A write's answer carries no skill figures (docs/skill.md: a read shows them):
 * read the match once a deal has ended, and show them where they may be seen.
 * @param {MatchView} answer */
async function readFigures(answer) {
  const read = /** @type {MatchView} */ (await api.get(`/matches/${answer.id}`));
  const current = state.match;
  if (!current || current.id !== read.id || current.version !== read.version) return; // it moved on
  if (!read.skill && !read.last_deal?.seats.some((seat) => seat.skill)) return;
  // Drawn again with the figures: the keyboard's place (the standings' heading, once the
  // match ended) must not be lost with the old elements.
  const focused = document.activeElement?.id;
  state.match = read;
  render();
  if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
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
  /** The others' moves said one by one; without motion they come at once, and are said
   * together with your turn. @type {(() => string)[]} */
  const moves = [];
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
    if (event.type === "seat_freed") Object.assign(view.seats[event.seat], { name: null });
    if (event.type === "seats_filled") for (const seat of event.seats) Object.assign(view.seats[seat], { kind: "ai" });
    // What the log shows at one seat is played one by one, at that seat.
    if (!logged(event) || !("seat" in event)) continue;
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
    const line = () => logLine(event, view);
    moves.push(line);
    say(line);
    const element = document.querySelector(`[data-seat="${event.seat}"]`);
    element?.classList.add("acting");
    if (!reducedMotion()) await pause(STEP_MS);
  }
  // You left a table before deal 1: the seat is open again and no longer yours to watch.
  if (events.some((event) => event.type === "seat_freed" && event.seat === answer.your_seat)) {
    leaveMatch();
    renderLobby();
    return;
  }
  state.match = answer;
  history.replaceState(null, "", `${location.pathname}${location.search}#match=${answer.id}`);
  render();
  announce(answer, events, reducedMotion() ? moves : []);
}

/** Says what the player must hear after a write or a move of others: the match's end (its
 * standings scrolled into view and focused), a deal's result, or that it is their turn, after
 * the others' `moves` not yet heard.
 * @param {MatchView} match @param {MatchEvent[]} events @param {(() => string)[]} moves */
function announce(match, events, moves) {
  const yourTurn = match.status === "in_deal" && match.turn === match.your_seat && !state.left.has(match.your_seat);
  if (yourTurn) performance.mark("asnas:your-turn");
  const deal = match.last_deal;
  if (events.some((event) => event.type === "match_finished") && match.status === "finished") {
    say(() => finalWords(match));
    const heading = document.getElementById("standings-title");
    heading?.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    heading?.focus({ preventScroll: true });
  } else if (deal && events.some((event) => event.type === "deal_ended")) {
    say(() => `${dealWords(match, deal)}${yourTurn ? ` ${tr("your_turn")}` : ""}`);
  } else if (yourTurn) {
    say(() => [...moves.map((move) => move()), tr("your_turn")].join(" · "));
  } else if (events.some((event) => event.type === "match_restarted")) {
    say("");
  }
}

function render() {
  if (!state.t) return;
  const match = state.match;
  if (!match) return;
  state.screen = "match";
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
    const name = seat.seat === you ? `${seatName(seat)} (${tr("you")})` : seatName(seat);
    return h(
      "section",
      {
        class: `seat seat-${(seat.seat - you + 4) % 4}${seat.folded ? " folded" : ""}${seat.away ? " away" : ""}${seat.name === null ? " open" : ""}${seat.seat === match.turn && match.status === "in_deal" ? " turn" : ""}`,
        "data-seat": seat.seat,
        "aria-label": name,
      },
      h("h3", { text: name }),
      h("p", { class: "stake", text: `${tr("stake")}: ${num(seat.stake)}` }),
      h("p", { class: "total", text: `${tr("total")}: ${points(seat.total, locale())}` }),
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
        h("h2", {
          class: "deal-no",
          text: match.status === "waiting" ? tr("waiting", { n: open }) : tr("deal_of", { n: match.deal_number, of: 12 }),
        }),
        h("p", { class: "pot", text: `${tr("pot")}: ${num(match.pot)}` }),
        h("p", { class: "high", text: `${tr("high_stake")}: ${num(match.high_stake)}` }),
      ),
      ...seats,
    ),
    ...(match.status === "waiting" ? [] : [h("div", { class: "mine" }, cards, category)]),
    h("div", { id: "actions", class: "actions" }),
    h("ul", { id: "moves", class: "moves" }),
    ...(match.invite ? [invitePanel(match, match.invite)] : []),
    ...(match.status === "waiting" && match.fill_at
      ? [h("p", { id: "fills-at", text: tr("fills_at", { time: clockTime(match.fill_at) }) })]
      : []),
    spectatorsPanel(match, api, (view) => { state.match = view; render(); }, tr),
    ...((match.humans > 1 && state.log.length) || state.log.some((event) => "by" in event && event.by === "clock") ? [logPanel(match)] : []),
    ...(state.hint && state.hint.version === match.version ? [hintPanel(state.hint)] : []),
    ...(match.status !== "in_deal" && match.last_deal ? [dealPanel(match.last_deal, resultWords(match))] : []),
    ...(match.status === "finished" ? [standings(match)] : []),
    ...(match.status === "waiting" ? [] : [fairnessPanel(match)]),
    h("div", { id: "match-tools", class: "tools" }),
    ...(match.status === "waiting" ? [] : [scoreboard(match)]),
  );
  renderActions();
  tickClock();
  syncLive();
}

/** How the deals are made and what proves it: the commitment while the series is played, the
 * revealed seed once it ended (docs/fairness.md), and the record to keep. @param {MatchView} match */
function fairnessPanel(match) {
  const fair = match.fairness;
  const short = (/** @type {string} */ hex) => h("code", { title: hex, text: `${hex.slice(0, 16)}…` });
  const lines = !fair.verifiable
    ? [h("p", { text: tr("fair_not_verifiable") })]
    : [
        h("p", {}, `${tr("fair_commitment")}: `, short(/** @type {string} */ (fair.commitment))),
        fair.server_seed
          ? h("p", { class: "revealed" }, `${tr("fair_revealed")}: `, short(fair.server_seed))
          : h("p", { text: tr("fair_hidden") }),
      ];
  const download = h("button", { type: "button", id: "download-record", text: tr("download_record") });
  download.addEventListener("click", () =>
    guarded(async () => {
      const record = await api.get(`/matches/${match.id}/record`);
      const link = /** @type {HTMLAnchorElement} */ (h("a", {
        href: URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" })),
        download: `as-nas-${match.id}.json`,
      }));
      link.click();
      URL.revokeObjectURL(link.href);
    }),
  );
  return h("section", { class: "panel fairness", id: "fairness", "aria-label": tr("fair_title") }, ...lines, download);
}

/** What each move offered now does, in points: what Call costs, what Hold keeps. @param {MatchView} match */
function movesNow(match) {
  const mine = match.seats[match.your_seat].stake;
  const high = match.high_stake;
  /** @type {Record<string, () => string>} */
  const lines = {
    look: () => tr("now_look"),
    call: () => tr("now_call", { points: tr("points", { n: high - mine }), high }),
    hold: () => tr("now_hold", { high }),
    raise: () => tr("now_raise", { high: high + 1, points: tr("points", { n: high + 1 - mine }) }),
    fold: () => tr("now_fold", { points: tr("points", { n: mine }) }),
  };
  return match.legal_actions.map((action) => h("li", { "data-action": action, text: lines[action]() }));
}

/** The turn clock, counted down by the server's time; its last ten seconds of your turn are
 * announced once. */
function tickClock() {
  const element = document.getElementById("clock");
  const match = state.match;
  const deadline = match?.turn_deadline;
  if (!element || !match || !deadline) return;
  const turn = match.turn_seconds ?? Infinity;
  const left = Math.min(turn, Math.max(0, Math.ceil((Date.parse(deadline) - serverClock.now()) / 1000)));
  const format = new Intl.NumberFormat(locale(), { minimumIntegerDigits: 2 });
  fill(element, isolate(`${new Intl.NumberFormat(locale()).format(Math.floor(left / 60))}:${format.format(left % 60)}`));
  element.classList.toggle("low", left <= 10);
  if (left <= 10 && left > 0 && match.turn === match.your_seat && state.warned !== deadline) {
    state.warned = deadline;
    say(() => tr("clock_low", { n: left }));
  }
}
setInterval(tickClock, 1000);

/** The catalogue's key for the log line of an event's type. @param {MatchEvent} event */
const logKey = (event) => /** @type {keyof Catalogue} */ (`event_${event.type}`);

/** Whether the log shows the event: its type has a line in the catalogue ("" for none, and a
 * type newer than the table has no key). @param {MatchEvent} event */
const logged = (event) => Boolean(state.t[logKey(event)]);

/** What an event of the log says: its type's line, with the name it gives or of its seat,
 * and the action it took. @param {MatchEvent} event @param {MatchView} match */
function logLine(event, match) {
  /** @type {Record<string, string>} */
  const vars = {};
  if ("name" in event) vars.name = event.name;
  else if ("seat" in event) vars.name = seatName(match.seats[event.seat]);
  if ("action" in event) vars.action = trAny(event.action);
  const line = tr(logKey(event), vars);
  return "by" in event && event.by === "clock" ? `${line} (${tr("by_clock")})` : line;
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
      say(() => tr("copied"));
    } catch {
      // No clipboard (an insecure origin): the link is selected for the reader to copy.
      say(() => tr("copy_by_hand"));
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

/** The buttons: legal actions, next deal, restart, resign; rebuilt without losing focus. Only
 * buttons that can act are there: none for a seat whose human left, none after the end. */
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
  const seated = !state.left.has(match.your_seat);
  const mine = seated && match.status === "in_deal" && match.turn === match.your_seat;
  const buttons = mine
    ? match.legal_actions.map((action) =>
        button(action, trAny(action), trAny(`key_${action}`), () => act("/actions", { action }), "play"),
      )
    : [];
  if (seated && match.status === "deal_over") buttons.push(button("next", tr("next_deal"), tr("key_next"), () => act("/next-deal", {}), "play"));
  box.replaceChildren(...buttons);
  $("moves").replaceChildren(...(mine ? movesNow(match) : []));
  const level = store.get("level") || match.ai_level;
  const shared = match.humans > 1;
  const over = ["finished", "abandoned"].includes(match.status);
  // Walking away from a series in play is rated as resigning it (docs/ratings.md): say so first.
  const inPlay = ["in_deal", "deal_over"].includes(match.status);
  const warned = (/** @type {string} */ question) => (inPlay ? `${question} ${tr("rated_as_resignation")}` : question);
  const tools = [
    mine &&
      !shared &&
      button("hint", tr("hint"), "?", async () => {
        state.hint = await api.get(`/matches/${match.id}/hint`);
        render();
      }, "quiet"),
    // At a shared table only its owner restarts, once it is over (it would erase the others' game).
    (!shared || (match.your_seat === 0 && match.status === "finished")) &&
      button("restart", tr("restart"), tr("key_restart"), async () => {
        if (await ask(warned(tr("confirm_restart")), tr("restart"))) await act("/restart", { ai_level: level, ...mySeed() });
      }, "quiet"),
    !over &&
      !shared &&
      button("resign", tr("resign"), tr("key_resign"), async () => {
        if (await ask(tr("confirm_resign"), tr("resign"))) await act("/resign", {});
      }, "quiet"),
    !over &&
      shared &&
      seated &&
      button("leave", tr("leave"), tr("key_resign"), async () => {
        if (await ask(warned(tr("confirm_leave")), tr("leave"))) await act("/leave", {});
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
  const percent = (/** @type {string} */ p) =>
    `${points(p, locale())} (${new Intl.NumberFormat(locale(), { style: "percent" }).format(approx(p))})`;
  // To 4 places: an exact value can run to a hundred digits; it is the cell's title.
  const value = (/** @type {string} */ v) =>
    isolate(new Intl.NumberFormat(locale(), { signDisplay: "exceptZero", maximumFractionDigits: 4, minimumFractionDigits: v === "0" ? 0 : 4 }).format(approx(v)));
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
            : h("td", { text: value(advice.expected_value), title: advice.expected_value }),
        ),
      ),
    ),
    h("p", { class: "exact", text: tr("hint_exact") }),
  );
}

/** "cards +1/2 · your play +3/4 · the others −1/4" (docs/skill.md), for `seat`.
 * @param {MatchView} match @param {number} seat @param {Skill} skill */
function skillWords(match, seat, skill) {
  return tr(seat === match.your_seat ? "skill_you" : "skill_seat", skillFigures(skill, locale()));
}

/** What a deal's result panel (result.js) needs of this page. @param {MatchView} match */
function resultWords(match) {
  return {
    tr: (/** @type {string} */ key, /** @type {Record<string, string | number>} */ vars = {}) => tr(/** @type {keyof Catalogue} */ (key), vars),
    locale: locale(),
    name: (/** @type {number} */ seat) => seatName(match.seats[seat]),
    skill: (/** @type {number} */ seat, /** @type {Skill} */ skill) => skillWords(match, seat, skill),
  };
}

/** Names joined in the page's language ("Darius and Shirin"). @param {number[]} seats @param {MatchView} match */
function names(seats, match) {
  const list = seats.map((seat) => isolate(seatName(match.seats[seat])));
  return new Intl.ListFormat(locale(), { type: "conjunction" }).format(list);
}

/** What a deal's end says aloud: who took the pot, and with what. @param {MatchView} match @param {DealResult} deal */
function dealWords(match, deal) {
  const won = deal.seats.find((seat) => seat.seat === deal.winners[0]);
  const category = won?.category ? ` (${trAny(won.category)})` : "";
  return `${tr("deal_over", { n: deal.deal_number })}: ${trAny(deal.outcome)} · ${names(deal.winners, match)}${category} ${won ? points(won.delta, locale(), true) : ""}`;
}

/** Who won the match, and who resigned it if someone did. @param {MatchView} match */
function finalWords(match) {
  const winners = match.winners ?? [];
  const won = tr("won", { names: names(winners, match), n: winners.length });
  return state.resigned === null ? won : `${tr("resigned", { name: seatName(match.seats[state.resigned]) })} ${won}`;
}

/** The final standings, ranked as the server ranks them: its winners first (after a
 * resignation the resigning seat is never among them, even when it leads), then by total, the
 * resigning seat last. @param {MatchView} match */
function standings(match) {
  const winners = match.winners ?? [];
  const rank = (/** @type {{ seat: number }} */ seat) => (winners.includes(seat.seat) ? 0 : seat.seat === state.resigned ? 2 : 1);
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
          text: `${seatName(seat)}: ${points(seat.total, locale())}${seat.seat === state.resigned ? ` (${tr("resigned_mark")})` : ""}${match.skill ? ` · ${skillWords(match, seat.seat, match.skill[seat.seat])}` : ""}`,
        }),
      ),
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

// Keyboard shortcuts: a key presses the button that shows it (the catalogue picks each
// language's keys). Not while a dialog is open: it has the keyboard.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest("input, select, textarea") || document.querySelector("dialog[open]")) return;
  const button = /** @type {HTMLButtonElement | null} */ (
    document.querySelector(`button[aria-keyshortcuts="${CSS.escape(event.key.toUpperCase())}"]:not([disabled])`)
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
  await setLanguage(firstLanguage());
  const fragment = new URLSearchParams(location.hash.slice(1));
  const [match, code] = [fragment.get("match"), fragment.get("invite")];
  if (match && code) state.invite = { match, code };
  if (!store.get(tokenKey)) return renderLogin();
  const invite = state.invite;
  if (invite) return guarded(() => previewTable(invite));
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
