// The match table's screen: the match as it stands, its moves played one by one as they come
// (from your writes, or live from friends and the clock), and what the player must hear.
import { $, api, clockTime, explain, guarded, leaveMatch, say, showScreen, state, tr, trAny } from "./core.js";
import { dealing, feltTable, moveOnFelt, settleLeft, settling, yourHand } from "./felt.js";
import { follow } from "./live.js";
import { reducedMotion } from "./look.js";
import { turnPassed, yourTurn as notifyTurn } from "./notice.js";
import { renderActions, tickClock } from "./match-controls.js";
import { fairnessPanel, hintPanel, invitePanel, logged, logLine, logPanel } from "./match-panels.js";
import { dealWords, finalWords, resultWords, scoreboard, standings } from "./match-scores.js";
import { readReview, verdictPanel } from "./match-review.js";
import { dealPanel } from "./result.js";
import { spectatorsPanel } from "./spectators.js";
import { tournamentBar } from "./match-tournament.js";
import { eventTypes, h } from "./words.js";

/** @typedef {import('./api.js').MatchView} MatchView */
/** @typedef {import('./api.js').MatchEvent} MatchEvent */
/** @typedef {import('./api.js').WriteAnswer} WriteAnswer */

// core.js draws the buttons again around each intent (renderActions), then shows what the
// live feed brought meanwhile (catchUp).
export { renderActions };

const STEP_MS = 450;
const OPENING_STAKE = 1;

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
export async function catchUp() {
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
    const shown = events.filter((event) => event.seq <= now.version);
    await show(now, shown);
    // A deal the clock or the others ended: its verdict too, where the review may be read.
    if (shown.some((event) => event.type === "deal_ended")) verdictLater();
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
export async function openMatch(id) {
  const match = await api.get(`/matches/${id}`);
  leaveMatch();
  // What was appended after the view was read comes with the live feed, which follows from
  // the view's version: remembered now, a move was logged before the table showed it, and twice.
  const events = await eventsAfter(id, 0);
  remember(events.filter((event) => event.seq <= match.version), match.series);
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
    if (logged(event)) state.log = [...state.log, event];
  }
}

/** POST one intent, then animate what it appended. @param {string} path @param {object} body */
export async function act(path, body) {
  const before = /** @type {MatchView} */ (state.match);
  /** @type {WriteAnswer} */
  const answer = await api.write(`/matches/${before.id}${path}`, { expected_version: before.version, ...body });
  // Before the API sent `events` with each write answer, they were one GET away.
  const events = answer.events ?? (await eventsAfter(before.id, before.version));
  await show(answer, events);
  if (events.some((event) => event.type === "deal_ended")) {
    await readFigures(answer);
    verdictLater();
  }
}

/** The deal's verdict, shown when the server has worked it out (a deal's review may take
 * seconds, the first in a server's life longer): play goes on meanwhile, the page not busy. */
function verdictLater() {
  readReview().then((read) => read && redraw(), explain);
}

/** A write's answer carries no skill figures (docs/skill.md: a read shows them):
 * read the match once a deal has ended, and show them where they may be seen.
 * @param {MatchView} answer */
async function readFigures(answer) {
  const read = /** @type {MatchView} */ (await api.get(`/matches/${answer.id}`));
  const current = state.match;
  if (!current || current.id !== read.id || current.version !== read.version) return; // it moved on
  if (!read.skill && !read.last_deal?.seats.some((seat) => seat.skill)) return;
  state.match = read;
  redraw();
}

/** Draws the table again with what a read brought (skill figures, the review's verdict): the
 * keyboard's place (the standings' heading, once the match ended) must not be lost with the
 * old elements. */
function redraw() {
  const focused = document.activeElement?.id;
  render();
  // The result or the standings grew by their figures: brought whole into view again.
  if (focused === "deal-title" || focused === "standings-title") inView(focused, settleLeft());
  else if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
}

/** Brings the panel of heading `id` whole into view (as little scrolling as that takes, so
 * the table above stays in sight where it fits) and gives its heading the keyboard's focus,
 * so a screen reader reads it next. A panel taller than the window (the standings on a
 * phone) is read from its top: "nearest" would align its bottom when the page was scrolled
 * past its top, leaving the heading above the window. While the pot still moves to its
 * winners on the felt, the focus comes at once but the scroll once the player has seen it.
 * @param {string} id @param {number} [after] ms */
export function inView(id, after = 0) {
  const heading = document.getElementById(id);
  if (!heading) return;
  heading.focus({ preventScroll: true });
  const scroll = () => {
    const panel = document.getElementById(id)?.closest("section") ?? document.getElementById(id);
    const block = panel && panel.getBoundingClientRect().height > innerHeight ? "start" : "nearest";
    panel?.scrollIntoView({ block, behavior: reducedMotion() ? "auto" : "smooth" });
  };
  if (after > 0) setTimeout(scroll, after);
  else scroll();
}

