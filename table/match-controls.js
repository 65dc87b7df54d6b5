// The match table's buttons: the moves allowed now and what each does in points, next deal,
// the coach's hint, restart, resign or leave, and back to the lobby; and the turn clock.
import { serverClock } from "./api.js";
import { $, api, ask, guarded, locale, mySeed, say, showScreen, state, tr, trAny } from "./core.js";
import { isolate, numbers } from "./fractions.js";
import { store } from "./look.js";
import { keyLabel } from "./keys.js";
import { lastSeconds, noticeChoices } from "./notice.js";
import { act, inView, render } from "./match.js";
import { fill, h } from "./words.js";

/** @typedef {import('./api.js').MatchView} MatchView */

/** The buttons: legal actions, next deal, restart, resign; rebuilt without losing focus. Only
 * buttons that can act are there: none for a seat whose human left, none after the end. */
export function renderActions() {
  const match = state.match;
  const box = document.getElementById("actions");
  if (!match || !box) return;
  const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.command;
  const held = state.busy || Date.now() < state.heldUntil;
  /** A button with its key (keys.js), shown on the player's layout.
   * @param {import('./keys.js').Command} command @param {string} label @param {() => Promise<void>} run @param {string} [cls] */
  const button = (command, label, run, cls = "") => {
    const key = keyLabel(command);
    const element = h("button", {
      type: "button",
      class: cls,
      "data-command": command,
      "aria-keyshortcuts": key,
      disabled: held,
    }, label, h("kbd", { "aria-hidden": "true", text: key }));
    element.addEventListener("click", () => guarded(run));
    return element;
  };
  const seated = !state.left.has(match.your_seat);
  const mine = seated && match.status === "in_deal" && match.turn === match.your_seat;
  // A fold while Hold is free gives up the stake for nothing: one key must not do that unasked.
  const stake = match.seats[match.your_seat]?.stake ?? 0;
  const sure = async (/** @type {string} */ action) =>
    action !== "fold" ||
    !match.legal_actions.includes("hold") ||
    ask(tr("confirm_fold", { points: tr("points", { n: stake }) }), trAny("fold"));
  const buttons = mine
    ? match.legal_actions.map((action) =>
        button(/** @type {import('./keys.js').Command} */ (action), trAny(action), async () => {
          if (await sure(action)) await act("/actions", { action });
        }, "play"),
      )
    : [];
  if (seated && match.status === "deal_over") buttons.push(button("next", tr("next_deal"), () => act("/next-deal", {}), "play"));
  box.replaceChildren(...buttons);
  $("moves").replaceChildren(...(mine ? movesNow(match) : []));
  const level = store.get("level") || match.ai_level;
  const shared = match.humans > 1;
  const over = ["finished", "abandoned"].includes(match.status);
  // Walking away from a series in play is rated as resigning it (docs/ratings.md): say so first.
  const inPlay = ["in_deal", "deal_over"].includes(match.status);
  const warned = (/** @type {string} */ question) => (inPlay ? `${question} ${tr("rated_as_resignation")}` : question);
  // A tournament's match refuses hints and restart (docs/tournaments.md): not offered.
  const tournament = Boolean(match.tournament);
  const tools = [
    mine &&
      !shared &&
      !tournament &&
      button("hint", tr("hint"), async () => {
        state.hint = await api.get(`/matches/${match.id}/hint`);
        render();
        inView("hint-title");
      }, "quiet"),
    // At a shared table only its owner restarts, once it is over (it would erase the others' game).
    !tournament &&
      (!shared || (match.your_seat === 0 && match.status === "finished")) &&
      button("restart", tr("restart"), async () => {
        if (await ask(warned(tr("confirm_restart")), tr("restart"))) await act("/restart", { ai_level: level, ...mySeed() });
      }, "quiet"),
    !over &&
      !shared &&
      button("resign", tr("resign"), async () => {
        if (await ask(tr("confirm_resign"), tr("resign"))) await act("/resign", {});
      }, "quiet"),
    !over &&
      shared &&
      seated &&
      button("leave", tr("leave"), async () => {
        if (await ask(warned(tr("confirm_leave")), tr("leave"))) await act("/leave", {});
      }, "quiet"),
  ];
  const lobby = h("button", { type: "button", class: "quiet", "data-command": "lobby", text: tr("lobby") });
  lobby.addEventListener("click", () => guarded(() => showScreen("lobby")));
  // Only where others (friends, the clock) can make it your turn while you look elsewhere.
  const notices = shared || match.turn_seconds !== null ? [noticeChoices(tr)] : [];
  $("match-tools").replaceChildren(...tools.filter((b) => b instanceof HTMLElement), lobby, shortcutsHelp(), ...notices);
  if (focused) /** @type {HTMLElement | null} */ (document.querySelector(`[data-command="${focused}"]`))?.focus();
  else if (!document.activeElement || document.activeElement === document.body)
    /** @type {HTMLElement | null} */ (box.querySelector("button"))?.focus();
}

/** Every key and what it does, folded; kept open as the table is drawn anew. */
let helpOpen = false;
function shortcutsHelp() {
  /** @type {[import('./keys.js').Command, string][]} */
  const rows = [
    ["look", trAny("look")], ["call", trAny("call")], ["hold", trAny("hold")], ["raise", trAny("raise")],
    ["fold", trAny("fold")], ["next", tr("next_deal")], ["hint", tr("hint")], ["restart", tr("restart")],
    ["resign", `${tr("resign")} / ${tr("leave")}`],
  ];
  const help = /** @type {HTMLDetailsElement} */ (
    h(
      "details",
      { id: "shortcuts", class: "look" },
      h("summary", { text: tr("shortcuts") }),
      h("p", { text: tr("shortcuts_layout") }),
      h("dl", {}, ...rows.flatMap(([command, words]) => [h("dt", {}, h("kbd", { text: keyLabel(command) })), h("dd", { text: words })])),
    )
  );
  help.open = helpOpen;
  help.addEventListener("toggle", () => (helpOpen = help.open));
  return help;
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
export function tickClock() {
  const element = document.getElementById("clock");
  const match = state.match;
  const deadline = match?.turn_deadline;
  if (!element || !match || !deadline) return;
  const turn = match.turn_seconds ?? Infinity;
  const left = Math.min(turn, Math.max(0, Math.ceil((Date.parse(deadline) - serverClock.now()) / 1000)));
  const format = numbers(locale(), { minimumIntegerDigits: 2 });
  fill(element, isolate(`${numbers(locale()).format(Math.floor(left / 60))}:${format.format(left % 60)}`));
  element.classList.toggle("low", left <= 10);
  if (left > 10 || match.turn !== match.your_seat || match.status !== "in_deal") return;
  lastSeconds(deadline, element.textContent ?? "", tr);
  if (left > 0 && state.warned !== deadline) {
    state.warned = deadline;
    say(() => tr("clock_low", { n: left }));
  }
}
setInterval(tickClock, 1000);

