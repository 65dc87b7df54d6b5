"""How each event changes a match's state: `evolve` applies one event, `replay` a whole
log. An evolver records what its event states; no rule decides anything here (rules.py
decides, and its events say what it decided).

`evolve` updates the state it is given in place and returns it, because the service and
the simulations apply thousands of events per second.
"""

from fractions import Fraction

from .cards import SEATS
from .dealing import series_seeds
from .events import (
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    MatchCreated,
    MatchFinished,
    MatchRestarted,
    PlayerJoined,
    PlayerLeft,
    Resigned,
    SeatFreed,
    SeatsFilled,
    SeedRevealed,
)
from .points import plus
from .state import DealState, MatchState, Status
from .vocabulary import Action, Actor

# Module-level aliases: enum attribute lookups are slow on the hot path.
_IN_DEAL = Status.IN_DEAL
_DEAL_OVER = Status.DEAL_OVER
_FINISHED = Status.FINISHED
_WAITING = Status.WAITING
_ABANDONED = Status.ABANDONED
_CLOCK = Actor.CLOCK
_LOOK, _FOLD, _RAISE = Action.LOOK, Action.FOLD, Action.RAISE


def _evolve_created(state: MatchState, event: MatchCreated) -> None:
    state.seed, state.rules, state.humans = event.seed, event.rules, event.humans
    state.seeds = series_seeds(event.seeds, event.client_seed)
    if event.humans > 1:
        state.status = _WAITING


def _evolve_joined(state: MatchState, event: PlayerJoined) -> None:
    # The next seat never handed out, or one freed before deal 1.
    state.joined = max(state.joined, event.seat + 1)
    state.vacated[event.seat] = False
    if state.seeds is not None:
        state.seeds.client_seeds[event.seat] = event.client_seed


def _evolve_freed(state: MatchState, event: SeatFreed) -> None:
    state.vacated[event.seat] = True
    if state.seeds is not None:  # the next to take the seat brings a client seed of their own
        state.seeds.client_seeds[event.seat] = ""


def _evolve_filled(state: MatchState, event: SeatsFilled) -> None:
    for seat in event.seats:
        state.filled[seat] = True
        state.vacated[seat] = False


def revealed(state: MatchState, server_seed: str | None) -> None:
    if server_seed is not None:
        state.seeds.revealed = True


def _evolve_left(state: MatchState, event: PlayerLeft) -> None:
    revealed(state, event.server_seed)
    state.left[event.seat] = True
    if event.abandoned:
        state.status = _ABANDONED
        if state.deal is not None:  # an unfinished deal stops, and counts for nobody
            state.deal.turn = None


def _evolve_deal_started(state: MatchState, event: DealStarted) -> None:
    state.series = event.series
    state.deal = DealState.opening(event.series, event.deal_number, event.dealer, event.deck)
    state.status = _IN_DEAL


def _evolve_action(state: MatchState, event: ActionTaken) -> None:
    """Record the action as the event states it: no rule decides anything here."""
    deal, seat, action = state.deal, event.seat, event.action
    state.clocked[seat] = event.by == _CLOCK
    deal.history.append((seat, action))
    if action == _LOOK:
        deal.looked[seat] = True
        return
    if action == _FOLD:
        deal.folded[seat] = True
    elif action == _RAISE:  # every other seat must act again
        deal.acted = [False] * SEATS
    deal.stakes[seat], deal.high_stake, deal.pot = event.stake, event.high_stake, event.pot
    deal.acted[seat] = True
    deal.turn = event.turn


def _evolve_deal_ended(state: MatchState, event: DealEnded) -> None:
    state.totals = [
        plus(total, result.delta) for total, result in zip(state.totals, event.seats, strict=True)
    ]
    state.deal.result = event
    state.deal.turn = None
    state.last_result = event
    state.status = _DEAL_OVER


def _evolve_finished(state: MatchState, event: MatchFinished) -> None:
    revealed(state, event.server_seed)
    state.winners = event.winners
    state.status = _FINISHED


def _evolve_restarted(state: MatchState, event: MatchRestarted) -> None:
    if event.seeds is not None:
        state.seeds = series_seeds(event.seeds, event.client_seed)
    state.series = event.series
    state.totals = [Fraction(0)] * SEATS
    state.deal = None
    state.last_result = None
    state.winners = None


def _evolve_resigned(state: MatchState, event: Resigned) -> None:
    # An unfinished deal stops where it is: nobody's turn, and no result.
    if state.deal is not None:
        state.deal.turn = None


def _evolve_seed_revealed(state: MatchState, event: SeedRevealed) -> None:
    # Never fails: a match without seeds, or revealed already, has nothing more to change.
    if state.seeds is not None:
        state.seeds.revealed = True


EVOLVERS = {
    MatchCreated: _evolve_created,
    DealStarted: _evolve_deal_started,
    ActionTaken: _evolve_action,
    DealEnded: _evolve_deal_ended,
    MatchFinished: _evolve_finished,
    MatchRestarted: _evolve_restarted,
    Resigned: _evolve_resigned,
    PlayerJoined: _evolve_joined,
    PlayerLeft: _evolve_left,
    SeatFreed: _evolve_freed,
    SeatsFilled: _evolve_filled,
    SeedRevealed: _evolve_seed_revealed,
}
"""How each event type changes a match's state: one for every type of the catalogue
(tests/engine/test_engine_catalogue.py)."""


def evolve(state: MatchState, event: Event) -> MatchState:
    """Apply one event to `state` (in place) and return it."""
    EVOLVERS[type(event)](state, event)
    state.version += 1
    return state


def replay(events) -> MatchState:
    """The state that a sequence of events builds from nothing."""
    state = MatchState()
    for event in events:
        evolve(state, event)
    return state
