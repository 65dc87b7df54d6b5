"""The turn loop: a command, then the seats no present human plays, up to a present human's
turn or the deal's end; and the clock's move for a human whose time ran out. The AI's
choice is injected (a `Chooser`), so the engine knows nothing of how the AI plays, and the
services and the schema's examples (games/http/examples.py) play matches through the same loop.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from . import fairness
from .commands import Act, Command, NextDeal
from .events import Event
from .evolvers import evolve
from .rules import decide, legal_actions
from .state import MatchState, Status
from .views import SeatView, event_view, observe
from .vocabulary import Actor


def ai_rng(seed: int, series: int, deal_number: int, seat: int, step: int) -> random.Random:
    """The random source of one AI decision, derived from the match's recorded seed.
    `step` is the number of actions in the deal so far (len(view.history))."""
    return random.Random(f"{seed}:{series}:{deal_number}:ai:{seat}:{step}")


def decision_rng(state: MatchState, seat: int, step: int) -> random.Random:
    """The random source of the AI's decision at `seat` now: for a match dealt verifiably,
    from its series' server seed under a label of its own (nothing public predicts it before
    the reveal); for one dealt as before, `ai_rng` from its seed."""
    seeds, deal_number = state.seeds, state.deal.deal_number
    if seeds is None:
        return ai_rng(state.seed, state.series, deal_number, seat, step)
    key = bytes.fromhex(seeds.server_seed)
    return fairness.ai_rng(key, seeds.client_seeds, state.series, deal_number, seat, step)


@dataclass(frozen=True, slots=True)
class AiTurn:
    """All the AI may know when it acts for a seat: the seat's view, not the state (which
    holds every hand and the seeds), so the loop cannot hand it a hidden card."""

    view: SeatView
    legal: tuple[str, ...]
    rng: random.Random
    """This decision's random source (`decision_rng`): the same seeds, the same choice."""
    seen_events: Callable[[], list[dict]]
    """The match's events so far as this seat sees them (`event_view`), built only when
    called: for the AI levels that watch the table."""


class Chooser(Protocol):
    """The AI's choice for one turn: one of `turn.legal`."""

    def __call__(self, turn: AiTurn) -> str: ...


@dataclass
class Step:
    """The events one request adds to a match, and the state they lead to."""

    state: MatchState
    events: list[Event] = field(default_factory=list)
    earlier: list[Event] = field(default_factory=list)
    """The match's stored events, for the AI levels that watch the table; empty for the
    others."""

    def apply(self, command: Command) -> None:
        for event in decide(self.state, command):
            evolve(self.state, event)
            self.events.append(event)

    def play(self, command: Command, choose: Chooser) -> None:
        """The command, then the AI's actions up to a present human's turn."""
        self.apply(command)
        run_ai_seats(self, choose)


def ai_act(step: Step, choose: Chooser, *, by: Actor = Actor.AI) -> None:
    """The AI takes the action of the seat whose turn it is, seeing only that seat's view:
    for an AI seat, a human who left (`by` the AI), or a human whose time ran out (the
    clock)."""
    state = step.state
    seat = state.deal.turn
    view, so_far = observe(state, seat), len(step.events)
    turn = AiTurn(
        view,
        legal_actions(state, seat),
        decision_rng(state, seat, len(view.history)),
        lambda: [event_view(event, seat) for event in step.earlier + step.events[:so_far]],
    )
    step.apply(Act(seat, choose(turn), by))


def run_ai_seats(step: Step, choose: Chooser) -> None:
    """Let the AI act (at AI seats, and for humans who left) until it is a present human's
    turn or the deal is over."""
    state = step.state
    while state.status is Status.IN_DEAL and state.ai_plays(state.deal.turn):
        ai_act(step, choose)


def clock_move(step: Step, choose: Chooser) -> None:
    """The clock's move: the AI acts for the present human whose time ran out (recorded `by`
    "clock") until the turn passes, as a look keeps it; between deals, the next deal. Then
    the AI seats reply, up to a present human's turn."""
    state = step.state
    if state.status is Status.IN_DEAL:
        seat = state.deal.turn
        while state.status is Status.IN_DEAL and state.deal.turn == seat:
            ai_act(step, choose, by=Actor.CLOCK)
    else:
        step.apply(NextDeal())
    run_ai_seats(step, choose)
