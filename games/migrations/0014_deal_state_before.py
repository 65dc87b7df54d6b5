from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_open_tables'),
    ]

    operations = [
        migrations.AddField(
            model_name='deal',
            name='state_before',
            field=models.JSONField(blank=True, help_text="While the deal is in play, the match's state just before its deal_started: what a delayed spectator is shown (docs/spectators.md), read rather than replayed. Null once it ended, and for a deal started before this column or whose rows were rebuilt (their spectators' view is replayed).", null=True),
        ),
    ]
