"""Compact storage (format 3): a match's events move from one JSON row each (MatchEvent) to
one row per write (EventBatch), each event a short line of text (games/engine/codec.py);
Deal rows lose the deck and the result, which their events already hold, and gain the seq of
their deal_started, which finds those events.

The old rows do not say which events one write made, but a write gave all its events one
created_at: events are batched by it.

The codec (games/engine/codec.py) is copied here as it stood on 2026-12-01, working on the
events' dicts: a later change to the engine or its codec cannot change what this migration
writes, or stop a fresh install from migrating."""

import json
from fractions import Fraction

import django.db.models.deletion
from django.db import migrations, models

_CARD = {"As": "A", "Shah": "K", "Bibi": "Q", "Sarbaz": "J", "Couli": "T"}
_ACTION = {"look": "l", "call": "c", "hold": "h", "raise": "r", "fold": "f"}
_OUTCOME = {"showdown": "s", "uncontested": "u"}
_BY = {"player": "p", "ai": "a", "clock": "c"}
_CATEGORY = {
    "high_card": "h",
    "pair": "p",
    "two_pair": "t",
    "three_of_a_kind": "3",
    "full_house": "f",
    "four_of_a_kind": "4",
}
_RANK = {letter: card for card, letter in _CARD.items()}
_ACTION_NAME = {letter: name for name, letter in _ACTION.items()}
_OUTCOME_NAME = {letter: name for name, letter in _OUTCOME.items()}
_BY_NAME = {letter: name for name, letter in _BY.items()}
_CATEGORY_NAME = {letter: name for name, letter in _CATEGORY.items()}


def _cards(cards) -> str:
    return "".join(_CARD[card] for card in cards)


def _digits(seats) -> str:
    return "".join(str(seat) for seat in seats)


def _seat(seat: dict) -> str:
    flags = f"{int(seat['folded'])}{int(seat['shown'])}"
    fields = (_cards(seat["hand"]), _CATEGORY[seat["category"]], seat["stake"])
    payout, delta = Fraction(seat["payout"]), Fraction(seat["delta"])
    return ".".join(map(str, (*fields, payout, delta, flags)))


def _encode(payload: dict) -> str:
    """The line of the event whose dict is `payload`."""
    match payload["type"]:
        case "match_created":
            seed, rules, humans = payload["seed"], payload["rules"], payload.get("humans", 1)
            return f"C{seed},{rules}" if humans == 1 else f"H{seed},{rules},{humans}"
        case "deal_started":
            fields = (payload["series"], payload["deal_number"], payload["dealer"])
            return f"D{fields[0]},{fields[1]},{fields[2]},{_cards(payload['deck'])}"
        case "action":
            turn = "" if payload["turn"] is None else payload["turn"]
            fields = (payload["stake"], payload["high_stake"], payload["pot"], turn)
            line = f"{payload['seat']}{_ACTION[payload['action']]}," + ",".join(map(str, fields))
            by = payload.get("by")
            return f"A{line}" if by is None else f"B{line},{_BY[by]}"
        case "deal_ended":
            seats = payload["seats"]
            if [seat["seat"] for seat in seats] != list(range(len(seats))):
                raise ValueError("a deal_ended event lists its seats in seat order")
            outcome, winners = _OUTCOME[payload["outcome"]], _digits(payload["winners"])
            results = ";".join(_seat(seat) for seat in seats)
            return f"E{payload['series']},{payload['deal_number']},{outcome},{winners},{results}"
        case "match_finished":
            totals = ";".join(str(Fraction(total)) for total in payload["totals"])
            return f"F{payload['series']},{_digits(payload['winners'])},{totals}"
        case "match_restarted":
            return f"R{payload['series']}"
        case "resigned":
            return f"S{payload['seat']}"
        case "player_joined":
            return f"J{payload['seat']},{json.dumps(payload['name'])}"
        case "player_left":
            return f"L{payload['seat']},{int(payload['abandoned'])}"
    raise KeyError(f"unknown event type {payload['type']!r}")


def _seat_result(seat: int, text: str) -> dict:
    hand, category, stake, payout, delta, flags = text.split(".")
    return {
        "seat": seat,
        "hand": [_RANK[letter] for letter in hand],
        "category": _CATEGORY_NAME[category],
        "stake": int(stake),
        "payout": str(Fraction(payout)),
        "delta": str(Fraction(delta)),
        "folded": flags[0] == "1",
        "shown": flags[1] == "1",
    }


def _decode(line: str) -> dict:
    """The dict of the event that `line` encodes."""
    kind = line[:1]
    if kind == "J":
        seat, name = line[1:].split(",", 1)
        return {"type": "player_joined", "seat": int(seat), "name": json.loads(name)}
    fields = line[1:].split(",")
    match kind:
        case "C":
            seed, rules = fields
            return {"type": "match_created", "seed": int(seed), "rules": int(rules)}
        case "H":
            seed, rules, humans = fields
            created = {"type": "match_created", "seed": int(seed), "rules": int(rules)}
            return created if int(humans) == 1 else {**created, "humans": int(humans)}
        case "D":
            series, deal, dealer, deck = fields
            return {
                "type": "deal_started",
                "series": int(series),
                "deal_number": int(deal),
                "dealer": int(dealer),
                "deck": [_RANK[letter] for letter in deck],
            }
        case "A" | "B":
            head, stake, high, pot, turn, *by = fields
            seat, action = int(head[:-1]), _ACTION_NAME[head[-1]]
            actor = _BY_NAME[by[0]] if kind == "B" else None
            return {
                "type": "action",
                "seat": seat,
                "action": action,
                "stake": int(stake),
                "high_stake": int(high),
                "pot": int(pot),
                "turn": None if turn == "" else int(turn),
                **({"by": actor} if actor is not None else {}),
            }
        case "E":
            series, deal, outcome, winners, seats = fields
            results = [_seat_result(i, text) for i, text in enumerate(seats.split(";"))]
            return {
                "type": "deal_ended",
                "series": int(series),
                "deal_number": int(deal),
                "outcome": _OUTCOME_NAME[outcome],
                "winners": [int(seat) for seat in winners],
                "seats": results,
            }
        case "F":
            series, winners, totals = fields
            return {
                "type": "match_finished",
                "series": int(series),
                "winners": [int(seat) for seat in winners],
                "totals": [str(Fraction(total)) for total in totals.split(";")],
            }
        case "R":
            (series,) = fields
            return {"type": "match_restarted", "series": int(series)}
        case "S":
            (seat,) = fields
            return {"type": "resigned", "seat": int(seat)}
        case "L":
            seat, abandoned = fields
            return {"type": "player_left", "seat": int(seat), "abandoned": abandoned == "1"}
    raise KeyError(f"unknown event letter {kind!r}")


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
            line = _encode(payload)
            if payload["type"] == "deal_started":
                started[payload["series"], payload["deal_number"]] = seq
            if batches and batches[-1].created_at == created_at:
                batches[-1].seq = seq
                batches[-1].events += "\n" + line
            else:
                batches.append(
                    EventBatch(match_id=match_id, seq=seq, events=line, created_at=created_at)
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
                payload = _decode(line)
                if payload["type"] == "deal_started":
                    decks[payload["series"], payload["deal_number"]] = payload["deck"]
                elif payload["type"] == "deal_ended":
                    results[payload["series"], payload["deal_number"]] = payload
                rows.append(
                    MatchEvent(
                        match_id=match_id,
                        seq=seq,
                        type=payload["type"],
                        payload=payload,
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
