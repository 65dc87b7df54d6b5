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


def test_server_seed(seed: int, series: int) -> str:
    """The server seed (hex) of series `series` of a match created with the test-only
    `seed` parameter: SHA-256 of "asnas-test-seed:<seed>:<series>" (both decimal). Anyone
    who knows the number knows every deal, which is why such matches say `seeded`."""
    return hashlib.sha256(f"asnas-test-seed:{seed}:{series}".encode()).hexdigest()


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


def pool_seed(tournament_seed: bytes, pool: int) -> bytes:
    """The server seed of a tournament's deal pool `pool` (from 0): HMAC-SHA256 of
    "pool:<pool>" keyed with the tournament's seed. One commitment (to the tournament's
    seed) binds every pool, and a pool's seed says nothing of another's."""
    return hmac.new(tournament_seed, f"pool:{pool}".encode(), hashlib.sha256).digest()


def hands_of(deck_cards: Sequence[str], dealer: int) -> list[tuple[str, ...]]:
    """Each seat's five cards: card k goes to seat (dealer + 1 + k) mod 4."""
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for k, card in enumerate(deck_cards):
        hands[(dealer + 1 + k) % SEATS].append(card)
    return [tuple(hand) for hand in hands]


class Verification:
    """What `verify` found in a match's public record: the series whose seed it checked,
    the deals and shown hands it dealt again, and every disagreement."""

    def __init__(self) -> None:
        self.series: list[int] = []
        self.deals = 0
        self.hands = 0
        self.problems: list[str] = []

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.series)


def verify(events: Sequence[dict]) -> Verification:
    """Check a match from its public record alone: the events as a client reads them (any
    viewer's), in order. For each series whose server seed was revealed: the seed's SHA-256
    is the commitment published before the client seeds, and dealing every deal again from
    the seeds gives each deal's dealer and every hand the record shows."""
    found = Verification()
    commitment, client_seeds, series = None, ["", "", "", ""], 0
    deals: dict[int, dict] = {}
    for event in events:
        kind = event["type"]
        if kind == "match_created":
            commitment, client_seeds, series = (
                event.get("commitment"),
                [event.get("client_seed") or "", "", "", ""],
                1,
            )
        elif kind == "player_joined":
            client_seeds[event["seat"]] = event.get("client_seed") or ""
        elif kind == "deal_started":
            deals[event["deal_number"]] = {"dealer": event["dealer"], "shown": []}
        elif kind == "deal_ended":
            shown = [(seat["seat"], tuple(seat["hand"])) for seat in event["seats"] if seat["hand"]]
            deals.setdefault(event["deal_number"], {"dealer": None, "shown": []})["shown"] = shown
        revealed = event.get("server_seed") if kind != "match_created" else None
        if revealed:
            _check_series(found, revealed, commitment, client_seeds, series, deals)
        if kind == "match_restarted":
            commitment = event.get("commitment")
            client_seeds = [event.get("client_seed") or "", "", "", ""]
            series, deals = event["series"], {}
    return found


def verify_record(record: dict) -> Verification:
    """Check a match from its record (`asnas-record/1` or `/2`, docs/record.md), as its reader
    downloaded it: for each series whose seed was revealed, the seed against the commitment,
    and each deal's dealer and every hand the record shows (its `hands` and its result's)
    against the deals dealt again from the seeds."""
    found = Verification()
    for series in record["series"]:
        if not series["server_seed"]:
            continue
        deals: dict[int, dict] = {}
        for deal in series["deals"]:
            shown = [(seat, tuple(hand)) for seat, hand in enumerate(deal["hands"]) if hand] + [
                (seat["seat"], tuple(seat["hand"]))
                for seat in (deal["result"] or {}).get("seats", [])
                if seat["hand"]
            ]
            deals[deal["deal_number"]] = {"dealer": deal["dealer"], "shown": shown}
        _check_series(
            found,
            series["server_seed"],
            series["commitment"],
            series["client_seeds"],
            series["series"],
            deals,
        )
    return found


def _check_series(found, revealed, commitment, client_seeds, series, deals) -> None:
    found.series.append(series)
    try:
        key = bytes.fromhex(revealed)
    except ValueError:
        found.problems.append(f"series {series}: the revealed seed is not hex")
        return
    if commitment is None or commitment != hashlib.sha256(key).hexdigest():
        found.problems.append(f"series {series}: the revealed seed does not match its commitment")
        return
    first = first_dealer(key, client_seeds, series)
    for number in sorted(deals):
        deal = deals[number]
        dealer = (first + number - 1) % SEATS  # each deal's dealer is the seat after the last
        if deal["dealer"] is not None and deal["dealer"] != dealer:
            found.problems.append(
                f"series {series} deal {number}: dealt by seat {deal['dealer']}, "
                f"the seeds say {dealer}"
            )
        hands = hands_of(deck(key, client_seeds, series, number), dealer)
        found.deals += 1
        for seat, hand in deal["shown"]:
            found.hands += 1
            if sorted(hand) != sorted(hands[seat]):
                found.problems.append(
                    f"series {series} deal {number}: seat {seat} showed {list(hand)}, "
                    f"the seeds deal {list(hands[seat])}"
                )
