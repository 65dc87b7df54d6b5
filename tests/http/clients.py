"""The API clients the tests of the HTTP layer and of every room's endpoints share. Each folder
that uses them names them in its conftest.py: put in tests/conftest.py, this `client` would
replace pytest-django's own, which the admin's tests and others use."""

import pytest
from rest_framework.test import APIClient

from players.services import player_create
from tests.live_client import LiveClient


@pytest.fixture
def make_client(db):
    """A client authenticated as a new player: make_client("Roya")."""

    def make(name: str = "Roya") -> APIClient:
        player, token = player_create(name=name)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        client.player = player
        client.token = token  # for the clients of the live endpoints (tests/live_client.py)
        return client

    return make


@pytest.fixture
def client(make_client) -> APIClient:
    return make_client()


@pytest.fixture
def new_match(client):
    """Create a seeded match through the API and return its MatchView."""

    def create(seed: int = 1, **body) -> dict:
        response = client.post("/api/v1/matches", {"seed": seed, **body}, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    return create


@pytest.fixture
def live():
    """A LiveClient (tests/live_client.py): follows streams and long-polls on its own event loop."""
    live = LiveClient()
    yield live
    live.close()
