// A closed tournament's standings and each deal's comparison (docs/tournaments.md), fetched when
// first shown. The API opens what they read only after the close: the standings, every entrant's
// public record (their choices), and your match's record, then with every hand of the deal.
import { card } from "./cards.js";
import { $, api, explain, levelName, locale, num, say, seatName, showScreen, state, tr, trAny } from "./core.js";
import { approx, numbers, points } from "./fractions.js";
import { skillLine } from "./result.js";
import { when } from "./lobby-tournaments.js";
import { h } from "./words.js";

/** @typedef {import('./schema').components['schemas']} S */
/** @typedef {S['TournamentStandings']['standings'][number]} Standing */
/** @typedef {{ id: string, terms: S['Tournament'], standings: S['TournamentStandings'], matches?: S['TournamentMatches'], record?: S['MatchRecord'] | null }} Read */

/** The entrant's seat in their match (docs/tournaments.md). */
const ENTRANT = 0;
const DEALS = 12;

/** The tournament shown, as read; the comparison's parts once one is opened. @type {Read | null} */
let read = null;

/** The standings, or deal `state.tournament.deal` compared; the heading focused but on a
 * language switch (`focus` false). */
export async function draw(focus = true) {
  const { id, deal } = /** @type {NonNullable<typeof state.tournament>} */ (state.tournament);
  state.screen = "tournament";
  if (focus) say("");
  history.replaceState(null, "", location.pathname + location.search);
  if (read?.id !== id) {
    const [terms, standings] = await Promise.all([api.get(`/tournaments/${id}`), api.get(`/tournaments/${id}/standings`)]);
    read = { id, terms, standings };
  }
  const body = deal === null ? standingsPanel(read) : await comparison(read, deal);
  $("main").replaceChildren(body);
  if (focus) /** @type {HTMLElement} */ (body.querySelector("h2")).focus();
}

/** @param {number | null} deal */
const go = (deal) => () => {
  state.tournament = { id: /** @type {Read} */ (read).id, deal };
  draw().catch(explain);
};

/** @param {string | false} id @param {string} text @param {() => void} run @param {string} [cls] */
function button(id, text, run, cls = "") {
  const element = h("button", { type: "button", id, class: cls, text });
  element.addEventListener("click", run);
  return element;
}

/** Exact in the API; to a tenth here, for reading. @param {string} exact */
const percent = (exact) => numbers(locale(), { style: "percent", maximumFractionDigits: 1 }).format(approx(exact) / 100);
const pts = (/** @type {string} */ text, sign = false) => points(text, locale(), sign);
/** Your row is marked by words, weight and an edge, and for assistive technology.
 * @param {boolean} you @returns {Record<string, string>} */
const marked = (you) => (you ? { class: "you", "aria-current": "true" } : {});
/** @param {Standing} row @param {boolean} you */
const entrant = (row, you) => `${row.bot ? tr("bot_seat", { name: row.name }) : row.name}${you ? ` ${tr("you_mark")}` : ""}`;

/** @param {Read} of */
function standingsPanel({ terms, standings }) {
  const mine = terms.your_entry?.match;
  return h(
    "section",
    { class: "panel tournament", id: "standings", "aria-labelledby": "standings-title" },
    h("h2", { id: "standings-title", tabindex: -1, text: tr("standings_title", { name: terms.name }) }),
    h("p", { text: [levelName(terms.ai_level), tr("entrants", { n: standings.entrants }), tr("closed_at", { time: when(terms.closed_at ?? terms.deadline) })].join(" · ") }),
    h("p", { text: tr("matchpoints_meaning") }),
    standings.standings.length ? h("ol", { class: "entrants" }, ...standings.standings.map((row) => entrantItem(row, row.match === mine))) : h("p", { text: tr("no_entrants") }),
    h("div", { class: "row" }, button("back-to-lobby", tr("lobby"), () => showScreen("lobby"))),
  );
}

