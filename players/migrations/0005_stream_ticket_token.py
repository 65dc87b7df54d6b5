from django.db import migrations, models


class Migration(migrations.Migration):
    """A ticket records the token that issued it. A ticket issued before this (good for 60 s
    at most) gets none, and so is refused as `invalid_ticket`: its issuer asks again."""

    dependencies = [
        ("players", "0004_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="streamticket",
            name="token_hash",
            field=models.CharField(
                default="",
                editable=False,
                help_text="The hash of the token that issued it: the stream it opens lives as "
                "long as that token does (rotated or revoked, the ticket and its stream are "
                "dead).",
                max_length=64,
            ),
            preserve_default=False,
        ),
    ]
