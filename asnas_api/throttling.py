"""Rate limits. Counters live in the shared cache (settings.CACHES), not per-process memory,
so every gunicorn worker counts against the same limit."""

from rest_framework.throttling import SimpleRateThrottle


class TokenRateThrottle(SimpleRateThrottle):
    """Requests per player token."""

    scope = "token"

    def get_cache_key(self, request, view):
        if request.user is None or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class IPRateThrottle(SimpleRateThrottle):
    """Requests per client address, with or without a token."""

    scope = "ip"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class PlayerCreateThrottle(IPRateThrottle):
    """New players per client address."""

    scope = "player_create"


class MatchCreateThrottle(TokenRateThrottle):
    """New matches per player; only POST creates."""

    scope = "match_create"

    def allow_request(self, request, view):
        return request.method != "POST" or super().allow_request(request, view)
