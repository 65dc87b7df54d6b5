"""The rules: `decide` validates a command and returns events; `evolve` applies one event.

`evolve` updates the state it is given in place and returns it, because the service
and the simulations apply thousands of events per second; `decide` never changes
its input, so a refused command leaves the state exactly as it was.
"""

import dataclasses
import random
import secrets
from fractions import Fraction
from functools import cache

from . import fairness
from .cards import DECK, SEATS
from .commands import (
    Act,
    Command,
    FillSeats,
    Join,
    Leave,
    NextDeal,
    Resign,
    Restart,
    Seeds,
    StartMatch,
)
from .errors import RuleError
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
    SeatResult,
    SeatsFilled,
)
from .hands import evaluate
from .state import MATCH_DEALS, MAX_STAKE, DealState, MatchState, Outcome, SeriesSeeds, Status

# Module-level aliases: enum attribute lookups are slow on the hot path.
_IN_DEAL = Status.IN_DEAL
_DEAL_OVER = Status.DEAL_OVER
_FINISHED = Status.FINISHED
_NOT_STARTED = Status.NOT_STARTED
_WAITING = Status.WAITING
_ABANDONED = Status.ABANDONED
ACTORS = ("player", "ai", "clock")


@cache
def _amounts(pot: int, winners: int, stake: int, won: bool) -> tuple[Fraction, Fraction]:
    """A seat's exact (payout, delta): Fraction arithmetic is slow, and the deal's few
    possible values (pot up to 16, up to 4 winners, stake up to 4) repeat endlessly."""
    payout = Fraction(pot, winners) if won else Fraction(0)
    return payout, payout - stake


class _Memo(dict):
    """A dict that makes a missing value as `make(*key)` and starts over when it holds
    `size` values, so that it stays small in a long-running server."""

    def __init__(self, make, size: int = 1 << 14):
        super().__init__()
        self.make, self.size = make, size

    def __missing__(self, key):
        if len(self) >= self.size:
            self.clear()
        value = self[key] = self.make(*key)
        return value


# Fraction addition costs microseconds, and the few totals a 12-deal match reaches meet the
# few deltas a deal pays again and again. Keyed by integers: hashing a Fraction is slow too.
_SUMS = _Memo(lambda tn, td, dn, dd: Fraction(tn, td) + Fraction(dn, dd))


def _plus(total: Fraction, delta: Fraction) -> Fraction:
    return _SUMS[total.numerator, total.denominator, delta.numerator, delta.denominator]


# An immutable event is a value: one instance can stand for every equal one, and looking it up
# costs a fraction of building a frozen dataclass.
_ACTIONS = _Memo(ActionTaken)


def new_seed() -> int:
    """A fresh match seed: 63 bits, so that it fits a signed 64-bit column."""
    return secrets.randbits(63)


def deal_rng(seed: int, series: int, deal_number: int) -> random.Random:
    """The random source of one deal, derived from the match's recorded seed, so that any
    deal can be dealt again without replaying the ones before it."""
    return random.Random(f"{seed}:{series}:{deal_number}")


# Fisher-Yates from the top card down, as (position, choices, bits): the swaps that
# random.shuffle makes with the same generator (it draws each index as getrandbits of the
# choices' bit length, drawing again while too large), so that every deal stays the same.
_SWAPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(DECK) - 1, 0, -1))


def _series_seeds(seeds: Seeds | None, owner_seed: str | None) -> SeriesSeeds | None:
    """The seeds a series starts from: the owner's client seed alone, at seat 0."""
    if seeds is None:
        return None
    return SeriesSeeds(
        fairness.SCHEME,
        seeds.verifiable,
        seeds.server_seed,
        seeds.next_server_seed,
        [owner_seed or "", "", "", ""],
    )


def _with_client_seed(seeds: SeriesSeeds, seat: int, client_seed: str) -> SeriesSeeds:
    client_seeds = list(seeds.client_seeds)
    client_seeds[seat] = client_seed
    return dataclasses.replace(seeds, client_seeds=client_seeds)


def _reveal(state: MatchState) -> str | None:
    """The server seed a series that ends now reveals: a verifiable one's, once."""
    seeds = state.seeds
    if seeds is None or not seeds.verifiable or seeds.revealed:
        return None
    return seeds.server_seed


def _require_seeds(*seeds: str | None) -> None:
    for seed in seeds:
        if not isinstance(seed, str) or len(seed) != 2 * fairness.SEED_BYTES:
            raise RuleError("invalid_seed", "A server seed is 32 bytes in lowercase hex.")
        try:
            bytes.fromhex(seed)
        except ValueError:
            raise RuleError("invalid_seed", "A server seed is 32 bytes in lowercase hex.") from None


