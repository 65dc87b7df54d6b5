from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_spectators'),
    ]

    operations = [
        migrations.AddField(
            model_name='deal',
            name='skill',
            field=models.JSONField(blank=True, help_text='Cards, play and table by seat, and which hands were shown (docs/skill.md): worked out on the first read after the deal ended, off the write path.', null=True),
        ),
    ]
