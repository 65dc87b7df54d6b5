"""The rules: `decide` validates a command and returns the events it causes, and
`legal_actions` says what a seat may do now. `decide` never changes its input, so a
refused command leaves the state exactly as it was; the events are applied by `evolve`
(evolvers.py), and each deal is dealt by dealing.py.
"""

from . import dealing
from .cards import SEATS
from .commands import (
    Act,
    Command,
    FillSeats,
    Join,
    Leave,
    NextDeal,
    Resign,
    Restart,
    RevealSeed,
    Seeds,
    StartMatch,
)
from .errors import RuleError
from .events import (
    ActionTaken,
    DealEnded,
    Event,
    MatchCreated,
    MatchFinished,
    MatchRestarted,
    PlayerJoined,
    PlayerLeft,
    Resigned,
    SeatFreed,
    SeatResult,
    SeatsFilled,
    SeedRevealed,
)
from .hands import evaluate
from .points import Memo, amounts, plus
from .state import MATCH_DEALS, MAX_STAKE, DealState, MatchState, Outcome, Status
from .vocabulary import Action, Actor

# Module-level aliases: enum attribute lookups are slow on the hot path.
_IN_DEAL = Status.IN_DEAL
_FINISHED = Status.FINISHED
_NOT_STARTED = Status.NOT_STARTED
_WAITING = Status.WAITING
_ABANDONED = Status.ABANDONED
_LOOK, _CALL, _RAISE, _FOLD = Action.LOOK, Action.CALL, Action.RAISE, Action.FOLD
_ACTORS = frozenset(Actor)


# An immutable event is a value: one instance can stand for every equal one, and looking it up
# costs a fraction of building a frozen dataclass.
_ACTIONS = Memo(ActionTaken)


def legal_actions(state: MatchState, seat: int) -> tuple[str, ...]:
    """What `seat` may do now: nothing unless it is that seat's turn in a deal."""
    deal = state.deal
    if state.status is not _IN_DEAL or deal.turn != seat:
        return ()
    matched = deal.stakes[seat] == deal.high_stake
    can_raise = deal.high_stake < MAX_STAKE
    return allowed_actions(looked=deal.looked[seat], matched=matched, can_raise=can_raise)


def allowed_actions(*, looked: bool, matched: bool, can_raise: bool) -> tuple[str, ...]:
    """The actions a seat may take on its turn (docs/rules.md, One deal 6): the one table of
    them, which the AI's betting trees reuse."""
    return _LEGAL[looked, matched, can_raise]


# Every combination of (looked, matched, can_raise), in the order the API lists actions.
_LEGAL = {
    (looked, matched, can_raise): tuple(
        action
        for action, allowed in (
            (Action.LOOK, not looked),
            (Action.CALL, not matched),
            (Action.HOLD, matched),
            (Action.RAISE, can_raise),
            (Action.FOLD, True),
        )
        if allowed
    )
    for looked in (False, True)
    for matched in (False, True)
    for can_raise in (False, True)
}


def _turn_after(deal: DealState, seat: int, action: str, high: int) -> int | None:
    """The next seat to act after `seat`'s call, hold, raise or fold, or None when betting is
    over: one seat left, or every seat still in has acted since the last raise and matched
    the high stake. Reads the deal as it was before the action, to copy nothing."""
    folded = deal.folded
    if action == _RAISE:  # every other seat still in must act again
        following = (seat + 1) % SEATS
        while folded[following]:
            following = (following + 1) % SEATS
        return following
    acted, stakes = deal.acted, deal.stakes
    in_deal = 0
    settled = True
    for other in range(SEATS):
        if other == seat:  # it has just acted, and matched unless it folded
            in_deal += action != _FOLD
        elif not folded[other]:
            in_deal += 1
            if not acted[other] or stakes[other] != high:
                settled = False
    if in_deal == 1 or settled:
        return None
    following = (seat + 1) % SEATS
    while folded[following] or following == seat:
        following = (following + 1) % SEATS
    return following


def _settle(deal: DealState, stakes: list[int], folded: list[bool], pot: int) -> DealEnded:
    """The result of the deal whose last action left these stakes, folds and pot."""
    active = [seat for seat in range(SEATS) if not folded[seat]]
    values = [evaluate(hand) for hand in deal.hands]
    if len(active) == 1:
        outcome, winners = Outcome.UNCONTESTED, tuple(active)
    else:
        best = max(values[seat].key for seat in active)
        outcome = Outcome.SHOWDOWN
        winners = tuple(seat for seat in active if values[seat].key == best)
    showdown = outcome is Outcome.SHOWDOWN
    count, hands = len(winners), deal.hands
    seats = []
    for seat in range(SEATS):
        payout, delta = amounts(pot, count, stakes[seat], seat in winners)
        seats.append(
            SeatResult(
                seat,
                hands[seat],
                values[seat].category,
                stakes[seat],
                payout,
                delta,
                folded[seat],
                showdown and not folded[seat],
            )
        )
    return DealEnded(deal.series, deal.deal_number, outcome, winners, tuple(seats))


