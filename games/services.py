"""Services: every write to a match. Each one locks the match row, decides through the
engine, lets the AI seats act, and stores the new events with their projection, all in
one transaction."""

import secrets
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from games import ai, hints, repository
from games.ai.coach import advice_key, coach
from games.engine import (
    HUMAN_SEAT,
    Act,
    Command,
    DomainError,
    Event,
    Join,
    Leave,
    MatchState,
    NextDeal,
    Resign,
    Restart,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    new_seed,
    observe,
)
from games.models import Hint
from games.repository import LoadedMatch
from players import selectors as player_selectors
from players.models import Player, StreamTicket
from players.tokens import hash_token, new_token

AI_PERSONAS = ("Darius", "Shirin", "Kaveh")


@dataclass
class Step:
    """The events one request adds to a match, and the state they lead to: pure, so the
    schema's examples (games/examples.py) play matches exactly as the services do."""

    state: MatchState
    events: list[Event] = field(default_factory=list)
    earlier: list[Event] = field(default_factory=list)
    """The match's stored events, for the AI levels that watch the table (WATCHING_LEVELS);
    empty for the others."""

    def apply(self, command: Command) -> None:
        for event in decide(self.state, command):
            evolve(self.state, event)
            self.events.append(event)


def ai_act(step: Step, *, ai_level: str, by: str = "ai") -> None:
    """The AI takes the action of the seat whose turn it is, seeing only that seat's view:
    for an AI seat, a human who left (`by` "ai"), or a human whose time ran out ("clock")."""
    state = step.state
    seat = state.deal.turn
    view = observe(state, seat)
    rng = ai.ai_rng(state.seed, state.series, state.deal.deal_number, seat, len(view.history))
    record = (
        ai.public_record(step.earlier + step.events, seat) if ai_level in ai.WATCHING_LEVELS else ()
    )
    action = ai.choose_action(ai_level, view, legal_actions(state, seat), rng, record)
    step.apply(Act(seat, action, by))


def run_ai_seats(step: Step, *, ai_level: str) -> None:
    """Let the AI act (at AI seats, and for humans who left) until it is a present human's
    turn or the deal is over."""
    state = step.state
    while state.status is Status.IN_DEAL and state.ai_plays(state.deal.turn):
        ai_act(step, ai_level=ai_level)


def _ai_personas() -> list[Player]:
    """The AI players for seats 1-3, created the first time they are needed."""
    found = {p.name: p for p in Player.objects.filter(kind=Player.Kind.AI, name__in=AI_PERSONAS)}
    return [
        found.get(name) or Player.objects.get_or_create(name=name, kind=Player.Kind.AI)[0]
        for name in AI_PERSONAS
    ]


TABLE_TURN_SECONDS = 60
"""The turn clock of a table when its owner names none."""
INVITE_BYTES = 24
"""192 random bits: an invite cannot be guessed."""


def default_turn_seconds(humans: int) -> int | None:
    return None if humans == 1 else TABLE_TURN_SECONDS


@transaction.atomic
def match_create(
    *,
    owner: Player,
    ai_level: str,
    seed: int | None = None,
    humans: int = 1,
    turn_seconds: int | None = None,
) -> LoadedMatch:
    """A new match with the owner at seat 0, open human seats up to `humans` - 1 and AI
    personas at the others. Alone, deal 1 starts at once and the AI seats that act before
    the owner have acted; a table waits for its humans, who join with its invite."""
    step = Step(MatchState())
    step.apply(StartMatch(new_seed() if seed is None else seed, humans))
    run_ai_seats(step, ai_level=ai_level)
    return repository.match_insert(
        players=[owner, *[None] * (humans - 1), *_ai_personas()[humans - 1 :]],
        ai_level=ai_level,
        seeded=seed is not None,
        events=step.events,
        state=step.state,
        invite=secrets.token_urlsafe(INVITE_BYTES) if humans > 1 else "",
        turn_seconds=turn_seconds,
    )


def _match_apply(
    *,
    match_id: uuid.UUID,
    player: Player,
    command: Callable[[LoadedMatch], Command],
    expected_version: int | None,
    ai_level: str | None = None,
) -> LoadedMatch:
    """Load the match `player` sits at, under its lock, and apply the command built for the
    player's seat."""
    match = repository.match_load(match_id=match_id, player=player, lock=True)
    if match is None:
        raise DomainError("not_found", "No such match.")
    return _match_step(match, command(match), expected_version=expected_version, ai_level=ai_level)


