"""Strict input: typos and wrong guesses get an answer that says what to do instead."""

import pytest
from rest_framework.test import APIClient

from games.ai import AI_LEVELS
from players.models import Player
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def test_an_unknown_field_on_create_is_refused_naming_it(client):
    response = client.post("/api/v1/matches", {"ai_levle": "easy"}, format="json")
    body = assert_problem(response, 400, "unknown_field")
    assert body["errors"] == [
        {
            "field": "ai_levle",
            "code": "unknown_field",
            "message": "Unknown field; allowed: ai_level, seed, humans, turn_seconds, commitment, "
            "client_seed, verifiable, spectators, open, bots, fill_after.",
        }
    ]
    assert "ai_levle" in body["detail"]
    assert client.get("/api/v1/matches").json()["count"] == 0


@pytest.mark.parametrize(
    "path, body",
    [
        ("actions", {"action": "look", "expected_versoin": 3}),
        ("next-deal", {"version": 3}),
        ("restart", {"expected_version": 3, "extra": 1}),
    ],
)
def test_an_unknown_field_on_a_move_is_refused_and_changes_nothing(client, new_match, path, body):
    view = new_match()
    response = client.post(f"/api/v1/matches/{view['id']}/{path}", body, format="json")
    problem = assert_problem(response, 400, "unknown_field")
    known = {"action", "expected_version"}
    assert [error["field"] for error in problem["errors"]] == sorted(set(body) - known)
    unchanged = {key: value for key, value in view.items() if key != "events"}
    assert client.get(f"/api/v1/matches/{view['id']}").json() == unchanged


def test_an_unknown_field_on_register_is_refused():
    response = APIClient().post("/api/v1/players", {"name": "Roya", "nmae": "x"}, format="json")
    assert assert_problem(response, 400, "unknown_field")["errors"][0]["field"] == "nmae"


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/v1/players", {"name": 7}),
        ("/api/v1/matches", {"humans": "2"}),
        ("/api/v1/matches", {"humans": True}),
        ("/api/v1/matches", {"verifiable": 1}),
        ("/api/v1/matches", {"commitment": 12345}),
        ("/api/v1/matches", {"client_seed": 42}),
        ("/api/v1/quick-play", {"humans": "3"}),
        ("{match}/spectators", {"spectators": "live", "new_code": 0}),
        ("{match}/spectators", {"spectators": "live", "new_code": "true"}),
        ("{match}/actions", {"action": "look", "expected_version": "1"}),
    ],
)
def test_a_value_of_another_json_type_than_the_schema_says_is_refused(
    client, new_match, path, body
):
    """The schema names each field's JSON type; a value of another one is a 400 naming the
    field, not read as the nearest thing (0 as false, 7 as "7", "2" as 2), and changes
    nothing."""
    view = new_match()
    path = path.format(match=f"/api/v1/matches/{view['id']}")
    sender = APIClient() if path == "/api/v1/players" else client
    players = Player.objects.count()
    problem = assert_problem(sender.post(path, body, format="json"), 400, "validation_error")
    mistyped = next(name for name, value in body.items() if name not in ("spectators", "action"))
    assert [error["field"] for error in problem["errors"]] == [mistyped]
    assert client.get("/api/v1/matches").json()["count"] == 1
    unchanged = {key: value for key, value in view.items() if key != "events"}
    assert client.get(f"/api/v1/matches/{view['id']}").json() == unchanged
    assert Player.objects.count() == players


def test_an_invalid_choice_lists_the_choices(client):
    response = client.post("/api/v1/matches", {"ai_level": "godlike"}, format="json")
    body = assert_problem(response, 400, "validation_error")
    allowed = ", ".join(AI_LEVELS)
    assert body["errors"][0]["message"] == f'"godlike" is not a valid choice; allowed: {allowed}.'


def test_a_wrong_auth_scheme_says_to_use_bearer(client):
    token = client._credentials["HTTP_AUTHORIZATION"].split()[1]
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    body = assert_problem(other.get("/api/v1/matches"), 401, "invalid_token")
    assert "Bearer" in body["detail"] and "'Token'" in body["detail"]


@pytest.mark.parametrize(
    "path, hint",
    [("/api/v1/matches/", "/api/v1/matches"), ("/api/v1/players/me/", "/api/v1/players/me")],
)
def test_a_trailing_slash_gets_a_hint(client, path, hint):
    body = assert_problem(client.get(path), 404, "not_found")
    assert f"did you mean {hint}?" in body["detail"]


def test_an_unknown_path_gets_no_hint(client):
    body = assert_problem(client.get("/api/v1/nothing/"), 404, "not_found")
    assert body["detail"] == "No such resource."


def test_the_api_root_is_an_index_with_the_docs():
    response = APIClient().get("/api/v1/")
    assert response.status_code == 200
    index = response.json()
    assert index["docs"] == "/api/docs/"
    assert index["matches"] == "/api/v1/matches"
    assert index["players"] == "/api/v1/players"
    assert index["leaderboard"] == "/api/v1/leaderboard"
    for path in index.values():
        assert APIClient().get(path).status_code in {200, 401}, path
