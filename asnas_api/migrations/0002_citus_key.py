from django.db import migrations

# Distributed by key on Citus, which must be in the primary key (the model keeps its id).
KEY = (
    "ALTER TABLE asnas_api_ratecounter DROP CONSTRAINT asnas_api_ratecounter_pkey;\n"
    "ALTER TABLE asnas_api_ratecounter ADD CONSTRAINT asnas_api_ratecounter_pkey"
    " PRIMARY KEY ({})"
)


class Migration(migrations.Migration):
    dependencies = [
        ("asnas_api", "0001_initial"),
    ]

    operations = [migrations.RunSQL(KEY.format("key, id"), KEY.format("id"))]
