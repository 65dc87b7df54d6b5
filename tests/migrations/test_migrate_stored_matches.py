"""Every schema the project ever had migrates to the latest, and the live code then reads
what was stored under it exactly as it was written.

An empty database migrates from zero to the latest schema, which is the one the models
describe. Then, schema by schema, the database is migrated to each earlier state of games
and players and given what the code of that time stored there: players with their tokens,
and matches with their seats, deal rows and events (one JSON row each, format 1 before 0003
and format 2 before 0005; then one row of encoded lines per write), and from 0006 on tables
(one waiting with an open seat, one in play with a clock). Everything migrates to the latest
together; then check_matches finds every match clean (the stored state, deal rows and clock
deadlines are the replay of the events), every event decodes to what was written, each
player sees each of their matches through the API with their old token, and play goes on."""

import functools
import hashlib
import io
import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.apps import apps as live_apps
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import ProjectState
from django.utils import timezone
from rest_framework.test import APIClient

from games import ai
from games.match import log as match_log
from games.match import projection
from games.engine import (
    HUMAN_SEAT,
    Act,
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    Join,
    MatchCreated,
    MatchRestarted,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    Step,
    encode_event,
    event_from_dict,
    event_view,
    evolve,
    legal_actions,
    replay,
)
from games.models import EventBatch
from games.match.commands import AI_PERSONAS

GOLDEN = json.loads((Path(__file__).parents[1] / "engine" / "golden_matches.json").read_text())
APPS = ("games", "players")
ZERO = [(app, None) for app in APPS]
TURN_SECONDS = 60
GAMES = ("games", "0001_initial")
TABLES = ("games", "0006_tables")


def migrate(targets) -> MigrationExecutor:
    """Migrate to `targets`, with an executor that reads what is applied now."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)


def latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def schema_history(graph) -> list[tuple[str, str]]:
    """The migrations of games and players in an order they can run in, each players one as
    late as games allows: matches then meet every version of the players' tables."""
    nodes = [node for node in graph.nodes if node[0] in APPS]
    history: list[tuple[str, str]] = []
    while len(history) < len(nodes):
        ready = [
            node
            for node in nodes
            if node not in history
            and all(p.key in history or p.key[0] not in APPS for p in graph.node_map[node].parents)
        ]
        history.append(min(ready, key=lambda node: (node[0] != "games", node)))
    return history


def targets_after(applied: list[tuple[str, str]]) -> list[tuple[str, str | None]]:
    """The migrate targets that leave exactly `applied` (a prefix of the history) applied."""
    return [(app, max((name for a, name in applied if a == app), default=None)) for app in APPS]


# --- What the code of each schema stored --------------------------------------------------


def format_1(payload: dict) -> dict:
    """An event dict as the code before format 2 (0003) wrote it: the golden matches were
    checked equal to that code's output, less these keys."""
    return {key: value for key, value in payload.items() if key not in ("turn", "rules")}


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


def golden_writes(match: dict) -> list[list[Event]]:
    """A golden match's events, cut into the writes the services made of them: a write
    starts with the owner's action, a next deal or a restart, and holds the AI's actions that
    followed."""
    writes: list[list[Event]] = []
    previous = None
    for event in map(event_from_dict, match["events"]):
        starts_write = (
            previous is None
            or isinstance(event, MatchRestarted)
            or (isinstance(event, ActionTaken) and event.seat == HUMAN_SEAT)
            or (
                isinstance(event, DealStarted)
                and not isinstance(previous, MatchCreated | MatchRestarted)
            )
        )
        if starts_write:
            writes.append([])
        writes[-1].append(event)
        previous = event
    return writes


def in_play(writes: list[list[Event]], nth: int) -> list[list[Event]]:
    """The writes up to one after which the owner is to act (the `nth` such, counting round)."""
    state, cuts = MatchState(), []
    for number, write in enumerate(writes, start=1):
        for event in write:
            evolve(state, event)
        if state.status is Status.IN_DEAL and state.deal.turn == HUMAN_SEAT:
            cuts.append(number)
    return writes[: cuts[nth % len(cuts)]]