/** An entrant's place, figures, and a button to each deal's comparison. @param {Standing} row @param {boolean} you */
function entrantItem(row, you) {
  const figures = { mp: pts(row.matchpoints), pct: percent(row.percentage), total: pts(row.total, true), mean: pts(row.versus_mean, true) };
  return h(
    "li",
    { ...marked(you), "data-match": row.match },
    h("h3", { text: `${num(row.rank)}. ${entrant(row, you)}` }),
    h("p", { text: tr("standing_figures", figures) }),
    row.skill && h("p", { class: "skill", text: skillLine(row.skill, { tr: /** @type {any} */ (tr), locale: locale() }, false) }),
    h(
      "div",
      { class: "deal-links", role: "group", "aria-label": tr("compare_deals", { name: row.name }) },
      ...row.deals.map((deal) => button(false, tr("deal_button", { n: deal.deal_number, mp: pts(deal.matchpoints) }), go(deal.deal_number), "quiet")),
    ),
  );
}

/** Deal `n` as every entrant of your pool played it, on the same hands. @param {Read} of @param {number} n */
async function comparison(of, n) {
  const mine = of.terms.your_entry?.match;
  if (!of.matches) [of.matches, of.record] = await Promise.all([api.get(`/tournaments/${of.id}/matches`), mine ? api.get(`/matches/${mine}/record`) : null]);
  const matches = /** @type {S['TournamentMatches']} */ (of.matches);
  const pool = of.standings.standings.find((row) => row.match === mine)?.pool;
  const choices = new Map(matches.matches.map((match) => [match.match, choicesOn(match.events, n)]));
  // The record's own format (docs/record.md): each deal with its four hands.
  const deals = /** @type {{ deals: { hands: (string[] | null)[] }[] }[] | undefined} */ (of.record?.series);
  const hands = deals?.[0]?.deals[n - 1]?.hands;
  const seats = /** @type {{ name: string, kind: string }[]} */ (of.record?.seats ?? []);
  const rows = of.standings.standings.filter((row) => pool === undefined || row.pool === pool);
  const list = new Intl.ListFormat(locale(), { type: "unit" });
  return h(
    "section",
    { class: "panel tournament", id: "deal-comparison", "aria-labelledby": "comparison-title" },
    h("h2", { id: "comparison-title", tabindex: -1, text: tr("comparison_title", { name: of.terms.name, n, of: DEALS }) }),
    hands
      ? h(
        "div",
        { class: "deal-hands" },
        h("p", { text: tr("same_hand") }),
        h(
          "ul",
          {},
          ...hands.map((hand, seat) => {
            const who = seat === ENTRANT ? tr("your_cards") : seatName(seats[seat]);
            const cards = (hand ?? []).map((rank) => card(rank, trAny(rank), true));
            return h("li", seat === ENTRANT ? { class: "you" } : {}, h("span", { text: who }), h("div", { class: "hand mini", role: "group", "aria-label": who }, ...cards));
          }),
        ),
      )
      : null,
    h(
      "table",
      { id: "comparison" },
      h("caption", { text: tr("comparison_caption", { n }) }),
      h("thead", {}, h("tr", {}, ...["col_entrant", "col_choices", "col_result", "col_matchpoints"].map((key) => h("th", { scope: "col", text: trAny(key) })))),
      h(
        "tbody",
        {},
        ...rows.map((row) => {
          const { played, result, matchpoints } = row.deals[n - 1];
          const you = row.match === mine;
          return h(
            "tr",
            { ...marked(you), "data-match": row.match },
            h("th", { scope: "row", text: entrant(row, you) }),
            h("td", { text: played ? list.format(choices.get(row.match) ?? []) || "—" : tr("not_played") }),
            h("td", { text: pts(result, true) }),
            h("td", { text: pts(matchpoints) }),
          );
        }),
      ),
    ),
    h(
      "div",
      { class: "row" },
      n > 1 && button("previous-deal", tr("previous_deal"), go(n - 1), "quiet"),
      n < DEALS && button("next-compared-deal", tr("next_compared_deal"), go(n + 1), "quiet"),
      button("back-to-standings", tr("back_to_standings"), go(null)),
    ),
  );
}

/** The entrant's own actions on deal `n` of the first series, from their public record; the
 * clock's marked. @param {S['TournamentPublicMatch']['events']} events @param {number} n */
function choicesOn(events, n) {
  let deal = 0;
  /** @type {string[]} */
  const taken = [];
  for (const event of events) {
    if (event.type === "deal_started") deal = event.series === 1 ? event.deal_number : 0;
    else if (event.type === "action" && deal === n && event.seat === ENTRANT)
      taken.push(trAny(event.action) + (event.by === "clock" ? ` (${tr("by_clock")})` : ""));
  }
  return taken;
}
