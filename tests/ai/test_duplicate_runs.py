"""Duplicate scoring's worth, shown rather than assumed (docs/ratings.md, "Duplicate standings
against totals"): AI levels in disguise enter tournaments against easy AI seats, and the
standings' matchpoints order them by their known strength more often than raw totals over
the same number of deals do. Pure engine, AI and scoring: no database."""

from fractions import Fraction
from functools import cache

import pytest

from games.duplicate_runs import CLOSE, compare, pair_accuracy, play_entrant, strengths

DISGUISED = ("easy", "normal", "hard")
"""Not expert: its edge over hard is within noise (docs/ratings.md)."""
TABLE = "easy"
"""The AI seats. Against easy seats the three disguised levels finish apart; against the
other levels normal and hard are within noise of each other, and no scoring could order
them (docs/ratings.md's table)."""
STRENGTH_SEED, TOURNAMENT_SEED = 907, 38


@cache
def known(matches: int) -> dict[str, float]:
    return strengths(DISGUISED, TABLE, matches, STRENGTH_SEED)


def test_pair_accuracy_counts_unequal_pairs_with_ties_as_half():
    strength = [3.0, 2.0, 1.0, 1.0]
    assert pair_accuracy([Fraction(3), Fraction(2), Fraction(1), Fraction(0)], strength) == 1
    assert pair_accuracy([Fraction(0), Fraction(1), Fraction(2), Fraction(3)], strength) == 0
    # One pair of the five unequal ones tied: 4.5 of 5; the equal pair (2, 3) is not counted.
    assert pair_accuracy([Fraction(3), Fraction(1), Fraction(1), Fraction(0)], strength) == 0.9


def test_entrants_of_one_level_are_two_players_on_the_same_deals():
    """Their own random streams: not one player counted twice. (normal's heuristics draw
    nothing random, so two normal entrants do play alike; hard and easy draw.)"""
    for level in ("easy", "hard"):
        first = play_entrant(level, 0, TABLE, 5)
        assert len(first) == 12 and all(isinstance(r, Fraction) for r in first)
        assert any(
            play_entrant(level, 1, TABLE, seed) != play_entrant(level, 0, TABLE, seed)
            for seed in range(5, 10)
        )
        assert play_entrant(level, 0, TABLE, 5) == first  # and each replays exactly


def test_duplicate_standings_order_known_strengths_better_than_totals():
    strength = known(200)
    assert strength["normal"] > strength["hard"] > strength["easy"]
    run = compare(
        levels=DISGUISED,
        per_level=1,
        table=TABLE,
        deals=12,
        tournaments=60,
        seed=TOURNAMENT_SEED,
        strength=strength,
    )
    print(run.line())
    # The edge must show beyond its interval over totals on deals of one's own.
    assert run.edge_over_own.mean - run.edge_over_own.half_width > 0, run.line()
    assert run.accuracy["duplicate"].mean > run.accuracy["shared_totals"].mean, run.line()


GRID = [
    pytest.param(levels, per_level, deals, id=f"{len(levels) * per_level}x{deals}")
    for levels, per_level in ((CLOSE, 1), (DISGUISED, 1), (DISGUISED, 2), (DISGUISED, 4))
    for deals in (12, 24, 48)
]


@pytest.mark.simulation
@pytest.mark.parametrize(("levels", "per_level", "deals"), GRID)
def test_where_the_edge_appears(levels, per_level, deals):
    """The figures of docs/ratings.md: 300 tournaments for each number of entrants and deals.
    Where the field holds an easy entrant, matchpoints order it better than either kind of
    totals, beyond the intervals; normal against hard, the closest pair, they order no
    better than the totals of the same deals (with two entrants that pair is all there is)."""
    run = compare(
        levels=levels,
        per_level=per_level,
        table=TABLE,
        deals=deals,
        tournaments=300,
        seed=TOURNAMENT_SEED + deals,
        strength=known(2000),
    )
    print(run.line())
    if "easy" in levels:
        assert run.edge_over_own.mean - run.edge_over_own.half_width > 0, run.line()
        assert run.edge_over_shared.mean - run.edge_over_shared.half_width > 0, run.line()
    assert run.close["duplicate"].mean <= run.close["shared_totals"].mean, run.line()
