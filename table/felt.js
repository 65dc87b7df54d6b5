// The match drawn as a table: four seats around an oval felt, each seat's stake in front of it
// as a chip, the dealer's button, the pot in the middle, face-down cards at every seat that
// holds a hidden hand and the showdown's hands face up; and the motion of a deal (cards dealt
// one at a time, counter-clockwise from the dealer's right; stakes into the pot; the pot to its
// winners). The motion never holds the page: it plays beside it, and a table drawn anew in
// the middle of it (each move draws it again) takes it up where it was.
import { card } from "./cards.js";
import { locale, num, seatName, state, tr, trAny } from "./core.js";
import { approx, points } from "./fractions.js";
import { reducedMotion } from "./look.js";
import { h } from "./words.js";

/** @typedef {import('./api.js').MatchView} MatchView */

const SEATS = 4;
const CARDS = 5;
/** Between two cards dealt, and one card's (or chip's) flight. */
const CARD_MS = 70;
const FLIGHT_MS = 280;
const DEAL_MS = (SEATS * CARDS - 1) * CARD_MS + FLIGHT_MS;
/** The stakes reach the pot, then the pot goes to its winners. */
const TO_WINNERS_MS = 550;
const SETTLE_MS = TO_WINNERS_MS + FLIGHT_MS;

/** When the deal now shown began to be dealt, and when the last deal's pot began to move
 * (performance.now()). */
const motion = {
  /** @type {{ at: number, match: string, deal: number } | null} */ deal: null,
  /** @type {{ at: number, match: string, deal: number } | null} */ settle: null,
};

/** A deal starts on the table: its cards are to be dealt. @param {string} match @param {number} deal */
export function dealing(match, deal) {
  if (!reducedMotion()) motion.deal = { at: performance.now(), match, deal };
}

/** A deal ends on the table: the stakes go to the pot and the pot to its winners.
 * @param {string} match @param {number} deal */
export function settling(match, deal) {
  if (!reducedMotion()) motion.settle = { at: performance.now(), match, deal };
}

/** How long the pot still moves to its winners, in ms: the deal's result scrolls into view
 * after it, so that the player sees where the pot went. */
export function settleLeft() {
  const settle = motion.settle;
  return settle && !reducedMotion() ? Math.max(0, settle.at + SETTLE_MS - performance.now()) : 0;
}

/** The place of `seat` seen from the seat at the bottom: 0 there, 1 on its right (the seat
 * that acts after it), 2 across, 3 on its left. @param {MatchView} match @param {number} seat */
const place = (match, seat) => (seat - (match.your_seat ?? 0) + SEATS) % SEATS;

/** Which card of the deal this is, counted from the first: round by round, from the dealer's
 * right (docs/rules.md: dealt one at a time, counter-clockwise from the dealer's right).
 * @param {MatchView} match @param {number} seat @param {number} index */
const dealOrder = (match, seat, index) => index * SEATS + ((seat - (match.dealer ?? 0) - 1 + 2 * SEATS) % SEATS);

/** The hand a seat shows at the showdown of the deal just over, if it showed one.
 * @param {MatchView} match @param {number} seat */
function shown(match, seat) {
  if (match.status === "in_deal") return null;
  return match.last_deal?.seats.find((entry) => entry.seat === seat)?.hand ?? null;
}

/** The cards in front of a seat other than yours: face down while it holds a hidden hand, face
 * up when the showdown shows them; read aloud in the deal's result, so hidden here.
 * @param {MatchView} match @param {import('./api.js').MatchView['seats'][number]} seat */
function held(match, seat) {
  const hand = shown(match, seat.seat);
  const hidden = !hand && !seat.folded && match.status !== "waiting" && (match.status === "in_deal" || match.last_deal);
  if (!hand && !hidden) return null;
  const row = h("div", { class: hand ? "held shown" : "held", "aria-hidden": "true" });
  for (let i = 0; i < CARDS; i++) {
    const drawn = hand ? card(hand[i], trAny(hand[i])) : card(null, tr("card_down"));
    drawn.dataset.order = String(dealOrder(match, seat.seat, i));
    row.append(drawn);
  }
  return row;
}

/** Your own cards, large, under the felt: face up once you looked (or the showdown showed
 * them), else face down. @param {MatchView} match */
export function yourHand(match) {
  const you = match.your_seat ?? 0;
  const ranks = match.your_cards ?? shown(match, you);
  const cards = h("div", { class: "hand", role: "group", "aria-label": tr("your_cards") });
  for (let i = 0; i < CARDS; i++) {
    const rank = ranks?.[i] ?? null;
    const drawn = card(rank, rank ? trAny(rank) : tr("card_down"));
    drawn.dataset.order = String(dealOrder(match, you, i));
    cards.append(drawn);
  }
  return cards;
}

/** A chip with a figure on it, its meaning said to a screen reader. @param {string} cls
 * @param {string} words what it is ("Stake: 2") @param {string} figure what it shows ("2") */
const chip = (cls, words, figure) =>
  h("p", { class: `chip ${cls}` }, h("span", { class: "said", text: words }), h("span", { class: "figure", "aria-hidden": "true", text: figure }));

