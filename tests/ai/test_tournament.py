"""A fixed-seed duplicate tournament ranks hard > normal > easy, beyond its 95% CI."""

import pytest

from games.ai.tournament import paired_difference, run, seatings

# Matches of 12 deals, each played in all four seatings. hard's edge over normal is the
# smallest (about 0.027 pts/deal), so that pairing needs the most deals.
MATCHES = {"normal": 600, "easy": 150}


def test_seatings_cover_every_seat():
    assert seatings(("hard", "normal", "normal", "normal")) == [
        ("hard", "normal", "normal", "normal"),
        ("normal", "hard", "normal", "normal"),
        ("normal", "normal", "hard", "normal"),
        ("normal", "normal", "normal", "hard"),
    ]
    assert len(seatings(("hard", "normal", "easy", "easy"))) == 12


@pytest.mark.slow
@pytest.mark.parametrize(
    ("better", "worse"), [("hard", "normal"), ("normal", "easy"), ("hard", "easy")]
)
def test_the_better_level_wins_beyond_its_confidence_interval(better, worse):
    matches = MATCHES[worse]
    stats = run((better, worse, worse, worse), matches, seed=7)
    assert len(stats[better].deal_means) == matches * 12
    margin = stats[better].mean() - stats[worse].mean()
    # Scores sum to zero, so the margin is 4/3 of the better level's own mean.
    assert margin == pytest.approx(4 / 3 * stats[better].mean())
    assert stats[better].mean() - stats[better].ci95() > 0


@pytest.mark.slow
def test_expert_takes_more_from_easy_seats_than_hard_does():
    """The same cards and random sources with hard in expert's seat: the deal-by-deal
    difference is expert's gain from watching the table (+0.034 over 12,000 deals)."""
    lineup = ("expert", "easy", "easy", "easy")
    expert = run(lineup, 150, seed=7)["expert"]
    hard = run(("hard", *lineup[1:]), 150, seed=7)["hard"]
    gain = paired_difference(expert, hard)
    assert gain.mean() - gain.ci95() > 0
