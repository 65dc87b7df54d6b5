"""How the admin describes each kind of event, one line each."""

from fractions import Fraction

import pytest

from games.admin.phrases import describe
from games.engine import (
    ActionTaken,
    DealEnded,
    DealStarted,
    MatchCreated,
    MatchFinished,
    MatchRestarted,
    PlayerJoined,
    PlayerLeft,
    SeatFreed,
    SeatResult,
)


def settled(outcome: str, winners: tuple[int, ...], stakes: list[int]) -> DealEnded:
    pot = sum(stakes)
    seats = tuple(
        SeatResult(
            seat=seat,
            hand=("As", "As", "As", "Shah", "Shah"),
            category="full_house",
            stake=stake,
            payout=Fraction(pot, len(winners)) if seat in winners else Fraction(0),
            delta=(Fraction(pot, len(winners)) if seat in winners else 0) - stake,
            folded=False,
            shown=outcome == "showdown",
        )
        for seat, stake in enumerate(stakes)
    )
    return DealEnded(1, 3, outcome, winners, seats)


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (MatchCreated(42), "match created · dealt by python-random/0"),
        (DealStarted(1, 3, 1, ()), "deal 3 starts · dealer seat 1"),
        (DealStarted(2, 1, 0, ()), "series 2 deal 1 starts · dealer seat 0"),
        (ActionTaken(1, "look", 0, 2, 3), "deal 3 · seat 1 looks"),
        (ActionTaken(2, "raise", 3, 3, 7), "deal 3 · seat 2 raises to 3 · pot 7"),
        (ActionTaken(3, "call", 3, 3, 10), "deal 3 · seat 3 calls to 3 · pot 10"),
        (ActionTaken(0, "hold", 3, 3, 10), "deal 3 · seat 0 holds at 3 · pot 10"),
        (ActionTaken(1, "fold", 0, 3, 10), "deal 3 · seat 1 folds · pot 10"),
        (settled("showdown", (2,), [1, 0, 3, 3]), "deal 3 · showdown · seat 2 wins 7 (full house)"),
        (
            settled("showdown", (1, 3), [2, 2, 1, 2]),
            "deal 3 · showdown · seats 1 and 3 split 7 (full house)",
        ),
        (settled("uncontested", (0,), [2, 1, 0, 0]), "deal 3 · uncontested · seat 0 wins 3"),
        (
            MatchFinished(1, (2,), (Fraction(-7, 3), Fraction(1), Fraction(10, 3), Fraction(-2))),
            "series 1 over · seat 2 wins · totals -7/3, 1, 10/3, -2",
        ),
        (MatchRestarted(2), "restart · series 2 begins"),
        (PlayerJoined(1, "Babak"), "seat 1 joins"),
        (PlayerLeft(1), "seat 1 leaves; the AI plays the seat"),
        (PlayerLeft(0, abandoned=True), "seat 0 leaves; the AI plays the seat · match abandoned"),
        (SeatFreed(2), "seat 2 leaves before deal 1; the seat is open again"),
    ],
)
def test_each_event_reads_at_a_glance(event, text):
    assert describe(event, "deal 3") == text


NAMES = {0: "Roya", 1: "Darius", 2: "Shirin", 3: "Kaveh"}


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (DealStarted(1, 3, 1, ()), "deal 3 starts · dealer seat 1 (Darius)"),
        (ActionTaken(2, "raise", 3, 3, 7), "deal 3 · seat 2 (Shirin) raises to 3 · pot 7"),
        (
            settled("showdown", (1, 3), [2, 2, 1, 2]),
            "deal 3 · showdown · seats 1 (Darius) and 3 (Kaveh) split 7 (full house)",
        ),
        (
            MatchFinished(1, (0,), (Fraction(3), Fraction(-1), Fraction(-1), Fraction(-1))),
            "series 1 over · seat 0 (Roya) wins · totals 3, -1, -1, -1",
        ),
    ],
)
def test_events_name_the_players_beside_their_seats(event, text):
    assert describe(event, "deal 3", NAMES) == text


def test_an_open_seat_is_named_by_its_number_alone():
    assert describe(PlayerJoined(1, "Babak"), None, {0: "Roya", 1: None}) == "seat 1 joins"
