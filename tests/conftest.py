import pytest
from rest_framework.test import APIClient

from asnas_api import health
from games.match.commands import match_create
from games.models import Match
from players.services import player_create
from tests.live_client import LiveClient
from tests.matches import play
from tests.servers import drop_migrated_templates


@pytest.fixture
def make_match(db):
    """A seeded match of a new player, with `deals` deals played: make_match(deals=2)."""

    def make(*, seed: int = 1, deals: int = 0, name: str = "Roya") -> Match:
        player, _ = player_create(name=name)
        match = match_create(owner=player, ai_level="normal", seed=seed)
        return play(match, deals=deals, seed=seed)

    return make


@pytest.fixture(autouse=True)
def fresh_readiness(monkeypatch):
    """/readyz keeps its answer for a second per process; each test starts without one."""
    monkeypatch.setattr(health, "readiness", health.Readiness())


@pytest.fixture(scope="session", autouse=True)
def migrated_templates():
    """The migrated databases that servers' databases are copied from go with the session."""
    yield
    drop_migrated_templates()


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
