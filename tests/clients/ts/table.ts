// Two humans play one table against a running server, each as a client of its own would:
// each follows the match on its own Server-Sent Events stream and its own player stream
// (opened with single-use stream tickets, through the `eventsource` package, since Node 20
// has no EventSource), and acts when its `your_turn` notice comes. Every message either
// receives is checked for the other seats' hidden cards.
// Usage: node build/table.js BASE_URL [SEED]
// Prints a one-line JSON summary of the finished match.
import { EventSource } from "eventsource";
import { Api, ProblemError, type Schemas } from "./api";
import { choose } from "./choose";

type MatchEvent = Schemas["MatchEvent"];
type MatchView = Schemas["MatchView"];

// Every type of match event, each an SSE `event:` name. A Record over the union's tags: a new
// event type that is not listed here fails to compile.
const MATCH_EVENTS: Record<MatchEvent["type"], true> = {
  match_created: true,
  player_joined: true,
  deal_started: true,
  action: true,
  deal_ended: true,
  match_finished: true,
  match_restarted: true,
  resigned: true,
  player_left: true,
  seat_freed: true,
  seats_filled: true,
  seed_revealed: true,
};
const NOTICES = ["your_turn", "match_started", "match_finished"] as const;
// Keys that would carry cards anywhere but in a deal's result or your own `your_cards`.
const CARD_KEYS = new Set(["hand", "hands", "cards", "deck", "seed"]);

const [base, seed] = process.argv.slice(2);
if (!base) {
  console.error("usage: node build/table.js BASE_URL [SEED]");
  process.exit(2);
}

class Side {
  readonly api = new Api(base);
  seat = -1;
  readonly events: MatchEvent[] = [];
  readonly notices: Record<(typeof NOTICES)[number], number> = {
    your_turn: 0,
    match_started: 0,
    match_finished: 0,
  };
  readonly leaks: string[] = [];
  checked = 0;
  othersShown = 0;
  connections = 0;
  // This seat's own cards in each deal, by deal number, once it has looked.
  readonly hands = new Map<number, string[]>();
  // Settled once both streams told the match's end: the match stream its match_finished
  // event, the player stream its match_finished notice.
  readonly finished: Promise<void>;
  private endsToCome = 2;
  private resolveFinished!: () => void;
  private readonly sources: EventSource[] = [];
  // Settled by the player stream's first bytes, which the server sends once it listens
  // (games/streams.py): a notice of anything done after that cannot be missed.
  readonly listening: Promise<void>;
  private resolveListening!: () => void;
  // One move at a time: each notice's work waits for the one before.
  private busy: Promise<void> = Promise.resolve();

