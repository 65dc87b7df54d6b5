"""Selectors: every read of a match, shaped as the player who reads it may see it: only
their own seat's cards."""

import uuid

from django.db.models import QuerySet

from games import repository
from games.engine import (
    DomainError,
    Event,
    Status,
    evaluate,
    event_view,
    fairness_view,
    legal_actions,
    observe,
)
from games.engine.record import build_record
from games.models import Match
from games.repository import LoadedMatch
from players.models import Player

EVENTS_PAGE_LIMIT = 1000


def match_list(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    return repository.match_list(player=player, status=status)


def match_get(*, match_id: uuid.UUID, player: Player) -> LoadedMatch | None:
    """The player's match with its state and seats, or None."""
    return repository.match_load(match_id=match_id, player=player)


def match_view(*, match: LoadedMatch) -> dict:
    """The MatchView's data for the player `match` was loaded for: only what their seat may
    see. MatchViewSerializer is its shape (serializers.MATCH_VIEW renders it)."""
    state, row, viewer = match.state, match.row, match.viewer_seat
    view = observe(state, viewer)
    # The invite is the owner's to share, and only while seats are open.
    invite = row.invite if viewer == 0 and state.status is Status.WAITING else None
    return {
        "id": row.id,
        "version": state.version,
        "series": state.series,
        "deal_number": view.deal_number,
        "status": view.status,
        "ai_level": row.ai_level,
        "seeded": row.seeded,
        "dealer": view.dealer,
        "turn": view.turn,
        "pot": view.pot,
        "high_stake": view.high_stake,
        "your_seat": viewer,
        "your_cards": view.your_cards,
        "your_category": evaluate(view.your_cards).category if view.your_cards else None,
        "legal_actions": [] if state.left[viewer] else legal_actions(state, viewer),
        "seats": [
            {
                "seat": number,
                "name": seat.name,
                "kind": seat.kind,
                "away": state.away(number),
                "stake": view.stakes[number],
                "folded": view.folded[number],
                "looked": view.looked[number],
                "total": view.totals[number],
            }
            for number, seat in enumerate(match.seats)
        ],
        "last_deal": view.last_result,
        "winners": view.winners,
        "humans": state.humans,
        "invite": invite,
        "turn_seconds": row.turn_seconds,
        "turn_deadline": row.turn_deadline,
        "fairness": fairness_view(state),
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


def match_write_view(*, match: LoadedMatch) -> dict:
    """The MatchWriteView's data, which a write answers with: the MatchView, and the events
    the write appended as the writer may see them, so a client can show what the other seats
    did."""
    return {**match_view(match=match), "events": events_seen(match.appended, match.viewer_seat)}


def events_seen(events: list[tuple[int, Event]], viewer: int) -> list[dict]:
    return [{"seq": seq, **event_view(event, viewer)} for seq, event in events]


def match_cursor(*, match: LoadedMatch, after: int) -> int:
    """`after`, a client's place in the match's events (`events`, its long-poll and the
    stream all take it), if the match has come that far. A cursor past the latest event
    names events that do not exist: read from it, a client would skip every event up to it
    as they come, and so it is refused with the seq to resume after."""
    latest = match.row.version
    if after > latest:
        raise DomainError(
            "after_out_of_range",
            f"after is {after}, but the match's latest event is {latest}.",
            latest=latest,
        )
    return after


def match_events(*, match: LoadedMatch, after: int, limit: int = EVENTS_PAGE_LIMIT) -> dict:
    """Events after seq `after`, in order, as the reader's seat may see them."""
    rows = repository.match_events_after(match_id=match.row.id, after=after, limit=limit + 1)
    return {
        "version": match.row.version,
        "has_more": len(rows) > limit,
        "events": events_seen(rows[:limit], match.viewer_seat),
    }


def match_record(*, match: LoadedMatch) -> dict:
    """The match's record (asnas-record/1, docs/record.md) as its reader may see it."""
    row = match.row
    meta = {
        "id": str(row.id),
        "created_at": row.created_at.isoformat(),
        "ai_level": row.ai_level,
        "humans": match.state.humans,
        "seeded": row.seeded,
        "status": match.state.status.value,
        "version": match.state.version,
    }
    seats = [
        {"seat": number, "name": seat.name, "kind": seat.kind}
        for number, seat in enumerate(match.seats)
    ]
    events = repository.match_events(match_id=row.id)
    return build_record(events, match.viewer_seat, meta, seats)


def match_public_events(*, match_id: uuid.UUID) -> list[dict] | None:
    """Every event of the match as someone who sits at none of its seats sees it (the
    public record), or None when there is no such match."""
    if not list(repository.match_ids(among=[match_id])):
        return None
    return [
        {"seq": seq, **event_view(event, None)}
        for seq, event in repository.match_events(match_id=match_id)
    ]


def match_ids_unfinished(*, player: Player, limit: int) -> list[uuid.UUID]:
    return repository.match_ids_unfinished(player=player, limit=limit)


def match_count_in_play() -> int:
    return repository.match_count_in_play()
