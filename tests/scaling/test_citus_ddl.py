"""The Citus placement (asnas_api/citus_placement.py) against the real schema, on plain
Postgres: every table is placed or is Django's own, every table whose rows all belong to a
match (a match_id never null) is distributed by match_id with the match, and every primary
key and unique constraint of a distributed table contains its distribution column, as Citus
requires (the migrations widened them). tests/scaling/test_citus.py runs it on Citus."""

import pytest
from django.db import connection

from asnas_api import citus_placement

REFERENCE = set(citus_placement.reference_tables())
DISTRIBUTED = citus_placement.distributed_tables()
DJANGO_OWN = ("auth_", "django_")
COORDINATOR = set(citus_placement.coordinator_tables())
POSTGRES_ONLY = citus_placement.POSTGRES_ONLY_CONSTRAINTS

pytestmark = pytest.mark.django_db


def test_every_table_is_placed_or_djangos_own():
    tables = set(connection.introspection.table_names())
    assert REFERENCE | set(DISTRIBUTED) <= tables
    unplaced = tables - REFERENCE - set(DISTRIBUTED) - COORDINATOR
    assert all(table.startswith(DJANGO_OWN) for table in unplaced), unplaced


def test_every_table_of_a_match_is_distributed_by_match_id_with_the_match():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND column_name = 'match_id' "
            "AND is_nullable = 'NO'"
        )
        of_a_match = {name for (name,) in cursor.fetchall()}
    # The watch codes name a match but are found by the code: distributed by its hash.
    of_a_match.discard("games_watchcode")
    assert of_a_match
    assert {table: DISTRIBUTED[table] for table in of_a_match} == dict.fromkeys(
        of_a_match, ("match_id", "games_match")
    )
    assert DISTRIBUTED["games_match"] == ("id", None)


def test_each_key_holds_its_distribution_column():
    with connection.cursor() as cursor:
        for table, (column, _) in DISTRIBUTED.items():
            cursor.execute(
                "SELECT c.conname, array_agg(a.attname::text) FROM pg_constraint c "
                "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) "
                "WHERE c.conrelid = %s::regclass AND c.contype IN ('p', 'u') GROUP BY c.conname",
                [table],
            )
            keys = dict(cursor.fetchall())
            cursor.execute(
                "SELECT indexrelid::regclass::text FROM pg_index"
                " WHERE indrelid = %s::regclass AND indisunique AND NOT EXISTS"
                " (SELECT 1 FROM pg_constraint WHERE conindid = indexrelid)",
                [table],
            )
            unique_indexes = {name for (name,) in cursor.fetchall()}
            # A unique index outside any constraint, but those citus_distribute drops.
            assert unique_indexes <= set(POSTGRES_ONLY.get(table, [])), table
            assert keys, table
            for name, columns in keys.items():
                assert column in columns, (table, name, columns)


def test_the_constraints_citus_distribute_drops_exist_on_plain_postgres():
    """Each is named as the schema names it, or the drop (IF EXISTS) would miss it silently."""
    assert POSTGRES_ONLY
    with connection.cursor() as cursor:
        for table, names in POSTGRES_ONLY.items():
            cursor.execute(
                "SELECT indexrelid::regclass::text FROM pg_index"
                " WHERE indrelid = %s::regclass AND indisunique",
                [table],
            )
            assert set(names) <= {name for (name,) in cursor.fetchall()}, table