/** One seat's place at the table. @param {MatchView} match @param {MatchView['seats'][number]} seat */
function seatPlace(match, seat) {
  const you = match.your_seat;
  const inDeal = match.status === "in_deal";
  const flags = [
    inDeal && seat.seat === match.turn && tr("to_act"),
    seat.folded && tr("folded"),
    seat.looked && !seat.folded && tr("looked"),
    seat.away && tr(state.left.has(seat.seat) ? "left" : "away"),
  ].filter(Boolean);
  const clock = match.turn_deadline && inDeal && seat.seat === match.turn;
  const name = seat.seat === you ? `${seatName(seat)} (${tr("you")})` : seatName(seat);
  const deal = match.last_deal;
  const won = !inDeal && deal?.winners.includes(seat.seat) ? deal.seats.find((entry) => entry.seat === seat.seat) : null;
  const at = place(match, seat.seat);
  return h(
    "section",
    {
      class: `seat seat-${at}${seat.folded ? " folded" : ""}${seat.away ? " away" : ""}${seat.name === null ? " open" : ""}${inDeal && seat.seat === match.turn ? " turn" : ""}${won ? " winner" : ""}`,
      "data-seat": seat.seat,
      "aria-label": name,
    },
    h("h3", { text: name }),
    match.dealer === seat.seat && match.status !== "waiting" && h("p", { class: "dealer-button", text: tr("dealer") }),
    h("p", { class: "total", text: `${tr("total")}: ${points(seat.total, locale())}` }),
    h("p", { class: "flags", text: flags.join(" · ") }),
    clock && h("p", { id: "clock", class: "clock", role: "timer", "aria-label": tr("time_left") }),
    at === 0 ? null : held(match, seat),
    // In front of the seat, toward the pot: its stake while the deal is played, what it won
    // from the pot once the deal is over.
    inDeal || !won
      ? chip(`stake${inDeal && seat.stake > 0 ? "" : " none"}`, `${tr("stake")}: ${num(seat.stake)}`, num(seat.stake))
      : chip("stake won", `${tr("payout")}: ${points(won.payout, locale())}`, points(won.payout, locale())),
  );
}

/** The middle of the felt: the deal's number, the pot and the high stake, and the chips the
 * stakes became on their way to the winners. @param {MatchView} match */
function middle(match) {
  const open = match.seats.filter((seat) => seat.name === null).length;
  const pile = h("div", { class: "pile", "aria-hidden": "true" });
  const settle = motion.settle;
  const deal = match.last_deal;
  // Each seat's stake was its payout less its change (docs/rules.md: the score is the payout
  // less the stake).
  if (settle && deal && settle.match === match.id && settle.deal === deal.deal_number && match.status !== "in_deal")
    for (const seat of deal.seats)
      if (approx(seat.payout) - approx(seat.delta) > 0) pile.append(h("span", { class: "chip", "data-from": seat.seat }));
  return h(
    "div",
    { class: "felt" },
    h("h2", {
      class: "deal-no",
      text: match.status === "waiting" ? tr("waiting", { n: open }) : tr("deal_of", { n: match.deal_number, of: 12 }),
    }),
    pile,
    h("p", { class: "pot", text: `${tr("pot")}: ${num(match.pot)}` }),
    h("p", { class: "high", text: `${tr("high_stake")}: ${num(match.high_stake)}` }),
  );
}

/** The table: the oval felt, the seats around it, your cards under it. @param {MatchView} match */
export function feltTable(match) {
  return h(
    "div",
    { class: "table", id: "table", "data-status": match.status, "data-version": match.version },
    h("div", { class: "baize", "aria-hidden": "true" }),
    middle(match),
    ...match.seats.map((seat) => seatPlace(match, seat)),
  );
}

/** The middle of an element's box. @param {Element} element */
function centre(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/** Flies `element` to where it is drawn from the middle of `from`, starting `delay` ms after
 * `since` ms ago, and, if `fade`, fades it away on arrival.
 * @param {HTMLElement} element @param {Element} from @param {number} delay @param {number} since @param {boolean} [fade] */
function fly(element, from, delay, since, fade = false) {
  const [start, end] = [centre(from), centre(element)];
  const away = `translate(${start.x - end.x}px, ${start.y - end.y}px) scale(.6)`;
  const frames = fade
    ? [{ transform: away, opacity: 0.4 }, { transform: "none", opacity: 1, offset: 0.7 }, { transform: "none", opacity: 0 }]
    : [{ transform: away, opacity: 0.4 }, { transform: "none", opacity: 1 }];
  // Before its turn it is not there yet; once there, it is as the stylesheet draws it (the
  // pile's chips, gone to the winners, are not drawn).
  const flight = element.animate(frames, { duration: fade ? FLIGHT_MS * 1.6 : FLIGHT_MS, delay, easing: "ease-out", fill: "backwards" });
  flight.currentTime = since;
}

/** Plays what is still to play of the motion, on the table just drawn. @param {MatchView} match */
export function moveOnFelt(match) {
  const table = document.getElementById("table");
  if (!table || reducedMotion()) return;
  const now = performance.now();
  const deal = motion.deal;
  if (deal && deal.match === match.id && deal.deal === match.deal_number && now - deal.at < DEAL_MS) {
    const from = table.querySelector(`.seat[data-seat="${match.dealer}"]`) ?? table;
    for (const drawn of table.parentElement?.querySelectorAll(".held .card, .hand .card") ?? [])
      fly(/** @type {HTMLElement} */ (drawn), from, Number(/** @type {HTMLElement} */ (drawn).dataset.order) * CARD_MS, now - deal.at);
  }
  const settle = motion.settle;
  if (!settle || settle.match !== match.id || now - settle.at >= SETTLE_MS + FLIGHT_MS) return;
  const since = now - settle.at;
  for (const stake of table.querySelectorAll(".pile .chip")) {
    const seat = table.querySelector(`.seat[data-seat="${/** @type {HTMLElement} */ (stake).dataset.from}"]`);
    if (seat) fly(/** @type {HTMLElement} */ (stake), seat, 0, since, true);
  }
  const pot = table.querySelector(".pile") ?? table;
  // A split pot goes its several ways at once, each share on a chip of its own.
  for (const won of table.querySelectorAll(".chip.won")) fly(/** @type {HTMLElement} */ (won), pot, TO_WINNERS_MS, since);
}
