"""Hand evaluation: a category and a totally ordered strength key for every legal hand."""

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from .cards import COPIES_PER_RANK, HAND_SIZE, RANK_VALUE, RANKS, sort_hand

CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "full_house",
    "four_of_a_kind",
)
"""Category names, weakest first: a category's index is its strength."""

_CATEGORY_BY_SHAPE: dict[tuple[int, ...], str] = {
    (1, 1, 1, 1, 1): "high_card",
    (2, 1, 1, 1): "pair",
    (2, 2, 1): "two_pair",
    (3, 1, 1): "three_of_a_kind",
    (3, 2): "full_house",
    (4, 1): "four_of_a_kind",
}


class InvalidHand(ValueError):
    """The cards are not a hand that the As-Nas deck can deal."""


@dataclass(frozen=True, slots=True)
class HandValue:
    category: str
    key: tuple[int, ...]
    """Compare keys to compare hands: larger is stronger, equal keys tie."""


def _compute(hand: tuple[str, ...]) -> HandValue:
    counts = Counter(RANK_VALUE[rank] for rank in hand)
    # Grouped ranks first (bigger group first, then higher rank), then kickers descending.
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    category = _CATEGORY_BY_SHAPE[tuple(count for _, count in groups)]
    return HandValue(category, (CATEGORIES.index(category), *(value for value, _ in groups)))


ALL_HANDS: tuple[tuple[str, ...], ...] = tuple(
    hand
    for hand in (sort_hand(combo) for combo in combinations_with_replacement(RANKS, HAND_SIZE))
    if max(Counter(hand).values()) <= COPIES_PER_RANK
)
"""Every distinct hand the deck allows (121), strongest rank first within each hand."""

_VALUES: dict[tuple[str, ...], HandValue] = {hand: _compute(hand) for hand in ALL_HANDS}


def evaluate(hand) -> HandValue:
    """Category and strength key of a five-card hand given as rank names, in any order."""
    try:
        value = _VALUES.get(hand) if type(hand) is tuple else None
        if value is not None:
            return value
        return _VALUES[sort_hand(hand)]
    except (KeyError, TypeError):  # unknown names, unhashable or unsortable items, non-iterables
        pass
    raise InvalidHand(
        f"a hand is {HAND_SIZE} rank names from {', '.join(RANKS)}, "
        f"at most {COPIES_PER_RANK} of each; got {hand!r}"
    )
