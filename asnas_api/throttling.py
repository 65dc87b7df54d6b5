"""Rate limits: fixed-window counters in Postgres, so every worker process and every host
counts against the same limits, checked for all of a request's scopes in one statement.

Every request counts against its client address ("ip") and, with a token, its player
("token"); a request refused for a missing or bad token counts against its address too.
Keys are hashed to a fixed length, so no header can make one too long.

A view adds stricter scopes per method in `extra_rate_scopes`, e.g.
`{"POST": ("match_create",)}`. Limits come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].
"""

import hashlib
import time

from django.db import connection
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


class RateLimit(BaseThrottle):
    def allow_request(self, request, view) -> bool:
        player = request.user  # None without a valid token
        scopes = ["ip", *(["token"] if player is not None else [])]
        scopes += getattr(view, "extra_rate_scopes", {}).get(request.method, ())
        return self._count(request, player, scopes)

    def allow_unauthenticated(self, request) -> bool:
        """For a request refused before the throttles ran (no token, or a bad one)."""
        return self._count(request, None, ["ip"])

    def _count(self, request, player, scopes) -> bool:
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
            limits[key] = (allowed, window_start + period)
            params += [key, window_start]
        with connection.cursor() as cursor:
            cursor.execute(_COUNT.format(rows=", ".join(["(%s, %s, 1)"] * len(limits))), params)
            counts = cursor.fetchall()
        over = [limits[key][1] - now for key, _, hits in counts if hits > limits[key][0]]
        self.wait_seconds = max(over, default=None)
        return not over

    def get_ident(self, request) -> str:
        return client_address(request)

    def wait(self) -> float | None:
        return self.wait_seconds


def purge_rate_counters(*, before: float) -> int:
    """Delete counters of windows that opened before `before` (Unix time)."""
    deleted, _ = RateCounter.objects.filter(window_start__lt=int(before)).delete()
    return deleted
