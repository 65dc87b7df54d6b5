from django.db import migrations, models

# A table distributed by a column on Citus must have that column in its primary key. These
# keep each model's own `id` (the ORM still knows a row by it; the identity still makes it
# unique alone) and widen the constraint under it: on plain Postgres nothing else changes.
# One statement each: Citus refuses a DROP and an ADD CONSTRAINT in one ALTER TABLE.
WIDENED = {"games_seat": "match_id", "games_deal": "match_id", "games_hint": "match_id",
           "games_watchstream": "match_id", "games_idempotencyrecord": "player_id",
           "games_dealreview": "match_id"}  # fmt: skip


def _keys(columns: str) -> list[tuple[str, str]]:
    return [
        (
            f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey;\n"
            f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY ({columns.format(c=column)})",
            f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey;\n"
            f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY (id)",
        )
        for table, column in WIDENED.items()
    ]


class Migration(migrations.Migration):
    """Citus (docs/scaling.md): primary keys that contain the distribution column, and the
    watch codes' uniqueness moved from a partial unique index on the match (which cannot
    contain the match's id) to a table keyed by the code's hash. On a large database the
    new keys rebuild one index per table (a scan of each, under an ACCESS EXCLUSIVE lock)."""

    dependencies = [
        ("games", "0019_bots"),
    ]

    operations = [
        *(migrations.RunSQL(forward, backward) for forward, backward in _keys("{c}, id")),
        migrations.CreateModel(
            name="WatchCode",
            fields=[
                (
                    "code_hash",
                    models.CharField(
                        editable=False, max_length=64, primary_key=True, serialize=False
                    ),
                ),
                ("match_id", models.UUIDField()),
            ],
        ),
        migrations.RunSQL(
            "INSERT INTO games_watchcode (code_hash, match_id)"
            " SELECT watch_code_hash, id FROM games_match WHERE watch_code_hash <> ''",
            migrations.RunSQL.noop,
        ),
        migrations.RemoveConstraint(model_name="match", name="match_unique_watch_code"),
    ]
