"""Verifiable dealing: commit to a server seed, mix in every player's client seed, deal from
HMAC-SHA256, and reveal the server seed when the series ends (docs/fairness.md).

Anyone holding a series' server seed, its client seeds and the commitment published before
the client seeds were given can check, with this module alone, that the commitment is the
seed's SHA-256, and deal every deal of the series again: the first dealer and every deck.
The dealing follows only from the seeds; nothing the server chooses later enters it.
"""

import hashlib
import hmac
import random
from collections.abc import Iterator, Sequence

from .cards import DECK, SEATS

SCHEME = "hmac-sha256/1"
"""The name of this dealing scheme, as matches record and show it (`fairness.scheme`)."""

SEED_BYTES = 32
CLIENT_SEED_MAX = 64


def commitment(server_seed: bytes) -> str:
    """What is published before the client seeds are given: SHA-256 of the seed, lowercase
    hex."""
    return hashlib.sha256(server_seed).hexdigest()


def seed_from_test_seed(seed: int) -> bytes:
    """The server seed of a match created with the test-only `seed` parameter: SHA-256 of
    "asnas-test-seed:<seed>" (decimal). Anyone who knows the number knows every deal."""
    return hashlib.sha256(f"asnas-test-seed:{seed}".encode()).digest()


def valid_client_seed(text: str) -> bool:
    """1 to 64 printable ASCII characters (space to tilde)."""
    return 1 <= len(text) <= CLIENT_SEED_MAX and all(" " <= char <= "~" for char in text)


def material(client_seeds: Sequence[str], series: int, deal_number: int) -> str:
    """The four client seeds by seat joined with ":", then ":<series>:<deal>". Series and
    deals count from 1; deal 0 serves only the first dealer's draw."""
    return ":".join(client_seeds) + f":{series}:{deal_number}"


def byte_stream(server_seed: bytes, message: str) -> Iterator[int]:
    """HMAC-SHA256(key=server_seed, msg=message + ":" + counter) for counter 0, 1, 2...,
    concatenated, one byte at a time."""
    counter = 0
    while True:
        block = hmac.new(server_seed, f"{message}:{counter}".encode(), hashlib.sha256).digest()
        yield from block
        counter += 1


def draw(stream: Iterator[int], n: int) -> int:
    """An integer in [0, n): the first 4-byte big-endian u from the stream below
    (2^32 // n) * n, taken mod n. Rejecting the rest keeps every value equally likely."""
    limit = (2**32 // n) * n
    while True:
        u = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if u < limit:
            return u % n


def first_dealer(server_seed: bytes, client_seeds: Sequence[str], series: int) -> int:
    """The first dealer of a series: one draw in [0, 4) from the stream of deal 0."""
    return draw(byte_stream(server_seed, material(client_seeds, series, 0)), SEATS)


def deck(
    server_seed: bytes, client_seeds: Sequence[str], series: int, deal_number: int
) -> tuple[str, ...]:
    """The deck of a deal: from As x4, Shah x4, Bibi x4, Sarbaz x4, Couli x4, for i from 19
    down to 1, swap card i with card j, j drawn in [0, i + 1). Card k goes to seat
    (dealer + 1 + k) mod 4."""
    cards = list(DECK)
    stream = byte_stream(server_seed, material(client_seeds, series, deal_number))
    for i in range(len(cards) - 1, 0, -1):
        j = draw(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def ai_rng(
    server_seed: bytes,
    client_seeds: Sequence[str],
    series: int,
    deal_number: int,
    seat: int,
    step: int,
) -> random.Random:
    """The random source of one AI decision: seeded from the same key under another label
    ("ai:..."), so nothing public predicts an AI seat's choices before the reveal."""
    message = "ai:" + material(client_seeds, series, deal_number) + f":{seat}:{step}"
    digest = hmac.new(server_seed, message.encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))
