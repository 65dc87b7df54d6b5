"""The random-play simulation and its `manage.py simulate` command. No database."""

import io
import re
from fractions import Fraction
from types import SimpleNamespace

import pytest

from games.engine.points import Memo
from games.engine.simulate import _zero_sum, simulate


def test_simulate_plays_the_deals_it_is_asked_for():
    report = simulate(300, seed=5)
    assert report.deals == 300
    assert sum(report.outcomes.values()) == 300
    assert set(report.outcomes) == {"showdown", "uncontested"}
    # Every deal has at least 3 betting actions (three folds), at most 13 plus 4 looks.
    assert 3 * 300 <= report.actions <= 17 * 300
    assert report.max_actions_in_deal <= 17
    assert simulate(300, seed=5) == report


def test_simulate_command_reports_deals_per_second():
    from django.core.management import call_command

    out = io.StringIO()
    call_command("simulate", deals=200, seed=1, no_progress=True, stdout=out)
    text = out.getvalue()
    assert "Simulating 200 deals with seed 1" in text
    assert re.search(
        r"^deals: 200 in [\d.]+ s = [\d,]+ deals/s \([\d,]+ per CPU-second\)$", text, re.M
    )
    assert "showdown: " in text and "uncontested: " in text


@pytest.mark.simulation
def test_a_long_simulation_stays_consistent():
    # simulate() itself asserts that every deal's deltas sum to zero.
    report = simulate(100_000, seed=1)
    assert report.deals == 100_000
    assert report.max_actions_in_deal <= 17


def _seats_with_deltas(*deltas):
    return [SimpleNamespace(delta=Fraction(delta)) for delta in deltas]


def test_the_simulation_check_refuses_a_deal_that_does_not_sum_to_zero():
    assert _zero_sum(_seats_with_deltas("8/3", "-2/3", "-1", "-1"))
    assert not _zero_sum(_seats_with_deltas("8/3", "-2/3", "-1", "-2"))
    # A delta in fifths cannot come from splitting a pot among at most four winners.
    with pytest.raises(AssertionError):
        _zero_sum(_seats_with_deltas("1/5", "-1/5", "0", "0"))


def test_the_engine_memories_stay_small():
    memo = Memo(lambda a, b: a + b, size=3)
    assert [memo[1, 2], memo[1, 2], memo[2, 2], memo[3, 2]] == [3, 3, 4, 5]
    assert len(memo) == 3
    assert memo[4, 2] == 6 and len(memo) == 1  # full: it started over
