"""The random-play simulation and its `manage.py simulate` command. No database."""

import io

import pytest

from games.engine.simulate import simulate


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
    assert "deals: 200 in " in text and "deals/s" in text
    assert "showdown: " in text and "uncontested: " in text


@pytest.mark.simulation
def test_a_long_simulation_stays_consistent():
    # simulate() itself asserts that every deal's deltas sum to zero.
    report = simulate(100_000, seed=1)
    assert report.deals == 100_000
    assert report.max_actions_in_deal <= 17
