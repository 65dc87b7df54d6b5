import django.db.models.deletion
from django.db import migrations, models


def copy_tokens(apps, schema_editor):
    """Each player's one token becomes its first row in Token: every token keeps working."""
    Player = apps.get_model("players", "Player")
    Token = apps.get_model("players", "Token")
    Token.objects.bulk_create(
        Token(token_hash=token_hash, player_id=player_id, created_at=created_at)
        for player_id, token_hash, created_at in Player.objects.filter(
            token_hash__isnull=False
        ).values_list("id", "token_hash", "created_at")
    )


def copy_tokens_back(apps, schema_editor):
    """Back to one token a player: the oldest one stays."""
    Player = apps.get_model("players", "Player")
    Token = apps.get_model("players", "Token")
    for token in Token.objects.order_by("player_id", "created_at").distinct("player_id"):
        Player.objects.filter(id=token.player_id).update(token_hash=token.token_hash)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="Token",
            fields=[
                (
                    "token_hash",
                    models.CharField(
                        editable=False, max_length=64, primary_key=True, serialize=False
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tokens",
                        to="players.player",
                    ),
                ),
            ],
        ),
        migrations.RunPython(copy_tokens, copy_tokens_back),
        migrations.RemoveField(model_name="player", name="token_hash"),
    ]
