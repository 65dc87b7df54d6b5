"""The gate: who is asking and how much they may ask, in one module, in DRF's order.

1. `RateLimitMiddleware` hands every request an empty `RateLimits` record and, on the way
   out, writes what was counted into the RateLimit headers of the answer, errors too.
2. `BearerTokenAuthentication` (DRF's authentication step): with a bearer token, counts the
   request in every scope of its view and finds the token's player in one statement.
3. `RateLimit` (DRF's throttle step): counts a request that step 2 did not (no token, a
   stream ticket, a view without authentication), then refuses one over any limit.
4. `refuse_unauthenticated` (asnas_api.errors): a request refused for a missing or bad
   token or ticket, before the throttles ran, is counted against its address if it was not
   yet, and is a 429 rather than a 401 over the limit.

A request is counted once, whichever step counts it: the record says whether it was.

Rate limits are fixed-window counters in Postgres, so every worker process and every host
counts against the same limits, checked for all of a request's scopes in one statement.
Every request counts against its client address ("ip"; an IPv6 client's /64,
edge.client_address.budget_address) and, with a token, its player
("token"); a request refused for a missing or bad token counts against its address too.
Keys are hashed to a fixed length, so no header can make one too long.

A view adds stricter scopes per method in `extra_rate_scopes`, e.g.
`{"POST": ("match_create",)}`. Limits come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].
"""

import hashlib
import json
import math
import time
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connection
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from asnas_api.models import RateCounter
from edge.client_address import budget_address
from players.auth import (
    BEARER,
    PLAYER_BY_TOKEN,
    InvalidToken,
    bearer_token,
    player_from_row,
)
from players.models import Player
from players.tokens import hash_token

# Which identity each scope counts: the client's address or the authenticated player.
SCOPE_IDENTITY = {
    "ip": "address",
    "token": "player",
    "player_create": "address",
    "match_create": "player",
    "hint": "player",
    "hint_address": "address",
    "bot_token": "player",
    "bot_match_create": "player",
}
# A bot's own scopes (docs/bots.md): a bot's request counts in these in place of the
# player's ordinary ones, so a bot may play many matches quickly and nobody else's limit
# moves. Which one counts is decided in the counting statement, from the player it finds.
BOT_SCOPES = {"token": "bot_token", "match_create": "bot_match_create"}

_TABLE = RateCounter._meta.db_table
# One row per scope: (scope, identity, window_start, and the bot's scope and window in its
# place); a NULL identity is the player that `player` finds, and the row counts nothing when
# it finds none; the bot's scope counts when that player is a bot. Postgres's md5 of the
# identity's text is `counter_key`'s digest, so Python and SQL name a counter alike.
_COUNT = (
    "WITH player AS ({player}), hits AS ("
    f" INSERT INTO {_TABLE} (key, window_start, hits)"
    " SELECT scope || ':' || md5(ident), window_start, 1 FROM ("
    " SELECT CASE WHEN bot THEN bot_scope ELSE scope END AS scope,"
    " coalesce(ident, (SELECT id::text FROM player)) AS ident,"
    " CASE WHEN bot THEN bot_window ELSE window_start END AS window_start"
    " FROM (SELECT *, bot_scope IS NOT NULL AND ident IS NULL"
    " AND (SELECT kind FROM player) = %s AS bot"
    " FROM (VALUES {rows}) AS scopes (scope, ident, window_start, bot_scope, bot_window))"
    " AS chosen) AS counted"
    " WHERE ident IS NOT NULL"
    f" ON CONFLICT (key, window_start) DO UPDATE SET hits = {_TABLE}.hits + 1"
    " RETURNING key, hits)"
    " SELECT (SELECT json_agg(json_build_array(key, hits)) FROM hits)::text, player.*"
    " FROM (VALUES (1)) AS one LEFT JOIN player ON true"
)
_NO_PLAYER = "SELECT NULL::uuid AS id, NULL::text AS kind WHERE false"

PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
LONGEST_PERIOD = max(PERIOD_SECONDS.values())


def parse_rate(rate: str) -> tuple[int, int]:
    """DRF's rate notation: '20/hour' is (20, 3600)."""
    count, period = rate.split("/")
    return int(count), PERIOD_SECONDS[period[0]]


def counter_key(scope: str, identity: object) -> str:
    digest = hashlib.md5(str(identity).encode(), usedforsecurity=False).hexdigest()
    return f"{scope}:{digest}"


@dataclass(frozen=True, slots=True)
class LimitState:
    """One policy after counting this request: what the RateLimit headers report."""

    scope: str
    quota: int
    window: int
    remaining: int
    reset: int
    """Seconds until the window ends and the quota is whole again."""
    exceeded: bool = False
    """This request went over the quota."""


def rate_limit_headers(states: list[LimitState]) -> dict[str, str]:
    """RateLimit-Policy and RateLimit as the IETF httpapi ratelimit-headers draft defines
    them: structured-field lists with one item per named policy (quota q in window w
    seconds; r requests remaining, t seconds until the reset)."""
    return {
        "RateLimit-Policy": ", ".join(f'"{s.scope}";q={s.quota};w={s.window}' for s in states),
        "RateLimit": ", ".join(f'"{s.scope}";r={s.remaining};t={s.reset}' for s in states),
    }


