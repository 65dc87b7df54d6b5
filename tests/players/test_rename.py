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
        # ESC steers a terminal: this name would clear the screen of everyone shown it.
        ({"name": "Mal\x1b[2Jlory"}, "validation_error"),
        ({"name": "Mal\nlory"}, "validation_error"),
        ({"name": "Mal\u2028lory"}, "validation_error"),
        ({"name": "Mal\x9blory"}, "validation_error"),  # CSI, ESC [ in one C1 character
        # Left open, these turn around or set apart the rest of the line a name is shown in.
        ({"name": "Mal\u202elory"}, "validation_error"),
        ({"name": "Mal\u2067lory"}, "validation_error"),
    ],
    ids=["empty", "blank", "too-long", "missing", "null", "unknown-field"]
    + ["escape", "newline", "line-separator", "c1-control", "rtl-override", "rtl-isolate"],
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


@pytest.mark.parametrize(
    "name",
    ["علی\u200cرضا", "👩\u200d💻 Sara", "[/x] Mallory", "Ünsal ǅ", "رضا\u200f 2"],
    ids=["persian-zwnj", "emoji-zwj", "brackets", "latin", "rtl-mark"],
)
def test_names_of_any_script_and_sign_are_taken_as_written(name):
    """The refusal is of control characters and direction overrides alone: the zero-width
    (non-)joiners that Persian words and emoji hold are format characters, a right-to-left
    mark opens nothing, and brackets are only text."""
    client = registered()
    answer = client.patch(ME, {"name": name}, format="json")
    assert answer.status_code == 200, answer.content
    assert client.get(ME).json()["name"] == name
    created = APIClient().post("/api/v1/players", {"name": name}, format="json")
    assert created.status_code == 201, created.content


def test_a_new_player_s_name_is_refused_with_an_escape_and_nobody_is_made():
    answer = APIClient().post("/api/v1/players", {"name": "Mal\x1b]0;pwned\x07"}, format="json")
    assert_problem(answer, 400, "validation_error")
    assert not Player.objects.filter(kind=Player.Kind.HUMAN).exists()
