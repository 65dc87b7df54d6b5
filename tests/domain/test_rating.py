"""The pure rating function (players/rating.py): places from exact totals, anchors that do not
move. No database."""

from fractions import Fraction as F

from players.rating import START, Entrant, Rating, places, rate

STAYED = [False] * 4


def test_places_come_from_exact_totals_and_ties_share_one():
    # 1/3 and 0.333...: a float would tie them, or order them by rounding.
    assert places([F(1, 3), F(333, 1000), F(-1, 2), F(1, 3)], STAYED) == [1, 3, 4, 1]
    assert places([F(0)] * 4, STAYED) == [1, 1, 1, 1]


def test_a_seat_that_quit_comes_last_whatever_its_total():
    assert places([F(9), F(1), F(2), F(-3)], [True, False, False, False]) == [4, 2, 1, 3]
    assert places([F(9), F(1), F(2), F(-3)], [True, False, True, False]) == [3, 1, 3, 2]


def test_anchors_keep_their_rating_and_the_human_moves():
    anchor = Rating(27.0, 1.6)
    after = rate([Entrant(START, 1)] + [Entrant(anchor, 2, anchored=True)] * 3)
    assert after[1:] == [anchor] * 3
    assert after[0].mu > START.mu and after[0].sigma < START.sigma
    worse = rate([Entrant(START, 4)] + [Entrant(anchor, 1, anchored=True)] * 3)
    assert worse[0].mu < START.mu


def test_a_tie_moves_less_than_a_win():
    anchor = Rating(25.0, 1.6)
    won = rate([Entrant(START, 1)] + [Entrant(anchor, 2, anchored=True)] * 3)[0]
    tied = rate([Entrant(START, 1)] + [Entrant(anchor, 1, anchored=True)] * 3)[0]
    assert won.mu > tied.mu


def test_a_new_player_is_shown_0_not_minus_0():
    assert str(START.displayed) == "0.0"