def _require_client_seed(client_seed: str) -> None:
    if client_seed and not fairness.valid_client_seed(client_seed):
        raise RuleError(
            "invalid_client_seed", "A client seed is 1 to 64 printable ASCII characters."
        )


def _deal_for(
    state: MatchState, series: int, deal_number: int, previous_dealer: int | None
) -> DealStarted:
    return _deal(state.seed, series, deal_number, previous_dealer, state.seeds)


def _deal(
    seed: int,
    series: int,
    deal_number: int,
    previous_dealer: int | None,
    seeds: SeriesSeeds | None = None,
) -> DealStarted:
    """The deal's dealer and deck: by the verifiable scheme from `seeds`, or as matches
    created before it were dealt, from `seed`."""
    if seeds is not None:
        key = bytes.fromhex(seeds.server_seed)
        if previous_dealer is None:
            dealer = fairness.first_dealer(key, seeds.client_seeds, series)
        else:
            dealer = (previous_dealer + 1) % SEATS
        return DealStarted(
            series, deal_number, dealer, fairness.deck(key, seeds.client_seeds, series, deal_number)
        )
    rng = deal_rng(seed, series, deal_number)
    if previous_dealer is None:
        dealer = rng.randrange(SEATS)
    else:
        dealer = (previous_dealer + 1) % SEATS
    deck = list(DECK)
    bits = rng.getrandbits
    for i, choices, width in _SWAPS:
        j = bits(width)
        while j >= choices:
            j = bits(width)
        deck[i], deck[j] = deck[j], deck[i]
    return DealStarted(series, deal_number, dealer, tuple(deck))


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
            ("look", not looked),
            ("call", not matched),
            ("hold", matched),
            ("raise", can_raise),
            ("fold", True),
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
    if action == "raise":  # every other seat still in must act again
        following = (seat + 1) % SEATS
        while folded[following]:
            following = (following + 1) % SEATS
        return following
    acted, stakes = deal.acted, deal.stakes
    in_deal = 0
    settled = True
    for other in range(SEATS):
        if other == seat:  # it has just acted, and matched unless it folded
            in_deal += action != "fold"
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
        payout, delta = _amounts(pot, count, stakes[seat], seat in winners)
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
    if by not in ACTORS:
        raise RuleError("invalid_actor", f"Actions are taken by {', '.join(ACTORS)}.")
    _require_turn_of(deal, seat)
    looked, stake, high, pot = deal.looked[seat], deal.stakes[seat], deal.high_stake, deal.pot
    if action == "look" and looked:
        raise RuleError("already_looked", "A seat may look at its cards once per deal.")
    allowed = _LEGAL[looked, stake == high, high < MAX_STAKE]
    if action not in allowed:
        raise RuleError(
            "illegal_action", f"'{action}' is not allowed now; allowed: {', '.join(allowed)}."
        )
    if action == "look":
        return [_ACTIONS[seat, action, stake, high, pot, seat, by]]
    if action == "raise":
        high += 1
    if action == "call" or action == "raise":
        pot += high - stake
        stake = high
    turn = _turn_after(deal, seat, action, high)
    events = [_ACTIONS[seat, action, stake, high, pot, turn, by]]
    if turn is None:
        stakes, folded = deal.stakes.copy(), deal.folded.copy()
        stakes[seat], folded[seat] = stake, action == "fold"
        ended = _settle(deal, stakes, folded, pot)
        events.append(ended)
        if deal.deal_number == MATCH_DEALS:
            totals = tuple(
                _plus(total, result.delta)
                for total, result in zip(state.totals, ended.seats, strict=True)
            )
            events.append(MatchFinished(state.series, _leaders(totals), totals, _reveal(state)))
    return events


def _decide_next_deal(state: MatchState) -> list[Event]:
    _require_started(state)
    if state.status is _FINISHED:
        raise _finished()
    if state.status is _IN_DEAL:
        raise RuleError("deal_in_progress", "The current deal is not over yet.")
    deal = state.deal
    return [_deal_for(state, state.series, deal.deal_number + 1, deal.dealer)]


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
    finished = MatchFinished(state.series, winners, tuple(state.totals), _reveal(state))
    return [Resigned(seat), finished]


