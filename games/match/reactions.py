"""Reactions: what the domain does beyond a match's projection when an event is appended,
in one table keyed by event type (REACTIONS), which the append of every write (`append`)
calls: no command looks through the events it made. Who sits where and the AI level are
no reaction but the projection itself (engine/seating.py, written by the append)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from games.engine import (
    DealEnded,
    Event,
    MatchFinished,
    MatchRestarted,
    MatchState,
    PlayerLeft,
    Resigned,
    Seating,
    evolve,
    series_end,
)
from games.match import store
from games.match.loaded import LoadedMatch
from games.match.rating import rate_series
from games.review import commands as review_commands
from players.models import Player


@dataclass(slots=True)
class Write:
    """One write's events being reacted to."""

    match: LoadedMatch
    ai_level: str
    """The AI level before the write: the level its ended series were played at."""
    ended: set[int] = field(default_factory=set)
    """The series the write ended already (a resignation ends one before its
    match_finished says so)."""


def _rate(write: Write, before: MatchState, event: Event) -> None:
    """Rate the series `event` ends, seen from the state `before` it, once."""
    end = series_end(before, event)
    if end is None or end.series in write.ended:
        return
    write.ended.add(end.series)
    rate_series(write.match, [end], ai_level=write.ai_level)


Reaction = Callable[[Write, MatchState, Event], None]
REACTIONS: dict[type, Reaction] = {
    MatchFinished: _rate,
    Resigned: _rate,
    MatchRestarted: _rate,
    PlayerLeft: _rate,
}
"""What follows an event of each type beside its projection, given the state just before
it; a type not here has none."""


def append(
    *,
    match: LoadedMatch,
    events: list[Event],
    state: MatchState,
    seating: Seating,
    newcomers: Iterable[Player] = (),
) -> None:
    """Store a write's `events` with their projection (store.match_append, which takes
    `seating` and `newcomers`), then each one's reaction, in the write's transaction: a
    reaction that fails rolls the write back."""
    stored_before, level = match.row.state, match.row.ai_level
    store.match_append(
        match=match, events=events, state=state, seating=seating, newcomers=newcomers
    )
    _react(match, events, stored_before, level)


def insert(**new_match: Any) -> LoadedMatch:
    """Store a new match (store.match_insert, which takes `new_match`), then each of its
    first events' reactions, as `append` does."""
    inserted = store.match_insert(**new_match)
    _react(inserted, new_match["events"], None, inserted.row.ai_level)
    return inserted


def _react(match: LoadedMatch, events: list[Event], stored_before: dict | None, level: str) -> None:
    """Call each event's reaction with the state just before it, from the state stored
    before the write (None: a new match)."""
    if any(isinstance(event, DealEnded) for event in events):
        # Its review is due in the write's statement (the store): worked out once it commits.
        review_commands.review_soon(match_id=match.row.id)
    if not any(type(event) in REACTIONS for event in events):
        return  # most writes: no state to read back
    before = MatchState() if stored_before is None else MatchState.from_dict(stored_before)
    write = Write(match, level)
    for event in events:
        reaction = REACTIONS.get(type(event))
        if reaction is not None:
            reaction(write, before, event)
        evolve(before, event)
