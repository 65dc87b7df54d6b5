// The spectator's page, watch.html#watch=CODE: the table as spectators see it (no hand but
// those a showdown showed), followed live, in the table's language and look. The code stays in
// the fragment, which a browser never sends; it reaches the server only in a request body or
// the Watch-Code header.

/** @typedef {import('./schema').components['schemas']} Schemas */
/** @typedef {Schemas['WatchView']} WatchView */
/** @typedef {Schemas['MatchEvent']} MatchEvent */
/** @typedef {typeof import('./i18n/en.js').default} Catalogue */
import { Offline, Problem } from "./api.js";
import { isolate, points } from "./fractions.js";
import { displaySettings } from "./display.js";
import { applyLook, LANGUAGES } from "./look.js";
import { dealPanel } from "./result.js";
import { eventTypes, fill, firstLanguage, h, locale, num, translate, useLanguage } from "./words.js";

const params = new URLSearchParams(location.search);
const base = params.get("api") ?? document.querySelector('meta[name="asnas-api"]')?.getAttribute("content") ?? "";
const root = base.replace(/\/+$/, "") + "/api/v1";
const code = new URLSearchParams(location.hash.slice(1)).get("watch") ?? "";
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

const page = {
  /** @type {Catalogue} */ t: /** @type {any} */ (null),
  /** The last view shown, drawn again on a language switch. @type {WatchView | null} */ view: null,
  /** What the status line says, said again in a new language. @type {(() => string) | null} */ said: null,
};

/** @param {string} key @param {Record<string, string | number>} [vars] */
const tr = (key, vars) => translate(page.t, locale(), key, vars);

