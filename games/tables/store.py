"""The tables room's store: the lobby's reads of the open tables still waiting (one query
however many tables), the lock quick play takes a table with, and the turn quick plays
take one after another."""

import json
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db import connection

from games.match.loaded import LoadedMatch, SeatInfo
from games.match.store import SEQUENTIAL, match_load
from games.models import Match, Seat
from games.tables.filters import TableFilters
from players.models import Player

# Whether a match's series reveal their seeds (a match stored before verifiable dealing has
# no seeds, and reveals nothing).
_VERIFIABLE = "coalesce(({alias}.state -> 'seeds' ->> 'verifiable')::boolean, false)"


def _fitting(filters: TableFilters, *, alias: str = "m") -> tuple[str, list]:
    """The SQL condition, and its parameters, for the open waiting tables that fit."""
    sql = f"{alias}.open AND {alias}.status = 'waiting'"
    params: list = []
    if filters.humans is not None:
        sql += f" AND ({alias}.state -> 'table' ->> 'humans')::int = %s"
        params.append(filters.humans)
    if filters.max_turn_seconds is not None:
        sql += f" AND {alias}.turn_seconds <= %s"
        params.append(filters.max_turn_seconds)
    if filters.ai_level is not None:
        sql += f" AND {alias}.ai_level = %s"
        params.append(filters.ai_level)
    if filters.verifiable is not None:
        sql += f" AND {_VERIFIABLE.format(alias=alias)} = %s"
        params.append(filters.verifiable)
    if filters.bots is not None:
        sql += f" AND {alias}.bots = %s"
        params.append(filters.bots)
    return sql, params


# One query for the whole lobby, however many tables: their seats come aggregated.
_LOBBY = (
    "SELECT m.id, m.created_at, m.ai_level, m.turn_seconds, m.spectators, m.fill_at, m.bots,"
    " (m.state -> 'table' ->> 'humans')::int,"
    f" {_VERIFIABLE.format(alias='m')},"
    " (SELECT json_agg(json_build_object('name', p.name, 'kind', coalesce(p.kind, 'human'),"
    " 'player', s.player_id) ORDER BY s.number)"
    f" FROM {Seat._meta.db_table} s LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id"
    " WHERE s.match_id = m.id)::text"
    f" FROM {Match._meta.db_table} m WHERE {{fitting}}"
    " ORDER BY m.created_at, m.id LIMIT %s"
)


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A table in the lobby: what someone choosing where to sit may know of it."""

    id: uuid.UUID
    created_at: datetime
    ai_level: str
    turn_seconds: int | None
    spectators: str
    fill_at: datetime | None
    bots: bool
    humans: int
    verifiable: bool
    seats: list[SeatInfo]


def open_table(match: LoadedMatch) -> OpenTable:
    """A loaded match as the lobby reads a table (`tables_open`)."""
    row, seeds = match.row, match.state.seeds
    return OpenTable(
        id=row.id,
        created_at=row.created_at,
        ai_level=row.ai_level,
        turn_seconds=row.turn_seconds,
        spectators=row.spectators,
        fill_at=row.fill_at,
        bots=row.bots,
        humans=match.state.humans,
        verifiable=seeds is not None and seeds.verifiable,
        seats=match.seats,
    )


def tables_open(*, filters: TableFilters, limit: int) -> list[OpenTable]:
    """The open tables still waiting that fit `filters`, the longest waiting first, at most
    `limit` of them: one query."""
    fitting, params = _fitting(filters)
    with connection.cursor() as cursor:
        cursor.execute(_LOBBY.format(fitting=fitting), [*params, limit])
        rows = cursor.fetchall()
    return [
        OpenTable(*values, seats=[SeatInfo(**seat) for seat in json.loads(seats)])
        for *values, seats in rows
    ]


# How many of the oldest fitting tables quick play tries, one after another, before it opens one.
_CANDIDATES = 8


def table_lock_oldest_fitting(*, filters: TableFilters, player: Player) -> LoadedMatch | None:
    """The open table still waiting that fits `filters` and has waited longest, among those
    `player` does not sit at, locked until the transaction ends; None when there is none.
    The search takes no lock (on Citus it asks every shard, where a lock is refused); then
    each table found, oldest first, is locked by its id with its fit checked again. The lock
    waits for a join in progress: if that join took the last seat, Postgres checks the row
    again, finds it no longer waiting and the next one is tried, so exactly one of them gets
    the last seat."""
    fitting, params = _fitting(filters)
    with connection.cursor() as cursor:
        cursor.execute(_OLDEST_FITTING.format(fitting=fitting), [*params, player.pk, _CANDIDATES])
        candidates = [match_id for (match_id,) in cursor.fetchall()]
        for match_id in candidates:
            cursor.execute(
                _LOCK_FITTING.format(fitting=fitting), [match_id, *params, match_id, player.pk]
            )
            if cursor.fetchone() is not None:
                return match_load(match_id=match_id, player=None, lock=True)
    return None


_OLDEST_FITTING = (
    f"SELECT m.id FROM {Match._meta.db_table} m WHERE {{fitting}}"
    f" AND NOT EXISTS (SELECT 1 FROM {Seat._meta.db_table} s"
    " WHERE s.match_id = m.id AND s.player_id = %s)"
    " ORDER BY m.created_at, m.id LIMIT %s"
)
# Every part names the match, so that on Citus it runs on the match's shard alone.
_LOCK_FITTING = (
    f"SELECT m.id FROM {Match._meta.db_table} m WHERE m.id = %s AND {{fitting}}"
    f" AND NOT EXISTS (SELECT 1 FROM {Seat._meta.db_table} s"
    " WHERE s.match_id = %s AND s.player_id = %s)"
    " FOR UPDATE OF m"
)


QUICK_PLAY_LOCK = "quick-play:open"


def quick_play_lock() -> None:
    """Quick plays one at a time, until the transaction ends: each finds the tables the ones
    before it opened or filled. On Citus the transaction also asks every shard over one
    connection a node (SEQUENTIAL): after a search over several connections a node, Citus
    refuses to write a reference table in the same transaction, and a quick play may create
    the AI's players (a setting Postgres alone keeps and ignores)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT pg_advisory_xact_lock(hashtext(%s)), {SEQUENTIAL}", [QUICK_PLAY_LOCK]
        )
