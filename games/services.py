"""Services: every write to a match. Each one locks the match row, decides through the
engine, lets the AI seats act, and stores the new events with their projection, all in
one transaction."""

import uuid
from dataclasses import dataclass, field

from django.db import transaction

from games import ai, repository
from games.engine import (
    HUMAN_SEAT,
    Act,
    Command,
    DomainError,
    Event,
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
from games.repository import LoadedMatch
from players.models import Player

AI_PERSONAS = ("Darius", "Shirin", "Kaveh")


@dataclass
class Step:
    """The events one request adds to a match, and the state they lead to: pure, so the
    schema's examples (games/examples.py) play matches exactly as the services do."""

    state: MatchState
    events: list[Event] = field(default_factory=list)

    def apply(self, command: Command) -> None:
        for event in decide(self.state, command):
            evolve(self.state, event)
            self.events.append(event)


def run_ai_seats(step: Step, *, ai_level: str) -> None:
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


@transaction.atomic
def match_create(*, owner: Player, ai_level: str, seed: int | None = None) -> LoadedMatch:
    """A new match with the owner at seat 0 and AI personas at seats 1-3. Deal 1 starts
    at once, and the AI seats that act before the owner have acted."""
    step = Step(MatchState())
    step.apply(StartMatch(new_seed() if seed is None else seed))
    run_ai_seats(step, ai_level=ai_level)
    return repository.match_insert(
        players=[owner, *_ai_personas()],
        ai_level=ai_level,
        seeded=seed is not None,
        events=step.events,
        state=step.state,
    )


def _match_apply(
    *,
    match_id: uuid.UUID,
    player: Player,
    command: Command,
    expected_version: int | None,
    ai_level: str | None = None,
) -> LoadedMatch:
    match = repository.match_load(match_id=match_id, owner=player, lock=True)
    if match is None:
        raise DomainError("not_found", "No such match.")
    if expected_version is not None and expected_version != match.row.version:
        raise DomainError(
            "stale_version",
            f"The match is at version {match.row.version}, not {expected_version}; reload it.",
        )
    if ai_level is not None and ai_level != match.row.ai_level:
        repository.match_set_ai_level(match=match, ai_level=ai_level)
    # The loaded state is the stored one, parsed for this request only: the step may change it.
    step = Step(match.state)
    step.apply(command)
    run_ai_seats(step, ai_level=match.row.ai_level)
    repository.match_append(match=match, events=step.events, state=step.state)
    return match


@transaction.atomic
def match_act(
    *, match_id: uuid.UUID, player: Player, action: str, expected_version: int | None = None
) -> LoadedMatch:
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
) -> LoadedMatch:
    return _match_apply(
        match_id=match_id, player=player, command=NextDeal(), expected_version=expected_version
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
        command=Restart(),
        expected_version=expected_version,
        ai_level=ai_level,
    )


@transaction.atomic
def match_resign(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> LoadedMatch:
    """The owner gives the match up: it ends at once, the totals stand, and the winners are
    the leaders among the AI seats."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=Resign(HUMAN_SEAT),
        expected_version=expected_version,
    )
