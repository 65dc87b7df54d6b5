"""The address of the client that sent a request, which no request header can forge.

X-Forwarded-For is a list any client can write to; only the entries that trusted proxies
appended are true. It counts only if the operator says which proxies to trust:
ASNAS_NUM_PROXIES (the client is the N-th address from the right) or
ASNAS_TRUSTED_PROXIES (networks; the client is the rightmost address outside them).
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
