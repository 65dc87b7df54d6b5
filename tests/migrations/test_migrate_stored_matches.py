"""A database written by the previous code migrates without losing a match, and then
check_matches finds every match clean."""

import copy
import io
import json
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from games import repository
from games.engine import MatchState, event_from_dict, evolve

GOLDEN = json.loads(
    (Path(__file__).parents[1] / "engine" / "golden_matches.json").read_text()
)
BEFORE = [("games", "0002_idempotencyrecord"), ("players", "0001_initial")]


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


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_format_1_matches_migrate_and_check_clean():
    migrate(BEFORE)
    apps = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    Player, Match = apps.get_model("players", "Player"), apps.get_model("games", "Match")
    MatchEvent, Deal = apps.get_model("games", "MatchEvent"), apps.get_model("games", "Deal")
    owner = Player.objects.create(name="Roya", kind="human", token_hash="x")
    ids = []
    for golden in GOLDEN:
        events, snapshot = format_1(golden)
        state, deals = MatchState(), {}
        for payload in golden["events"]:
            event = event_from_dict(payload)
            evolve(state, event)
            repository.deals_in_memory(deals, event)
        columns = {**repository.match_columns(state), "state": snapshot}
        match = Match.objects.create(
            id=uuid.uuid4(), owner=owner, ai_level="easy", seed=state.seed, **columns
        )
        MatchEvent.objects.bulk_create(
            MatchEvent(match=match, seq=seq, type=payload["type"], payload=payload)
            for seq, payload in enumerate(events, start=1)
        )
        Deal.objects.bulk_create(
            Deal(match=match, series=series, number=number, **fields)
            for (series, number), fields in deals.items()
        )
        ids.append(match.id)

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    out = io.StringIO()
    call_command("check_matches", stdout=out)
    assert out.getvalue() == f"{len(GOLDEN)} matches checked, 0 mismatches\n"
    for match_id, golden in zip(ids, GOLDEN, strict=True):
        with transaction.atomic():
            stored = repository.match_stored(match_id=match_id)
        assert [payload for _, _, payload in stored.events] == golden["events"]
        assert stored.row.state == golden["final"]
