"""Schemathesis against the service's own OpenAPI schema, served by the WSGI app in-process.

Every operation gets one explicit happy-path case and a bounded number of generated ones,
valid and invalid. Most generated match, tournament and puzzle ids are swapped for real ones
(the authenticated player's matches), so that generated cases reach the services and not
only the 404.
Every response must have a documented status and content type and a body that matches the
schema, and none may be a 5xx; and the generated cases of every operation that needs a token
must reach it, past authentication, at least sometimes.
"""

import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from asnas_api.wsgi import application
from games.ladder import commands as ladder_commands
from games.puzzles import commands as puzzle_commands
from games.review import commands as review_commands
from players.services import player_create, token_issue
from tests.tournaments import support as tournaments

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/", application)
# An event stream never ends and needs an ASGI server's event loop: over WSGI, in this
# thread, it would hang. tests/live/test_streams.py and test_streams_server.py test them.
STREAMS = {
    "GET /api/v1/matches/{match_id}/stream",
    "GET /api/v1/players/me/stream",
    "GET /api/v1/watch/stream",
}
OPERATIONS = {
    result.ok().label: result.ok()
    for result in SCHEMA.get_all_operations()
    if result.ok().label not in STREAMS
}
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]
# These end the token they are sent with: each of their cases gets a fresh token of the same
# player, or every case after the first would only get a 401.
ENDS_ITS_TOKEN = {
    "POST /api/v1/players/me/tokens/rotate",
    "DELETE /api/v1/players/me/tokens/current",
}
# Only a player who has sat at no match may declare itself a bot: its cases are the
# newcomer's, who has none (the world's player has many).
NEWCOMERS_ONLY = {"POST /api/v1/players/me/bot"}
# Only a bot is benchmarked (docs/bots.md): these cases are the world's bot's, which has a
# benchmark running.
BOTS_ONLY = {"POST /api/v1/bots/me/benchmark", "GET /api/v1/bots/me/benchmark"}
# Generated ids of these path parameters are swapped for the world's real ones (`_use_real`),
# so that their cases reach the services and not only the 404.
REAL_IDS = {"match_id": "ids", "tournament_id": "tournament_ids", "puzzle_id": "puzzle_ids"}
# Generated cases per operation, valid and invalid together, besides its happy-path case: 25 in
# the default run (50 took 118 s of the suite's 2-core wall time, #34), 200 with -m simulation.
DEFAULT_EXAMPLES, SIMULATED_EXAMPLES = 25, 200
# The module's figures, printed at its end (seen with -s).
TOTALS: Counter = Counter()


@pytest.fixture(scope="module", autouse=True)
def print_totals():
    yield
    print(
        f"\nschemathesis: {TOTALS['cases']} cases over {TOTALS['operations']} operations, "
        f"{TOTALS['server_errors']} server errors; {TOTALS['past_authentication']} of "
        f"{TOTALS['authenticated']} operations that need a token reached past authentication; "
        "answers by status class: "
        + ", ".join(f"{n}xx {TOTALS[f'{n}xx']}" for n in range(1, 6) if TOTALS[f"{n}xx"])
    )


