"""Resigning: the match ends at once, the totals stand, the resigning seat never wins."""

import random
from fractions import Fraction

import pytest

from games.engine import (
    Act,
    MatchState,
    NextDeal,
    Resign,
    RuleError,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    replay,
)


def apply(state: MatchState, command, log: list) -> None:
    for event in decide(state, command):
        evolve(state, event)
        log.append(event)


def play_deals(deals: int, seed: int) -> tuple[MatchState, list]:
    """A match after `deals` whole deals of random legal play, the last one over."""
    rng, log, state = random.Random(seed), [], MatchState()
    apply(state, StartMatch(seed), log)
    for number in range(deals):
        if number:
            apply(state, NextDeal(), log)
        while state.status is Status.IN_DEAL:
            seat = state.deal.turn
            apply(state, Act(seat, rng.choice(legal_actions(state, seat))), log)
    return state, log


@pytest.mark.parametrize("seed", range(20))
def test_resigning_ends_the_match_with_the_totals_as_they_stand(seed):
    state, log = play_deals(3, seed)
    apply(state, NextDeal(), log)  # a deal in progress, abandoned by the resignation
    totals = list(state.totals)
    apply(state, Resign(0), log)
    assert [event.type for event in log[-2:]] == ["resigned", "match_finished"]
    assert state.status is Status.FINISHED
    assert state.totals == totals
    assert 0 not in state.winners
    best = max(totals[1:])
    assert state.winners == tuple(seat for seat in (1, 2, 3) if totals[seat] == best)
    assert legal_actions(state, state.deal.turn or 0) == ()
    assert replay(log).to_dict() == state.to_dict()


def test_the_leader_who_resigns_does_not_win():
    state, log = play_deals(1, 0)
    state.totals = [Fraction(9), Fraction(-3), Fraction(-3), Fraction(-3)]
    apply(state, Resign(0), log)
    assert state.winners == (1, 2, 3)


def test_a_finished_match_cannot_be_resigned():
    state, log = play_deals(1, 1)
    apply(state, Resign(0), log)
    with pytest.raises(RuleError) as refused:
        decide(state, Resign(0))
    assert refused.value.code == "match_finished"


def test_resigning_before_the_match_starts_is_refused():
    with pytest.raises(RuleError) as refused:
        decide(MatchState(), Resign(0))
    assert refused.value.code == "match_not_started"