def _leaders(totals) -> tuple[int, ...]:
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def _require_started(state: MatchState) -> None:
    if state.status is _NOT_STARTED or state.status is _WAITING:
        raise RuleError("match_not_started", "The match has not started.")
    if state.status is _ABANDONED:
        raise RuleError("match_abandoned", "Every human left this match; nobody plays it.")


def _require_seat(seat) -> None:
    # type() rather than isinstance(): a bool is an int, and True would pass as seat 1.
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise RuleError("invalid_seat", f"Seats are numbered 0 to {SEATS - 1}.")


def _finished() -> RuleError:
    """The refusal of a move in a finished match, other than leaving it."""
    return RuleError("match_finished", "The match is finished; restart to play again.")


def require_turn(state: MatchState, seat: int) -> None:
    """Refuse unless a deal is in play and it is `seat`'s turn: what an action (and the
    coach's advice on one) needs first."""
    _require_in_deal(state)
    _require_turn_of(state.deal, seat)


def _require_in_deal(state: MatchState) -> None:
    if state.status is not _IN_DEAL:
        _require_started(state)
        if state.status is _FINISHED:
            raise _finished()
        raise RuleError("deal_over", "The deal is over; start the next deal.")


def _require_turn_of(deal: DealState, seat: int) -> None:
    if deal.turn != seat:
        raise RuleError("not_your_turn", f"It is seat {deal.turn}'s turn.")


def _decide_act(state: MatchState, command: Act) -> list[Event]:
    _require_in_deal(state)
    seat, action, by = command.seat, command.action, command.by
    deal = state.deal
    if type(seat) is not int or deal.turn != seat:  # the seat to act is a valid seat
        _require_seat(seat)
    if by not in _ACTORS:
        raise RuleError("invalid_actor", f"Actions are taken by {', '.join(Actor)}.")
    _require_turn_of(deal, seat)
    looked, stake, high, pot = deal.looked[seat], deal.stakes[seat], deal.high_stake, deal.pot
    if action == _LOOK and looked:
        raise RuleError("already_looked", "A seat may look at its cards once per deal.")
    allowed = _LEGAL[looked, stake == high, high < MAX_STAKE]
    if action not in allowed:
        raise RuleError(
            "illegal_action", f"'{action}' is not allowed now; allowed: {', '.join(allowed)}."
        )
    if action == _LOOK:
        return [_ACTIONS[seat, action, stake, high, pot, seat, by]]
    if action == _RAISE:
        high += 1
    if action == _CALL or action == _RAISE:
        pot += high - stake
        stake = high
    turn = _turn_after(deal, seat, action, high)
    events = [_ACTIONS[seat, action, stake, high, pot, turn, by]]
    if turn is None:
        stakes, folded = deal.stakes.copy(), deal.folded.copy()
        stakes[seat], folded[seat] = stake, action == _FOLD
        ended = _settle(deal, stakes, folded, pot)
        events.append(ended)
        if deal.deal_number == MATCH_DEALS:
            totals = tuple(
                plus(total, result.delta)
                for total, result in zip(state.totals, ended.seats, strict=True)
            )
            events.append(
                MatchFinished(state.series, _leaders(totals), totals, dealing.reveal(state))
            )
    return events


def _decide_next_deal(state: MatchState) -> list[Event]:
    _require_started(state)
    if state.status is _FINISHED:
        raise _finished()
    if state.status is _IN_DEAL:
        raise RuleError("deal_in_progress", "The current deal is not over yet.")
    deal = state.deal
    return [dealing.deal_for(state, state.series, deal.deal_number + 1, deal.dealer)]


def _decide_resign(state: MatchState, command: Resign) -> list[Event]:
    """The match ends at once with the totals as they stand (an unfinished deal counts for
    nobody), and the winners are the leaders among the other seats."""
    if state.humans > 1:  # at a shared table, resigning would end the others' game
        return _decide_leave(state, Leave(command.seat))
    _require_started(state)
    if state.status is _FINISHED:
        raise _finished()
    seat = command.seat
    _require_seat(seat)
    others = [total for other, total in enumerate(state.totals) if other != seat]
    best = max(others)
    winners = tuple(
        other for other, total in enumerate(state.totals) if other != seat and total == best
    )
    finished = MatchFinished(state.series, winners, tuple(state.totals), dealing.reveal(state))
    return [Resigned(seat), finished]


def _decide_start(state: MatchState, command: StartMatch) -> list[Event]:
    if state.status is not _NOT_STARTED:
        raise RuleError("match_already_started", "The match has already started.")
    humans = command.humans
    if type(humans) is not int or not 1 <= humans <= SEATS:
        raise RuleError("invalid_humans", f"A match has 1 to {SEATS} humans.")
    seeds = command.seeds
    if seeds is not None:
        dealing.require_seeds(seeds.server_seed, seeds.next_server_seed)
        dealing.require_client_seed(seeds.client_seed)
    created = MatchCreated(
        command.seed,
        humans=humans,
        seeds=seeds,
        ai_level=command.ai_level,
        players=tuple(command.players),
    )
    if humans > 1:
        return [created]
    return [
        created,
        dealing.deal(
            command.seed, 1, 1, None, dealing.series_seeds(seeds, seeds and seeds.client_seed)
        ),
    ]


