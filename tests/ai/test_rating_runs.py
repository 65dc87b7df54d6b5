"""The ratings against the truth (docs/ratings.md): players that are AI levels in disguise
climb a rated ladder until their ratings stand in the order of their expected places, as a
separate tournament measures them, and the anchors never move. Pure engine, AI and rating
function: no database."""

from functools import cache

import pytest

from games.rating_runs import calibrate, expected_places, kendall_tau, ladder
from players.rating_anchors import ANCHORS

DISGUISED = ("easy", "normal", "hard")
"""Not expert: its edge over hard is within noise."""
TABLES = ("easy",)
"""The ladder's AI seats. Against easy seats the three disguised levels finish far apart;
against normal, hard or expert seats normal and hard finish within noise of each other
(docs/ratings.md), and no rating could order them."""
ROUNDS_TO_ORDER = 100
"""The stated bound: by this many matches each, the ladder's order is the tournament's."""
LADDER_SEED, TOURNAMENT_SEED = 11, 907


@cache
def truth(matches: int) -> dict[str, float]:
    return expected_places(players=DISGUISED, tables=TABLES, matches=matches, seed=TOURNAMENT_SEED)


def test_kendall_tau_counts_pairs_in_order():
    assert kendall_tau([1, 2, 3], [10, 20, 30]) == 1
    assert kendall_tau([1, 2, 3], [30, 20, 10]) == -1
    assert kendall_tau([1, 3, 2], [10, 20, 30]) == pytest.approx(1 / 3)


@pytest.mark.slow
def test_the_ladder_reaches_the_tournaments_order_and_the_anchors_stay():
    expected = truth(400)
    # The tournament's own order, and that it is not a near tie the ladder could not see.
    assert expected["normal"] < expected["hard"] < expected["easy"]
    assert expected["hard"] - expected["normal"] > 0.15
    run = ladder(
        players=DISGUISED,
        tables=TABLES,
        anchors=ANCHORS,
        expected=expected,
        rounds=2 * ROUNDS_TO_ORDER,
        seed=LADDER_SEED,
    )
    reached = run.rounds_to_order()
    print(f"ladder: tau = 1 from match {reached} on, of {len(run.taus)}; {run.ratings}")
    assert reached is not None and reached <= ROUNDS_TO_ORDER
    assert run.anchors_after == ANCHORS


@pytest.mark.simulation
@pytest.mark.parametrize("ladder_seed", range(8))
def test_every_ladder_reaches_the_order(ladder_seed):
    expected = truth(2000)
    run = ladder(
        players=DISGUISED,
        tables=TABLES,
        anchors=ANCHORS,
        expected=expected,
        rounds=4 * ROUNDS_TO_ORDER,
        seed=1000 + ladder_seed,
    )
    reached = run.rounds_to_order()
    print(f"ladder {ladder_seed}: tau = 1 from match {reached} on, of {len(run.taus)}")
    assert reached is not None and reached <= ROUNDS_TO_ORDER
    assert run.anchors_after == ANCHORS


def test_the_calibration_orders_easy_last_and_settles():
    found = calibrate(matches=200, seed=5)
    assert min(found.anchors, key=lambda level: found.anchors[level].mu) == "easy"
    assert all(rating.sigma < 3 for rating in found.anchors.values())
