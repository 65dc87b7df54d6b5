// Plays one whole As-Nas match against a running server, typed by the types that
// openapi-typescript generates from openapi.yaml into schema.ts (`npm run generate`).
// Usage: node build/play.js http://127.0.0.1:8000 [seed]
// Prints a one-line JSON summary of the finished match.
import { Api, ProblemError, type Schemas } from "./api";
import { choose } from "./choose";

type MatchEvent = Schemas["MatchEvent"];

const [base, seed] = process.argv.slice(2);
if (!base) {
  console.error("usage: node build/play.js BASE_URL [SEED]");
  process.exit(2);
}
const api = new Api(base);
const call = api.call.bind(api);

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
    case "seat_freed":
      return `seat ${event.seat} is open again`;
    case "seats_filled":
      return `the AI took seats ${event.seats.join(", ")}`;
    case "seed_revealed":
      return `the tournament closed: series ${event.series}'s seed is revealed`;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

async function main(): Promise<void> {
  const player = await call("players_create", "POST", "/players", { name: "TypeScript" });
  api.token = player.token;
  // A token of its own for this "device", then rotated: the old one stops at once.
  api.token = (await call("players_tokens_issue", "POST", "/players/me/tokens")).token;
  api.token = (await call("players_tokens_rotate", "POST", "/players/me/tokens/rotate")).token;
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
  // The review, worked out by the server after each deal: 503 review_pending until then.
  // Ready within seconds; the bound is far above that, as the server reviews other tests'
  // matches too (test_python_client.py says why).
  let review: Schemas["Review"] | undefined;
  for (const until = Date.now() + 120_000; !review; ) {
    try {
      review = await call("matches_review", "GET", `/matches/${view.id}/review`);
    } catch (error) {
      if (!(error instanceof ProblemError) || error.problem.code !== "review_pending") throw error;
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const resigned = await call("matches_create", "POST", "/matches", { ai_level: "normal" });
  const gaveUp = await call("matches_resign", "POST", `/matches/${resigned.id}/resign`, {});
  // The unseeded match is rated as it finishes (a seeded one is not): typed as the schema's.
  const rating: Schemas["PlayerRating"] = (await call("players_me", "GET", "/players/me")).rating;
  const board = await call("leaderboard_list", "GET", "/leaderboard");
  // A new name, typed as the schema's request; a blank one is a problem that changes nothing.
  const renamed = await call("players_me_update", "PATCH", "/players/me", { name: "Roya" });
  const blank = await call("players_me_update", "PATCH", "/players/me", { name: " " }).catch(
    (error: unknown) => (error instanceof ProblemError ? error.problem.code : "no problem"),
  );
  const nameNow = (await call("players_me", "GET", "/players/me")).name;

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
      rating: {
        matches: rating.matches,
        rated: rating.history.map((change) => `${change.match_id} ${change.place}`),
        fell: rating.mu < rating.history[0].before.mu,
        onBoard: board.results.some((entry) => entry.you),
      },
      rename: [renamed.name, blank, nameNow],
      winners: view.winners,
      totals: view.seats.map((seat) => seat.total),
      review: {
        seats: review.seats.map((seat) => seat.seat),
        deals: review.seats[0].deals.map((deal) => deal.deal_number),
        lost: review.seats[0].lost,
        lost_rounded: review.seats[0].lost_rounded,
        accuracy: review.seats[0].accuracy,
        decisions: review.seats[0].deals.flatMap((deal) =>
          deal.decisions.map((d) => `${d.action} ${d.grade} ${d.lost} ${d.values.length}`),
        ),
      },
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
