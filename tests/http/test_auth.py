"""Players, tokens, and who may see which match."""

import hashlib

import pytest
from rest_framework.test import APIClient

from players.models import Player, Token
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def test_create_player_returns_a_token_stored_only_as_a_hash():
    response = APIClient().post("/api/v1/players", {"name": "  Roya "}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "token", "bot"}
    assert body["bot"] is False
    assert body["name"] == "Roya"
    player = Player.objects.get(id=body["id"])
    [stored] = Token.objects.filter(player=player)
    assert stored.token_hash == hashlib.sha256(body["token"].encode()).hexdigest()
    assert body["token"] not in {field.value_from_object(player) for field in Player._meta.fields}


def test_the_token_authenticates():
    token = APIClient().post("/api/v1/players", {"name": "Roya"}, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    me = client.get("/api/v1/players/me")
    assert me.status_code == 200
    assert me.json()["name"] == "Roya"


@pytest.mark.parametrize("path", ["/api/v1/matches", "/api/v1/players/me"])
def test_no_token_is_401(path):
    response = APIClient().get(path)
    assert_problem(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("header", ["Bearer nope", "Bearer", "Bearer a b", "Bearer \u00e9t\u00e9"])
def test_bad_token_is_401(header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    assert_problem(client.get("/api/v1/matches"), 401, "invalid_token")


def test_ai_personas_cannot_log_in(client, new_match):
    new_match()
    assert not Token.objects.filter(player__kind="ai").exists()


def test_another_players_match_is_404_everywhere(make_client, new_match):
    view = new_match()
    other = make_client("Babak")
    match_id = view["id"]
    for response in (
        other.get(f"/api/v1/matches/{match_id}"),
        other.get(f"/api/v1/matches/{match_id}/events"),
        other.post(f"/api/v1/matches/{match_id}/actions", {"action": "look"}, format="json"),
        other.post(f"/api/v1/matches/{match_id}/next-deal", format="json"),
        other.post(f"/api/v1/matches/{match_id}/restart", format="json"),
    ):
        assert_problem(response, 404, "not_found")
    assert other.get("/api/v1/matches").json()["count"] == 0
