"""The tournaments room's store: the only code touching Tournament rows, and the reads of
the matches entered in one (their rows are the match room's: only its store writes them)."""

import uuid
from datetime import datetime

from django.db import connection
from django.db.models import QuerySet

from games.match.store import SEQUENTIAL
from games.models import Deal, Match, Tournament
from players.models import Player


def tournament_insert(**fields) -> Tournament:
    return Tournament.objects.create(**fields)


def tournament_get(*, tournament_id: uuid.UUID) -> Tournament | None:
    return Tournament.objects.select_related("creator").filter(pk=tournament_id).first()


def tournament_lock(*, tournament_id: uuid.UUID) -> Tournament | None:
    """The tournament, locked until the transaction ends: entries and the close take this
    lock, so that a cap holds and a tournament closes once.
    On Citus the entry's checks then ask every shard (a tournament's matches are spread
    over them), and the entry's match may create the AI's players, a reference table, which
    Citus refuses after a search over several connections a node: the transaction keeps one
    a node (SEQUENTIAL; Postgres alone ignores it)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {SEQUENTIAL}")
    return Tournament.objects.select_for_update().filter(pk=tournament_id).first()


def tournament_list(*, limit: int) -> QuerySet[Tournament]:
    return Tournament.objects.select_related("creator").order_by("-created_at")[:limit]


def tournament_ids_due(*, now: datetime) -> list[uuid.UUID]:
    """The tournaments past their deadline and not closed yet, oldest deadline first."""
    due = Tournament.objects.filter(closed_at__isnull=True, deadline__lte=now)
    return list(due.order_by("deadline").values_list("id", flat=True))


def tournament_mark_closed(tournament: Tournament, *, now: datetime) -> None:
    tournament.closed_at = now
    tournament.save(update_fields=["closed_at"])


def entrant_count(*, tournament_id: uuid.UUID) -> int:
    return Match.objects.filter(tournament_id=tournament_id).count()


def entry_match_id(*, tournament_id: uuid.UUID, player: Player) -> uuid.UUID | None:
    """The match `player` entered the tournament with, or None."""
    found = Match.objects.filter(tournament_id=tournament_id, owner=player)
    return found.values_list("id", flat=True).first()


def entries(*, tournament_id: uuid.UUID) -> list[tuple[uuid.UUID, int, str, dict | None, str]]:
    """Each entry as (match id, its deal pool, entrant's name, the match's skill figures,
    the entrant's kind: human or bot), in the order they entered."""
    rows = Match.objects.filter(tournament_id=tournament_id).order_by("created_at", "id")
    return list(rows.values_list("id", "tournament_pool", "owner__name", "skill", "owner__kind"))


def entrant_players(*, tournament_id: uuid.UUID) -> list[tuple[uuid.UUID, int, uuid.UUID, str]]:
    """Each entry as (match id, its deal pool, the entrant's player id, their kind), in the
    order they entered."""
    rows = Match.objects.filter(tournament_id=tournament_id).order_by("created_at", "id")
    return list(rows.values_list("id", "tournament_pool", "owner_id", "owner__kind"))


def deals_ended_by(*, match_id: uuid.UUID, deadline: datetime) -> set[int]:
    """The deal numbers of the match's deals that ended by `deadline`: only those count."""
    ended = Deal.objects.filter(match_id=match_id, ended_at__lte=deadline)
    return set(ended.values_list("deal_number", flat=True))
