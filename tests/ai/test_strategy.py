"""The shipped strategy table: well-formed, legal, checked on load, fast."""

import json
import random
import time

import pytest

from games.ai import choose_action
from games.ai.strategy import (
    ASSET_PATH,
    SCALE,
    StrategyError,
    load_strategy,
    read_asset,
    rules_version,
    table_bytes,
    table_rows,
)
from games.ai.tables import engine_legal, view_at
from games.ai.tree import TREE, build_tree


@pytest.fixture(scope="module")
def strategy():
    return load_strategy()


def test_header_records_what_made_it(strategy):
    header = strategy.header
    assert header["rules_version"] == rules_version()
    for key in ("seed", "iterations", "exploitability", "sha256", "algorithm"):
        assert key in header
    assert header["exploitability"] <= 0.001
    assert 50_000 < ASSET_PATH.stat().st_size < 1_000_000


def test_every_row_is_a_distribution_over_legal_actions(strategy):
    with_matched_fold = build_tree(matched_fold=True)
    for n, p in enumerate(TREE.player):
        rows = strategy.rows[n]
        if p < 0:
            assert rows is None
            continue
        legal = engine_legal(TREE, n, looked=True)
        # The model's actions at this node are exactly the engine's, minus look and the
        # dominated fold while matched (test_tree proves the model against the engine).
        assert set(TREE.actions[n]) <= set(legal)
        other = with_matched_fold.index[TREE.history[n]]
        assert set(with_matched_fold.actions[other]) - set(TREE.actions[n]) <= {"fold"}
        assert len(rows) == 121
        for row in rows:
            assert len(row) == len(TREE.actions[n])
            assert all(x >= 0 for x in row) and sum(row) == SCALE


def test_hard_decides_in_well_under_a_millisecond(strategy):
    rng = random.Random(1)
    cases = []
    for n in TREE.decision_nodes()[::7]:
        h = rng.randrange(121)
        cases.append((view_at(TREE, n, h), engine_legal(TREE, n, looked=True)))
    # The thread's CPU time, not the wall clock's: on a busy machine (a parallel run beside
    # other work) the thread waits for a core, which says nothing of the decision's cost.
    started = time.thread_time()
    for view, legal in cases:
        assert choose_action("hard", view, legal, rng) in legal
    per_decision = (time.thread_time() - started) / len(cases)
    assert per_decision < 0.001


def _tampered(tmp_path, **changes):
    data = json.loads(ASSET_PATH.read_text())
    data.update(changes)
    path = tmp_path / "strategy.json"
    path.write_text(json.dumps(data))
    return path


def test_loader_accepts_the_shipped_file():
    assert read_asset(ASSET_PATH).header["sha256"]


def test_loader_rejects_a_bad_checksum(tmp_path):
    with pytest.raises(StrategyError, match="checksum"):
        read_asset(_tampered(tmp_path, sha256="0" * 64))


def test_loader_rejects_other_rules(tmp_path):
    with pytest.raises(StrategyError, match="rules version"):
        read_asset(_tampered(tmp_path, rules_version="asnas-0000000000000000"))


def test_loader_rejects_a_damaged_table(tmp_path):
    with pytest.raises(StrategyError, match="damaged"):
        read_asset(_tampered(tmp_path, table="not base64 zlib!"))


def _shipped_rows() -> list:
    """The shipped table's integer rows, as lists that a test may change."""
    return [None if node is None else [list(row) for row in node] for node in load_strategy().rows]


def test_loader_rejects_a_row_that_is_not_a_distribution():
    """One unit moved from a hand's row to the next hand's: the node's values still add up
    to its rows' worth, but two rows do not (the check reads each row)."""
    rows = _shipped_rows()
    first = TREE.decision_nodes()[0]
    hand = next(h for h, row in enumerate(rows[first]) if row[0] > 0)
    rows[first][hand][0] -= 1
    rows[first][hand + 1][0] += 1
    assert table_rows(table_bytes(_shipped_rows()), ASSET_PATH)
    with pytest.raises(StrategyError, match=f"a row of node {first} is not a distribution"):
        table_rows(table_bytes(rows), ASSET_PATH)


def test_loader_rejects_a_table_a_value_short_or_long():
    payload = table_bytes(_shipped_rows())  # two bytes a value
    last = TREE.decision_nodes()[-1]
    with pytest.raises(StrategyError, match=f"a row of node {last} is not a distribution"):
        table_rows(payload[:-2], ASSET_PATH)
    with pytest.raises(StrategyError, match="1 values too many"):
        table_rows(payload + bytes(2), ASSET_PATH)


def test_loader_says_when_the_file_is_missing(tmp_path):
    with pytest.raises(StrategyError, match="missing.*train_ai"):
        read_asset(tmp_path / "nowhere.json")


@pytest.mark.slow
def test_the_recorded_exploitability_is_what_the_table_gives(strategy):
    from games.ai.exploit import exploitability

    measured = exploitability(strategy.table())
    assert measured["average"] == pytest.approx(strategy.header["exploitability"], abs=2e-6)
    assert measured["average"] <= 0.005
