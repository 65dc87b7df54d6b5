"""Compact storage (format 3): a match's events move from one JSON row each (MatchEvent) to
one row per write (EventBatch), each event a short line of text (games/engine/codec.py);
Deal rows lose the deck and the result, which their events already hold, and gain the seq of
their deal_started, which finds those events.

The old rows do not say which events one write made, but a write gave all its events one
created_at: events are batched by it."""

import django.db.models.deletion
from django.db import migrations, models

from games.engine import DealEnded, DealStarted, decode_event, encode_event, event_from_dict


def forwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchEvent = apps.get_model("games", "MatchEvent")
    EventBatch = apps.get_model("games", "EventBatch")
    Deal = apps.get_model("games", "Deal")
    for match_id in Match.objects.order_by("id").values_list("id", flat=True).iterator():
        rows = MatchEvent.objects.filter(match_id=match_id).order_by("seq")
        batches: list = []
        started: dict[tuple[int, int], int] = {}
        for seq, created_at, payload in rows.values_list("seq", "created_at", "payload"):
            event = event_from_dict(payload)
            if isinstance(event, DealStarted):
                started[event.series, event.deal_number] = seq
            if batches and batches[-1].created_at == created_at:
                batches[-1].seq = seq
                batches[-1].events += "\n" + encode_event(event)
            else:
                batches.append(
                    EventBatch(
                        match_id=match_id,
                        seq=seq,
                        events=encode_event(event),
                        created_at=created_at,
                    )
                )
        EventBatch.objects.bulk_create(batches, batch_size=1000)
        deals = list(Deal.objects.filter(match_id=match_id))
        for deal in deals:
            deal.started_seq = started[deal.series, deal.number]
        Deal.objects.bulk_update(deals, ["started_seq"], batch_size=1000)


def backwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchEvent = apps.get_model("games", "MatchEvent")
    EventBatch = apps.get_model("games", "EventBatch")
    Deal = apps.get_model("games", "Deal")
    for match_id in Match.objects.order_by("id").values_list("id", flat=True).iterator():
        batches = EventBatch.objects.filter(match_id=match_id).order_by("seq")
        rows, decks, results = [], {}, {}
        for last, created_at, text in batches.values_list("seq", "created_at", "events"):
            lines = text.split("\n")
            for seq, line in enumerate(lines, start=last - len(lines) + 1):
                event = decode_event(line)
                if isinstance(event, DealStarted):
                    decks[event.series, event.deal_number] = list(event.deck)
                elif isinstance(event, DealEnded):
                    results[event.series, event.deal_number] = event.to_dict()
                rows.append(
                    MatchEvent(
                        match_id=match_id,
                        seq=seq,
                        type=event.type,
                        payload=event.to_dict(),
                        created_at=created_at,
                    )
                )
        MatchEvent.objects.bulk_create(rows, batch_size=1000)
        deals = list(Deal.objects.filter(match_id=match_id))
        for deal in deals:
            deal.deck = decks[deal.series, deal.number]
            deal.result = results.get((deal.series, deal.number))
        Deal.objects.bulk_update(deals, ["deck", "result"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_event_key_match_seq")]

    operations = [
        migrations.CreateModel(
            name="EventBatch",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "match",
                        "seq",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                (
                    "seq",
                    models.PositiveIntegerField(
                        help_text="The seq of the last event in the batch."
                    ),
                ),
                ("events", models.TextField(help_text="One encoded event a line.")),
                ("created_at", models.DateTimeField()),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="event_batches",
                        to="games.match",
                    ),
                ),
            ],
            options={"verbose_name_plural": "event batches", "ordering": ["match", "seq"]},
        ),
        migrations.AddField(
            model_name="deal",
            name="started_seq",
            field=models.PositiveIntegerField(
                default=0, help_text="The seq of its deal_started event."
            ),
            preserve_default=False,
        ),
        # Nullable while the data moves, so that a rollback can add the column back first.
        migrations.AlterField(model_name="deal", name="deck", field=models.JSONField(null=True)),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="deal", name="deck"),
        migrations.RemoveField(model_name="deal", name="result"),
        migrations.DeleteModel(name="MatchEvent"),
        migrations.AlterField(
            model_name="deal",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="deals",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="games.match",
            ),
        ),
    ]