def table_writes(seed: int, *, play: bool) -> list[list[Event]]:
    """A table of two humans, as the services write it: only created (waiting for its second
    human), or joined and played a while, up to the turn of a human (after a write that
    dealt or passed the turn, so its clock runs from the last write)."""
    state = MatchState()

    def write(command) -> list[Event]:
        step = Step(state)
        step.play(command, ai.chooser("easy"))
        return step.events

    writes = [write(StartMatch(seed, humans=2))]
    if play:
        writes.append(write(Join("Babak")))
        while len(writes) < 8 or state.status is not Status.IN_DEAL:
            if state.status is Status.DEAL_OVER:
                writes.append(write(NextDeal()))
                continue
            seat = state.deal.turn
            action = [a for a in legal_actions(state, seat) if a not in ("look", "fold")][0]
            writes.append(write(Act(seat, action, "player")))
    return writes


@dataclass
class Written:
    """A match as an earlier schema held it, and what the live code must read back."""

    schema: str
    id: uuid.UUID
    events: list[Event]
    writes: int
    names: list[str | None]
    tokens: dict[int, str]
    """The raw token of the human at each taken human seat."""
    deadline: datetime | None
    event_rows: bool
    """Stored as one row an event (before 0005): migrated into one batch a write."""


class EarlierSchema:
    """The database with `applied` migrations run, written to as the code of that time did,
    through the historical models of that state."""

    def __init__(self, executor: MigrationExecutor, applied: list[tuple[str, str]]):
        self.name = f"{applied[-1][0]}.{applied[-1][1]}"
        self.applied = set(applied)
        nodes = [target for target in targets_after(applied) if target[1] is not None]
        self.apps = executor.loader.project_state(nodes).apps
        self.start = timezone.now() - timedelta(hours=1)

    def model(self, app: str, name: str):
        try:
            return self.apps.get_model(app, name)
        except LookupError:
            return None

    def has(self, app: str, name: str, field: str) -> bool:
        model = self.model(app, name)
        return model is not None and any(f.name == field for f in model._meta.get_fields())

    def human(self, name: str):
        """A player and its raw token, stored as the hash (sha256, as always)."""
        Player = self.model("players", "Player")
        token = f"token-{uuid.uuid4()}"
        token_hash = hashlib.sha256(token.encode()).hexdigest()
        if self.has("players", "Player", "token_hash"):
            player = Player.objects.create(name=name, kind="human", token_hash=token_hash)
        else:
            player = Player.objects.create(name=name, kind="human")
            self.model("players", "Token").objects.create(player=player, token_hash=token_hash)
        return player, token

    def ai(self, name: str):
        return self.model("players", "Player").objects.get_or_create(name=name, kind="ai")[0]

    def match(
        self,
        writes: list[list[Event]],
        seats: list,
        tokens: dict[int, str],
        *,
        turn_seconds: int | None = None,
    ) -> Written:
        events = [event for write in writes for event in write]
        state = replay(events)
        times = [self.start + timedelta(seconds=n) for n in range(len(writes))]
        clock_runs = state.status is Status.IN_DEAL and not state.ai_plays(state.deal.turn)
        deadline = None
        if turn_seconds is not None and clock_runs:  # from the write that passed the turn
            deadline = times[-1] + timedelta(seconds=turn_seconds)
        columns = projection.match_columns(state)
        format_2 = ("games", "0003_versioned_events") in self.applied
        if not format_2:
            columns["state"] = {
                k: v for k, v in columns["state"].items() if k not in ("format", "rules")
            }
        if self.has("games", "Match", "turn_seconds"):
            invite = "invite-" + uuid.uuid4().hex if state.status is Status.WAITING else ""
            columns.update(turn_seconds=turn_seconds, invite=invite)
        else:
            assert turn_seconds is None and state.humans == 1, "no tables in this schema"
        if self.has("games", "Match", "turn_deadline"):
            columns["turn_deadline"] = deadline
        match = self.model("games", "Match").objects.create(
            owner=seats[0], ai_level="easy", seed=state.seed, seeded=True, **columns
        )
        Seat = self.model("games", "Seat")
        Seat.objects.bulk_create(
            Seat(match=match, number=number, player=player) for number, player in enumerate(seats)
        )
        MatchEvent = self.model("games", "MatchEvent")
        if MatchEvent is not None:
            self._event_rows(match, writes, times, format_2)
        else:
            self._event_batches(match, writes, times)
        return Written(
            self.name,
            match.id,
            events,
            len(writes),
            [getattr(player, "name", None) for player in seats],
            tokens,
            deadline,
            MatchEvent is not None,
        )

    def _event_rows(self, match, writes, times, format_2: bool) -> None:
        """Formats 1 and 2: one JSON row an event, a write's events sharing its time; Deal
        rows with their deck and result."""
        MatchEvent, Deal = self.model("games", "MatchEvent"), self.model("games", "Deal")
        payloads = [event.to_dict() for write in writes for event in write]
        stored = payloads if format_2 else [format_1(payload) for payload in payloads]
        rows = [
            MatchEvent(match=match, seq=seq, type=payload["type"], payload=payload)
            for seq, payload in enumerate(stored, start=1)
        ]
        MatchEvent.objects.bulk_create(rows)
        write_times = [at for write, at in zip(writes, times, strict=True) for _ in write]
        for row, at in zip(rows, write_times, strict=True):
            row.created_at = at  # auto_now_add: set once the rows exist
        MatchEvent.objects.bulk_update(rows, ["created_at"])
        Deal.objects.bulk_create(
            Deal(match=match, series=series, number=number, **fields)
            for (series, number), fields in old_deal_rows(payloads).items()
        )

    def _event_batches(self, match, writes, times) -> None:
        """Format 3: a write's events as one row of encoded lines; Deal rows with the seq of
        their deal_started."""
        EventBatch_, Deal = self.model("games", "EventBatch"), self.model("games", "Deal")
        seq, deals, batches = 0, {}, []
        for write, at in zip(writes, times, strict=True):
            for event in write:
                seq += 1
                projection.deals_in_memory(deals, seq, event)
            lines = "\n".join(encode_event(event) for event in write)
            batches.append(EventBatch_(match=match, seq=seq, events=lines, created_at=at))
        EventBatch_.objects.bulk_create(batches)
        number = "deal_number" if self.has("games", "Deal", "deal_number") else "number"
        Deal.objects.bulk_create(
            Deal(match=match, series=series, **{number: deal_number}, **fields)
            for (series, deal_number), fields in deals.items()
        )