/** A pause that lets a player follow the others' moves, cut short by any key or click: a
 * keyboard player who has seen enough is not held. Resolves true if it was cut short.
 * @param {number} ms @returns {Promise<boolean>} */
const pause = (ms) =>
  new Promise((resolve) => {
    /** @param {boolean} early */
    const done = (early) => {
      clearTimeout(timer);
      for (const type of ["keydown", "pointerdown"]) removeEventListener(type, hurry, true);
      resolve(early);
    };
    const hurry = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    for (const type of ["keydown", "pointerdown"]) addEventListener(type, hurry, true);
  });

/** Plays the events one by one on the table, then shows the answer. @param {MatchView} answer @param {MatchEvent[]} events */
export async function show(answer, events) {
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
  let hurried = false;
  /** The last move not said yet: without a pause nothing is painted or read between two
   * events, so the table is drawn and the move said once, after them. @type {(() => string) | null} */
  let unsaid = null;
  for (const event of events) {
    if (event.type === "deal_ended") settling(answer.id, event.deal_number);
    if (event.type === "deal_started") {
      dealing(answer.id, event.deal_number);
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
    const line = () => logLine(event, view);
    moves.push(line);
    if (reducedMotion() || hurried) {
      unsaid = line;
      continue;
    }
    render();
    say(line);
    document.querySelector(`[data-seat="${event.seat}"]`)?.classList.add("acting");
    hurried = await pause(STEP_MS);
  }
  // You left a table before deal 1: the seat is open again and no longer yours to watch.
  if (events.some((event) => event.type === "seat_freed" && event.seat === answer.your_seat)) {
    leaveMatch();
    await showScreen("lobby");
    return;
  }
  state.match = answer;
  history.replaceState(null, "", `${location.pathname}${location.search}#match=${answer.id}`);
  render();
  if (unsaid) say(unsaid);
  announce(answer, events, reducedMotion() ? moves : []);
}

/** Says what the player must hear after a write or a move of others: the match's end (its
 * standings scrolled into view and focused), a deal's result, or that it is their turn, after
 * the others' `moves` not yet heard.
 * @param {MatchView} match @param {MatchEvent[]} events @param {(() => string)[]} moves */
function announce(match, events, moves) {
  const yourTurn = match.status === "in_deal" && match.turn === match.your_seat && !state.left.has(match.your_seat);
  if (yourTurn) {
    performance.mark("asnas:your-turn");
    notifyTurn(`${match.id}@${match.version}`, tr);
  } else turnPassed();
  const deal = match.last_deal;
  if (events.some((event) => event.type === "match_finished") && match.status === "finished") {
    say(() => finalWords(match));
    inView("standings-title", settleLeft());
  } else if (deal && events.some((event) => event.type === "deal_ended")) {
    say(() => `${dealWords(match, deal)}${yourTurn ? ` ${tr("your_turn")}` : ""}`);
    // The next deal may have begun at once (your friends' table): then your turn comes first.
    if (!yourTurn) inView("deal-title", settleLeft());
  } else if (yourTurn) {
    say(() => [...moves.map((move) => move()), tr("your_turn")].join(" · "));
  } else if (events.some((event) => event.type === "match_restarted")) {
    say("");
  }
}

export function render() {
  if (!state.t) return;
  const match = state.match;
  if (!match) return;
  state.screen = "match";
  const category = match.your_category ? h("p", { class: "category", text: trAny(match.your_category) }) : null;
  $("main").replaceChildren(
    ...(match.tournament ? [tournamentBar(match)] : []),
    feltTable(match),
    ...(match.status === "waiting" ? [] : [h("div", { class: "mine" }, yourHand(match), category)]),
    h("div", { id: "actions", class: "actions" }),
    h("ul", { id: "moves", class: "moves" }),
    // What the player must read now comes first, under the buttons: the coach's hint, the
    // deal's result, the standings; then the deal's moves, whoever made them.
    ...(state.hint && state.hint.version === match.version ? [hintPanel(state.hint)] : []),
    ...(match.status !== "in_deal" && match.last_deal ? [dealPanel(match.last_deal, resultWords(match))] : []),
    ...(match.status !== "in_deal" ? verdictPanel() : []),
    ...(match.status === "finished" ? [standings(match)] : []),
    ...(state.log.length ? [logPanel(match)] : []),
    ...(match.invite ? [invitePanel(match, match.invite)] : []),
    ...(match.status === "waiting" && match.fill_at
      ? [h("p", { id: "fills-at", text: tr("fills_at", { time: clockTime(match.fill_at) }) })]
      : []),
    // A tournament's match takes no spectators: they could pass its deals on.
    ...(match.tournament ? [] : spectatorsPanel(match, api, (view) => { state.match = view; render(); }, tr)),
    ...(match.status === "waiting" ? [] : [fairnessPanel(match)]),
    h("div", { id: "match-tools", class: "tools" }),
    ...(match.status === "waiting" ? [] : [scoreboard(match)]),
  );
  renderActions();
  tickClock();
  syncLive();
  moveOnFelt(match);
}
