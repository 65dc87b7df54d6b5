from django.db import migrations

# The channel is players.tokens.ENDED_CHANNEL, written out: a migration keeps the name it
# was made with.
CREATE = """
CREATE FUNCTION players_token_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('asnas_token_ended', OLD.token_hash);
    RETURN NULL;
END $$;
CREATE TRIGGER players_token_ended AFTER DELETE ON players_token
    FOR EACH ROW EXECUTE FUNCTION players_token_ended();
"""
DROP = """
DROP TRIGGER players_token_ended ON players_token;
DROP FUNCTION players_token_ended();
"""


class Migration(migrations.Migration):
    """Every token that goes, however it goes (rotated, revoked, or deleted in a shell or by
    SQL, or with its player), announces its hash at commit, so that the streams it opened
    end at once; the services no longer send the notice themselves."""

    dependencies = [
        ("players", "0005_stream_ticket_token"),
    ]

    operations = [migrations.RunSQL(CREATE, DROP)]