def store_what_the_schema_held(schema: EarlierSchema, index: int) -> tuple[list[Written], list]:
    """The matches (and the players without one) the code of `schema` could have stored."""
    owner, token = schema.human(f"Roya {index}")
    if schema.model("games", "Match") is None:
        return [], [(owner, token)]
    personas = [schema.ai(name) for name in AI_PERSONAS]
    alone = [owner, *personas]
    matches = [schema.match(golden_writes(golden), alone, {0: token}) for golden in GOLDEN]
    cut = in_play(golden_writes(GOLDEN[index % len(GOLDEN)]), nth=index)
    matches.append(schema.match(cut, alone, {0: token}))
    if schema.has("games", "Match", "turn_seconds"):
        guest, guest_token = schema.human(f"Babak {index}")
        waiting = table_writes(index, play=False)
        matches.append(
            schema.match(
                waiting, [owner, None, *personas[1:]], {0: token}, turn_seconds=TURN_SECONDS
            )
        )
        played = table_writes(index, play=True)
        matches.append(
            schema.match(
                played,
                [owner, guest, *personas[1:]],
                {0: token, 1: guest_token},
                turn_seconds=TURN_SECONDS,
            )
        )
    return matches, []


# --- What the live code must read back ----------------------------------------------------


def as_json(data):
    return json.loads(json.dumps(data))


@functools.cache
def _client() -> APIClient:
    return APIClient()  # one: each new client loads the middleware again, a tenth of a second


