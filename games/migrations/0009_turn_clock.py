"""The turn clock: each match stores when the present human to act runs out of time.

A clocked match in play when the clock arrived gets its deadline from its events and the
times they were written, as check_matches (games/match/integrity.py) works it out. What that needs
of the engine, the codec and the repository is copied here as it stood on 2026-12-01: a later
change to any of them cannot change what this migration writes, or stop a fresh install
from migrating."""

import json
from datetime import timedelta
from fractions import Fraction

from django.db import migrations, models

SEATS = 4
_RANK = {"A": "As", "K": "Shah", "Q": "Bibi", "J": "Sarbaz", "T": "Couli"}
_ACTION_NAME = {"l": "look", "c": "call", "h": "hold", "r": "raise", "f": "fold"}
_OUTCOME_NAME = {"s": "showdown", "u": "uncontested"}
_BY_NAME = {"p": "player", "a": "ai", "c": "clock"}
_CATEGORY_NAME = {
    "h": "high_card",
    "p": "pair",
    "t": "two_pair",
    "3": "three_of_a_kind",
    "f": "full_house",
    "4": "four_of_a_kind",
}


def _seat_result(seat: int, text: str) -> dict:
    hand, category, stake, payout, delta, flags = text.split(".")
    return {
        "seat": seat,
        "hand": [_RANK[letter] for letter in hand],
        "category": _CATEGORY_NAME[category],
        "stake": int(stake),
        "payout": Fraction(payout),
        "delta": Fraction(delta),
        "folded": flags[0] == "1",
        "shown": flags[1] == "1",
    }


