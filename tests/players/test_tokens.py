"""Tokens per device: issue another, rotate the one in use, revoke it. Only hashes are kept."""

import hashlib
import secrets

import pytest
from rest_framework.test import APIClient

from players.models import Token
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def first_token() -> str:
    return APIClient().post("/api/v1/players", {"name": "Roya"}, format="json").json()["token"]


def test_another_token_works_beside_the_first_and_is_stored_as_a_hash():
    first = first_token()
    response = bearer(first).post("/api/v1/players/me/tokens")
    assert response.status_code == 201
    second = response.json()["token"]
    assert second != first
    for token in (first, second):
        assert bearer(token).get("/api/v1/players/me").json()["name"] == "Roya"
    hashes = set(Token.objects.values_list("token_hash", flat=True))
    assert hashes == {hashlib.sha256(t.encode()).hexdigest() for t in (first, second)}


def test_rotate_replaces_the_token_in_use_at_once_and_leaves_the_others():
    first = first_token()
    other = bearer(first).post("/api/v1/players/me/tokens").json()["token"]
    response = bearer(first).post("/api/v1/players/me/tokens/rotate")
    assert response.status_code == 200
    rotated = response.json()["token"]
    assert_problem(bearer(first).get("/api/v1/players/me"), 401, "invalid_token")
    assert bearer(rotated).get("/api/v1/players/me").status_code == 200
    assert bearer(other).get("/api/v1/players/me").status_code == 200
    assert Token.objects.count() == 2


def test_revoking_the_current_token_ends_it_and_only_it():
    first = first_token()
    other = bearer(first).post("/api/v1/players/me/tokens").json()["token"]
    response = bearer(first).delete("/api/v1/players/me/tokens/current")
    assert response.status_code == 204
    assert_problem(bearer(first).get("/api/v1/players/me"), 401, "invalid_token")
    assert bearer(other).get("/api/v1/players/me").status_code == 200


def test_revoking_the_last_token_locks_the_player_out():
    token = first_token()
    assert bearer(token).delete("/api/v1/players/me/tokens/current").status_code == 204
    assert not Token.objects.exists()
    assert_problem(bearer(token).post("/api/v1/players/me/tokens"), 401, "invalid_token")


@pytest.mark.parametrize(
    "method, path",
    [
        ("post", "/api/v1/players/me/tokens"),
        ("post", "/api/v1/players/me/tokens/rotate"),
        ("delete", "/api/v1/players/me/tokens/current"),
    ],
)
def test_token_endpoints_need_a_token(method, path):
    assert_problem(getattr(APIClient(), method)(path), 401, "not_authenticated")


def test_no_secret_handed_out_begins_with_a_dash(monkeypatch):
    """A token, an invite or a watch code goes after a flag on a command line (`--token`,
    `--watch`), where a leading "-" reads as another flag: each one is drawn again so. The
    random source is made to offer a dashed draft before every secret."""
    real = secrets.token_urlsafe
    offered = []

    def dash_first(nbytes):
        offered.append(nbytes)
        return "-" + real(nbytes)[1:] if len(offered) % 2 else real(nbytes)

    monkeypatch.setattr(secrets, "token_urlsafe", dash_first)
    owner = APIClient().post("/api/v1/players", {"name": "Roya"}, format="json").json()
    table = bearer(owner["token"]).post("/api/v1/matches", {"humans": 2}, format="json").json()
    watched = bearer(owner["token"]).post(
        f"/api/v1/matches/{table['id']}/spectators", {"spectators": "live"}, format="json"
    )
    handed_out = (owner["token"], table["invite"], watched.json()["watch_code"])
    assert all(secret and not secret.startswith("-") for secret in handed_out), handed_out
    assert len(offered) >= 2 * len(handed_out)  # each was offered a dashed draft first
