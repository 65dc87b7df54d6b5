"""The integrity check: replay each match's events through the engine and compare the result
with what is stored, that is the state projection, its denormalized columns and the deal rows.
The admin action and `manage.py check_matches` both run it.
"""

import reprlib
import uuid
from collections.abc import Iterable, Iterator

from django.db import transaction

from games.engine import (
    DealEnded,
    DealStarted,
    MatchRestarted,
    MatchState,
    event_from_dict,
    evolve,
)
from games.models import Deal, Match, MatchEvent


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


def match_mismatches(
    match: Match, events: list[tuple[int, str, dict]], deals: Iterable[Deal]
) -> list[str]:
    """Where the stored `match` and its `deals` disagree with the replay of `events`, given as
    (seq, type, payload) in seq order. Runs no queries."""
    problems = []
    seqs = [seq for seq, _, _ in events]
    if seqs != list(range(1, len(seqs) + 1)):
        missing = sorted(set(range(1, max(seqs) + 1)) - set(seqs))
        problems.append(f"events: seqs are not 1..{len(seqs)}; missing {reprlib.repr(missing)}")

    state = MatchState()
    # What each deal row should hold, from the deal events, keyed by (series, number).
    expected: dict[tuple[int, int], dict] = {}
    for seq, type_, payload in events:
        try:
            event = event_from_dict(payload)
            evolve(state, event)
            if isinstance(event, DealStarted):
                expected[event.series, event.deal_number] = {
                    "dealer": event.dealer,
                    "deck": list(event.deck),
                    "outcome": "",
                    "result": None,
                }
            elif isinstance(event, DealEnded):
                deal = expected[event.series, event.deal_number]
                deal["outcome"], deal["result"] = event.outcome, event.to_dict()
            elif isinstance(event, MatchRestarted):
                for deal in expected.values():
                    deal["outcome"] = deal["outcome"] or Deal.Outcome.ABANDONED
        # A corrupt log can break the replay in any way; whatever breaks it is the finding.
        except Exception as error:
            problems.append(f"event {seq}: cannot be replayed ({type(error).__name__}: {error})")
            return problems
        if event.type != type_:
            problems.append(f"event {seq}: type column {type_!r}, payload type {event.type!r}")

    _diff("state", match.state, state.to_dict(), problems)
    columns = {
        "version": state.version,
        "seed": state.seed,
        "status": state.status.value,
        "series": state.series,
        "deal_number": state.deal_number,
        "totals": [str(total) for total in state.totals],
        "winners": list(state.winners) if state.winners is not None else None,
    }
    for column, replayed in columns.items():
        _diff(f"column {column}", getattr(match, column), replayed, problems)

    rows = {(deal.series, deal.number): deal for deal in deals}
    for key in sorted(expected.keys() | rows.keys()):
        name = f"deal row series {key[0]} deal {key[1]}"
        if key not in rows:
            problems.append(f"{name}: missing")
        elif key not in expected:
            problems.append(f"{name}: no deal_started event for it")
        else:
            for field, replayed in expected[key].items():
                _diff(f"{name}: {field}", getattr(rows[key], field), replayed, problems)
    return problems


def check_matches(
    match_ids: Iterable[uuid.UUID] | None = None,
) -> Iterator[tuple[uuid.UUID, list[str]]]:
    """Check the given matches, or all of them, yielding each id with its mismatches. Matches
    deleted since they were listed are skipped."""
    if match_ids is None:
        match_ids = Match.objects.order_by("created_at", "id").values_list("id", flat=True)
        match_ids = match_ids.iterator()
    for match_id in match_ids:
        with transaction.atomic():
            # Every write locks the match row first, so under this lock the match, its events
            # and its deals are one consistent snapshot, even on a live server.
            match = Match.objects.select_for_update().filter(id=match_id).first()
            if match is None:
                continue
            events = list(
                MatchEvent.objects.filter(match_id=match_id)
                .order_by("seq")
                .values_list("seq", "type", "payload")
            )
            deals = list(Deal.objects.filter(match_id=match_id))
        yield match_id, match_mismatches(match, events, deals)


def _count(number: int, singular: str, plural: str) -> str:
    return f"{number} {singular if number == 1 else plural}"


def summary(checked: int, mismatches: int) -> str:
    """The closing line of a check: "12 matches checked, 0 mismatches"."""
    matches = _count(checked, "match", "matches")
    return f"{matches} checked, {_count(mismatches, 'mismatch', 'mismatches')}"