def _match_step(
    match: LoadedMatch,
    command: Command,
    *,
    expected_version: int | None,
    ai_level: str | None = None,
) -> LoadedMatch:
    if expected_version is not None and expected_version != match.row.version:
        raise DomainError(
            "stale_version",
            f"The match is at version {match.row.version}, not {expected_version}; reload it.",
        )
    if ai_level is not None and ai_level != match.row.ai_level:
        repository.match_set_ai_level(match=match, ai_level=ai_level)
    step = _step(match)
    step.apply(command)
    run_ai_seats(step, ai_level=match.row.ai_level)
    repository.match_append(match=match, events=step.events, state=step.state)
    return match


@transaction.atomic
def match_act(
    *, match_id: uuid.UUID, player: Player, action: str, expected_version: int | None = None
) -> LoadedMatch:
    """The player's action at their seat, then the AI's actions up to a present human's next
    turn."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=lambda match: Act(_present_seat(match), action, "player"),
        expected_version=expected_version,
    )


@transaction.atomic
def match_next_deal(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> LoadedMatch:
    return _match_apply(
        match_id=match_id,
        player=player,
        command=_next_deal,
        expected_version=expected_version,
    )


@transaction.atomic
def match_restart(
    *,
    match_id: uuid.UUID,
    player: Player,
    expected_version: int | None = None,
    ai_level: str | None = None,
) -> LoadedMatch:
    """A new 12-deal series with every total at zero; an unfinished deal is abandoned.
    `ai_level`, if given, is the AI seats' level from the new series on."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=lambda match: Restart(match.viewer_seat),
        expected_version=expected_version,
        ai_level=ai_level,
    )


@transaction.atomic
def match_resign(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> LoadedMatch:
    """Alone, the owner gives the match up: it ends at once, the totals stand, and the
    winners are the leaders among the AI seats. At a shared table it is `match_leave`."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=lambda match: Resign(match.viewer_seat),
        expected_version=expected_version,
    )


@transaction.atomic
def match_leave(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> LoadedMatch:
    """The AI plays the player's seat for the rest of the match; when no human is left, an
    unfinished match ends `abandoned`."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=lambda match: Leave(match.viewer_seat),
        expected_version=expected_version,
    )


@transaction.atomic
def match_join(*, match_id: uuid.UUID, player: Player, invite: str) -> LoadedMatch:
    """Seat `player` at the table's next open human seat. A wrong invite is `not_found`, as
    for a match that does not exist; deal 1 starts when the last seat is taken."""
    match = repository.match_load(match_id=match_id, player=None, lock=True)
    # compare_digest: the time taken says nothing about how much of a guess was right.
    if (
        match is None
        or not match.row.invite
        or not secrets.compare_digest(match.row.invite.encode(), invite.encode())
    ):
        raise DomainError("not_found", "No such match.")
    if any(seat.player == str(player.pk) for seat in match.seats):
        raise DomainError("already_seated", "You already sit at this table.")
    seat = match.state.joined
    _match_step(match, Join(player.name), expected_version=None)
    repository.match_seat_player(match=match, seat=seat, player=player)
    return match


class ClockMoveFailed(Exception):
    """The clock's move in one match failed (and was rolled back)."""

    def __init__(self, match_id: uuid.UUID):
        super().__init__(f"the clock's move in match {match_id} failed")
        self.match_id = match_id


@dataclass(frozen=True, slots=True)
class ClockMove:
    match_id: uuid.UUID
    deadline: datetime | None
    """The deadline of the turn the clock took; None when it dealt the next deal."""


@transaction.atomic
def match_clock_tick(*, now: datetime, skip: Collection[uuid.UUID] = ()) -> ClockMove | None:
    """The clock's move in one match where it is due (other than those in `skip`), and the
    AI seats' replies: the AI acts for a present human whose turn ran out (recorded `by`
    "clock"), or deals the next deal of a clocked match whose deal ended a while ago.
    None when nothing is due; a move that fails raises ClockMoveFailed, which names the
    match."""
    grace = timedelta(seconds=settings.ASNAS_CLOCK_GRACE_SECONDS)
    pause = timedelta(seconds=settings.ASNAS_NEXT_DEAL_SECONDS)
    due = repository.match_lock_due(
        turns_before=now - grace, deals_over_before=now - pause, skip=skip
    )
    if due is None:
        return None
    match, version = due
    if match.row.version != version:  # changed before the lock: the next poll looks again
        return None
    deadline = match.row.turn_deadline
    try:
        _clock_move(match)
    except DatabaseError:
        raise  # the database's fault, not the match's
    except Exception as error:
        raise ClockMoveFailed(match.row.id) from error
    return ClockMove(match.row.id, deadline)