  constructor(readonly name: string) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    this.listening = new Promise((resolve) => (this.resolveListening = resolve));
  }

  async register(): Promise<void> {
    const body = { name: this.name };
    this.api.token = (await this.api.call("players_create", "POST", "/players", body)).token;
  }

  // An EventSource on `path` whose every connection, the first and each reconnection (which
  // resumes from Last-Event-ID), gets a fresh ticket: a ticket is good once. The token itself
  // never goes into a URL. `firstBytes` is called as the body's first bytes arrive.
  private open(path: string, matchId: string | null, firstBytes?: () => void): EventSource {
    const source = new EventSource(`${base}/api/v1${path}`, {
      fetch: async (url, init) => {
        const { ticket } = await this.api.call("stream_tickets_create", "POST", "/stream-tickets", {
          match_id: matchId,
        });
        const ticketed = new URL(url);
        ticketed.searchParams.set("ticket", ticket);
        this.connections += 1;
        const response = await fetch(ticketed, init);
        if (!firstBytes || !response.body) return response;
        const told = firstBytes;
        const body = response.body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              told();
              controller.enqueue(chunk);
            },
          }),
        );
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    source.addEventListener("error", (error) => {
      if (source.readyState === EventSource.CLOSED) {
        fail(new Error(`${this.name}: ${path} closed: ${error.message}`));
      }
    });
    this.sources.push(source);
    return source;
  }

  followMatch(matchId: string): void {
    const source = this.open(`/matches/${matchId}/stream`, matchId);
    for (const type of Object.keys(MATCH_EVENTS)) {
      source.addEventListener(type, (message) => {
        const event = JSON.parse(message.data) as MatchEvent;
        this.inspect(event);
        if (String(event.seq) !== message.lastEventId || event.type !== message.type) {
          const carried = `${event.seq} ${event.type}`;
          this.leaks.push(`event ${message.lastEventId} ${message.type} carries ${carried}`);
        }
        this.events.push(event);
        if (event.type === "deal_ended" && this.seat === 0 && event.deal_number < 12) {
          this.then(() => this.nextDeal(matchId));
        }
        if (event.type === "match_finished") this.ended(source);
      });
    }
  }

  followNotices(): void {
    const source = this.open("/players/me/stream", null, this.resolveListening);
    for (const name of NOTICES) {
      source.addEventListener(name, (message) => {
        const notice = JSON.parse(message.data) as Schemas["PlayerNotice"];
        this.inspect(notice);
        this.notices[name] += 1;
        if (name === "your_turn") this.then(() => this.playTurn(notice.match_id));
        if (name === "match_finished") this.ended(source);
      });
    }
  }

  // The server ends a match stream after match_finished; closing it here keeps EventSource
  // from reconnecting. The player stream goes on for other matches, so it is closed by hand.
  private ended(source: EventSource): void {
    source.close();
    this.endsToCome -= 1;
    if (this.endsToCome === 0) this.resolveFinished();
  }

  close(): void {
    for (const source of this.sources) source.close();
  }

  private then(work: () => Promise<void>): void {
    this.busy = this.busy.then(work).catch(fail);
  }

  // Look, then act, until the turn passes; a turn that moved on meanwhile is left alone.
  private async playTurn(matchId: string): Promise<void> {
    let view: MatchView = await this.api.call("matches_retrieve", "GET", `/matches/${matchId}`);
    this.inspect(view);
    while (view.status === "in_deal" && view.turn === view.your_seat) {
      try {
        view = await this.api.call("matches_act", "POST", `/matches/${matchId}/actions`, {
          action: choose(view),
          expected_version: view.version,
        });
      } catch (error) {
        if (error instanceof ProblemError && error.problem.status === 409) return;
        throw error;
      }
      this.inspect(view);
      if (view.your_cards) this.hands.set(view.deal_number, view.your_cards);
    }
  }

  // The owner deals on; a deal that another seat or the clock already started is fine.
  private async nextDeal(matchId: string): Promise<void> {
    try {
      const path = `/matches/${matchId}/next-deal`;
      this.inspect(await this.api.call("matches_next_deal", "POST", path, {}));
    } catch (error) {
      if (!(error instanceof ProblemError && error.problem.status === 409)) throw error;
    }
  }

  // Cards may appear only as this seat's own `your_cards`, or in a deal's result: another
  // seat's hand only after a showdown it reached (folded hands stay hidden), and then the
  // very hand that seat held.
  inspect(message: unknown, where = "", result?: Schemas["DealResult"]): void {
    if (where === "") this.checked += 1;
    if (Array.isArray(message)) {
      message.forEach((item, index) => this.inspect(item, `${where}[${index}]`, result));
      return;
    }
    if (message === null || typeof message !== "object") return;
    const object = message as Record<string, unknown>;
    if ("outcome" in object && "seats" in object) result = object as Schemas["DealResult"];
    for (const [key, value] of Object.entries(object)) {
      if ((key === "hand" || key === "category") && result && value !== null) {
        this.checkShown(result, object as Schemas["DealResultSeat"], `${where}.${key}`);
      } else if (key === "skill" && result && value !== null) {
        // Skill figures (docs/skill.md) depend on every hand: at this table, which is not
        // verifiable, only a deal whose hands this seat all saw may carry them.
        const unseen = result.seats.some((seat) => seat.hand === null && seat.seat !== this.seat);
        if (unseen) this.leaks.push(`${this.name} got ${where}.${key} with a hand unseen`);
        continue; // its `cards` is a figure, not cards
      } else if (key === "skill" && "last_deal" in object && value !== null) {
        // The view's sums: only once every deal of the series may be seen, the last one too.
        const last = (object as MatchView).last_deal;
        const unseen = !last || last.seats.some((seat) => seat.hand === null && seat.seat !== this.seat);
        if (unseen) this.leaks.push(`${this.name} got ${where}.${key} with a hand unseen`);
        continue;
      } else if (CARD_KEYS.has(key) && value !== null) {
        this.leaks.push(`${this.name} got ${where}.${key}`);
      } else if (key === "your_cards" && value !== null) {
        const own = this.hands.get((object as MatchView).deal_number);
        if (own && JSON.stringify(own) !== JSON.stringify(value)) {
          this.leaks.push(`${this.name}: your_cards not its own`);
        }
      }
      this.inspect(value, `${where}.${key}`, result);
    }
  }

  private checkShown(
    result: Schemas["DealResult"],
    seat: Schemas["DealResultSeat"],
    where: string,
  ): void {
    if (seat.seat === this.seat) return;
    if (result.outcome !== "showdown" || seat.folded) {
      this.leaks.push(`${this.name} saw seat ${seat.seat}'s hidden hand at ${where}`);
    }
    if (where.endsWith(".category")) return;
    this.othersShown += 1;
    const held = sides.find((side) => side.seat === seat.seat)?.hands.get(result.deal_number);
    if (held && JSON.stringify(held) !== JSON.stringify(seat.hand)) {
      this.leaks.push(`${this.name} was shown a hand seat ${seat.seat} did not hold`);
    }
  }
}

