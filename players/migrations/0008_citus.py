from django.db import migrations

# On Citus, players_token is a reference table: a copy on every node, each with the trigger,
# and a deletion runs on every copy. Only the coordinator's may notify: the streams listen
# there, and a worker's part of the transaction is prepared (two-phase commit), which
# Postgres refuses after a NOTIFY. On plain Postgres (no citus_is_coordinator) it notifies
# as before. The channel is players.tokens.ENDED_CHANNEL, written out.
NOTIFY_ON_THE_COORDINATOR = """
CREATE OR REPLACE FUNCTION players_token_ended() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    coordinator boolean := true;
BEGIN
    IF to_regproc('citus_is_coordinator') IS NOT NULL THEN
        EXECUTE 'SELECT citus_is_coordinator()' INTO coordinator;
    END IF;
    IF coordinator THEN
        PERFORM pg_notify('asnas_token_ended', OLD.token_hash);
    END IF;
    RETURN NULL;
END $$;
"""
NOTIFY_EVERYWHERE = """
CREATE OR REPLACE FUNCTION players_token_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('asnas_token_ended', OLD.token_hash);
    RETURN NULL;
END $$;
"""
# A table distributed by match_id on Citus needs it in its primary key (the model keeps its id).
KEY = (
    "ALTER TABLE players_ratingchange DROP CONSTRAINT players_ratingchange_pkey;\n"
    "ALTER TABLE players_ratingchange ADD CONSTRAINT players_ratingchange_pkey"
    " PRIMARY KEY ({})"
)


class Migration(migrations.Migration):
    """Citus (docs/scaling.md): the token trigger notifies from the coordinator only, and the
    rating changes' primary key contains match_id. On plain Postgres nothing else changes."""

    dependencies = [
        ("players", "0007_bots"),
    ]

    operations = [
        migrations.RunSQL(NOTIFY_ON_THE_COORDINATOR, NOTIFY_EVERYWHERE),
        migrations.RunSQL(KEY.format("match_id, id"), KEY.format("id")),
    ]
