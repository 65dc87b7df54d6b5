"""Selectors: every read of a match, shaped as the player who reads it may see it: only
their own seat's cards."""

import uuid
from datetime import UTC, datetime

from django.db.models import QuerySet

from games import repository
from games.engine import DomainError, Event, Status, evaluate, event_view, legal_actions, observe
from games.models import Match
from games.repository import LoadedMatch
from players.models import Player

EVENTS_PAGE_LIMIT = 1000


def match_list(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    return repository.match_list(player=player, status=status)


def match_get(*, match_id: uuid.UUID, player: Player) -> LoadedMatch | None:
    """The player's match with its state and seats, or None."""
    return repository.match_load(match_id=match_id, player=player)


def _timestamp(moment: datetime) -> str:
    """ISO 8601 in UTC with a Z, as DRF's DateTimeField writes it."""
    return moment.astimezone(UTC).isoformat().removesuffix("+00:00") + "Z"


def match_view(*, match: LoadedMatch) -> dict:
    """The MatchView of `match` for the player it was loaded for: only what their seat may
    see. Ready to render: exactly what MatchViewSerializer (its documented schema) would
    output, which the tests check, without that serializer's cost on every request."""
    state, row, viewer = match.state, match.row, match.viewer_seat
    view = observe(state, viewer)
    last = view.last_result
    # The invite is the owner's to share, and only while seats are open.
    invite = row.invite if viewer == 0 and state.status is Status.WAITING else None
    return {
        "id": str(row.id),
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
        "your_cards": list(view.your_cards) if view.your_cards else None,
        "your_category": evaluate(view.your_cards).category if view.your_cards else None,
        "legal_actions": [] if state.left[viewer] else list(legal_actions(state, viewer)),
        "seats": [
            {
                "seat": number,
                "name": seat.name,
                "kind": seat.kind,
                "away": state.away(number),
                "stake": view.stakes[number],
                "folded": view.folded[number],
                "looked": view.looked[number],
                "total": str(view.totals[number]),
            }
            for number, seat in enumerate(match.seats)
        ],
        # In the serializer's field order, so the JSON is byte for byte the same.
        "last_deal": {
            "series": last["series"],
            "deal_number": last["deal_number"],
            "outcome": last["outcome"],
            "winners": last["winners"],
            "seats": last["seats"],
        }
        if last
        else None,
        "winners": list(view.winners) if view.winners is not None else None,
        "humans": state.humans,
        "invite": invite,
        "turn_seconds": row.turn_seconds,
        "turn_deadline": _timestamp(row.turn_deadline) if row.turn_deadline else None,
        "created_at": _timestamp(row.created_at),
        "updated_at": _timestamp(row.updated_at),
    }


def match_write_view(*, match: LoadedMatch) -> dict:
    """The MatchWriteView a write answers with: the MatchView, and the events the write
    appended as the writer may see them, so a client can show what the other seats did."""
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


def match_count_in_play() -> int:
    return Match.objects.exclude(status=Status.FINISHED.value).count()
