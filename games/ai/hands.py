"""Hand classes for the AI: the 121 distinct hands, their frequencies and strength order.

Everything here derives from `games.engine` (hands.ALL_HANDS and evaluate), so the AI
can never disagree with the engine about which hand beats which.
"""

from math import comb, prod

from games.engine import ALL_HANDS, RANKS, evaluate
from games.engine.cards import COPIES_PER_RANK

N_HANDS = len(ALL_HANDS)
"""121 hand classes (five-card multisets the deck allows)."""

HAND_INDEX: dict[tuple[str, ...], int] = {hand: index for index, hand in enumerate(ALL_HANDS)}
"""Hand (rank names, strongest first, as the engine sorts them) -> class index."""

HAND_COUNTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(hand.count(rank) for rank in RANKS) for hand in ALL_HANDS
)
"""Per class, how many cards of each rank (in RANKS order) it holds."""

MULTIPLICITY: tuple[int, ...] = tuple(
    prod(comb(COPIES_PER_RANK, count) for count in counts) for counts in HAND_COUNTS
)
"""Per class, how many card-level hands (of the 15,504 five-card subsets of the 20
distinguishable cards) it covers."""

CARD_LEVEL_HANDS = sum(MULTIPLICITY)

_KEY_RANK = {key: rank for rank, key in enumerate(sorted({evaluate(h).key for h in ALL_HANDS}))}
STRENGTH: tuple[int, ...] = tuple(_KEY_RANK[evaluate(hand).key] for hand in ALL_HANDS)
"""Per class, its rank in strength: equal hands share a rank, a larger rank wins."""


def _percentiles() -> tuple[float, ...]:
    """Per class, the share of card-level hands it beats, counting ties as half."""
    below = {}
    for strength in set(STRENGTH):
        below[strength] = sum(
            m for m, s in zip(MULTIPLICITY, STRENGTH, strict=True) if s < strength
        ) + 0.5 * sum(m for m, s in zip(MULTIPLICITY, STRENGTH, strict=True) if s == strength)
    return tuple(below[s] / CARD_LEVEL_HANDS for s in STRENGTH)


PERCENTILE: tuple[float, ...] = _percentiles()
"""Per class, the share of random hands it beats (ties count half): a rough strength."""


def hand_class(cards) -> int:
    """The class index of a five-card hand given as rank names, in any order."""
    hand = tuple(cards)
    index = HAND_INDEX.get(hand)
    if index is None:
        index = HAND_INDEX[tuple(sorted(hand, key=RANKS.index))]
    return index


def _equity_vs_one() -> tuple[float, ...]:
    """Per class, the exact chance to beat one random hand dealt from the other 15 cards
    (ties count half). Card removal is exact; a rough guide for the heuristics."""
    result = []
    for mine in range(N_HANDS):
        left = [COPIES_PER_RANK - c for c in HAND_COUNTS[mine]]
        won = total = 0
        for other in range(N_HANDS):
            weight = prod(comb(n, c) for n, c in zip(left, HAND_COUNTS[other], strict=True))
            if not weight:
                continue
            total += weight
            if STRENGTH[mine] > STRENGTH[other]:
                won += 2 * weight
            elif STRENGTH[mine] == STRENGTH[other]:
                won += weight
        result.append(won / (2 * total))
    return tuple(result)


EQUITY_VS_ONE: tuple[float, ...] = _equity_vs_one()
"""Per class, the chance to beat one random other hand, card removal included."""