def _decide_start(state: MatchState, command: StartMatch) -> list[Event]:
    if state.status is not _NOT_STARTED:
        raise RuleError("match_already_started", "The match has already started.")
    humans = command.humans
    if type(humans) is not int or not 1 <= humans <= SEATS:
        raise RuleError("invalid_humans", f"A match has 1 to {SEATS} humans.")
    seeds = command.seeds
    if seeds is not None:
        _require_seeds(seeds.server_seed, seeds.next_server_seed)
        _require_client_seed(seeds.client_seed)
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
        _deal(command.seed, 1, 1, None, _series_seeds(seeds, seeds and seeds.client_seed)),
    ]


def _decide_join(state: MatchState, command: Join) -> list[Event]:
    if state.status is not _WAITING:
        _require_started(state)
        raise RuleError("match_full", "Every seat of this table is taken.")
    seat = state.open_seat()
    client_seed = command.client_seed if state.seeds else ""
    _require_client_seed(client_seed)
    events: list[Event] = [PlayerJoined(seat, command.name, client_seed, command.player)]
    if all(other == seat or state.seated(other) for other in range(state.humans)):
        seeds = state.seeds and _with_client_seed(state.seeds, seat, client_seed)
        events.append(_deal(state.seed, 1, 1, None, seeds))
    return events


def _decide_fill(state: MatchState, command: FillSeats) -> list[Event]:
    """The AI takes the open seats of a waiting table, and deal 1 is dealt as when the last
    human joins: from the client seeds of the humans seated (an AI seat brings none)."""
    if state.status is not _WAITING:
        _require_started(state)
        raise RuleError("match_already_started", "The match has already started.")
    open_seats = tuple(seat for seat in range(state.humans) if not state.seated(seat))
    personas = tuple(command.players[: len(open_seats)])
    return [SeatsFilled(open_seats, personas), _deal(state.seed, 1, 1, None, state.seeds)]


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
            return [PlayerLeft(seat, abandoned=True, server_seed=_reveal(state))]
        return [SeatFreed(seat)]
    present = [
        other for other in range(state.joined) if state.seated(other) and not state.left[other]
    ]
    abandoned = present == [seat]
    return [PlayerLeft(seat, abandoned, _reveal(state) if abandoned else None)]


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
        return [MatchRestarted(series, command.ai_level), _deal(state.seed, series, 1, None)]
    _require_seeds(command.next_server_seed)
    _require_client_seed(command.client_seed)
    # The new series deals from the seed committed to as the next one, and commits to another.
    seeds = Seeds(
        state.seeds.next_server_seed,
        command.next_server_seed,
        command.client_seed,
        state.seeds.verifiable,
    )
    restarted = MatchRestarted(series, command.ai_level, _reveal(state), seeds)
    return [
        restarted,
        _deal(state.seed, series, 1, None, _series_seeds(seeds, command.client_seed)),
    ]


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
    raise TypeError(f"not a command: {command!r}")


def _evolve_created(state: MatchState, event: MatchCreated) -> None:
    state.seed, state.rules, state.humans = event.seed, event.rules, event.humans
    state.seeds = _series_seeds(event.seeds, event.client_seed)
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


def _revealed(state: MatchState, server_seed: str | None) -> None:
    if server_seed is not None:
        state.seeds.revealed = True


def _evolve_left(state: MatchState, event: PlayerLeft) -> None:
    _revealed(state, event.server_seed)
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
    state.clocked[seat] = event.by == "clock"
    deal.history.append((seat, action))
    if action == "look":
        deal.looked[seat] = True
        return
    if action == "fold":
        deal.folded[seat] = True
    elif action == "raise":  # every other seat must act again
        deal.acted = [False] * SEATS
    deal.stakes[seat], deal.high_stake, deal.pot = event.stake, event.high_stake, event.pot
    deal.acted[seat] = True
    deal.turn = event.turn


def _evolve_deal_ended(state: MatchState, event: DealEnded) -> None:
    state.totals = [
        _plus(total, result.delta) for total, result in zip(state.totals, event.seats, strict=True)
    ]
    state.deal.result = event
    state.deal.turn = None
    state.last_result = event
    state.status = _DEAL_OVER


def _evolve_finished(state: MatchState, event: MatchFinished) -> None:
    _revealed(state, event.server_seed)
    state.winners = event.winners
    state.status = _FINISHED


def _evolve_restarted(state: MatchState, event: MatchRestarted) -> None:
    if event.seeds is not None:
        state.seeds = _series_seeds(event.seeds, event.client_seed)
    state.series = event.series
    state.totals = [Fraction(0)] * SEATS
    state.deal = None
    state.last_result = None
    state.winners = None


def _evolve_resigned(state: MatchState, event: Resigned) -> None:
    # An unfinished deal stops where it is: nobody's turn, and no result.
    if state.deal is not None:
        state.deal.turn = None


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