def client_for(token: str | None) -> APIClient:
    client = _client()
    client.credentials(**({"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}))
    return client


NOTE = ": note: its log began before events said who sits where and the AI level"


def check_matches_output(noted: int = 0) -> str:
    """What check_matches says, with every mismatch it finds, less the notes of the matches
    whose logs began before events said who sits where: `noted` of them, each checked from
    the first event that says them."""
    out = io.StringIO()
    try:
        call_command("check_matches", stdout=out)
    except CommandError as error:
        out.write(f"{error}\n")
    lines = out.getvalue().splitlines(keepends=True)
    notes = [line for line in lines if NOTE in line]
    assert len(notes) == noted, notes
    return "".join(line for line in lines if NOTE not in line)


def read_back(written: Written) -> None:
    """The live code reads the match exactly as written, and each of its players sees it."""
    where = f"a match stored under {written.schema}"
    events = [event for _, event in match_log.match_events(match_id=written.id)]
    assert [e.to_dict() for e in events] == [e.to_dict() for e in written.events], where
    if written.event_rows:
        batches = EventBatch.objects.filter(match_id=written.id).count()
        assert batches == written.writes, where
    state = replay(written.events)
    for seat, token in written.tokens.items():
        client = client_for(token)
        response = client.get(f"/api/v1/matches/{written.id}")
        assert response.status_code == 200, (where, response.json())
        view = response.json()
        assert (view["version"], view["status"], view["your_seat"]) == (
            len(written.events),
            state.status.value,
            seat,
        ), where
        assert [s["name"] for s in view["seats"]] == written.names, where
        deadline = view["turn_deadline"]
        shown = deadline and datetime.fromisoformat(deadline.replace("Z", "+00:00"))
        assert shown == written.deadline, where
        page = client.get(f"/api/v1/matches/{written.id}/events", {"after": 0}).json()
        seen = [{"seq": seq, **event_view(e, seat)} for seq, e in enumerate(events, start=1)]
        assert page["events"] == as_json(seen), where


def play_on(written: Written) -> bool:
    """The human to act takes an action through the API; False when no human is to act."""
    state = replay(written.events)
    if state.status is not Status.IN_DEAL or state.ai_plays(state.deal.turn):
        return False
    client = client_for(written.tokens[state.deal.turn])
    view = client.get(f"/api/v1/matches/{written.id}").json()
    url = f"/api/v1/matches/{written.id}/actions"
    response = client.post(url, {"action": view["legal_actions"][0]}, format="json")
    assert response.status_code == 200, (written.schema, response.json())
    assert response.json()["version"] > len(written.events)
    return True


# --- The tests ----------------------------------------------------------------------------


def live_columns() -> dict[str, set[str]]:
    """The columns of each table of games and players, as Postgres has them."""
    with connection.cursor() as cursor:
        tables = [t for t in connection.introspection.table_names(cursor) if t.startswith(APPS)]
        return {
            table: {c.name for c in connection.introspection.get_table_description(cursor, table)}
            for table in tables
        }


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_empty_database_migrates_from_zero_to_the_schema_of_the_models():
    try:
        migrate(ZERO)
        assert live_columns() == {}
        executor = migrate(latest())

        assert executor.migration_plan(latest()) == []
        # What makemigrations --check sees: the migrations describe the models exactly...
        changes = MigrationAutodetector(
            executor.loader.project_state(), ProjectState.from_apps(live_apps)
        ).changes(graph=executor.loader.graph)
        assert changes == {}
        # ...and the database has each model's table with exactly its columns.
        models = [m for app in APPS for m in live_apps.get_app_config(app).get_models()]
        assert live_columns() == {
            model._meta.db_table: {f.column for f in model._meta.concrete_fields if f.column}
            for model in models
        }
        # The live code works on it.
        player = client_for(None).post("/api/v1/players", {"name": "Roya"}, format="json")
        assert player.status_code == 201, player.json()
        client = client_for(player.json()["token"])
        created = client.post("/api/v1/matches", {"seed": 7}, format="json")
        assert created.status_code == 201, created.json()
        assert check_matches_output() == "1 match checked, 0 mismatches\n"
    finally:
        migrate(latest())


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_what_every_earlier_schema_stored_migrates_and_reads_back_as_written():
    history = schema_history(MigrationExecutor(connection).loader.graph)
    games_states = {f"{app}.{name}" for app, name in history[history.index(GAMES) : -1]}
    table_states = {f"{app}.{name}" for app, name in history[history.index(TABLES) : -1]}
    matches: list[Written] = []
    players: list = []
    try:
        migrate(ZERO)
        # One pass from zero: the matches of each schema go through every later migration,
        # beside those stored later.
        for index in range(len(history) - 1):
            applied = history[: index + 1]
            executor = migrate(targets_after(applied))
            stored, alone = store_what_the_schema_held(EarlierSchema(executor, applied), index)
            matches += stored
            players += alone
        migrate(latest())

        assert {written.schema for written in matches} == games_states
        # Written as the engine wrote them before events said who sits where: each is noted.
        summary = f"{len(matches)} matches checked, 0 mismatches\n"
        assert check_matches_output(noted=len(matches)) == summary
        for written in matches:
            read_back(written)
        for player, token in players:
            me = client_for(token).get("/api/v1/players/me")
            assert (me.status_code, me.json()["name"]) == (200, player.name)
        assert {written.schema for written in matches if written.deadline} == table_states
        # Each schema left a match in play, and play goes on.
        assert {written.schema for written in matches if play_on(written)} == games_states
        assert check_matches_output(noted=len(matches)) == summary
    finally:
        migrate(latest())