const sides = [new Side("Roya"), new Side("Babak")];

function fail(error: unknown): never {
  console.error(error);
  process.exit(1);
}

async function main(): Promise<void> {
  const [owner, friend] = sides;
  await owner.register();
  await friend.register();
  const table = await owner.api.call("matches_create", "POST", "/matches", {
    humans: 2,
    ai_level: "easy",
    ...(seed ? { seed: Number(seed) } : {}),
  });
  owner.seat = table.your_seat;
  owner.inspect(table);
  owner.followMatch(table.id);
  owner.followNotices();
  friend.followNotices();

  // A ticket is good once: a second use is refused.
  const { ticket } = await friend.api.call("stream_tickets_create", "POST", "/stream-tickets", {});
  const first = await fetch(`${base}/api/v1/players/me/stream?ticket=${ticket}`);
  await first.body?.cancel();
  const again = await fetch(`${base}/api/v1/players/me/stream?ticket=${ticket}`);
  const reused = ((await again.json()) as Schemas["Problem"]).code;

  // Both listen before the join starts the match, so each is told of its start.
  await Promise.all(sides.map((side) => side.listening));
  const joined = await friend.api.call("matches_join", "POST", `/matches/${table.id}/join`, {
    invite: table.invite ?? fail(new Error("the owner sees no invite")),
  });
  friend.seat = joined.your_seat;
  friend.inspect(joined);
  friend.followMatch(table.id);

  await Promise.all(sides.map((side) => side.finished));
  for (const side of sides) side.close();
  const view = await owner.api.call("matches_retrieve", "GET", `/matches/${table.id}`);
  console.log(
    JSON.stringify({
      status: view.status,
      deal_number: view.deal_number,
      version: view.version,
      totals: view.seats.map((seat) => seat.total),
      reused_ticket: `${again.status} ${reused}`,
      sides: sides.map((side) => ({
        seat: side.seat,
        seqs: side.events.map((event) => event.seq),
        deals_ended: side.events.filter((event) => event.type === "deal_ended").length,
        joined: side.events.flatMap((event) => (event.type === "player_joined" ? [event.seat] : [])),
        notices: side.notices,
        connections: side.connections,
        checked: side.checked,
        others_shown: side.othersShown,
        own_hands: side.hands.size,
        leaks: side.leaks,
      })),
    }),
  );
}

main().catch(fail);
