"""Dealing: the seeds a match and each series start from, and the dealer and deck of each
deal, by the verifiable scheme (fairness.py) or, for matches created before it, from the
match's one recorded seed."""

import dataclasses
import random
import secrets

from . import fairness
from .cards import DECK, SEATS
from .commands import Seeds
from .errors import RuleError
from .events import DealStarted
from .state import MatchState, SeriesSeeds


def new_seed() -> int:
    """A fresh match seed: 63 bits, so that it fits a signed 64-bit column."""
    return secrets.randbits(63)


def deal_rng(seed: int, series: int, deal_number: int) -> random.Random:
    """The random source of one deal, derived from the match's recorded seed, so that any
    deal can be dealt again without replaying the ones before it."""
    return random.Random(f"{seed}:{series}:{deal_number}")


# Fisher-Yates from the top card down, as (position, choices, bits): the swaps that
# random.shuffle makes with the same generator (it draws each index as getrandbits of the
# choices' bit length, drawing again while too large), so that every deal stays the same.
_SWAPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(DECK) - 1, 0, -1))


def series_seeds(seeds: Seeds | None, owner_seed: str | None) -> SeriesSeeds | None:
    """The seeds a series starts from: the owner's client seed alone, at seat 0."""
    if seeds is None:
        return None
    return SeriesSeeds(
        fairness.SCHEME,
        seeds.verifiable,
        seeds.server_seed,
        seeds.next_server_seed,
        [owner_seed or "", "", "", ""],
        held=seeds.held,
    )


def with_client_seed(seeds: SeriesSeeds, seat: int, client_seed: str) -> SeriesSeeds:
    client_seeds = list(seeds.client_seeds)
    client_seeds[seat] = client_seed
    return dataclasses.replace(seeds, client_seeds=client_seeds)


def reveal(state: MatchState) -> str | None:
    """The server seed a series that ends now reveals: a verifiable one's, once; a
    tournament's is held for its close."""
    seeds = state.seeds
    if seeds is None or not seeds.verifiable or seeds.revealed or seeds.held:
        return None
    return seeds.server_seed


def require_seeds(*seeds: str | None) -> None:
    for seed in seeds:
        if not isinstance(seed, str) or len(seed) != 2 * fairness.SEED_BYTES:
            raise RuleError("invalid_seed", "A server seed is 32 bytes in lowercase hex.")
        try:
            bytes.fromhex(seed)
        except ValueError:
            raise RuleError("invalid_seed", "A server seed is 32 bytes in lowercase hex.") from None


def require_client_seed(client_seed: str) -> None:
    if client_seed and not fairness.valid_client_seed(client_seed):
        raise RuleError(
            "invalid_client_seed", "A client seed is 1 to 64 printable ASCII characters."
        )


def deal_for(
    state: MatchState, series: int, deal_number: int, previous_dealer: int | None
) -> DealStarted:
    return deal(state.seed, series, deal_number, previous_dealer, state.seeds)


def deal(
    seed: int,
    series: int,
    deal_number: int,
    previous_dealer: int | None,
    seeds: SeriesSeeds | None = None,
) -> DealStarted:
    """The deal's dealer and deck: by the verifiable scheme from `seeds`, or as matches
    created before it were dealt, from `seed`."""
    if seeds is not None:
        key = bytes.fromhex(seeds.server_seed)
        if previous_dealer is None:
            dealer = fairness.first_dealer(key, seeds.client_seeds, series)
        else:
            dealer = (previous_dealer + 1) % SEATS
        return DealStarted(
            series, deal_number, dealer, fairness.deck(key, seeds.client_seeds, series, deal_number)
        )
    rng = deal_rng(seed, series, deal_number)
    if previous_dealer is None:
        dealer = rng.randrange(SEATS)
    else:
        dealer = (previous_dealer + 1) % SEATS
    deck = list(DECK)
    bits = rng.getrandbits
    for i, choices, width in _SWAPS:
        j = bits(width)
        while j >= choices:
            j = bits(width)
        deck[i], deck[j] = deck[j], deck[i]
    return DealStarted(series, deal_number, dealer, tuple(deck))
