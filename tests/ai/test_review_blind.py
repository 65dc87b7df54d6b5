"""The shipped blind values (games/ai/review_blind.json) are current and are the values a
review would work out: a stale file would be ignored, so this fails until it is rebuilt."""

import random

import pytest

from games.ai import coach_tables, review, review_blind
from games.ai.tree import TREE


def test_the_shipped_file_is_built_from_the_current_inputs():
    assert review_blind.precomputed(), (
        "games/ai/review_blind.json is missing or stale: `python -m games.ai.review_blind`"
    )


def test_every_seats_first_decision_against_each_table_is_shipped_where_it_can_occur():
    shipped = review_blind.precomputed()
    tables = {tables for tables, _ in shipped}
    assert {t[(p + 1) % 4] for t in tables for p in range(4) if t[p] == "hard"} >= {
        "normal",
        "easy",
    }
    first = review_blind.first_decisions()
    assert all(node in first for _, node in shipped)
    # The deal's very first decision is blind at every table: always shipped.
    for table in review_blind.LEVEL_TABLES:
        assert (review_blind.uniform(table, TREE.player[0]), 0) in shipped


@pytest.mark.usefixtures("coach_tables_built")
def test_shipped_values_are_the_worked_out_ones():
    coach_tables.load()
    shipped = review_blind.precomputed()
    for key in random.Random(36).sample(sorted(shipped), 4):
        assert review.worked_blind_values(*key) == shipped[key]
        assert review.blind_values(*key) is shipped[key]
