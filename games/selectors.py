"""Selectors: every read of a match, shaped as the viewer at seat 0 may see it."""

import uuid

from django.db.models import QuerySet

from games.engine import MatchState, evaluate, event_from_dict, event_view, legal_actions, observe
from games.models import Match, MatchEvent, Seat
from players.models import Player

HUMAN_SEAT = 0
EVENTS_PAGE_LIMIT = 1000


def match_list(*, player: Player) -> QuerySet[Match]:
    return Match.objects.filter(owner=player).order_by("-created_at", "-id")


def match_get(*, match_id: uuid.UUID, player: Player) -> Match | None:
    return Match.objects.filter(id=match_id, owner=player).first()


def match_view(*, match: Match, state: MatchState | None = None) -> dict:
    """The MatchView of `match` for its owner: only what seat 0 may see."""
    state = state or MatchState.from_dict(match.state)
    view = observe(state, HUMAN_SEAT)
    seats = Seat.objects.filter(match=match).select_related("player").order_by("number")
    return {
        "id": match.id,
        "version": state.version,
        "series": state.series,
        "deal_number": view.deal_number,
        "status": view.status,
        "ai_level": match.ai_level,
        "seeded": match.seeded,
        "dealer": view.dealer,
        "turn": view.turn,
        "pot": view.pot,
        "high_stake": view.high_stake,
        "your_seat": HUMAN_SEAT,
        "your_cards": list(view.your_cards) if view.your_cards else None,
        "your_category": evaluate(view.your_cards).category if view.your_cards else None,
        "legal_actions": list(legal_actions(state, HUMAN_SEAT)),
        "seats": [
            {
                "seat": seat.number,
                "name": seat.player.name,
                "kind": seat.player.kind,
                "stake": view.stakes[seat.number],
                "folded": view.folded[seat.number],
                "looked": view.looked[seat.number],
                "total": str(view.totals[seat.number]),
            }
            for seat in seats
        ],
        "last_deal": view.last_result,
        "winners": list(view.winners) if view.winners is not None else None,
        "created_at": match.created_at,
        "updated_at": match.updated_at,
    }


def match_events(*, match: Match, after: int, limit: int = EVENTS_PAGE_LIMIT) -> dict:
    """Events after seq `after`, in order, as seat 0 may see them."""
    rows = list(
        MatchEvent.objects.filter(match=match, seq__gt=after)
        .order_by("seq")
        .values_list("seq", "payload")[: limit + 1]
    )
    return {
        "version": match.version,
        "has_more": len(rows) > limit,
        "events": [
            {"seq": seq, **event_view(event_from_dict(payload), HUMAN_SEAT)}
            for seq, payload in rows[:limit]
        ],
    }
