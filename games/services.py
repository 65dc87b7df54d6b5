"""Services: every write to a match. Each one locks the match row, decides through the
engine, lets the AI seats act, and stores the new events with their projection, all in
one transaction."""

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from games import ai, selectors
from games.engine import (
    Act,
    Command,
    DealEnded,
    DealStarted,
    DomainError,
    Event,
    MatchRestarted,
    MatchState,
    NextDeal,
    Restart,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    new_seed,
    observe,
)
from games.models import Deal, Match, MatchEvent, Seat
from games.selectors import HUMAN_SEAT
from players.models import Player

AI_PERSONAS = ("Darius", "Shirin", "Kaveh")
# The Match columns that every write changes.
PROJECTION = (
    "version",
    "status",
    "series",
    "deal_number",
    "totals",
    "winners",
    "state",
    "updated_at",
)
_FIELDS = [Match._meta.get_field(name) for name in PROJECTION]
_UPDATE_PROJECTION = (
    f"UPDATE {Match._meta.db_table} SET {', '.join(f'{field.column} = %s' for field in _FIELDS)}"
    f" WHERE {Match._meta.pk.column} = %s"
)
_INSERT_EVENTS = (
    f"INSERT INTO {MatchEvent._meta.db_table} (match_id, seq, type, payload, created_at) VALUES"
)


@dataclass
class _Step:
    """The events one request adds to a match, and the state they lead to."""

    state: MatchState
    events: list[Event] = field(default_factory=list)

    def apply(self, command: Command) -> None:
        for event in decide(self.state, command):
            evolve(self.state, event)
            self.events.append(event)


def _run_ai_seats(step: _Step, *, ai_level: str) -> None:
    """Let the AI seats act until it is the human's turn or the deal is over."""
    state = step.state
    while state.status is Status.IN_DEAL and state.deal.turn != HUMAN_SEAT:
        seat = state.deal.turn
        view = observe(state, seat)
        rng = ai.ai_rng(state.seed, state.series, state.deal.number, seat, len(view.history))
        action = ai.choose_action(ai_level, view, legal_actions(state, seat), rng)
        step.apply(Act(seat, action))


def _ai_personas() -> list[Player]:
    """The AI players for seats 1-3, created the first time they are needed."""
    found = {p.name: p for p in Player.objects.filter(kind=Player.Kind.AI, name__in=AI_PERSONAS)}
    return [
        found.get(name) or Player.objects.get_or_create(name=name, kind=Player.Kind.AI)[0]
        for name in AI_PERSONAS
    ]


def _update_projection(match: Match) -> None:
    """`match.save(update_fields=PROJECTION)`, in SQL written once: the ORM would spend longer
    compiling the statement than Postgres spends running it (docs/performance.md)."""
    values = [
        field.get_db_prep_save(getattr(match, field.attname), connection) for field in _FIELDS
    ]
    with connection.cursor() as cursor:
        cursor.execute(_UPDATE_PROJECTION, [*values, match.pk])


def _insert_events(match: Match, first_seq: int, events: list[Event], now: datetime) -> None:
    """MatchEvent.objects.bulk_create, in SQL: for the same reason as `_update_projection`.
    Every command causes at least one event."""
    payload = MatchEvent._meta.get_field("payload")
    values = []
    for seq, event in enumerate(events, start=first_seq):
        data = payload.get_db_prep_save(event.to_dict(), connection)
        values.extend((match.pk, seq, event.type, data, now))
    rows = ", ".join(["(%s, %s, %s, %s, %s)"] * len(events))
    with connection.cursor() as cursor:
        cursor.execute(f"{_INSERT_EVENTS} {rows}", values)


def _store(match: Match, step: _Step) -> None:
    """Append the step's events and write the projection and the deals they change."""
    state = step.state
    first_seq = match.version + 1
    now = timezone.now()
    match.version = state.version
    match.status = state.status.value
    match.series = state.series
    match.deal_number = state.deal_number
    match.totals = [str(total) for total in state.totals]
    match.winners = list(state.winners) if state.winners is not None else None
    match.state = state.to_dict()
    match.updated_at = now
    if first_seq == 1:
        match.save(force_insert=True)
    else:
        _update_projection(match)
    _insert_events(match, first_seq, step.events, now)
    new_deals: dict[tuple[int, int], Deal] = {}
    for event in step.events:
        if isinstance(event, MatchRestarted):
            Deal.objects.filter(match=match, outcome="").update(
                outcome=Deal.Outcome.ABANDONED, ended_at=now
            )
        elif isinstance(event, DealStarted):
            new_deals[event.series, event.deal_number] = Deal(
                match=match,
                series=event.series,
                number=event.deal_number,
                dealer=event.dealer,
                deck=list(event.deck),
            )
        elif isinstance(event, DealEnded):
            ended = new_deals.get((event.series, event.deal_number))
            if ended is not None:
                ended.outcome, ended.result, ended.ended_at = event.outcome, event.to_dict(), now
            else:
                Deal.objects.filter(
                    match=match, series=event.series, number=event.deal_number
                ).update(outcome=event.outcome, result=event.to_dict(), ended_at=now)
    if new_deals:
        Deal.objects.bulk_create(new_deals.values())


@transaction.atomic
def match_create(*, owner: Player, ai_level: str, seed: int | None = None) -> Match:
    """A new match with the owner at seat 0 and AI personas at seats 1-3. Deal 1 starts
    at once, and the AI seats that act before the owner have acted."""
    match = Match(
        id=uuid.uuid4(),
        owner=owner,
        ai_level=ai_level,
        seed=new_seed() if seed is None else seed,
        seeded=seed is not None,
        version=0,
    )
    step = _Step(MatchState())
    step.apply(StartMatch(match.seed))
    _run_ai_seats(step, ai_level=ai_level)
    _store(match, step)
    players = [owner, *_ai_personas()]
    Seat.objects.bulk_create(
        Seat(match=match, number=number, player=player) for number, player in enumerate(players)
    )
    match.seat_list = [{"name": player.name, "kind": player.kind} for player in players]
    return match


def _locked_match(*, match_id: uuid.UUID, player: Player, expected_version: int | None) -> Match:
    # The seats come with the locked row, for the MatchView the request answers with.
    match = selectors.match_get(match_id=match_id, player=player, for_update=True)
    if match is None:
        raise DomainError("not_found", "No such match.")
    if expected_version is not None and expected_version != match.version:
        raise DomainError(
            "stale_version",
            f"The match is at version {match.version}, not {expected_version}; reload it.",
        )
    return match


def _match_apply(
    *, match_id: uuid.UUID, player: Player, command: Command, expected_version: int | None
) -> Match:
    match = _locked_match(match_id=match_id, player=player, expected_version=expected_version)
    step = _Step(MatchState.from_dict(match.state))
    step.apply(command)
    _run_ai_seats(step, ai_level=match.ai_level)
    _store(match, step)
    return match


@transaction.atomic
def match_act(
    *, match_id: uuid.UUID, player: Player, action: str, expected_version: int | None = None
) -> Match:
    """The owner's action at seat 0, then the AI seats' actions up to the owner's next turn."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=Act(HUMAN_SEAT, action),
        expected_version=expected_version,
    )


@transaction.atomic
def match_next_deal(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> Match:
    return _match_apply(
        match_id=match_id, player=player, command=NextDeal(), expected_version=expected_version
    )


@transaction.atomic
def match_restart(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> Match:
    """A new 12-deal series with every total at zero; an unfinished deal is abandoned."""
    return _match_apply(
        match_id=match_id, player=player, command=Restart(), expected_version=expected_version
    )
