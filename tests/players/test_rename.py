"""PATCH /players/me renames the player: the browser table registers a player with a default
name on its first click, and the player may choose another later (#35)."""

import pytest
from rest_framework.test import APIClient

from players.models import Player
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db

ME = "/api/v1/players/me"


def registered(name: str = "Player") -> APIClient:
    token = APIClient().post("/api/v1/players", {"name": name}, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_a_rename_answers_the_profile_and_shows_at_the_table_from_then_on():
    client = registered()
    match = client.post("/api/v1/matches", {}, format="json").json()["id"]
    answer = client.patch(ME, {"name": "  Roya "}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["name"] == "Roya"
    assert set(answer.json()) == {"id", "name", "bot", "created_at", "stats", "rating"}
    assert answer.json()["bot"] is False
    assert client.get(ME).json()["name"] == "Roya"
    seats = client.get(f"/api/v1/matches/{match}").json()["seats"]
    assert seats[0]["name"] == "Roya"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": ""}, "validation_error"),
        ({"name": "   "}, "validation_error"),
        ({"name": "x" * 65}, "validation_error"),
        ({}, "validation_error"),
        ({"name": None}, "validation_error"),
        ({"name": "Roya", "nick": "R"}, "unknown_field"),
    ],
    ids=["empty", "blank", "too-long", "missing", "null", "unknown-field"],
)
def test_a_bad_name_is_a_problem_with_its_code_that_changes_nothing(body, code):
    client = registered("Babak")
    assert_problem(client.patch(ME, body, format="json"), 400, code)
    assert Player.objects.get(kind=Player.Kind.HUMAN).name == "Babak"


def test_a_rename_needs_a_token_and_renames_only_its_own_player():
    assert_problem(APIClient().patch(ME, {"name": "Roya"}, format="json"), 401, "not_authenticated")
    registered("Babak")
    registered("Darius").patch(ME, {"name": "Roya"}, format="json")
    names = set(Player.objects.filter(kind=Player.Kind.HUMAN).values_list("name", flat=True))
    assert names == {"Babak", "Roya"}
