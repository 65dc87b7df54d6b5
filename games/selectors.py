"""Selectors: every read of a match, shaped as the viewer at seat 0 may see it."""

import json
import uuid
from datetime import UTC, datetime

from django.db.models import F, QuerySet

from games.engine import MatchState, evaluate, event_from_dict, event_view, legal_actions, observe
from games.models import Match, MatchEvent, Seat
from players.models import Player

HUMAN_SEAT = 0
"""The owner's seat in every match; seats 1-3 are AI."""
EVENTS_PAGE_LIMIT = 1000


def match_list(*, player: Player) -> QuerySet[Match]:
    return Match.objects.filter(owner=player).order_by("-created_at", "-id")


# Raw SQL: the ORM takes longer to compile this query than Postgres takes to run it, and every
# action and view runs it (docs/performance.md).
_MATCH_WITH_SEATS = (
    f"SELECT {', '.join(f'm.{field.column}' for field in Match._meta.concrete_fields)}, "
    "(SELECT json_agg(json_build_object('name', p.name, 'kind', p.kind) ORDER BY s.number)"
    f" FROM {Seat._meta.db_table} s JOIN {Player._meta.db_table} p ON p.id = s.player_id"
    " WHERE s.match_id = m.id)::text AS seats_json"
    f" FROM {Match._meta.db_table} m WHERE m.id = %s AND m.owner_id = %s"
)


def match_get(*, match_id: uuid.UUID, player: Player, for_update: bool = False) -> Match | None:
    """The player's match, or None, with its seats' names and kinds as `seat_list`: a
    MatchView of it needs no other query. `for_update` locks the match row."""
    sql = _MATCH_WITH_SEATS + (" FOR UPDATE OF m" if for_update else "")
    match = next(iter(Match.objects.raw(sql, [match_id, player.pk])), None)
    if match is not None:
        match.seat_list = json.loads(match.seats_json)
    return match


def _seats(match: Match) -> list[dict]:
    """The seats' names and kinds in seat order: as `match_get` fetched them, else queried."""
    if hasattr(match, "seat_list"):
        return match.seat_list
    return list(
        Seat.objects.filter(match=match)
        .order_by("number")
        .values(name=F("player__name"), kind=F("player__kind"))
    )


def _timestamp(moment: datetime) -> str:
    """ISO 8601 in UTC with a Z, as DRF's DateTimeField writes it."""
    return moment.astimezone(UTC).isoformat().removesuffix("+00:00") + "Z"


def match_view(*, match: Match, state: MatchState | None = None) -> dict:
    """The MatchView of `match` for its owner: only what seat 0 may see. Ready to render:
    exactly what MatchViewSerializer (its documented schema) would output, which the tests
    check, without that serializer's cost on every request."""
    state = state or MatchState.from_dict(match.state)
    view = observe(state, HUMAN_SEAT)
    last = view.last_result
    return {
        "id": str(match.id),
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
                "seat": number,
                "name": seat["name"],
                "kind": seat["kind"],
                "stake": view.stakes[number],
                "folded": view.folded[number],
                "looked": view.looked[number],
                "total": str(view.totals[number]),
            }
            for number, seat in enumerate(_seats(match))
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
        "created_at": _timestamp(match.created_at),
        "updated_at": _timestamp(match.updated_at),
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


def match_count_in_play() -> int:
    return Match.objects.exclude(status=Match.Status.FINISHED).count()
