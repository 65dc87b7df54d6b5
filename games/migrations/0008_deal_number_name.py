from django.db import migrations, models


class Migration(migrations.Migration):
    """Deal.number becomes deal_number, the name the engine, the events and the API use."""

    dependencies = [("games", "0007_hints")]

    operations = [
        migrations.RenameField(model_name="deal", old_name="number", new_name="deal_number"),
        migrations.AlterModelOptions(
            name="deal", options={"ordering": ["match", "series", "deal_number"]}
        ),
        # Postgres renames the column inside the unique constraint by itself; only Django's
        # record of the constraint needs the new name.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="deal", name="deal_unique_number"),
                migrations.AddConstraint(
                    model_name="deal",
                    constraint=models.UniqueConstraint(
                        fields=("match", "series", "deal_number"), name="deal_unique_number"
                    ),
                ),
            ]
        ),
    ]