def _decode(line: str) -> dict:
    """The event that `line` encodes, as a dict; KeyError or ValueError for a line that is
    not one (the codec's decode)."""
    kind = line[:1]
    if kind == "J":
        seat, name = line[1:].split(",", 1)
        return {"type": "player_joined", "seat": int(seat), "name": json.loads(name)}
    fields = line[1:].split(",")
    match kind:
        case "C":
            seed, rules = fields
            return {"type": "match_created", "seed": int(seed), "rules": int(rules), "humans": 1}
        case "H":
            seed, rules, humans = fields
            return {
                "type": "match_created",
                "seed": int(seed),
                "rules": int(rules),
                "humans": int(humans),
            }
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
            turn_after = None if turn == "" else int(turn)
            actor = _BY_NAME[by[0]] if kind == "B" else None
            return {
                "type": "action",
                "seat": seat,
                "action": action,
                "stake": int(stake),
                "high_stake": int(high),
                "pot": int(pot),
                "turn": turn_after,
                "by": actor,
            }
        case "E":
            series, deal, outcome, winners, seats = fields
            return {
                "type": "deal_ended",
                "series": int(series),
                "deal_number": int(deal),
                "outcome": _OUTCOME_NAME[outcome],
                "winners": [int(seat) for seat in winners],
                "seats": [_seat_result(i, text) for i, text in enumerate(seats.split(";"))],
            }
        case "F":
            series, winners, totals = fields
            return {
                "type": "match_finished",
                "series": int(series),
                "winners": [int(seat) for seat in winners],
                "totals": [Fraction(total) for total in totals.split(";")],
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


def _seat(seat: int) -> int:
    """`seat`, if it indexes the engine's lists of the four seats (Python's -4 to 3)."""
    if not -SEATS <= seat < SEATS:
        raise IndexError(f"no seat {seat}")
    return seat


class _Table:
    """The part of the engine's match state that the deadline reads: the status, the seat to
    act, and who plays each seat. `evolve` raises where the engine's evolve (or the deal rows'
    projection) raises on the same event, so that the same logs count as unreplayable."""

    def __init__(self):
        self.status = "not_started"
        self.humans = 1
        self.left = [False] * SEATS
        self.deal: dict | None = None
        self.started: set[tuple[int, int]] = set()  # the deals that have a deal row

    def ai_plays(self, seat: int) -> bool:
        return seat >= self.humans or self.left[seat]

    def evolve(self, event: dict) -> None:
        match event["type"]:
            case "match_created":
                self.humans = event["humans"]
                if event["humans"] > 1:
                    self.status = "waiting"
            case "player_left":
                self.left[event["seat"]] = True
                if event["abandoned"]:
                    self.status = "abandoned"
                    if self.deal is not None:
                        self.deal["turn"] = None
            case "deal_started":
                dealer = _seat(event["dealer"])  # the engine's deal puts a stake there
                self.deal = {"turn": (dealer + 1) % SEATS}
                self.status = "in_deal"
                self.started.add((event["series"], event["deal_number"]))
            case "action":
                _seat(event["seat"])  # the engine records the action there
                if self.deal is None:
                    raise AttributeError("an action outside a deal")
                if event["action"] != "look":
                    self.deal["turn"] = event["turn"]
            case "deal_ended":
                if len(event["seats"]) != SEATS:
                    raise ValueError("a deal_ended event lists every seat")
                if self.deal is None:
                    raise AttributeError("a deal ended outside a deal")
                self.deal["turn"] = None
                self.status = "deal_over"
                if (event["series"], event["deal_number"]) not in self.started:
                    raise KeyError("a deal ended that has no deal row")
            case "match_finished":
                self.status = "finished"
            case "match_restarted":
                self.deal = None
            case "resigned":
                if self.deal is not None:
                    self.deal["turn"] = None


def _starts_turn(event: dict) -> bool:
    return event["type"] == "deal_started" or (
        event["type"] == "action" and event["action"] != "look"
    )


def _turn_deadline(table: _Table, write: list[dict], previous, written_at, turn_seconds):
    """The repository's turn_deadline: when the seat to act runs out of time after a write."""
    if turn_seconds is None or table.status != "in_deal":
        return None
    if table.ai_plays(table.deal["turn"]):
        return None
    if any(_starts_turn(event) for event in write):
        return written_at + timedelta(seconds=turn_seconds)
    return previous


def _replayed_deadline(batches: list[tuple[int, str, object]], turn_seconds):
    """Whether the match's (seq, events, created_at) batches replay, and the deadline they
    give, worked out write by write (integrity's replay_stored)."""
    table, deadline = _Table(), None
    writes = {seq: created_at for seq, _, created_at in batches}
    write: list[dict] = []
    for last, text, _ in batches:
        lines = text.split("\n")
        for seq, line in enumerate(lines, start=last - len(lines) + 1):
            # A corrupt log can break the replay in any way; check_matches reports it.
            try:
                event = _decode(line)
                table.evolve(event)
            except Exception:
                return False, None
            write.append(event)
            if seq in writes:  # the last event of a write
                deadline = _turn_deadline(table, write, deadline, writes[seq], turn_seconds)
                write = []
    return True, deadline


def fill_turn_deadlines(apps, schema_editor):
    """A clocked match in play when the clock arrived gets the deadline its events and their
    write times give, as check_matches computes it."""
    Match = apps.get_model("games", "Match")
    EventBatch = apps.get_model("games", "EventBatch")
    for match in Match.objects.filter(turn_seconds__isnull=False, status="in_deal"):
        batches = EventBatch.objects.filter(match_id=match.id).order_by("seq")
        rows = list(batches.values_list("seq", "events", "created_at"))
        replays, deadline = _replayed_deadline(rows, match.turn_seconds)
        if replays:  # a log that cannot replay is check_matches' to report
            Match.objects.filter(id=match.id).update(turn_deadline=deadline)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_deal_number_name'),
        ('players', '0002_tokens_per_device'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='turn_deadline',
            field=models.DateTimeField(blank=True, help_text='When the present human to act runs out of time and the clock acts for them; null without a clock or when no present human is to act.', null=True),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(condition=models.Q(('turn_deadline__isnull', False)), fields=['turn_deadline'], name='match_turn_deadline'),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(condition=models.Q(('status', 'deal_over'), ('turn_seconds__isnull', False)), fields=['updated_at'], name='match_clocked_deal_over'),
        ),
        migrations.RunPython(fill_turn_deadlines, migrations.RunPython.noop),
    ]