class RateLimits:
    """What the gate counted for one request: empty until a step counts it, once."""

    __slots__ = ("states",)

    def __init__(self) -> None:
        self.states: list[LimitState] | None = None

    @property
    def counted(self) -> bool:
        return self.states is not None

    def refuse_over_limit(self) -> None:
        over = [state for state in self.states or () if state.exceeded]
        if over:
            worst = max(over, key=lambda state: state.reset)
            rate = api_settings.DEFAULT_THROTTLE_RATES[worst.scope]
            raise exceptions.Throttled(
                wait=worst.reset,
                # DRF appends when it frees up: "Expected available in 7 seconds."
                detail=f"Rate limit '{worst.scope}' ({rate}) reached.",
            )


def _record(request) -> RateLimits:
    """The request's record, which RateLimitMiddleware handed it (DRF's request passes the
    attribute through); for a view called without the middleware, one kept on DRF's request,
    so that the request is still counted once (it then gets no headers)."""
    record = getattr(request, "rate_limits", None)
    if record is None:
        record = request.rate_limits = RateLimits()
    return record


class RateLimitMiddleware:
    """Gives each request its RateLimits record, and adds the RateLimit headers to every
    response whose request was counted, 429s and other errors too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.rate_limits = record = RateLimits()
        response = self.get_response(request)
        if record.states:
            for name, value in rate_limit_headers(record.states).items():
                response[name] = value
        return response


def scopes_of(request, view) -> list[str]:
    extra = getattr(view, "extra_rate_scopes", {}).get(request.method, ())
    return ["ip", "token", *extra]


def _count(request, record, scopes, *, player=None, token_hash=None) -> tuple | None:
    """Counts the request in each scope's window, for `player`, or for the player whose token
    hashes to `token_hash`, found in the same statement (its row is returned, None without
    one: the player's scopes then count nothing). Fills `record`."""
    now = time.time()
    limits, rows, params = {}, [], []

    def window(scope: str) -> int:
        allowed, period = parse_rate(api_settings.DEFAULT_THROTTLE_RATES[scope])
        window_start = int(now // period * period)
        limits[scope] = (allowed, period, window_start + period)
        return window_start

    for scope in scopes:
        bot_scope = BOT_SCOPES.get(scope)
        if SCOPE_IDENTITY[scope] == "address":
            ident, bot_scope = budget_address(request), None
        elif token_hash is not None:
            ident = None  # the player the statement finds, a bot or not
        elif player is not None:
            ident = str(player.pk)
            if bot_scope is not None and player.kind == Player.Kind.BOT:
                scope, bot_scope = bot_scope, None
        else:
            continue
        rows.append("(%s, %s::text, %s::bigint, %s, %s::bigint)")
        params += [scope, ident, window(scope), bot_scope, bot_scope and window(bot_scope)]
    lookup, lookup_params = (
        (PLAYER_BY_TOKEN, [token_hash, Player.Kind.AI])
        if token_hash is not None
        else (_NO_PLAYER, [])
    )
    with connection.cursor() as cursor:
        cursor.execute(
            _COUNT.format(player=lookup, rows=", ".join(rows)),
            [*lookup_params, Player.Kind.BOT, *params],
        )
        counts_json, *found = cursor.fetchone()
    states = []
    for key, hits in json.loads(counts_json or "[]"):
        scope = key.partition(":")[0]
        allowed, period, window_end = limits[scope]
        reset = max(1, math.ceil(window_end - now))
        states.append(
            LimitState(scope, allowed, period, max(0, allowed - hits), reset, hits > allowed)
        )
    record.states = states
    return tuple(found) if token_hash is not None and found[0] is not None else None


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bearer <token>`, looked up by its hash, in the statement that counts
    the request (step 2 above); `request.auth` is then the token."""

    keyword = BEARER

    def authenticate(self, request):
        token = bearer_token(request)
        if token is None:
            return None
        view = request.parser_context["view"]
        record = _record(request)
        if view.throttle_classes:
            row = _count(request, record, scopes_of(request, view), token_hash=hash_token(token))
        else:  # a view outside the limits (the docs, the bench's floors)
            with connection.cursor() as cursor:
                cursor.execute(PLAYER_BY_TOKEN, [hash_token(token), Player.Kind.AI])
                row = cursor.fetchone()
        if row is None:
            raise InvalidToken
        return player_from_row(DEFAULT_DB_ALIAS, row), token

    def authenticate_header(self, request) -> str:
        return self.keyword


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "The token from POST /players."}


class RateLimit(BaseThrottle):
    """Step 3: counts the request unless its token's lookup did, for the player it was
    authenticated as; raises Throttled over any limit."""

    def allow_request(self, request, view) -> bool:
        record = _record(request)
        if not record.counted:
            _count(request, record, scopes_of(request, view), player=request.user)
        record.refuse_over_limit()
        return True


def refuse_unauthenticated(request) -> None:
    """Step 4, for a request refused before the throttles ran (no token, a bad one, a bad
    ticket): counts it against its address unless its token's lookup did, and raises
    Throttled over the limit."""
    record = _record(request)
    if not record.counted:
        _count(request, record, ["ip"])
    record.refuse_over_limit()


def purge_rate_counters(*, before: float) -> int:
    """Delete counters of windows that opened before `before` (Unix time)."""
    deleted, _ = RateCounter.objects.filter(window_start__lt=int(before)).delete()
    return deleted
