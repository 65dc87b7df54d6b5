// The spectator's page, watch.html#watch=CODE: the table as spectators see it (no hand but
// those a showdown showed), followed live. The code stays in the fragment, which a browser
// never sends; it reaches the server only in a request body or the Watch-Code header.

/** @typedef {import('./schema').components['schemas']} Schemas */
/** @typedef {Schemas['WatchView']} WatchView */
/** @typedef {Schemas['MatchEvent']} MatchEvent */
import { figure } from "./fractions.js";

/** Every event type of a match: EventSource dispatches each SSE `event:` name on its own. */
const TYPES = [
  "match_created", "deal_started", "action", "deal_ended", "match_finished",
  "match_restarted", "resigned", "player_joined", "player_left",
];

const base = new URLSearchParams(location.search).get("api")
  ?? document.querySelector('meta[name="asnas-api"]')?.getAttribute("content") ?? "";
const root = base.replace(/\/+$/, "") + "/api/v1";
const code = new URLSearchParams(location.hash.slice(1)).get("watch") ?? "";
const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const statusLine = /** @type {HTMLElement} */ (document.getElementById("status"));

/** @param {string} path @param {object} body @returns {Promise<any>} */
async function post(path, body) {
  const response = await fetch(root + path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail || `HTTP ${response.status}`);
  return data;
}

/** @param {string} tag @param {Record<string, string>} attributes @param {(Node | string)[]} children */
function h(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** @param {WatchView} view */
function render(view) {
  const rows = view.seats.map((seat) =>
    h("tr", seat.seat === view.turn ? { class: "turn" } : {}, [
      h("td", {}, [String(seat.seat)]),
      h("td", {}, [seat.name ?? "(open seat)"]),
      h("td", {}, [String(seat.stake)]),
      h("td", {}, [seat.total]),
      h("td", {}, [[seat.seat === view.dealer && "dealer", seat.looked && "looked", seat.folded && "folded", seat.away && "away"].filter(Boolean).join(", ")]),
    ]));
  const last = view.last_deal;
  const shown = last
    ? h("table", { id: "last-deal" }, [
        h("caption", {}, [`Deal ${last.deal_number}: ${last.outcome}`]),
        ...last.seats.map((seat) => h("tr", {}, [
          h("td", {}, [view.seats[seat.seat].name ?? ""]),
          h("td", {}, [seat.hand ? seat.hand.join(" ") : seat.folded ? "folded" : "hidden"]),
          h("td", {}, [seat.delta]),
          h("td", { class: "skill", title: seat.skill ? `${seat.skill.cards} · ${seat.skill.play} · ${seat.skill.table}` : "" }, [
            seat.skill ? `cards ${figure(seat.skill.cards, "en")} · play ${figure(seat.skill.play, "en")} · the others ${figure(seat.skill.table, "en")}` : "",
          ]),
        ])),
      ])
    : "";
  main.replaceChildren(
    h("p", { id: "watching" }, [`Watching (${view.spectators}) · series ${view.series}, deal ${view.deal_number} of 12 · ${view.status.replace("_", " ")} · pot ${view.pot} · ${view.watchers} watching`]),
    h("table", { id: "seats" }, [h("tr", {}, ["Seat", "Player", "Stake", "Total", ""].map((name) => h("th", {}, [name]))), ...rows]),
    shown,
  );
}

async function refresh() {
  render(/** @type {WatchView} */ (await post("/watch", { watch_code: code })));
}

/** Follows the watch stream from `after`; a new ticket and ?after= after each drop. @param {number} after */
async function follow(after) {
  let last = after;
  const { ticket } = await post("/watch/tickets", { watch_code: code });
  const source = new EventSource(`${root}/watch/stream?ticket=${encodeURIComponent(ticket)}&after=${last}`);
  for (const type of TYPES)
    source.addEventListener(type, (message) => {
      const event = /** @type {MatchEvent} */ (JSON.parse(/** @type {MessageEvent} */ (message).data));
      last = Math.max(last, event.seq);
      refresh();
      // The server ends the stream here: the match is over, or every human has left.
      if (event.type === "match_finished" || (event.type === "player_left" && event.abandoned)) source.close();
    });
  source.onerror = () => {
    // The browser would retry with the same ticket, which is used up: open anew instead.
    source.close();
    setTimeout(() => follow(last).catch(stopped), 2000);
  };
}

/** @param {unknown} error */
function stopped(error) {
  statusLine.textContent = `Not watching: ${error instanceof Error ? error.message : error}`;
}

if (!code) stopped("this link has no watch code");
else
  post("/watch", { watch_code: code })
    .then((/** @type {WatchView} */ view) => {
      render(view);
      return follow(view.version);
    })
    .catch(stopped);