@contextmanager
def connection_kept_open():
    """The app runs in this thread, inside the test's transaction: as Django's test client
    does, keep the request signals from closing the connection (and the transaction)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[dict]:
    """A player with its token, real matches in every status, a closed tournament it entered
    and an open one, and a puzzle from another player's match, for the cases to hit; and a
    newcomer who has sat at no match. Made once for the module (made for each test, it was
    1.2 s of each test's setup, #34), in a transaction rolled back at the module's end: each
    test runs in a savepoint of it (pytest-django's `db`), so what one test's cases write is
    gone before the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield made_world()
        transaction.set_rollback(True)


def client_for(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def made_world() -> dict:
    player, token = player_create(name="Fuzz")
    client = client_for(token)

    def post(url: str, body: dict | None = None, status: int = 200) -> dict:
        response = client.post(url, body or {}, format="json")
        assert response.status_code == status, response.json()
        return response.json()

    def create(seed: int) -> dict:
        return post("/api/v1/matches", {"seed": seed, "ai_level": "easy"}, 201)

    in_deal = [create(1), create(2)]
    deal_over = create(3)
    while deal_over["status"] == "in_deal":
        deal_over = post(f"/api/v1/matches/{deal_over['id']}/actions", {"action": "fold"})
    finished = create(4)
    while finished["status"] != "finished":
        if finished["status"] == "deal_over":
            finished = post(f"/api/v1/matches/{finished['id']}/next-deal")
        else:
            action = "call" if "call" in finished["legal_actions"] else "hold"
            finished = post(f"/api/v1/matches/{finished['id']}/actions", {"action": action})
    _, host_token = player_create(name="Host")
    host = client_for(host_token)
    to_join = host.post("/api/v1/matches", {"humans": 2}, format="json").json()
    to_preview = host.post("/api/v1/matches", {"humans": 2}, format="json").json()
    # The host's match against the AI, played to its end and mined: its puzzles are the
    # world player's to try (never those of its own matches).
    hosted = host.post("/api/v1/matches", {"seed": 6, "ai_level": "easy"}, format="json").json()
    hosted = tournaments.play(host, hosted, tournaments.steady)
    review_commands.reviews_compute(match_id=hosted["id"], budget_seconds=60)
    puzzle_commands.match_mine(match_id=hosted["id"])
    puzzle = client.get("/api/v1/puzzles/next").json()
    assert puzzle.get("id"), puzzle
    # Standings and matches answer only after the close: one the player entered, its window
    # and deadline moved into the past, closed by a read; and one still open to enter.
    closed = tournaments.create(client)
    tournaments.enter(client, closed)
    tournaments.past_deadline(closed)
    closed = client.get(f"{tournaments.BASE}/{closed['id']}").json()
    assert closed["phase"] == "closed", closed
    open_ = tournaments.create(client)
    _, newcomer_token = player_create(name="Newcomer")
    bot, bot_token = player_create(name="Fuzzbot", bot=True)
    ladder_commands.benchmark_start(player=bot, deals=120)
    to_leave = post("/api/v1/matches", {"humans": 2}, 201)
    # Not among `ids`: no generated case draws its code again.
    watched = post("/api/v1/matches", {"seed": 5, "spectators": "live"}, 201)
    ids = [view["id"] for view in (*in_deal, deal_over, finished, to_leave)]
    for match_id in ids:  # as the worker would once the writes commit (never in this test)
        review_commands.reviews_compute(match_id=match_id, budget_seconds=60)
    return {
        "watch_code": watched["watch_code"],
        "player": player,
        "token": token,
        "to_join": to_join,  # another player's table, with its invite
        "to_preview": to_preview,  # another, which nobody joins
        "to_leave": to_leave,
        "in_deal": in_deal[0],
        "deal_over": deal_over,
        "finished": finished,
        "ids": ids,
        "newcomer_token": newcomer_token,
        "bot_token": bot_token,
        "closed": closed,
        "open": open_,
        "tournament_ids": [closed["id"], open_["id"]],
        "puzzle": puzzle,
        "puzzle_ids": [puzzle["id"]],
    }


def _in(view: dict, **case) -> dict:
    return {"path_parameters": {"match_id": view["id"]}, **case}


def _at(tournament: dict, **case) -> dict:
    return {"path_parameters": {"tournament_id": tournament["id"]}, **case}


# One case per operation that must succeed: (label, world) -> Case arguments.
HAPPY = {
    "POST /api/v1/players": lambda w: {"body": {"name": "Happy"}},
    "GET /api/v1/players/me": lambda w: {},
    "GET /api/v1/matches": lambda w: {"query": {"page": 1, "page_size": 2}},
    "GET /api/v1/leaderboard": lambda w: {"query": {"page": 1, "page_size": 2}},
    "POST /api/v1/matches": lambda w: {
        "body": {"seed": 9, "ai_level": "normal"},
        "headers": {"Idempotency-Key": "happy-create"},
    },
    "GET /api/v1/matches/{match_id}": lambda w: _in(w["finished"]),
    "POST /api/v1/matches/{match_id}/actions": lambda w: _in(
        w["in_deal"],
        body={
            "action": w["in_deal"]["legal_actions"][0],
            "expected_version": w["in_deal"]["version"],
        },
        headers={"Idempotency-Key": "happy-act"},
    ),
    "POST /api/v1/matches/{match_id}/next-deal": lambda w: _in(
        w["deal_over"], body={"expected_version": w["deal_over"]["version"]}
    ),
    "POST /api/v1/matches/{match_id}/restart": lambda w: _in(w["finished"], body={}),
    "GET /api/v1/matches/{match_id}/events": lambda w: _in(w["finished"], query={"after": 0}),
    "GET /api/v1/matches/{match_id}/hint": lambda w: _in(w["in_deal"]),
    "GET /api/v1/matches/{match_id}/review": lambda w: _in(w["finished"]),
    "POST /api/v1/matches/{match_id}/resign": lambda w: _in(
        w["in_deal"], body={"expected_version": w["in_deal"]["version"]}
    ),
    "POST /api/v1/matches/{match_id}/join": lambda w: _in(
        w["to_join"], body={"invite": w["to_join"]["invite"]}
    ),
    "POST /api/v1/matches/{match_id}/invitation": lambda w: _in(
        w["to_preview"], body={"invite": w["to_preview"]["invite"]}
    ),
    "POST /api/v1/matches/{match_id}/leave": lambda w: _in(w["to_leave"], body={}),
    "GET /api/v1/": lambda w: {},
    "POST /api/v1/matches/{match_id}/spectators": lambda w: _in(
        w["finished"], body={"spectators": "delayed", "new_code": True}
    ),
    "POST /api/v1/watch": lambda w: {"body": {"watch_code": w["watch_code"]}},
    "GET /api/v1/watch/events": lambda w: {
        "headers": {"Watch-Code": w["watch_code"]},
        "query": {"after": 0},
    },
    "POST /api/v1/watch/tickets": lambda w: {"body": {"watch_code": w["watch_code"]}},
    "POST /api/v1/stream-tickets": lambda w: {"body": {"match_id": w["finished"]["id"]}},
    "POST /api/v1/commitments": lambda w: {},
    "GET /api/v1/matches/{match_id}/record": lambda w: _in(w["finished"]),
    "POST /api/v1/players/me/tokens": lambda w: {},
    # These two end the token in use; each case gets a fresh one (ENDS_ITS_TOKEN).
    "POST /api/v1/players/me/tokens/rotate": lambda w: {},
    "DELETE /api/v1/players/me/tokens/current": lambda w: {},
    "GET /api/v1/tables": lambda w: {"query": {"humans": 2}},
    "POST /api/v1/quick-play": lambda w: {
        "body": {"humans": 3, "max_turn_seconds": 120},
        "headers": {"Idempotency-Key": "happy-quick-play"},
    },
    "PATCH /api/v1/players/me": lambda w: {"body": {"name": "Renamed"}},
    # The newcomer's (NEWCOMERS_ONLY): the world's player has matches, and would get a 409.
    "POST /api/v1/players/me/bot": lambda w: {},
    "GET /api/v1/tournaments": lambda w: {},
    "POST /api/v1/tournaments": lambda w: {"body": tournaments.terms(name="Happy duplicate")},
    "GET /api/v1/tournaments/{tournament_id}": lambda w: _at(w["closed"]),
    "GET /api/v1/tournaments/{tournament_id}/matches": lambda w: _at(w["closed"]),
    "GET /api/v1/tournaments/{tournament_id}/standings": lambda w: _at(w["closed"]),
    "POST /api/v1/tournaments/{tournament_id}/entries": lambda w: _at(w["open"], body={}),
    "GET /api/v1/puzzles/next": lambda w: {},
    "POST /api/v1/bots/me/benchmark": lambda w: {"body": {"deals": 120}},
    "GET /api/v1/bots/me/benchmark": lambda w: {},
    "GET /api/v1/bots/leaderboard": lambda w: {},
    "POST /api/v1/puzzles/{puzzle_id}/try": lambda w: {
        "path_parameters": {"puzzle_id": w["puzzle"]["id"]},
        "body": {"action": w["puzzle"]["actions"][0]},
    },
}


def _use_real(case, name: str, ids: list[str]) -> bool:
    """Swap the generated id of path parameter `name` for a real one, three times in four,
    picked by the generated id itself so that Hypothesis can replay the case."""
    try:
        number = uuid.UUID(str(case.path_parameters.get(name))).int
    except ValueError:
        return False  # not a UUID (an invalid case): it stays as generated
    if number % 4 == 0:
        return False
    case.path_parameters[name] = ids[number % len(ids)]
    return True


def test_a_test_renames_the_world_s_player(world):
    response = client_for(world["token"]).patch(
        "/api/v1/players/me", {"name": "Renamed"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["name"] == "Renamed"


def test_the_next_test_finds_the_world_as_it_was_made(world):
    """The world is the module's, each test in a savepoint of it: the last test's rename is
    gone."""
    response = client_for(world["token"]).get("/api/v1/players/me")
    assert response.json()["name"] == "Fuzz"


def test_every_operation_has_a_happy_path_case():
    assert len(OPERATIONS) >= 9
    assert set(OPERATIONS) == set(HAPPY)


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_every_operation_conforms_to_the_schema(label, world, record_property):
    conforms(label, world, record_property, DEFAULT_EXAMPLES)


@pytest.mark.simulation
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_every_operation_conforms_to_the_schema_at_length(label, world, record_property):
    conforms(label, world, record_property, SIMULATED_EXAMPLES)


def conforms(label: str, world: dict, record_property, max_examples: int) -> None:
    """The operation's happy-path case succeeds, and `max_examples` generated cases, valid and
    invalid, get no 5xx and conform to the schema, on the world's real ids too."""
    operation = OPERATIONS[label]
    real_id = next((name for name in REAL_IDS if f"{{{name}}}" in label), None)
    needs_a_token = bool(operation.definition.raw.get("security"))
    statuses: Counter = Counter()
    on_real_ids: Counter = Counter()
    generated_statuses: Counter = Counter()

    def run(case):
        with connection_kept_open():
            if label in ENDS_ITS_TOKEN:
                token = token_issue(player=world["player"])
            elif label in NEWCOMERS_ONLY:
                token = world["newcomer_token"]
            elif label in BOTS_ONLY:
                token = world["bot_token"]
            else:
                token = world["token"]
            auth = {"Authorization": f"Bearer {token}"}
            response = case.call_and_validate(headers=auth, checks=CHECKS)
        statuses[response.status_code] += 1
        return response

    happy = run(operation.Case(**HAPPY[label](world)))
    assert 200 <= happy.status_code < 300, happy.text

    @settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        case=st.one_of(
            operation.as_strategy(schemathesis.GenerationMode.POSITIVE),
            operation.as_strategy(schemathesis.GenerationMode.NEGATIVE),
        )
    )
    def generated(case):
        real = real_id is not None and _use_real(case, real_id, world[REAL_IDS[real_id]])
        if isinstance(case.query, dict) and str(case.query.get("wait", "")).isdigit():
            # A long-poll's wait runs on an ASGI server's event loop and reads in another
            # thread, which cannot see this test's transaction; it is tested over ASGI in
            # tests/live/test_streams.py. Here its validation is, and an answer at once.
            case.query["wait"] = 0
        response = run(case)
        generated_statuses[response.status_code] += 1
        if real:
            on_real_ids[response.status_code] += 1

    generated()

    cases = sum(statuses.values())
    server_errors = sum(n for status, n in statuses.items() if status >= 500)
    past_authentication = sum(n for status, n in generated_statuses.items() if status != 401)
    TOTALS.update(
        cases=cases,
        operations=1,
        server_errors=server_errors,
        authenticated=needs_a_token,
        past_authentication=needs_a_token and past_authentication > 0,
    )
    for status, n in statuses.items():
        TOTALS[f"{status // 100}xx"] += n
    record_property("schemathesis_cases", cases)
    print(f"\n{label}: {cases} cases {dict(statuses)}, on real ids {dict(on_real_ids)}")
    assert server_errors == 0
    if needs_a_token:
        assert past_authentication, f"every generated case got a 401: {dict(statuses)}"
    if real_id:
        assert on_real_ids, f"no generated case reached a real {real_id}"