def _decide_join(state: MatchState, command: Join) -> list[Event]:
    if state.status is not _WAITING:
        _require_started(state)
        raise RuleError("match_full", "Every seat of this table is taken.")
    seat = state.open_seat()
    client_seed = command.client_seed if state.seeds else ""
    dealing.require_client_seed(client_seed)
    events: list[Event] = [PlayerJoined(seat, command.name, client_seed, command.player)]
    if all(other == seat or state.seated(other) for other in range(state.humans)):
        seeds = state.seeds and dealing.with_client_seed(state.seeds, seat, client_seed)
        events.append(dealing.deal(state.seed, 1, 1, None, seeds))
    return events


def _decide_fill(state: MatchState, command: FillSeats) -> list[Event]:
    """The AI takes the open seats of a waiting table, and deal 1 is dealt as when the last
    human joins: from the client seeds of the humans seated (an AI seat brings none)."""
    if state.status is not _WAITING:
        _require_started(state)
        raise RuleError("match_already_started", "The match has already started.")
    open_seats = tuple(seat for seat in range(state.humans) if not state.seated(seat))
    personas = tuple(command.players[: len(open_seats)])
    return [SeatsFilled(open_seats, personas), dealing.deal(state.seed, 1, 1, None, state.seeds)]


def _decide_leave(state: MatchState, command: Leave) -> list[Event]:
    """Before deal 1 a guest's seat is freed for the next join, and the owner's leaving closes
    the table; after it the AI plays the seat, and the last human to leave abandons the
    match. A finished match is over for everyone: leaving it would change nothing."""
    seat = command.seat
    _require_seat(seat)
    if state.status is _NOT_STARTED or state.status is _ABANDONED:
        _require_started(state)
    if not state.seated(seat) or state.left[seat]:
        raise RuleError("not_seated", f"No human sits at seat {seat}.")
    if state.status is _FINISHED:
        raise RuleError("match_finished", "The match is finished; there is nothing to leave.")
    if state.status is _WAITING:
        if seat == 0:  # the owner closes the table: its series ends, never dealt
            return [PlayerLeft(seat, abandoned=True, server_seed=dealing.reveal(state))]
        return [SeatFreed(seat)]
    present = [
        other for other in range(state.joined) if state.seated(other) and not state.left[other]
    ]
    abandoned = present == [seat]
    return [PlayerLeft(seat, abandoned, dealing.reveal(state) if abandoned else None)]


def _decide_restart(state: MatchState, command: Restart) -> list[Event]:
    if state.status is _NOT_STARTED:
        _require_started(state)
    if state.status is _ABANDONED or (
        state.humans > 1 and (command.seat != 0 or state.left[0] or state.status is not _FINISHED)
    ):
        raise RuleError(
            "restart_not_allowed",
            "At a shared table only the owner restarts, once the match is finished.",
        )
    series = state.series + 1
    if state.seeds is None:
        return [MatchRestarted(series, command.ai_level), dealing.deal(state.seed, series, 1, None)]
    dealing.require_seeds(command.next_server_seed)
    dealing.require_client_seed(command.client_seed)
    # The new series deals from the seed committed to as the next one, and commits to another.
    seeds = Seeds(
        state.seeds.next_server_seed,
        command.next_server_seed,
        command.client_seed,
        state.seeds.verifiable,
    )
    restarted = MatchRestarted(series, command.ai_level, dealing.reveal(state), seeds)
    return [
        restarted,
        dealing.deal(state.seed, series, 1, None, dealing.series_seeds(seeds, command.client_seed)),
    ]


def _decide_reveal(state: MatchState) -> list[Event]:
    seeds = state.seeds
    if seeds is None or not seeds.held or seeds.revealed:
        raise RuleError("seed_not_held", "This match holds no seed back for a tournament's close.")
    return [SeedRevealed(state.series, seeds.server_seed)]


def decide(state: MatchState, command: Command) -> list[Event]:
    """The events `command` causes in `state`, or a RuleError. Never changes `state`."""
    match command:
        case Act():  # first: by far the most frequent command
            return _decide_act(state, command)
        case StartMatch():
            return _decide_start(state, command)
        case NextDeal():
            return _decide_next_deal(state)
        case Restart():
            return _decide_restart(state, command)
        case Resign():
            return _decide_resign(state, command)
        case Join():
            return _decide_join(state, command)
        case Leave():
            return _decide_leave(state, command)
        case FillSeats():
            return _decide_fill(state, command)
        case RevealSeed():
            return _decide_reveal(state)
    raise TypeError(f"not a command: {command!r}")
