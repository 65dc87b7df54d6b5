"""The pure rating function (players/rating.py): places from exact totals, anchors that do not
move. No database."""

from fractions import Fraction as F

from players.rating import START, Entrant, Rated, Rating, places, rate, rate_match

STAYED = [False] * 4
QUIT_0 = [True, False, False, False]
QUIT_1 = [False, True, False, False]


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


ANCHOR = Rating(28.87, 1.65)


def test_a_seat_that_quits_cannot_lift_the_places_of_those_who_stayed():
    totals = [F(-3), F(7), F(0), F(-4)]  # seat 0 stayed; seat 1's human left
    rated = rate_match(totals=totals, humans={0: START, 1: START}, quit=QUIT_1, anchor=ANCHOR)
    assert (rated[0].place, rated[1].place) == (3, 4)
    # Seat 1 entered the stayer's call as the anchor, placed by its total: as at a
    # single-player table with those totals.
    alone = rate([Entrant(START, 3)] + [Entrant(ANCHOR, p, anchored=True) for p in (1, 2, 4)])
    assert rated[0].after == alone[0]


def test_a_single_player_resignation_is_rated_as_before():
    totals = [F(5), F(-2), F(-2), F(-1)]
    rated = rate_match(totals=totals, humans={0: START}, quit=QUIT_0, anchor=ANCHOR)
    last = rate([Entrant(START, 4)] + [Entrant(ANCHOR, p, anchored=True) for p in (2, 2, 1)])
    assert rated == {0: Rated(4, last[0])}
