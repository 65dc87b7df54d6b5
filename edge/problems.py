"""The one table of error codes. Each code has its HTTP status, when it is answered and an
example detail; the exception handler (asnas_api.errors), the OpenAPI examples
(edge.schema) and the table in docs/rules.md all come from it.

The domain raises `DomainError(code, detail)` without knowing HTTP; the codes marked
`framework` are raised by DRF or Django and listed here so that clients find every code in
one place."""

from dataclasses import dataclass
from http import HTTPStatus


@dataclass(frozen=True, slots=True)
class Problem:
    status: int
    when: str
    """For the docs table: when a client gets this code."""
    example: str
    """A typical `detail`, for the OpenAPI examples."""
    retry_after: int | None = None
    """Seconds for the Retry-After header, where a retry soon may succeed."""
    framework: bool = False
    """Raised by DRF or Django rather than by a DomainError."""
    fields: tuple[tuple[str, object], ...] = ()
    """The body's fields beside the usual ones, with example values (ProblemSerializer
    documents them)."""

    @property
    def title(self) -> str:
        return HTTPStatus(self.status).phrase


PROBLEMS: dict[str, Problem] = {
    "not_your_turn": Problem(409, "It is another seat's turn.", "It is seat 2's turn."),
    "deal_over": Problem(
        409, "The deal is over; start the next one.", "The deal is over; start the next deal."
    ),
    "deal_in_progress": Problem(
        409, "`next-deal` while a deal is on.", "The current deal is not over yet."
    ),
    "match_finished": Problem(
        409,
        "An action or `next-deal` after deal 12.",
        "The match is finished; restart to play again.",
    ),
    "match_not_started": Problem(
        409,
        "An action or `next-deal` while a table waits for its humans.",
        "The match has not started.",
    ),
    "match_already_started": Problem(
        409, "Starting a match twice (engine only).", "The match has already started."
    ),
    "match_abandoned": Problem(
        409,
        "A command at a match every human has left.",
        "Every human left this match; nobody plays it.",
    ),
    "match_full": Problem(
        409, "Joining a table whose seats are all taken.", "Every seat of this table is taken."
    ),
    "already_seated": Problem(
        409, "Joining a table you already sit at.", "You already sit at this table."
    ),
    "not_a_table": Problem(
        422,
        "`open`, `fill_after` or `bots` for a match with one human: only a table waits for others.",
        "Only a table (humans above 1) is open, filled or allows bots.",
    ),
    "not_seated": Problem(
        409,
        "Acting, starting a deal or leaving after you left the match.",
        "You left this match; the AI plays your seat.",
    ),
    "restart_not_allowed": Problem(
        409,
        "Restarting a shared table: only its owner may, once it is finished; or a "
        "tournament's or a bot benchmark's match, which is one series.",
        "At a shared table only the owner restarts, once the match is finished.",
    ),
    "hints_not_allowed": Problem(
        409,
        "A hint in a match where another seat is a human's or a bot's, or in a tournament's "
        "match: the coach is for matches against the AI only, outside tournaments.",
        "Hints are for matches where every other seat is an AI seat; this one has 2 seats of "
        "humans or bots.",
    ),
    "bot_after_matches": Problem(
        409,
        "Declaring yourself a bot after sitting at a match: others met you as a human.",
        "A player who has sat at a match stays a human: register the bot as a new player.",
        framework=True,
    ),
    "not_for_bots": Problem(
        403,
        "A bot asking what only humans may (docs/bots.md): a hint, or a table for humans.",
        "A bot plays without the coach's hints.",
    ),
    "bots_not_allowed": Problem(
        409,
        "A bot joining a table, or entering a tournament, whose owner did not allow bots.",
        "This table's owner did not allow bots.",
    ),
    "only_for_bots": Problem(
        403,
        "A human asking for what only a bot has: a benchmark (docs/bots.md).",
        "Only a bot is benchmarked: declare the account a bot first.",
    ),
    "invalid_benchmark_size": Problem(
        422,
        "A benchmark of a number of deals that is not a multiple of 12 from 120 to 12,000.",
        "A benchmark is 120 to 12,000 deals, in whole matches of 12.",
    ),
    "give_up_not_allowed": Problem(
        409,
        "Resigning or leaving a bot benchmark's match: every deal of it counts.",
        "A benchmark's match is played to its last deal: it cannot be given up.",
    ),
    "no_table_for_bots": Problem(
        409,
        "A bot's quick play when no open table that allows bots fits: a bot never opens one.",
        "No open table that allows bots fits; try again later.",
    ),
    "review_not_yet": Problem(
        409,
        "The review of a table of several humans before the match is over.",
        "At a table of several humans the review is shown once the match is over.",
    ),
    "spectators_not_allowed": Problem(
        409,
        "Letting spectators watch a tournament's match: they could pass its deals on.",
        "A tournament's match cannot be watched.",
    ),
    "tournament_level_refused": Problem(
        422,
        "A tournament at the `expert` level, which adapts to earlier deals: entrants who "
        "play alike would not meet alike play.",
        "A tournament's AI plays at easy, normal or hard.",
    ),
    "invalid_entry_window": Problem(
        422,
        "A tournament whose entry window ends before it opens.",
        "The entry window must end after it opens.",
    ),
    "invalid_deadline": Problem(
        422,
        "A tournament whose play deadline is not after its entry window ends.",
        "The play deadline must come after the entry window ends.",
    ),
    "entry_not_open": Problem(
        409,
        "Entering a tournament before its entry window opens.",
        "Entries open at 2026-12-06T18:00:00Z.",
    ),
    "entry_closed": Problem(
        409,
        "Entering a tournament after its entry window, or once it closed.",
        "Entries closed at 2026-12-06T20:00:00Z.",
    ),
    "tournament_full": Problem(
        409,
        "Entering a tournament that has as many entrants as its cap.",
        "This tournament is full.",
    ),
    "already_entered": Problem(
        409, "Entering a tournament twice.", "You entered this tournament already."
    ),
    "seed_not_held": Problem(
        409,
        "Revealing a match's held seed where none is held (engine only: a tournament's close "
        "reveals each once).",
        "This match holds no seed back for a tournament's close.",
    ),
    "tournament_not_closed": Problem(
        409,
        "Standings, or another entrant's match, before the tournament's close.",
        "The standings appear at the close, 2026-12-06T22:00:00Z.",
    ),
    "stale_version": Problem(
        409,
        "`expected_version` is not the match's version.",
        "The match is at version 12, not 9; reload it.",
    ),
    "idempotency_in_progress": Problem(
        409,
        "A request with the same key is still running (`Retry-After`).",
        "A request with this Idempotency-Key is still running; retry shortly.",
        retry_after=1,
    ),
    "illegal_action": Problem(
        422,
        "The action is not in `legal_actions` (call when matched, hold when behind, raise at 4).",
        "'call' is not allowed now; allowed: look, hold, raise, fold.",
    ),
    "already_looked": Problem(
        422, "A second look in one deal.", "A seat may look at its cards once per deal."
    ),
    "invalid_seat": Problem(
        422, "A seat number outside 0-3 (engine only).", "Seats are numbered 0 to 3."
    ),
    "commitment_not_found": Problem(
        404,
        "Creating a match with a commitment id that is not one of yours.",
        "No such commitment.",
    ),
    "commitment_used": Problem(
        409,
        "A commitment that created a match already.",
        "This commitment was used already; draw a new one.",
    ),
    "commitment_expired": Problem(
        409,
        "A commitment older than 10 minutes.",
        "This commitment has expired; draw a new one.",
    ),
    "commitment_not_verifiable": Problem(
        422,
        "A commitment for a match that never reveals its seed: `verifiable: false`, or a "
        "table (`humans` above 1) without `verifiable: true`.",
        "A commitment is for a verifiable match; pass verifiable: true or leave it out.",
    ),
    "invalid_seed": Problem(
        422, "A server seed that is not 32 bytes of hex (engine only).", "Not a server seed."
    ),
    "invalid_client_seed": Problem(
        422,
        "A client seed that is not 1 to 64 printable ASCII characters.",
        "A client seed is 1 to 64 printable ASCII characters.",
    ),
    "invalid_humans": Problem(
        422,
        "A match of fewer than 1 or more than 4 humans (engine only).",
        "A match has 1 to 4 humans.",
    ),
    "invalid_actor": Problem(
        422,
        "An action by someone other than player, ai or clock (engine only).",
        "Actions are taken by player, ai, clock.",
    ),
    "idempotency_key_reused": Problem(
        422,
        "The same key with another request.",
        "This Idempotency-Key was used with a different request.",
    ),
    "validation_error": Problem(
        400,
        "A field is missing or wrong; `errors` names each field.",
        'action: "dance" is not a valid choice; allowed: look, call, hold, raise, fold.',
        framework=True,
    ),
    "unknown_field": Problem(
        400,
        "A body field the operation does not take, such as a typo; `errors` names each one.",
        "ai_levle: Unknown field; allowed: ai_level, seed, humans, turn_seconds.",
        framework=True,
    ),
    "parse_error": Problem(
        400,
        "The body is not JSON, nests deeper than 64, or a string holds a lone surrogate"
        ' (`"\\ud800"`).',
        "JSON parse error.",
        framework=True,
    ),
    "invalid_host": Problem(
        400,
        "The `Host` header names no host in `ALLOWED_HOSTS`.",
        "The Host header names no host this server serves.",
        framework=True,
    ),
    "bad_request": Problem(
        400,
        "Any other request refused before the API reads it.",
        "The request is malformed.",
        framework=True,
    ),
    "after_out_of_range": Problem(
        400,
        "`after` or `Last-Event-ID` is past the latest event the reader may see (of `events`,"
        " its long-poll or `stream`, a player's or a spectator's); `latest` is that event's seq.",
        "after is 55, but the match's latest event is 5.",
        fields=(("latest", 5),),
    ),
    "invalid_idempotency_key": Problem(
        400,
        "The key is empty, too long or not printable ASCII.",
        "Idempotency-Key must be 1 to 255 printable ASCII characters.",
    ),
    "not_authenticated": Problem(
        401,
        "No token.",
        "Authentication credentials were not provided.",
        framework=True,
    ),
    "invalid_token": Problem(
        401,
        "A token that is not valid: unknown, rotated or revoked (also by a request racing this"
        " one), or an `Authorization` header that is not `Bearer <token>`.",
        "The token is not valid.",
        framework=True,
    ),
    "invalid_ticket": Problem(
        401,
        "A stream's `ticket` that was used already, has expired, is for another stream, or"
        " whose token (that issued it) was rotated or revoked since.",
        "The ticket was used already, has expired, or is for another stream.",
    ),
    "not_owner": Problem(
        403,
        "Choosing who may watch a match you do not own.",
        "Only the match's owner chooses who may watch.",
    ),
    "not_found": Problem(
        404,
        "No such match among yours (another player's match is also 404).",
        "No such match.",
    ),
    "method_not_allowed": Problem(
        405,
        "The path does not take this method (`Allow` lists those it takes).",
        'Method "DELETE" not allowed.',
        framework=True,
    ),
    "request_too_large": Problem(
        413,
        "The body is larger than `ASNAS_MAX_BODY_BYTES`, whether sent with a length or chunked.",
        "The request body is too large.",
        framework=True,
    ),
    "unsupported_media_type": Problem(
        415,
        "The body is not `application/json`.",
        'Unsupported media type "text/plain".',
        framework=True,
    ),
    "throttled": Problem(
        429,
        "A rate limit; the detail names it, `Retry-After` says when to retry. Requests without a"
        " valid token count against their address too.",
        "Rate limit 'token' (1200/min) reached. Expected available in 37 seconds.",
        framework=True,
    ),
    "watch_limit_match": Problem(
        429,
        "Opening a watch stream of a match that has `ASNAS_WATCH_STREAMS_PER_MATCH` open.",
        "This match has as many spectators as it takes.",
        retry_after=30,
    ),
    "watch_limit_address": Problem(
        429,
        "Opening more watch streams from one address than `ASNAS_WATCH_STREAMS_PER_ADDRESS`.",
        "Your address watches as many streams as it may.",
        retry_after=30,
    ),
    "watch_limit_server": Problem(
        429,
        "Opening a watch stream on a server process that serves `ASNAS_WATCH_STREAMS_PER_PROCESS`.",
        "This server has no room for another spectator.",
        retry_after=30,
    ),
    "server_error": Problem(
        500,
        "A bug; the body shows no internals, and the log has the traceback under the body's"
        " `request_id`.",
        "The server failed to answer; the error was logged under this request_id.",
        framework=True,
    ),
    "hints_busy": Problem(
        503,
        "A hint that this server would have to compute while it computes as many as it does"
        " at once (`ASNAS_HINTS_AT_ONCE` per worker); retry after `Retry-After`.",
        "This server is computing 1 hint(s), as many as it does at once; retry shortly.",
        retry_after=1,
    ),
    "review_pending": Problem(
        503,
        "A review while the review of a deal that ended is still being worked out (a second"
        " or so after the deal ends); never a half-made review: retry after `Retry-After`.",
        "The review of 1 deal(s) is being worked out; retry soon.",
        retry_after=1,
    ),
    "benchmark_pending": Problem(
        503,
        "A benchmark's read after its match in play ended, while the answering server is still"
        " mapping the AI's tables (a minute or so after it starts on new AI assets): without"
        " them valuing a match's deals takes longer than a request may. Nothing changed; the"
        " match is counted and the next one dealt at a read after `Retry-After`.",
        "The match that ended is counted once this server's AI tables are ready; retry soon.",
        retry_after=5,
    ),
    "no_puzzle_left": Problem(
        404,
        "`puzzles/next` when every puzzle was tried by the player or comes from their own"
        " matches; more are mined as matches finish.",
        "No puzzle is left for you; come back after more matches are played.",
    ),
    "puzzle_action_illegal": Problem(
        422,
        "Grading an action that is not legal at the puzzle's position.",
        "raise is not legal here; the legal actions are call, fold.",
    ),
    "puzzle_tried": Problem(
        409,
        "Grading a puzzle the player already tried: each is tried once.",
        "You already tried this puzzle.",
    ),
    "database_unavailable": Problem(
        503,
        "The database is down, or did not answer within the request's deadline"
        " (`ASNAS_REQUEST_DEADLINE`); retry after `Retry-After`.",
        "The database is unavailable; try again shortly.",
        retry_after=5,
        framework=True,
    ),
}


def docs_table() -> str:
    """The error-code table of docs/rules.md, in Markdown."""
    rows = [f"| `{code}` | {entry.status} | {entry.when} |" for code, entry in PROBLEMS.items()]
    return "\n".join(["| Code | HTTP | When |", "| --- | --- | --- |", *rows]) + "\n"


def problem(status: int, code: str, detail: str, **extra) -> dict:
    return {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }
