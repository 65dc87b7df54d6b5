"""Random legal play: the engine's benchmark and a broad consistency check."""

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .cards import SEATS
from .commands import Act, NextDeal, Restart, StartMatch
from .evolvers import evolve
from .rules import decide, legal_actions
from .state import MatchState, Status
from .vocabulary import Action

TWELFTHS = 12
"""A payout splits the pot among at most four winners, so every delta is a whole number of
twelfths: summing them as integers is exact, and much cheaper than adding Fractions."""


def _zero_sum(seats) -> bool:
    twelfths = 0
    for seat in seats:
        delta = seat.delta
        assert TWELFTHS % delta.denominator == 0, delta
        twelfths += delta.numerator * (TWELFTHS // delta.denominator)
    return twelfths == 0


@dataclass
class SimulationReport:
    deals: int = 0
    actions: int = 0
    outcomes: Counter = field(default_factory=Counter)
    max_actions_in_deal: int = 0


def simulate(
    deals: int, seed: int, on_deal: Callable[[int], None] | None = None
) -> SimulationReport:
    """Play `deals` deals with uniformly random legal actions, restarting each finished
    match. Every deal's deltas must sum to zero, or this raises AssertionError."""
    rng = random.Random(seed)
    report = SimulationReport()
    state = MatchState()
    for event in decide(state, StartMatch(seed)):
        evolve(state, event)
    # Local names: enum members and bound methods are slow to look up on the hot path.
    in_deal, deal_over = Status.IN_DEAL, Status.DEAL_OVER
    choose = rng.choice
    # Commands are immutable values: build each possible one once, not once per step.
    acts = {(seat, a.value): Act(seat, a.value) for seat in range(SEATS) for a in Action}
    next_deal, restart = NextDeal(), Restart()
    while report.deals < deals:
        status = state.status
        if status is in_deal:
            seat = state.deal.turn
            command = acts[seat, choose(legal_actions(state, seat))]
            report.actions += 1
        elif status is deal_over:
            command = next_deal
        else:
            command = restart
        for event in decide(state, command):
            evolve(state, event)
        if command.__class__ is Act and state.status is not in_deal:
            result = state.deal.result
            assert _zero_sum(result.seats)
            report.deals += 1
            report.outcomes[result.outcome] += 1
            report.max_actions_in_deal = max(report.max_actions_in_deal, len(state.deal.history))
            if on_deal:
                on_deal(report.deals)
    assert len(state.totals) == SEATS
    return report
