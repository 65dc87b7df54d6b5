// A friend's table seen from its invite before joining it: what the friend sits down to,
// with Join and Cancel.
import { Problem } from "./api.js";
import {
  $,
  api,
  clockTime,
  guarded,
  leaveMatch,
  levelName,
  locale,
  mySeed,
  openMatch,
  say,
  seatName,
  showMatch,
  showScreen,
  state,
  tr,
  trAny,
} from "./core.js";
import { isolate } from "./fractions.js";
import { h } from "./words.js";

/** @typedef {import('./api.js').WriteAnswer} WriteAnswer */
/** @typedef {import('./schema').components['schemas']['OpenTable']} OpenTable */

/** Shows a friend's table from its invite without joining it, so that the friend knows
 * what they sit down to (verifiable deals or not above all); the invite then leaves the
 * address bar. @param {{ match: string, code: string }} invite */
export async function previewTable(invite) {
  state.invite = null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    /** @type {OpenTable} */
    const table = await api.read(`/matches/${invite.match}/invitation`, { invite: invite.code });
    state.invitation = { invite, table };
    draw();
  } catch (error) {
    if (error instanceof Problem && error.code === "already_seated") return openMatch(invite.match);
    await showScreen("lobby");
    if (error instanceof Problem && error.status === 404) say(() => tr("invite_bad"), "error");
    else throw error;
  }
}

/** The invited table, as the lobby lists an open one but a fact a line, with Join and
 * Cancel. @param {boolean} [focus] false keeps the focus where it is (a language switch) */
export function draw(focus = true) {
  if (!state.invitation) return showScreen("lobby", focus);
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
  cancel.addEventListener("click", () => showScreen("lobby"));
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
    await showMatch(answer, answer.events ?? []);
  } catch (error) {
    if (error instanceof Problem && error.code === "already_seated") return openMatch(invite.match);
    await showScreen("lobby");
    if (error instanceof Problem && error.status === 404) say(() => tr("invite_bad"), "error");
    else throw error;
  }
}
