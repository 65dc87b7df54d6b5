"""Stored data of format 1 to format 2: every action event gains the turn after it, every
match_created the rules version (1), every state snapshot its format and rules version.

The turn is worked out here with a frozen copy of the version-1 betting rule, not with
the engine, so this migration means the same whatever the engine later becomes."""

from django.db import migrations

SEATS = 4


def _next_turn(folded: list[bool], acted: list[bool], stakes: list[int], high: int, after: int):
    """Version 1: betting is over when one seat is left, or every seat still in has acted
    since the last raise and matched the high stake; else the next seat still in."""
    in_deal = [seat for seat in range(SEATS) if not folded[seat]]
    if len(in_deal) == 1 or all(acted[s] and stakes[s] == high for s in in_deal):
        return None
    seat = (after + 1) % SEATS
    while folded[seat]:
        seat = (seat + 1) % SEATS
    return seat


def _upgrade(payloads: list[dict]) -> list[dict]:
    """The events of one match, in seq order, in format 2 (changed in place)."""
    folded = acted = stakes = None
    high = 0
    for payload in payloads:
        kind = payload["type"]
        if kind == "match_created":
            payload.setdefault("rules", 1)
        elif kind == "deal_started":
            folded, acted, stakes = [False] * SEATS, [False] * SEATS, [0] * SEATS
            stakes[payload["dealer"]] = high = 1
        elif kind == "action" and "turn" not in payload:
            seat, action = payload["seat"], payload["action"]
            if action == "look":
                payload["turn"] = seat
                continue
            if action == "raise":
                acted = [False] * SEATS
            if action == "fold":
                folded[seat] = True
            stakes[seat], high = payload["stake"], payload["high_stake"]
            acted[seat] = True
            payload["turn"] = _next_turn(folded, acted, stakes, high, seat)
    return payloads


def forwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchEvent = apps.get_model("games", "MatchEvent")
    for match in Match.objects.filter(state__format__isnull=True).iterator(chunk_size=200):
        events = list(MatchEvent.objects.filter(match_id=match.id).order_by("seq"))
        _upgrade([event.payload for event in events])
        MatchEvent.objects.bulk_update(events, ["payload"], batch_size=500)
        match.state = {"format": 2, **match.state, "rules": 1}
        match.save(update_fields=["state"])


def backwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchEvent = apps.get_model("games", "MatchEvent")
    for event in MatchEvent.objects.filter(type__in=["action", "match_created"]).iterator():
        event.payload.pop("turn", None)
        event.payload.pop("rules", None)
        event.save(update_fields=["payload"])
    for match in Match.objects.filter(state__format__isnull=False).iterator():
        del match.state["format"], match.state["rules"]
        match.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_idempotencyrecord")]

    operations = [migrations.RunPython(forwards, backwards)]
