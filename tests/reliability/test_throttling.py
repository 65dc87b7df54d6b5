"""Rate limits: per token, per address, stricter for creating players and matches."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.api.test_errors import assert_problem

pytestmark = pytest.mark.django_db

GENEROUS = "1000/min"


@pytest.fixture
def rates(monkeypatch):
    """Set the limits for one test; every scope not named stays generous."""

    def set_rates(**limits):
        table = {scope: GENEROUS for scope in ("token", "ip", "player_create", "match_create")}
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {**table, **limits})
        cache.clear()

    yield set_rates
    cache.clear()


def test_player_creation_is_limited_per_address(rates):
    rates(player_create="2/hour")
    client = APIClient()
    for name in ("a", "b"):
        assert client.post("/api/v1/players", {"name": name}, format="json").status_code == 201
    response = client.post("/api/v1/players", {"name": "c"}, format="json")
    assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    other = APIClient(REMOTE_ADDR="10.0.0.9")
    assert other.post("/api/v1/players", {"name": "d"}, format="json").status_code == 201


def test_match_creation_is_limited_per_token(rates, make_client):
    rates(match_create="1/hour")
    roya, babak = make_client("Roya"), make_client("Babak")
    assert roya.post("/api/v1/matches", {}, format="json").status_code == 201
    assert_problem(roya.post("/api/v1/matches", {}, format="json"), 429, "throttled")
    # Reading the list is not creating.
    assert roya.get("/api/v1/matches").status_code == 200
    assert babak.post("/api/v1/matches", {}, format="json").status_code == 201


def test_requests_are_limited_per_token(rates, make_client):
    rates(token="3/min")
    roya, babak = make_client("Roya"), make_client("Babak")
    for _ in range(3):
        assert roya.get("/api/v1/players/me").status_code == 200
    response = roya.get("/api/v1/players/me")
    assert_problem(response, 429, "throttled")
    assert response["Retry-After"]
    assert babak.get("/api/v1/players/me").status_code == 200


def test_requests_are_limited_per_address_across_tokens(rates, make_client):
    rates(ip="3/min")
    roya, babak = make_client("Roya"), make_client("Babak")
    for client in (roya, babak, roya):
        assert client.get("/api/v1/players/me").status_code == 200
    assert_problem(babak.get("/api/v1/players/me"), 429, "throttled")
