"""The 20-card As-Nas deck: five ranks, four identical copies of each, no suits."""

RANKS: tuple[str, ...] = ("As", "Shah", "Bibi", "Sarbaz", "Couli")
"""Rank names, strongest first."""

RANK_VALUE: dict[str, int] = {rank: len(RANKS) - 1 - index for index, rank in enumerate(RANKS)}
"""A rank's strength: Couli 0 up to As 4."""

COPIES_PER_RANK = 4
HAND_SIZE = 5
SEATS = 4
HUMAN_SEAT = 0
"""The seat of the match's owner. The rules treat every seat alike; the services seat the
human here and the AI at the others."""

DECK: tuple[str, ...] = tuple(rank for rank in RANKS for _ in range(COPIES_PER_RANK))


def sort_hand(cards) -> tuple[str, ...]:
    """A hand in display order: strongest rank first."""
    return tuple(sorted(cards, key=RANK_VALUE.__getitem__, reverse=True))
