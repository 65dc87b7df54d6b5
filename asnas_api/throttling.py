"""Rate limits: fixed-window counters in Postgres, so every worker process and every host
counts against the same limits, checked for all of a request's scopes in one statement.

Every request counts against its client address ("ip") and, with a token, its player
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

from django.db import connection
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from asnas_api.models import RateCounter
from edge.client_address import client_address

# Which identity each scope counts: the client's address or the authenticated player.
SCOPE_IDENTITY = {
    "ip": "address",
    "token": "player",
    "player_create": "address",
    "match_create": "player",
    "hint": "player",
    "hint_address": "address",
}

_TABLE = RateCounter._meta.db_table
# One row per scope: (scope, identity, window_start); a NULL identity is the player that
# `player` finds, and the row counts nothing when it finds none. Postgres's md5 of the
# identity's text is `counter_key`'s digest, so Python and SQL name a counter alike.
_COUNT = (
    "WITH player AS ({player}), hits AS ("
    f" INSERT INTO {_TABLE} (key, window_start, hits)"
    " SELECT scope || ':' || md5(ident), window_start, 1 FROM ("
    " SELECT scope, coalesce(ident, (SELECT id::text FROM player)) AS ident, window_start"
    " FROM (VALUES {rows}) AS scopes (scope, ident, window_start)) AS counted"
    " WHERE ident IS NOT NULL"
    f" ON CONFLICT (key, window_start) DO UPDATE SET hits = {_TABLE}.hits + 1"
    " RETURNING key, hits)"
    " SELECT (SELECT json_agg(json_build_array(key, hits)) FROM hits)::text, player.*"
    " FROM (VALUES (1)) AS one LEFT JOIN player ON true"
)
_NO_PLAYER = "SELECT NULL::uuid AS id WHERE false"

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


class RateLimitHeadersMiddleware:
    """Adds the RateLimit headers to every response whose request was counted, 429s and
    other errors too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        states = getattr(request, "rate_limits", None)
        if states:
            for name, value in rate_limit_headers(states).items():
                response[name] = value
        return response


class RateLimit(BaseThrottle):
    """Counts a request once: with the token's lookup, in the same statement
    (`count_with_player`, called by the authentication), or here when no token was looked up.
    Raises Throttled over any limit."""

    def allow_request(self, request, view) -> bool:
        if not hasattr(request._request, "rate_limits"):
            self._count(request, self.scopes(request, view), player=request.user)
        self._refuse_over_limit(request)
        return True

    def count_unauthenticated(self, request) -> None:
        """For a request refused before the throttles ran (no token, or a bad one): counts it
        against its address unless its token's lookup did, and raises Throttled over the
        limit."""
        if not hasattr(request._request, "rate_limits"):
            self._count(request, ["ip"], player=None)
        self._refuse_over_limit(request)

    def count_with_player(self, request, view, player_sql: str, params: list) -> tuple | None:
        """Counts the request in every scope of `view` and returns the row that `player_sql`
        selects (None without one), in one statement: the player's scopes count only if it
        finds the player. The throttle then only compares."""
        return self._count(
            request, self.scopes(request, view), player=None, player_sql=(player_sql, params)
        )

    @staticmethod
    def scopes(request, view) -> list[str]:
        extra = getattr(view, "extra_rate_scopes", {}).get(request.method, ())
        return ["ip", "token", *extra]

    def _count(self, request, scopes, *, player, player_sql=None) -> tuple | None:
        """Counts the request in each scope's window, for `player` (the found one with
        `player_sql`), and notes the states on the request for the headers and the check."""
        now = time.time()
        limits, rows, params = {}, [], []
        for scope in scopes:
            if SCOPE_IDENTITY[scope] == "address":
                ident = self.get_ident(request)
            elif player_sql is not None:
                ident = None  # the player the statement finds
            elif player is not None:
                ident = str(player.pk)
            else:
                continue
            allowed, period = parse_rate(api_settings.DEFAULT_THROTTLE_RATES[scope])
            window_start = int(now // period * period)
            limits[scope] = (allowed, period, window_start + period)
            rows.append("(%s, %s::text, %s::bigint)")
            params += [scope, ident, window_start]
        lookup, lookup_params = player_sql or (_NO_PLAYER, [])
        with connection.cursor() as cursor:
            cursor.execute(
                _COUNT.format(player=lookup, rows=", ".join(rows)), [*lookup_params, *params]
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
        # For RateLimitHeadersMiddleware, on the Django request that it sees.
        request._request.rate_limits = states
        return tuple(found) if player_sql is not None and found[0] is not None else None

    @staticmethod
    def _refuse_over_limit(request) -> None:
        over = [state for state in request._request.rate_limits if state.exceeded]
        if over:
            worst = max(over, key=lambda state: state.reset)
            rate = api_settings.DEFAULT_THROTTLE_RATES[worst.scope]
            raise exceptions.Throttled(
                wait=worst.reset,
                # DRF appends when it frees up: "Expected available in 7 seconds."
                detail=f"Rate limit '{worst.scope}' ({rate}) reached.",
            )

    def get_ident(self, request) -> str:
        return client_address(request)


def purge_rate_counters(*, before: float) -> int:
    """Delete counters of windows that opened before `before` (Unix time)."""
    deleted, _ = RateCounter.objects.filter(window_start__lt=int(before)).delete()
    return deleted
