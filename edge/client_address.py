"""The address of the client that sent a request, which no request header can forge.

X-Forwarded-For is a list any client can write to; only the entries that trusted proxies
appended are true. It counts only if the operator says which proxies to trust:
ASNAS_NUM_PROXIES (the client is the N-th address from the right) or
ASNAS_TRUSTED_PROXIES (networks; the client is the rightmost address outside them).

Budgets per address count one IPv4 address, or one IPv6 /64: a single home or host gets a
whole /64 and can change its address within it at will.
"""

import ipaddress

from django.conf import settings


def _valid(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address.strip()))
    except ValueError:
        return None


def client_address(request) -> str:
    peer = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if settings.ASNAS_TRUSTED_PROXIES:
        for hop in reversed([*hops, peer]):
            address = _valid(hop)
            if address is None:
                return peer  # a garbled chain: trust nothing a client could have written
            if not any(
                ipaddress.ip_address(address) in net for net in settings.ASNAS_TRUSTED_PROXIES
            ):
                return address
        return peer
    proxies = settings.ASNAS_NUM_PROXIES
    if proxies and len(hops) >= proxies:
        return _valid(hops[-proxies]) or peer
    return peer


def budget_address(request) -> str:
    """What a per-address budget counts the request against: the client's IPv4 address, or
    the /64 network of its IPv6 address (an IPv4-mapped one counts as its IPv4 address)."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return address
