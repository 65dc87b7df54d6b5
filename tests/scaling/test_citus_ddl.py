"""The Citus DDL of docs/scaling.md against the real schema: no Citus runs here, so these check
what can be checked on plain Postgres. Every table whose rows all belong to a match (a match_id
never null) is distributed by match_id, every
table is placed or is Django's own, and every primary key and unique constraint of a
distributed table contains its distribution column once the DDL's ALTER TABLEs have run."""

import re
from pathlib import Path

import pytest
from django.db import connection

DOC = (Path(__file__).resolve().parents[2] / "docs" / "scaling.md").read_text()
DDL = DOC[DOC.index("```sql") + len("```sql") : DOC.index("```", DOC.index("```sql") + 6)]
REFERENCE = set(re.findall(r"create_reference_table\('(\w+)'\)", DDL))
DISTRIBUTED = dict(re.findall(r"create_distributed_table\('(\w+)', '(\w+)'", DDL))
ALTERS = re.findall(r"^ALTER TABLE [^;]+;", DDL, re.MULTILINE)
DJANGO_OWN = ("auth_", "django_")

pytestmark = pytest.mark.django_db


def _tables() -> set[str]:
    return set(connection.introspection.table_names())


def test_every_table_is_placed_or_djangos_own():
    tables = _tables()
    assert REFERENCE | set(DISTRIBUTED) <= tables
    unplaced = tables - REFERENCE - set(DISTRIBUTED)
    assert all(table.startswith(DJANGO_OWN) for table in unplaced), unplaced


def test_every_table_of_a_match_is_distributed_by_match_id_with_the_match():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND column_name = 'match_id' "
            "AND is_nullable = 'NO'"
        )
        of_a_match = {name for (name,) in cursor.fetchall()}
    assert of_a_match
    assert {table: DISTRIBUTED.get(table) for table in of_a_match} == dict.fromkeys(
        of_a_match, "match_id"
    )
    assert DISTRIBUTED["games_match"] == "id"
    colocated = set(
        re.findall(
            r"create_distributed_table\('(\w+)', 'match_id', colocate_with => 'games_match'\)", DDL
        )
    )
    assert colocated == of_a_match


def test_each_key_holds_its_distribution_column_after_the_alters():
    assert ALTERS
    with connection.cursor() as cursor:
        for statement in ALTERS:
            cursor.execute(statement)
        for table, column in DISTRIBUTED.items():
            cursor.execute(
                "SELECT c.conname, array_agg(a.attname::text) FROM pg_constraint c "
                "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) "
                "WHERE c.conrelid = %s::regclass AND c.contype IN ('p', 'u') GROUP BY c.conname",
                [table],
            )
            keys = dict(cursor.fetchall())
            assert keys, table
            for name, columns in keys.items():
                assert column in columns, (table, name, columns)
