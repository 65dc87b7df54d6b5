// The match table's panels: how the deals are made and the record to keep, this deal's log,
// the owner's invite, and the coach's hint.
import { api, guarded, locale, params, say, seatName, state, tr, trAny } from "./core.js";
import { approx, isolate, numbers, points } from "./fractions.js";
import { h } from "./words.js";

/** @typedef {import('./api.js').MatchView} MatchView */
/** @typedef {import('./api.js').MatchEvent} MatchEvent */
/** @typedef {import('./core.js').Catalogue} Catalogue */
/** @typedef {import('./schema').components['schemas']['Hint']} Hint */

/** How the deals are made and what proves it: the commitment while the series is played, the
 * revealed seed once it ended (docs/fairness.md), and the record to keep. @param {MatchView} match */
export function fairnessPanel(match) {
  const fair = match.fairness;
  const short = (/** @type {string} */ hex) => h("code", { title: hex, text: `${hex.slice(0, 16)}…` });
  const lines = !fair.verifiable
    ? [h("p", { text: tr("fair_not_verifiable") })]
    : [
        h("p", {}, `${tr("fair_commitment")}: `, short(/** @type {string} */ (fair.commitment))),
        fair.server_seed
          ? h("p", { class: "revealed" }, `${tr("fair_revealed")}: `, short(fair.server_seed))
          : h("p", { text: tr(match.tournament ? "fair_hidden_tournament" : "fair_hidden") }),
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

/** The catalogue's key for the log line of an event's type. @param {MatchEvent} event */
const logKey = (event) => /** @type {keyof Catalogue} */ (`event_${event.type}`);

/** Whether the log shows the event: its type has a line in the catalogue ("" for none, and a
 * type newer than the table has no key). @param {MatchEvent} event */
export const logged = (event) => Boolean(state.t[logKey(event)]);

/** What an event of the log says: its type's line, with the name it gives or of its seat,
 * and the action it took. @param {MatchEvent} event @param {MatchView} match */
export function logLine(event, match) {
  /** @type {Record<string, string>} */
  const vars = {};
  if ("name" in event) vars.name = event.name;
  else if ("seat" in event) vars.name = seatName(match.seats[event.seat]);
  if ("action" in event) vars.action = trAny(event.action);
  const line = tr(logKey(event), vars);
  return "by" in event && event.by === "clock" ? `${line} (${tr("by_clock")})` : line;
}

/** This deal's moves, and who came and went. @param {MatchView} match */
export function logPanel(match) {
  return h(
    "section",
    { class: "panel", id: "log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title", text: tr("log") }),
    h("ol", {}, ...state.log.map((event) => h("li", { class: "by" in event ? `by-${event.by}` : "", text: logLine(event, match) }))),
  );
}

/** The owner's invite: a link with the code in its fragment, which browsers never send.
 * @param {MatchView} match @param {string} code */
export function invitePanel(match, code) {
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

/** The coach's advice: hard's probabilities and exact expected scores. @param {Hint} hint */
export function hintPanel(hint) {
  const percent = (/** @type {string} */ p) =>
    `${points(p, locale())} (${numbers(locale(), { style: "percent" }).format(approx(p))})`;
  // To 4 places: an exact value can run to a hundred digits; it is the cell's title.
  const value = (/** @type {string} */ v) =>
    isolate(numbers(locale(), { signDisplay: "exceptZero", maximumFractionDigits: 4, minimumFractionDigits: v === "0" ? 0 : 4 }).format(approx(v)));
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
    h("h2", { id: "hint-title", tabindex: -1, text: tr("hint_title") }),
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