def _step(match: LoadedMatch) -> Step:
    """A step from the stored state (parsed for this request only, so the step may change
    it), with the match's events for the AI levels that watch the table."""
    step = Step(match.state)
    if match.row.ai_level in ai.WATCHING_LEVELS:
        step.earlier = [event for _, event in repository.match_events(match_id=match.row.id)]
    return step


def _clock_move(match: LoadedMatch) -> None:
    step = _step(match)
    state, level = step.state, match.row.ai_level
    if state.status is Status.IN_DEAL:
        seat = state.deal.turn
        while state.status is Status.IN_DEAL and state.deal.turn == seat:  # a look keeps it
            ai_act(step, ai_level=level, by="clock")
    else:
        step.apply(NextDeal())
    run_ai_seats(step, ai_level=level)
    repository.match_append(match=match, events=step.events, state=step.state)


def _next_deal(match: LoadedMatch) -> NextDeal:
    _present_seat(match)  # any human still seated may start it
    return NextDeal()


def _present_seat(match: LoadedMatch) -> int:
    """The caller's seat, if they still sit there: a human who left only watches."""
    seat = match.viewer_seat
    if match.state.left[seat]:
        raise DomainError("not_seated", "You left this match; the AI plays your seat.")
    return seat


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


@transaction.atomic
def hint_create(*, match_id: uuid.UUID, player: Player) -> dict:
    """The coach's advice for the owner's current decision, logged as a Hint row. The match
    itself is not written: its version stays as it was. The advice comes from the worker's
    cache when any match asked it before, else is computed within the worker's cap
    (games.hints: 503 `hints_busy` past it)."""
    match = repository.match_load(match_id=match_id, player=player)
    if match is None:
        raise DomainError("not_found", "No such match.")
    humans = sum(seat.kind == Player.Kind.HUMAN for seat in match.seats)
    if humans > 1:
        raise DomainError(
            "hints_not_allowed", f"Hints are for single-player matches; this one has {humans}."
        )
    state = match.state
    if state.status is Status.FINISHED:
        raise DomainError("match_finished", "The match is finished; restart to play again.")
    if state.status is not Status.IN_DEAL:
        raise DomainError("deal_over", "The deal is over; start the next deal.")
    if state.deal.turn != HUMAN_SEAT:
        raise DomainError("not_your_turn", f"It is seat {state.deal.turn}'s turn.")
    view, legal = observe(state, HUMAN_SEAT), legal_actions(state, HUMAN_SEAT)
    advice = hints.cached_advice(
        advice_key(view, legal, match.row.ai_level),
        lambda: coach(view, legal, match.row.ai_level),
    )
    body = {
        "version": state.version,
        "series": state.series,
        "deal_number": state.deal_number,
        "ai_level": match.row.ai_level,
        "values_are_exact": advice.values_are_exact,
        "actions": [
            {
                "action": a.action,
                "hard_probability": str(a.hard_probability),
                "expected_value": _exact(a.expected_value),
            }
            for a in advice.actions
        ],
        "hand_rank": advice.hand_rank,
        "showdown_win": _exact(advice.showdown_win),
        "showdown_tie": _exact(advice.showdown_tie),
    }
    Hint.objects.create(
        match_id=match.row.id,
        player=player,
        version=state.version,
        series=state.series,
        deal_number=state.deal_number,
        advice=body,
    )
    return body


STREAM_TICKET_SECONDS = 60


@transaction.atomic
def stream_ticket_create(*, player: Player, match_id: uuid.UUID | None) -> tuple[str, datetime]:
    """A ticket to open the stream of `match_id`, one the player sits at, or with None the
    player's own stream: single-use, good for STREAM_TICKET_SECONDS. Returns it with the
    moment it expires; only its hash is stored."""
    seated = match_id is None or player_selectors.player_seated(player=player, match_id=match_id)
    if not seated:
        raise DomainError("not_found", "No such match.")
    ticket = new_token()
    expires_at = timezone.now() + timedelta(seconds=STREAM_TICKET_SECONDS)
    StreamTicket.objects.create(
        ticket_hash=hash_token(ticket), player=player, match_id=match_id, expires_at=expires_at
    )
    return ticket, expires_at
