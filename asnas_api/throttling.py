"""Rate limits: fixed-window counters in Postgres, so every worker process and every host
counts against the same limits, checked for all of a request's scopes in one statement.

Every request counts against its client address ("ip") and, with a token, its player
("token"); a request refused for a missing or bad token counts against its address too.
Keys are hashed to a fixed length, so no header can make one too long.

A view adds stricter scopes per method in `extra_rate_scopes`, e.g.
`{"POST": ("match_create",)}`. Limits come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].
"""

import hashlib
import math
import time
from dataclasses import dataclass

from django.db import connection
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from asnas_api.client_address import client_address
from asnas_api.models import RateCounter

# Which identity each scope counts: the client's address or the authenticated player.
SCOPE_IDENTITY = {
    "ip": "address",
    "token": "player",
    "player_create": "address",
    "match_create": "player",
    "hint": "player",
}

_TABLE = RateCounter._meta.db_table
_COUNT = (
    f"INSERT INTO {_TABLE} (key, window_start, hits) VALUES {{rows}} "
    f"ON CONFLICT (key, window_start) DO UPDATE SET hits = {_TABLE}.hits + 1 "
    "RETURNING key, window_start, hits"
)


PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
LONGEST_PERIOD = max(PERIOD_SECONDS.values())


def parse_rate(rate: str) -> tuple[int, int]:
    """DRF's rate notation: '20/hour' is (20, 3600)."""
    count, period = rate.split("/")
    return int(count), PERIOD_SECONDS[period[0]]


def counter_key(scope: str, identity: object) -> str:
    digest = hashlib.blake2b(str(identity).encode(), digest_size=16).hexdigest()
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
    def allow_request(self, request, view) -> bool:
        player = request.user  # None without a valid token
        scopes = ["ip", *(["token"] if player is not None else [])]
        scopes += getattr(view, "extra_rate_scopes", {}).get(request.method, ())
        return self._count(request, player, scopes)

    def count_unauthenticated(self, request) -> None:
        """For a request refused before the throttles ran (no token, or a bad one): counts it
        against its address, and raises Throttled over the limit."""
        self._count(request, None, ["ip"])

    def _count(self, request, player, scopes) -> bool:
        """Counts the request in each scope's window; raises Throttled over any limit."""
        now = time.time()
        limits, params = {}, []
        for scope in scopes:
            identity = SCOPE_IDENTITY[scope]
            if identity == "player" and player is None:
                continue
            ident = player.pk if identity == "player" else self.get_ident(request)
            allowed, period = parse_rate(api_settings.DEFAULT_THROTTLE_RATES[scope])
            key = counter_key(scope, ident)
            window_start = int(now // period * period)
            limits[key] = (scope, allowed, period, window_start + period)
            params += [key, window_start]
        with connection.cursor() as cursor:
            cursor.execute(_COUNT.format(rows=", ".join(["(%s, %s, 1)"] * len(limits))), params)
            counts = cursor.fetchall()
        states, over = [], []
        for key, _, hits in counts:
            scope, allowed, period, window_end = limits[key]
            reset = max(1, math.ceil(window_end - now))
            state = LimitState(scope, allowed, period, max(0, allowed - hits), reset)
            states.append(state)
            if hits > allowed:
                over.append(state)
        # For RateLimitHeadersMiddleware, on the Django request that it sees.
        request._request.rate_limits = states
        if over:
            worst = max(over, key=lambda state: state.reset)
            rate = api_settings.DEFAULT_THROTTLE_RATES[worst.scope]
            raise exceptions.Throttled(
                wait=worst.reset,
                # DRF appends when it frees up: "Expected available in 7 seconds."
                detail=f"Rate limit '{worst.scope}' ({rate}) reached.",
            )
        return True

    def get_ident(self, request) -> str:
        return client_address(request)


def purge_rate_counters(*, before: float) -> int:
    """Delete counters of windows that opened before `before` (Unix time)."""
    deleted, _ = RateCounter.objects.filter(window_start__lt=int(before)).delete()
    return deleted
