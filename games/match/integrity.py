"""The integrity check: replay each match's events through the engine and compare the result
with what is stored, that is the state projection, its denormalized columns, the deal rows,
the deals' stored reviews (worked out again from the events), and the seat rows and AI level
(from the first event that says them: a log written before events carried them leaves its
rows the truth until then, and the check says so). The admin action, `manage.py
check_matches` and `manage.py rebuild_projections` run it.
"""

import reprlib
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction

from games.engine import ActionTaken, Actor, MatchState, Seating, decode_event, evolve, seat
from games.match import log, projection, store
from games.match.log import StoredMatch
from games.review import queries as review_queries


class _Absent:
    """A key that one side of a comparison lacks."""

    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def _diff(path: str, stored, replayed, problems: list[str]) -> None:
    """Add a problem for each leaf where `stored` differs from `replayed`, named by its path."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in [*replayed, *(key for key in stored if key not in replayed)]:
            _diff(f"{path}.{key}", stored.get(key, _ABSENT), replayed.get(key, _ABSENT), problems)
    elif stored != replayed:
        problems.append(f"{path}: stored {reprlib.repr(stored)}, replayed {reprlib.repr(replayed)}")


@dataclass(slots=True)
class Replayed:
    """What a match's stored events project to."""

    state: MatchState
    deals: dict[tuple[int, int], dict]
    turn_deadline: datetime | None
    seating: Seating = field(default_factory=Seating)
    clock_lateness: list[timedelta] = field(default_factory=list)
    """How long after its deadline each turn the clock took was taken."""


def replay_stored(stored: StoredMatch, problems: list[str]) -> Replayed | None:
    """The projection of the stored match's events, write by write, or None when they cannot
    be replayed; adds what is wrong with the log to `problems`."""
    events = stored.events
    seqs = [seq for seq, _ in events]
    if seqs != list(range(1, len(seqs) + 1)):
        missing = sorted(set(range(1, max(seqs) + 1)) - set(seqs))
        problems.append(f"events: seqs are not 1..{len(seqs)}; missing {reprlib.repr(missing)}")
    replayed = Replayed(MatchState(), {}, None)
    write = []
    for seq, line in events:
        try:
            event = decode_event(line)
            evolve(replayed.state, event)
            projection.deals_in_memory(replayed.deals, seq, event)
            seat(replayed.seating, seq, event)
        # A corrupt log can break the replay in any way; whatever breaks it is the finding.
        except Exception as error:
            problems.append(f"event {seq}: cannot be replayed ({type(error).__name__}: {error})")
            return None
        write.append(event)
        if seq in stored.writes:  # the last event of a write
            if isinstance(write[0], ActionTaken) and write[0].by == Actor.CLOCK:
                if replayed.turn_deadline is None:
                    problems.append(f"event {seq - len(write) + 1}: the clock acted on no deadline")
                else:
                    replayed.clock_lateness.append(stored.writes[seq] - replayed.turn_deadline)
            replayed.turn_deadline = projection.turn_deadline(
                replayed.state,
                write,
                previous=replayed.turn_deadline,
                written_at=stored.writes[seq],
                turn_seconds=stored.row.turn_seconds,
            )
            write = []
    return replayed


def match_mismatches(stored: StoredMatch) -> tuple[list[str], Replayed | None]:
    """Where the stored match, its deals and seats disagree with the replay of its events,
    and that replay (None where the events do not replay). Runs no queries."""
    problems: list[str] = []
    replayed = replay_stored(stored, problems)
    if replayed is None:
        return problems, None
    state, expected = replayed.state, replayed.deals
    columns = {
        "seed": state.seed,
        **projection.match_columns(state),
        "turn_deadline": replayed.turn_deadline,
    }
    for column, value in columns.items():
        name = "state" if column == "state" else f"column {column}"
        _diff(name, getattr(stored.row, column), value, problems)

    rows = {(deal.series, deal.deal_number): deal for deal in stored.deals}
    for key in sorted(expected.keys() | rows.keys()):
        name = f"deal row series {key[0]} deal {key[1]}"
        if key not in rows:
            problems.append(f"{name}: missing")
        elif key not in expected:
            problems.append(f"{name}: no deal_started event for it")
        else:
            for field, value in expected[key].items():
                _diff(f"{name}: {field}", getattr(rows[key], field), value, problems)
    _seating_mismatches(stored, replayed.seating, problems)
    return problems, replayed


def _seating_mismatches(stored: StoredMatch, seating: Seating, problems: list[str]) -> None:
    """Where the seat rows and the ai_level column disagree with what the events say of them,
    from the first event that says it."""
    for number, player in enumerate(seating.players):
        if seating.seats_known_from[number] is not None:
            _diff(f"seat {number}: player", stored.seats[number], player, problems)
    if seating.level_known_from is not None:
        _diff("column ai_level", stored.row.ai_level, seating.ai_level, problems)


def unchecked(seating: Seating) -> str | None:
    """What of the seats and the level the log could not check, as a note; None when the
    log says all of them from its first event. A log written before events carried them is
    checked from its first event that says them, if any: until then the rows are the truth."""
    known = [*seating.seats_known_from, seating.level_known_from]
    if known == [1] * len(known):
        return None
    names = [*(f"seat {number}" for number in range(len(seating.players))), "the AI level"]
    said = [f"{name} from event {seq}" for name, seq in zip(names, known, strict=True) if seq]
    unsaid = [name for name, seq in zip(names, known, strict=True) if not seq]
    parts = []
    if said:
        parts.append("checked " + ", ".join(said))
    if unsaid:
        parts.append(", ".join(unsaid) + " unchecked")
    return (
        "its log began before events said who sits where and the AI level, so the rows are "
        f"the truth until an event says them: {'; '.join(parts)}"
    )


def check_matches(
    match_ids: Iterable[uuid.UUID] | None = None,
    *,
    repair: bool = False,
    on_note: Callable[[uuid.UUID, str], None] | None = None,
) -> Iterator[tuple[uuid.UUID, list[str]]]:
    """Check the given matches, or all of them, yielding each id with its mismatches. Matches
    deleted since they were listed are skipped. With `repair`, a mismatched match whose events
    replay gets its projection rewritten from them, under the lock of the check. `on_note`
    hears, for each match whose log could not check all its seats and level (written before
    events said them), what it checked (`unchecked`)."""
    for match_id in store.match_ids() if match_ids is None else match_ids:
        with transaction.atomic():
            stored = log.match_stored(match_id=match_id)
            if stored is None:
                continue
            problems, replayed = match_mismatches(stored)
            if replayed is not None:
                events = (decode_event(line) for _, line in stored.events)
                problems += review_queries.reviews_mismatches(
                    match_id=match_id, events=events, ai_level=stored.row.ai_level
                )
            if problems and repair and replayed:
                store.match_reproject(
                    match_id=match_id,
                    state=replayed.state,
                    deals=replayed.deals,
                    deadline=replayed.turn_deadline,
                    seating=replayed.seating,
                )
            if on_note and replayed and (note := unchecked(replayed.seating)):
                on_note(match_id, note)
        yield match_id, problems


def _count(number: int, singular: str, plural: str) -> str:
    return f"{number} {singular if number == 1 else plural}"


def summary(checked: int, mismatches: int) -> str:
    """The closing line of a check: "12 matches checked, 0 mismatches"."""
    matches = _count(checked, "match", "matches")
    return f"{matches} checked, {_count(mismatches, 'mismatch', 'mismatches')}"
