// Plays one whole As-Nas match against a running server, typed by the types that
// openapi-typescript generates from openapi.yaml into schema.ts (`npm run generate`).
// Usage: node build/play.js http://127.0.0.1:8000 [seed]
// Prints a one-line JSON summary of the finished match.
import type { components, operations } from "./schema";

type Schemas = components["schemas"];
type MatchView = Schemas["MatchView"];
type MatchEvent = Schemas["MatchEvent"];
type Operation = keyof operations;
type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type Success<O extends Operation> = JsonOf<
  operations[O]["responses"][keyof operations[O]["responses"] & (200 | 201)]
>;
type RequestBody<O extends Operation> = JsonOf<NonNullable<operations[O]["requestBody"]>>;

class ProblemError extends Error {
  constructor(operation: Operation, readonly problem: Schemas["Problem"]) {
    super(`${operation}: ${problem.status} ${problem.code}: ${problem.detail}`);
  }
}

const [base, seed] = process.argv.slice(2);
if (!base) {
  console.error("usage: node build/play.js BASE_URL [SEED]");
  process.exit(2);
}
let token: string | undefined;

// One request to operation O: its body and its answer are the types the schema gives O.
async function call<O extends Operation>(
  operation: O,
  method: "GET" | "POST",
  path: string,
  body?: RequestBody<O>,
): Promise<Success<O>> {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
  });
  const json: unknown = await response.json();
  if (!response.ok) {
    throw new ProblemError(operation, json as Schemas["Problem"]);
  }
  return json as Success<O>;
}

// Look first, raise with three of a kind or better, otherwise stay in as cheaply as allowed.
function choose(view: MatchView): Schemas["ActionName"] {
  const legal = new Set(view.legal_actions);
  const strong: (Schemas["HandCategory"] | null)[] = [
    "three_of_a_kind",
    "full_house",
    "four_of_a_kind",
  ];
  if (legal.has("look")) return "look";
  if (legal.has("raise") && strong.includes(view.your_category)) return "raise";
  for (const action of ["hold", "call"] as const) {
    if (legal.has(action)) return action;
  }
  return "fold";
}

function describe(event: MatchEvent): string {
  // Exhaustive over the union: a new event type, or a union without its `type` tags,
  // fails to compile here.
  switch (event.type) {
    case "match_created":
      return "created";
    case "deal_started":
      return `deal ${event.deal_number}, dealer ${event.dealer}`;
    case "action":
      return `seat ${event.seat} ${event.action}`;
    case "deal_ended":
      return `deal ${event.deal_number} ${event.outcome}, winners ${event.winners}`;
    case "match_finished":
      return `finished, totals ${event.totals.join(" ")}`;
    case "match_restarted":
      return `series ${event.series}`;
    case "resigned":
      return `seat ${event.seat} resigned`;
    case "player_joined":
      return `${event.name} sat at seat ${event.seat}`;
    case "player_left":
      return `seat ${event.seat} left${event.abandoned ? ", the match is abandoned" : ""}`;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

async function main(): Promise<void> {
  const player = await call("players_create", "POST", "/players", { name: "TypeScript" });
  token = player.token;
  // A token of its own for this "device", then rotated: the old one stops at once.
  token = (await call("players_tokens_issue", "POST", "/players/me/tokens")).token;
  token = (await call("players_tokens_rotate", "POST", "/players/me/tokens/rotate")).token;
  let view = await call("matches_create", "POST", "/matches", {
    ai_level: "easy",
    ...(seed ? { seed: Number(seed) } : {}),
  });
  // Each write's answer carries the events it appended: together, the whole history.
  const replies: MatchEvent[] = [...view.events];
  // The coach, once the cards are seen: typed as the schema's Hint.
  let hint: Schemas["Hint"] | undefined;
  while (view.status !== "finished") {
    const path = `/matches/${view.id}`;
    view =
      view.status === "deal_over"
        ? await call("matches_next_deal", "POST", `${path}/next-deal`, {})
        : await call("matches_act", "POST", `${path}/actions`, {
            action: choose(view),
            expected_version: view.version,
          });
    replies.push(...view.events);
    if (!hint && view.your_cards && view.status === "in_deal") {
      hint = await call("matches_hint", "GET", `/matches/${view.id}/hint`);
    }
  }
  const resigned = await call("matches_create", "POST", "/matches", { ai_level: "normal" });
  const gaveUp = await call("matches_resign", "POST", `/matches/${resigned.id}/resign`, {});

  const events: MatchEvent[] = [];
  for (let more = true; more; ) {
    const after = events.length ? events[events.length - 1].seq : 0;
    const page = await call("matches_events", "GET", `/matches/${view.id}/events?after=${after}`);
    events.push(...page.events);
    more = page.has_more;
  }
  const deals = events.filter((event) => event.type === "deal_ended").length;
  console.log(
    JSON.stringify({
      match: view.id,
      status: view.status,
      deal_number: view.deal_number,
      deals,
      version: view.version,
      events: events.map(describe),
      replies_are_the_events: JSON.stringify(replies) === JSON.stringify(events),
      resigned: gaveUp.events.map(describe),
      winners: view.winners,
      totals: view.seats.map((seat) => seat.total),
      hint: hint && {
        exact: hint.values_are_exact,
        hand_rank: hint.hand_rank,
        showdown_win: hint.showdown_win,
        actions: hint.actions.map((a) => `${a.action} ${a.hard_probability} ${a.expected_value}`),
      },
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
