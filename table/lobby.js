// The lobby: a new match or a table for friends, the open tables and quick play, your
// matches, your rating and the leaderboard, and forgetting this browser's player.
import { Offline, Problem } from "./api.js";
import {
  $,
  api,
  ask,
  clockTime,
  explain,
  guarded,
  leaveMatch,
  levelName,
  locale,
  mySeed,
  num,
  say,
  openMatch,
  screen,
  seatName,
  showMatch,
  showScreen,
  state,
  tokenKey,
  tr,
  trAny,
  tradition,
} from "./core.js";
import { isolate, numbers, points } from "./fractions.js";
import { tournamentsPanel } from "./lobby-tournaments.js";
import { store } from "./look.js";
import { renameForm } from "./rename.js";
import { fill, h } from "./words.js";

/** @typedef {import('./api.js').MatchSummary} MatchSummary */
/** @typedef {import('./api.js').WriteAnswer} WriteAnswer */
/** @typedef {import('./schema').components['schemas']['PlayerProfile']} PlayerProfile */
/** @typedef {import('./schema').components['schemas']['PaginatedLeaderboardEntryList']} LeaderboardPage */
/** @typedef {import('./schema').components['schemas']['OpenTable']} OpenTable */

/** How often the lobby asks for the open tables while it is shown. */
const LOBBY_POLL_MS = 5000;

/** @param {boolean} [focus] false keeps the focus where it is (a language switch) */
export function draw(focus = true) {
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
      await showMatch(answer, answer.events ?? []);
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
      await showMatch(answer, answer.events ?? []);
    }),
  );
  const tables = h("ul", { id: "open-tables", "aria-live": "polite" });
  // The Puzzles screen's code comes when it is first opened (table/puzzles.js).
  const puzzles = h("button", { type: "button", id: "open-puzzles", text: tr("puzzles_open") });
  puzzles.addEventListener("click", () => guarded(async () => (await screen("puzzles")).open()));
  const greeting = h("h2", { text: tr("hello", { name: store.get("name") || "" }) });
  const tournaments = tournamentsPanel();
  $("main").replaceChildren(
    greeting,
    renameForm(greeting),
    form,
    h(
      "section",
      { class: "panel", id: "lobby-tables", "aria-labelledby": "open-tables-title" },
      h("div", { class: "row" }, h("h2", { id: "open-tables-title", text: tr("open_tables") }), quick),
      quickVerifiableLabel,
      tables,
    ),
    h(
      "section",
      { class: "panel", id: "lobby-puzzles", "aria-labelledby": "lobby-puzzles-title" },
      h("div", { class: "row" }, h("h2", { id: "lobby-puzzles-title", text: tr("puzzles_title") }), puzzles),
      h("p", { text: tr("puzzles_line") }),
    ),
    tournaments.section,
    h("h2", { text: tr("your_matches") }),
    list,
    h("h2", { text: tr("leaderboard") }),
    rating,
    board,
    forget,
    tradition(),
  );
  if (focus) start.focus();
  // The lists arrive while the form is already usable, and all below it: what arrives late
  // never moves the form under a click (your rating stands with the leaderboard).
  listMatches(list).catch(explain);
  tournaments.fill().catch(explain);
  showRating(rating, board).catch(explain);
  watchTables(tables);
}

/** One decimal, in the page's digits: a rating is a float, never points. @param {number} x */
const decimal = (x) => numbers(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);

/** Your rating line, and the leaderboard's first page (docs/ratings.md).
 * @param {HTMLElement} line @param {HTMLElement} board */
async function showRating(line, board) {
  const [/** @type {PlayerProfile} */ me, /** @type {LeaderboardPage} */ page] = await Promise.all([
    api.get("/players/me"),
    api.get("/leaderboard?page_size=10"),
  ]);
  const { displayed, mu, matches, provisional, leaderboard_from: of } = me.rating;
  // One number (docs/ratings.md): the leaderboard's, mu - 3 sigma, once enough rated matches
  // make it sure (the server says when); before, the estimate mu, marked provisional (mu - 3
  // sigma is 0 for a newcomer).
  const value = tr("rating_value", { value: decimal(provisional ? mu : displayed) });
  line.replaceChildren(
    h("strong", { text: provisional ? `${value} (${tr("rating_provisional", { n: matches, of })})` : value }),
    " ",
    h("span", { class: "meaning", text: tr(provisional ? "rating_meaning_provisional" : "rating_meaning", { of }) }),
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
        n: table.seats_free,
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

/** Takes the next seat at an open table: no invite needed. @param {string} id */
async function joinOpenTable(id) {
  try {
    /** @type {WriteAnswer} */
    const answer = await api.write(`/matches/${id}/join`, mySeed());
    await showMatch(answer, answer.events ?? []);
  } catch (error) {
    if (error instanceof Problem && error.code === "already_seated") return openMatch(id);
    throw error;
  }
}

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
    await showScreen("start");
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
    const opponents = summary.seats.filter((_, seat) => seat !== summary.your_seat).map((seat) => isolate(seatName(seat)));
    const yours = points(summary.totals[summary.your_seat], locale());
    // Finished: your place and total; else where the match stands.
    const result =
      summary.your_place === null
        ? `${trAny(`status_${summary.status}`)} · ${tr("deal_of", { n: summary.deal_number, of: 12 })} · ${yours}`
        : tr("match_place", { place: summary.your_place, total: yours });
    const when = new Intl.DateTimeFormat(locale(), { dateStyle: "medium" }).format(new Date(summary.created_at));
    list.append(
      h(
        "li",
        { "data-status": summary.status, "data-place": summary.your_place ?? "" },
        h("span", {
          text: `${when} · ${tr("match_against", { names: new Intl.ListFormat(locale(), { type: "conjunction" }).format(opponents) })} · ${result} · ${levelName(summary.ai_level)}`,
        }),
        resume,
      ),
    );
  }
}