/** @param {string} path @param {object} body @returns {Promise<any>} */
async function post(path, body) {
  let response;
  try {
    response = await fetch(root + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Offline();
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Problem(response.status, data, Number(response.headers.get("Retry-After")) || 0);
  return data;
}

/** A seat's name; the AI seats' in the page's script. @param {WatchView} view @param {number} seat */
function seatName(view, seat) {
  const { name, kind } = view.seats[seat];
  if (name === null) return tr("open_seat");
  return kind === "ai" && `ai_${name}` in page.t ? tr(`ai_${name}`) : name;
}

/** @param {WatchView} view */
function seatsTable(view) {
  const rows = view.seats.map((seat) => {
    const marks = [
      seat.seat === view.dealer && "dealer",
      seat.seat === view.turn && "to_act",
      seat.looked && "looked",
      seat.folded && "folded",
      seat.away && "away",
    ].filter((mark) => typeof mark === "string");
    return h(
      "tr",
      { class: seat.seat === view.turn ? "turn" : "", "data-seat": seat.seat },
      h("td", { text: num(seat.seat + 1) }),
      h("th", { scope: "row" }, h("span", { text: seatName(view, seat.seat) }), ...marks.map((mark) => h("span", { class: "mark", text: ` · ${tr(mark)}` }))),
      h("td", { text: num(seat.stake) }),
      h("td", { text: points(seat.total, locale()) }),
    );
  });
  return h(
    "table",
    { id: "seats" },
    h("thead", {}, h("tr", {}, ...["seat", "player", "stake", "total"].map((key) => h("th", { scope: "col", text: tr(key) })))),
    h("tbody", {}, ...rows),
  );
}

/** @param {WatchView} view */
function render(view) {
  page.view = view;
  // Before its first deal (as a delayed spectator sees a match whose first deal is being
  // played) the status says so alone: no "series 0", no "deal 0 of 12".
  const line = [
    view.series > 0 && tr("series", { n: view.series }),
    view.deal_number > 0 && tr("deal_of", { n: view.deal_number, of: 12 }),
    tr(`status_${view.status}`),
    `${tr("pot")}: ${num(view.pot)}`,
    tr("watching", { n: view.watchers }),
  ]
    .filter((part) => typeof part === "string")
    .join(" · ");
  const winners = view.winners?.map((seat) => isolate(seatName(view, seat)));
  const main = h(
    "div",
    {},
    h("h2", { id: "watching", text: tr(`watching_${view.spectators}`) }),
    h("p", { id: "match-line", text: line }),
    seatsTable(view),
    winners?.length
      ? h("p", { class: "won", text: tr("won", { names: new Intl.ListFormat(locale(), { type: "conjunction" }).format(winners), n: winners.length }) })
      : null,
    view.last_deal
      ? dealPanel(view.last_deal, {
          tr,
          locale: locale(),
          name: (seat) => seatName(view, seat),
          you: null,
        })
      : null,
  );
  $("main").replaceChildren(...main.childNodes);
}

/** The status line: the catalogue's words, said again on a language switch. @param {(() => string)} words */
function say(words) {
  page.said = words;
  fill($("status"), words());
  $("status").dataset.kind = "error";
}

/** A problem in the catalogue's words by its code, never the server's English detail.
 * @param {unknown} error */
function stopped(error) {
  if (error instanceof Problem) {
    // A 429 without words of its own (the API's rate limit) says when to come back.
    const key = [`watch_${error.code}`, `problem_${error.code}`].find((name) => name in page.t);
    say(() => (key ? tr(key) : error.status === 429 ? tr("throttled", { s: error.retryAfter || 1 }) : tr("error")));
  } else if (error instanceof Offline) say(() => tr("offline"));
  else {
    console.error(error);
    say(() => tr("error"));
  }
}

async function refresh() {
  render(/** @type {WatchView} */ (await post("/watch", { watch_code: code })));
}

/** Follows the watch stream from `after`; a new ticket and ?after= after each drop. @param {number} after */
async function follow(after) {
  let last = after;
  let ticket;
  try {
    ({ ticket } = await post("/watch/tickets", { watch_code: code }));
  } catch (error) {
    // Past a watch limit (or the rate limit): say so, and try again when the server says.
    if (!(error instanceof Problem && error.status === 429)) throw error;
    stopped(error);
    setTimeout(() => follow(last).catch(stopped), (error.retryAfter || 30) * 1000);
    return;
  }
  const source = new EventSource(`${root}/watch/stream?ticket=${encodeURIComponent(ticket)}&after=${last}`);
  // Following again: the status line has nothing left to say, and the count now counts this page.
  source.onopen = () => {
    page.said = null;
    fill($("status"), "");
    refresh().catch(stopped);
  };
  // Every event type of a match: EventSource dispatches each SSE `event:` name on its own.
  for (const type of eventTypes(page.t))
    source.addEventListener(type, (message) => {
      const event = /** @type {MatchEvent} */ (JSON.parse(/** @type {MessageEvent} */ (message).data));
      last = Math.max(last, event.seq);
      refresh().catch(stopped);
      // The server ends the stream here: the match is over, or every human has left.
      if (event.type === "match_finished" || (event.type === "player_left" && event.abandoned)) source.close();
    });
  source.onerror = () => {
    // The browser would retry with the same ticket, which is used up: open anew instead.
    source.close();
    setTimeout(() => follow(last).catch(stopped), 2000);
  };
}

/** The table's rules dialog, fetched when first opened (rules.js words them in the table's
 * shared catalogue, given this page's). */
async function showRules() {
  const [{ state }, rules] = await Promise.all([import("./core.js"), import("./rules.js")]);
  state.t = page.t;
  const dialog = /** @type {HTMLDialogElement} */ ($("rules"));
  // Open already (a language switch): its words again, in the new language.
  if (dialog.open) dialog.replaceChildren(...rules.rulesContent());
  else rules.showRules();
}

/** @param {string} lang */
async function setLanguage(lang) {
  page.t = await useLanguage(lang);
  document.title = tr("watch_title");
  $("brand").textContent = tr("brand");
  const menu = /** @type {HTMLSelectElement} */ (h("select", { id: "lang" }));
  for (const [key, name] of Object.entries(LANGUAGES)) menu.append(h("option", { value: key, text: name }));
  menu.value = document.documentElement.lang;
  menu.addEventListener("change", () => setLanguage(menu.value).then(() => $("lang").focus()));
  const rules = h("button", { type: "button", id: "open-rules", class: "quiet", text: tr("rules") });
  rules.addEventListener("click", showRules);
  $("settings").replaceChildren(h("label", { for: "lang" }, h("span", { text: tr("language") }), menu), rules, displaySettings(tr));
  if (/** @type {HTMLDialogElement} */ ($("rules")).open) await showRules();
  if (page.view) render(page.view);
  if (page.said) say(page.said);
}

async function start() {
  // The look the table's Display settings keep in this browser.
  applyLook();
  await setLanguage(firstLanguage());
  if (!code) return say(() => tr("watch_no_code"));
  const view = /** @type {WatchView} */ (await post("/watch", { watch_code: code }));
  render(view);
  await follow(view.version);
}

start().catch(stopped);
