"""A database written by earlier code migrates without losing a match, and then
check_matches finds every match clean: format 1 (before migration 0003) and format 2 (one
JSON row an event, with the deck and result in the Deal rows too, before 0005)."""

import copy
import io
import json
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games import repository
from games.engine import (
    DealEnded,
    DealStarted,
    Join,
    MatchRestarted,
    MatchState,
    StartMatch,
    decode_event,
    encode_event,
    event_from_dict,
    evolve,
)
from games.models import EventBatch
from games.services import Step, run_ai_seats

GOLDEN = json.loads(
    (Path(__file__).parents[1] / "engine" / "golden_matches.json").read_text()
)
FORMAT_1 = [("games", "0002_idempotencyrecord"), ("players", "0001_initial")]
FORMAT_2 = [("games", "0004_event_key_match_seq"), ("players", "0001_initial")]


def format_1(match: dict) -> tuple[list[dict], dict]:
    """The events and snapshot as the code before format 2 wrote them: the golden matches
    were checked equal to that code's output, less these keys."""
    events = copy.deepcopy(match["events"])
    for payload in events:
        payload.pop("turn", None)
        payload.pop("rules", None)
    state = copy.deepcopy(match["final"])
    del state["format"], state["rules"]
    return events, state


def format_2(match: dict) -> tuple[list[dict], dict]:
    return copy.deepcopy(match["events"]), copy.deepcopy(match["final"])


def old_deal_rows(payloads: list[dict]) -> dict[tuple[int, int], dict]:
    """The Deal rows as the code before 0005 projected them: deck and result included."""
    deals: dict[tuple[int, int], dict] = {}
    for payload in payloads:
        event = event_from_dict(payload)
        if isinstance(event, DealStarted):
            fields = {"dealer": event.dealer, "deck": list(event.deck), "result": None}
            deals[event.series, event.deal_number] = {**fields, "outcome": ""}
        elif isinstance(event, DealEnded):
            deal = deals[event.series, event.deal_number]
            deal.update(outcome=event.outcome, result=event.to_dict())
        elif isinstance(event, MatchRestarted):
            for deal in deals.values():
                deal["outcome"] = deal["outcome"] or "abandoned"
    return deals


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("before", "written"), [(FORMAT_1, format_1), (FORMAT_2, format_2)])
def test_stored_matches_migrate_and_check_clean(before, written):
    migrate(before)
    apps = MigrationExecutor(connection).loader.project_state(before).apps
    Player, Match = apps.get_model("players", "Player"), apps.get_model("games", "Match")
    MatchEvent, Deal = apps.get_model("games", "MatchEvent"), apps.get_model("games", "Deal")
    owner = Player.objects.create(name="Roya", kind="human", token_hash="x")
    ids, writes = [], 0
    start = timezone.now()
    for golden in GOLDEN:
        events, snapshot = written(golden)
        state = MatchState()
        for payload in golden["events"]:
            evolve(state, event_from_dict(payload))
        columns = {**repository.match_columns(state), "state": snapshot}
        match = Match.objects.create(
            id=uuid.uuid4(), owner=owner, ai_level="easy", seed=state.seed, **columns
        )
        # A write gave its events one time: here every three events are one write.
        rows = [
            MatchEvent(match=match, seq=seq, type=payload["type"], payload=payload)
            for seq, payload in enumerate(events, start=1)
        ]
        MatchEvent.objects.bulk_create(rows)
        for row in rows:
            row.created_at = start + timedelta(seconds=(row.seq - 1) // 3)
        MatchEvent.objects.bulk_update(rows, ["created_at"])
        writes += len({row.created_at for row in rows})
        Deal.objects.bulk_create(
            Deal(match=match, series=series, number=number, **fields)
            for (series, number), fields in old_deal_rows(golden["events"]).items()
        )
        ids.append(match.id)

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    out = io.StringIO()
    call_command("check_matches", stdout=out)
    assert out.getvalue() == f"{len(GOLDEN)} matches checked, 0 mismatches\n"
    assert EventBatch.objects.count() == writes
    for match_id, golden in zip(ids, GOLDEN, strict=True):
        with transaction.atomic():
            stored = repository.match_stored(match_id=match_id)
        assert [decode_event(line).to_dict() for _, line in stored.events] == golden["events"]
        assert stored.row.state == golden["final"]


@pytest.mark.django_db(transaction=True)
def test_a_clocked_table_in_play_gets_its_deadline_when_the_clock_arrives():
    """A table stored before the clock (0008) gets the deadline its writes give."""
    before_the_clock = [("games", "0008_deal_number_name"), ("players", "0002_tokens_per_device")]
    migrate(before_the_clock)
    apps = MigrationExecutor(connection).loader.project_state(before_the_clock).apps
    Player, Match = apps.get_model("players", "Player"), apps.get_model("games", "Match")
    Seat, EventBatch_ = apps.get_model("games", "Seat"), apps.get_model("games", "EventBatch")
    Deal = apps.get_model("games", "Deal")
    people = [Player.objects.create(name=n, kind="human") for n in ("R", "B")]
    created = Step(MatchState())
    created.apply(StartMatch(5, 2))
    joined = Step(copy.deepcopy(created.state))
    joined.apply(Join("B"))
    run_ai_seats(joined, ai_level="easy")
    state = joined.state
    assert state.status.value == "in_deal" and state.deal.turn in (0, 1)
    start = timezone.now() - timedelta(seconds=30)
    match = Match.objects.create(
        id=uuid.uuid4(), owner=people[0], ai_level="easy", seed=5, turn_seconds=60,
        **repository.match_columns(state),
    )
    for seq, step, at in ((1, created, start), (state.version, joined, start + timedelta(seconds=1))):
        lines = "\n".join(encode_event(event) for event in step.events)
        EventBatch_.objects.create(match=match, seq=seq, events=lines, created_at=at)
    for number, player in enumerate([*people, None, None]):
        Seat.objects.create(match=match, number=number, player=player)
    deals: dict = {}
    for seq, event in enumerate([*created.events, *joined.events], start=1):
        repository.deals_in_memory(deals, seq, event)
    for (series, number), fields in deals.items():
        Deal.objects.create(match=match, series=series, deal_number=number, **fields)

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    stored = repository.match_load(match_id=match.id, player=None).row
    assert stored.turn_deadline == start + timedelta(seconds=61)
    out = io.StringIO()
    call_command("check_matches", stdout=out)
    assert out.getvalue() == "1 match checked, 0 mismatches\n"
