"""Fill the database with finished matches fast: copies of one real finished match's rows
(match, seats, deals, events) under new ids, owned by many players, by INSERT ... SELECT in
Postgres, so that no row passes through Python."""

from collections.abc import Callable

from django.db import connection, transaction

from games.models import Deal, EventBatch, Match, Seat
from players.models import Player

CHUNK = 5_000
"""Matches per transaction: big enough to be fast, small enough to show progress."""
MATCHES_PER_OWNER = 100


def _copied(model, *made_here: str) -> str:
    """Every column of `model` but those the copy makes itself: a column a later migration
    adds is copied too, instead of left null against its NOT NULL."""
    return ", ".join(
        field.column for field in model._meta.concrete_fields if field.column not in made_here
    )


MATCH_COLUMNS = _copied(Match, "id", "owner_id", "created_at", "updated_at")
DEAL_COLUMNS = _copied(Deal, "id", "match_id")
EVENT_COLUMNS = "seq, events, created_at"


def seed_finished_matches(
    template_id: str, count: int, on_chunk: Callable[[int], None] | None = None
) -> None:
    """Store `count` copies of the finished match `template_id`, older than it, spread over
    one owner per MATCHES_PER_OWNER matches, then VACUUM ANALYZE as a long-lived table would be."""
    owners = max(1, count // MATCHES_PER_OWNER)
    tables = {
        "match": Match._meta.db_table,
        "seat": Seat._meta.db_table,
        "deal": Deal._meta.db_table,
        "event": EventBatch._meta.db_table,
        "player": Player._meta.db_table,
    }
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE seed_owner AS SELECT g - 1 AS n, gen_random_uuid() AS id "
            "FROM generate_series(1, %s) g",
            [owners],
        )
        cursor.execute(
            f"INSERT INTO {tables['player']} (id, name, kind, created_at) "
            "SELECT id, 'seed-' || n, 'human', now() FROM seed_owner",
        )
        cursor.execute("CREATE TEMP TABLE seed_match (n int, id uuid, owner_id uuid)")
        for start in range(0, count, CHUNK):
            stop = min(start + CHUNK, count)
            with transaction.atomic():
                _copy_chunk(cursor, tables, template_id, start, stop, owners)
            if on_chunk:
                on_chunk(stop)
        cursor.execute("DROP TABLE seed_match, seed_owner")
        for table in tables.values():
            cursor.execute(f"VACUUM ANALYZE {table}")


def _copy_chunk(cursor, tables: dict, template: str, start: int, stop: int, owners: int) -> None:
    cursor.execute("TRUNCATE seed_match")
    cursor.execute(
        "INSERT INTO seed_match SELECT g, gen_random_uuid(), o.id "
        "FROM generate_series(%s, %s) g JOIN seed_owner o ON o.n = g %% %s",
        [start, stop - 1, owners],
    )
    # Each copy is g minutes older than the template, so the owners' lists have an order.
    cursor.execute(
        f"INSERT INTO {tables['match']} (id, owner_id, created_at, updated_at, {MATCH_COLUMNS}) "
        "SELECT s.id, s.owner_id, t.created_at - s.n * interval '1 minute', "
        f"t.updated_at - s.n * interval '1 minute', {_prefixed('t', MATCH_COLUMNS)} "
        f"FROM seed_match s CROSS JOIN {tables['match']} t WHERE t.id = %s",
        [template],
    )
    # Seat 0 is the owner; seats 1-3 are the AI personas, shared by every match.
    cursor.execute(
        f"INSERT INTO {tables['seat']} (match_id, number, player_id) "
        "SELECT s.id, t.number, CASE WHEN t.number = 0 THEN s.owner_id ELSE t.player_id END "
        f"FROM seed_match s CROSS JOIN {tables['seat']} t WHERE t.match_id = %s",
        [template],
    )
    for table, columns in (("deal", DEAL_COLUMNS), ("event", EVENT_COLUMNS)):
        cursor.execute(
            f"INSERT INTO {tables[table]} (match_id, {columns}) "
            f"SELECT s.id, {_prefixed('t', columns)} "
            f"FROM seed_match s CROSS JOIN {tables[table]} t WHERE t.match_id = %s "
            "ORDER BY s.n",
            [template],
        )


def _prefixed(alias: str, columns: str) -> str:
    return ", ".join(f"{alias}.{column.strip()}" for column in columns.split(","))
