from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from asnas_api import citus_placement

_PLACED = "SELECT table_name::text, citus_table_type FROM citus_tables"
# Foreign keys touching the tables to place: Citus turns a plain table with a key to a new
# reference table into a "Citus local" table, which then cannot be distributed, and refuses
# a key from a distributed table to a plain one. So the keys go first and come back last.
_FOREIGN_KEYS = (
    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
    " WHERE contype = 'f' AND (conrelid::regclass::text = ANY (%s)"
    " OR confrelid::regclass::text = ANY (%s))"
)


class Command(BaseCommand):
    help = (
        "On a Citus coordinator, after migrate: make the small shared tables reference tables "
        "and distribute every match table by the match's id, co-located (docs/scaling.md). "
        "Idempotent: what is placed already is left as it is."
    )

    def handle(self, *args, **options):
        say = self.stdout.write if options["verbosity"] > 0 else lambda _: None
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'citus'")
            if cursor.fetchone() is None:
                raise CommandError("This database has no Citus extension: not a coordinator.")
            cursor.execute(_PLACED)
            placed = dict(cursor.fetchall())
        reference = citus_placement.reference_tables()
        distributed = citus_placement.distributed_tables()
        todo = [t for t in reference if placed.get(t) != "reference"]
        todo += [t for t in distributed if placed.get(t) != "distributed"]
        if not todo:
            say("Every table is placed already.")
            return
        tables = [*reference, *distributed]
        with transaction.atomic(), connection.cursor() as cursor:
            # One connection a node for the whole transaction: DDL and copies in one go.
            cursor.execute("SET LOCAL citus.multi_shard_modify_mode TO 'sequential'")
            # players_token has a trigger (the token channel's NOTIFY, coordinator only).
            cursor.execute("SET LOCAL citus.enable_unsafe_triggers TO on")
            cursor.execute(_FOREIGN_KEYS, [tables, tables])
            keys = cursor.fetchall()
            for table, name, _ in keys:
                cursor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
            # Partial unique constraints, which Postgres keeps as unique indexes.
            for names in citus_placement.POSTGRES_ONLY_CONSTRAINTS.values():
                for name in names:
                    cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
            for table in todo:
                if table in reference:
                    cursor.execute("SELECT create_reference_table(%s)", [table])
                else:
                    column, colocated = distributed[table]
                    cursor.execute(
                        "SELECT create_distributed_table(%s, %s, colocate_with => %s)",
                        [table, column, colocated or "default"],
                    )
                say(f"{table}: {'reference' if table in reference else 'by ' + column}")
            for table, name, definition in keys:
                cursor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}')
        say(f"Placed {len(todo)} tables; {len(keys)} foreign keys kept.")
