"""Every distinct deal, with how many shuffles produce it.

Same-rank cards are identical, so a deal is the four hand classes by position. Because
all 20 cards are dealt, the four hands' rank counts sum to four of each rank. The weight
of a deal is the number of ways to hand out 20 distinguishable cards that give it:
the product over ranks of 4! / (c0! c1! c2! c3!). The weights sum to 20! / (5!)^4.
"""

from functools import cache
from math import factorial, prod

from .hands import HAND_COUNTS, N_HANDS

TOTAL_WEIGHT = factorial(20) // factorial(5) ** 4
"""How many ways there are to deal 20 distinguishable cards five to a seat."""


@cache
def all_deals() -> tuple[tuple[tuple[int, int, int, int], ...], tuple[int, ...]]:
    """(deals, weights): every distinct deal as hand classes by position (dealer first),
    and its number of card-level shuffles. 261,331 deals; takes a few seconds."""
    deals = []
    weights = []
    for h0 in range(N_HANDS):
        for others, weight in _completions(h0):
            deals.append((h0, *others))
            weights.append(weight)
    return tuple(deals), tuple(weights)


def deals_holding(position: int, hand: int) -> tuple[list[list[int]], list[int]]:
    """(hands, weights) of every deal where `position` holds `hand`: hands[p] lists each
    deal's hand at position p (aligned), weights its number of shuffles. About 2,000 deals,
    in milliseconds, where `all_deals` holds all 261,331 (tens of MB) for good."""
    hands: list[list[int]] = [[] for _ in range(4)]
    weights = []
    others = [p for p in range(4) if p != position]
    for deal, weight in _completions(hand):
        hands[position].append(hand)
        for p, h in zip(others, deal, strict=True):
            hands[p].append(h)
        weights.append(weight)
    return hands, weights


def _completions(h0: int):
    """Every (h1, h2, h3) that the cards left by h0 deal, with the deal's shuffles."""
    by_counts = {counts: index for index, counts in enumerate(HAND_COUNTS)}
    fact = [factorial(n) for n in range(5)]
    c0 = HAND_COUNTS[h0]
    left0 = tuple(4 - c for c in c0)
    fits1 = [h for h in range(N_HANDS) if all(map(int.__le__, HAND_COUNTS[h], left0))]
    for h1 in fits1:
        c1 = HAND_COUNTS[h1]
        left1 = tuple(a - b for a, b in zip(left0, c1, strict=True))
        for h2 in fits1:
            c2 = HAND_COUNTS[h2]
            if not all(map(int.__le__, c2, left1)):
                continue
            c3 = tuple(a - b for a, b in zip(left1, c2, strict=True))
            weight = prod(
                24 // (fact[a] * fact[b] * fact[c] * fact[d])
                for a, b, c, d in zip(c0, c1, c2, c3, strict=True)
            )
            yield (h1, h2, by_counts[c3]), weight
