"""The match's projection, defined once: what its events make of the Match columns
(`match_columns`, `turn_deadline`) and of the Deal rows (`deal_changes`). The writes, the
integrity check and rebuild_projections all follow it; who sits where and the AI level are
the engine's seating (engine/seating.py)."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from games.engine import (
    DealEnded,
    DealStarted,
    Event,
    MatchState,
    Outcome,
    Status,
    abandons_deal,
    starts_turn,
)


def match_columns(state: MatchState) -> dict:
    """The Match columns that project `state`."""
    return {
        "version": state.version,
        "status": state.status.value,
        "series": state.series,
        "deal_number": state.deal_number,
        "totals": [str(total) for total in state.totals],
        "winners": list(state.winners) if state.winners is not None else None,
        "state": state.to_dict(),
    }


def turn_deadline(
    state: MatchState,
    events: Iterable[Event],
    *,
    previous: datetime | None,
    written_at: datetime,
    turn_seconds: int | None,
) -> datetime | None:
    """When the seat to act runs out of time, after a write at `written_at` of `events` that
    led to `state`: None without a clock or unless a present human is to act. A turn starts
    at the write that deals or passes the turn, so it is derived from the time that write
    was stored (its EventBatch's created_at), never from an event; a look, the one action
    that keeps the turn, and a join or leave elsewhere keep the `previous` deadline."""
    if turn_seconds is None or state.status is not Status.IN_DEAL:
        return None
    if state.ai_plays(state.deal.turn):
        return None
    if any(starts_turn(event) for event in events):
        return written_at + timedelta(seconds=turn_seconds)
    return previous


@dataclass(frozen=True, slots=True)
class DealChange:
    """What one event does to the Deal rows: `insert` a row for `key` with `fields`, or
    update the row at `key` (every unfinished row of the match when `key` is None)."""

    key: tuple[int, int] | None
    fields: dict
    insert: bool = False


def deal_changes(seq: int, event: Event) -> list[DealChange]:
    """What event number `seq` does to the Deal rows. They keep only what the admin lists a
    deal by; its deck and result are read from its events."""
    if isinstance(event, DealStarted):
        fields = {"dealer": event.dealer, "started_seq": seq, "outcome": ""}
        return [DealChange((event.series, event.deal_number), fields, insert=True)]
    if isinstance(event, DealEnded):
        return [DealChange((event.series, event.deal_number), {"outcome": event.outcome})]
    if abandons_deal(event):
        return [DealChange(None, {"outcome": Outcome.ABANDONED})]
    return []


def deals_in_memory(deals: dict[tuple[int, int], dict], seq: int, event: Event) -> None:
    """Apply the deal changes of event number `seq` to `deals`, the deal rows' fields keyed
    by (series, deal_number): the projection of the Deal rows without a database."""
    for change in deal_changes(seq, event):
        if change.insert:
            deals[change.key] = dict(change.fields)
        elif change.key is not None:
            deals[change.key].update(change.fields)
        else:
            for deal in deals.values():
                if not deal["outcome"]:
                    deal.update(change.fields)


def numbered_lines(batches: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """(seq, encoded event) for each event of the (seq, events) batches."""
    for last, text in batches:
        lines = text.split("\n")
        yield from enumerate(lines, start=last - len(lines) + 1)
