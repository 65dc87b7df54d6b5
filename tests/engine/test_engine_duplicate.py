"""Duplicate scoring (games/engine/duplicate.py), checked against matchpoints counted by hand:
no database."""

from fractions import Fraction as F

from games.engine import duplicate


def test_matchpoints_count_each_entrant_below_and_half_each_tie():
    # Deal 1: 3, 1, 1; deal 2: -2, 5, 0 (two deals, three entrants: 4 matchpoints at most).
    results = {"a": [F(3), F(-2)], "b": [F(1), F(5)], "c": [F(1), F(0)]}
    rows = {row.entrant: row for row in duplicate.standings(results, deals=2)}
    assert [s.matchpoints for s in rows["a"].deals] == [2, 0]
    assert [s.matchpoints for s in rows["b"].deals] == [F(1, 2), 2]
    assert [s.matchpoints for s in rows["c"].deals] == [F(1, 2), 1]
    assert rows["b"].matchpoints == F(5, 2) and rows["b"].percentage == F(5, 2) * 100 / 4
    # Deal 1's mean is 5/3, deal 2's is 1: a's difference is 4/3 - 3.
    assert rows["a"].versus_mean == F(3) - F(5, 3) + F(-2) - 1
    assert rows["a"].total == 1


def test_ties_share_the_best_place_and_order_follows_matchpoints():
    results = {"a": [F(1)], "b": [F(2)], "c": [F(2)], "d": [F(0)]}
    ranked = [(row.entrant, row.rank) for row in duplicate.standings(results, deals=1)]
    assert ranked == [("b", 1), ("c", 1), ("a", 3), ("d", 4)]


def test_a_deal_not_played_scores_as_the_fields_lowest_on_it():
    results = {"a": [F(4), None], "b": [F(-3), F(2)], "c": [F(1), F(-1)]}
    rows = {row.entrant: row for row in duplicate.standings(results, deals=2)}
    assert rows["a"].deals[1].result == -1 and not rows["a"].deals[1].played
    assert rows["a"].deals[1].matchpoints == F(1, 2)  # tied with c's -1, above nobody
    assert rows["c"].deals[1].matchpoints == F(1, 2)
    # Nobody played a deal: every entrant scores 0 on it, all tied.
    alone = duplicate.standings({"a": [None], "b": []}, deals=1)
    assert [row.deals[0].result for row in alone] == [0, 0]
    assert [row.matchpoints for row in alone] == [F(1, 2), F(1, 2)]


def test_a_lone_entrant_scores_fifty_percent_and_the_fractions_stay_exact():
    (row,) = duplicate.standings({"a": [F(7, 3)] * 12})
    assert row.percentage == 50 and row.matchpoints == 0 and row.total == 28
    three = duplicate.standings({"a": [F(1)], "b": [F(0)], "c": [F(0)], "d": [F(0)]}, deals=1)
    assert three[1].percentage == F(100, 3)  # 1/3 of the maximum, not 33.33...


def test_pools_are_scored_within_themselves_and_merged_by_percentage():
    pools = {
        0: {"a": [F(3)], "b": [F(1)], "c": [F(1)]},  # a: 2 of 2, b and c: 1/2 of 2
        1: {"d": [F(-5)], "e": [F(-7)]},  # d: 1 of 1, e: 0 of 1
    }
    rows = duplicate.pooled_standings(pools, deals=1)
    assert [(r.entrant, r.pool, r.rank, r.percentage) for r in rows] == [
        ("a", 0, 1, 100),
        ("d", 1, 1, 100),  # the best of a pool of two ties the best of a pool of three
        ("b", 0, 3, 25),
        ("c", 0, 3, 25),
        ("e", 1, 5, 0),
    ]
    # Within its pool, d beat e on a deal where a pool-0 entrant would have beaten both.
    assert rows[1].matchpoints == 1 and rows[1].versus_mean == 1
