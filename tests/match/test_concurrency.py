"""Concurrent requests on real Postgres: the match row lock lets exactly one apply."""

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.models import Match
from tests.matches import stored_events, stored_seqs

pytestmark = pytest.mark.django_db(transaction=True)


def race(tokens: list[str], url: str, body: dict) -> list[int]:
    """Send the request once per token, all threads at once; the sorted statuses."""
    barrier = threading.Barrier(len(tokens))
    statuses: list[int] = []

    def send(token: str):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        barrier.wait()
        try:
            statuses.append(client.post(url, body, format="json").status_code)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=send, args=(token,)) for token in tokens]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sorted(statuses)


def test_two_threads_look_at_once_and_exactly_one_succeeds():
    token = APIClient().post("/api/v1/players", {"name": "Roya"}, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    view = client.post("/api/v1/matches", {"seed": 3}, format="json").json()
    statuses = race([token] * 2, f"/api/v1/matches/{view['id']}/actions", {"action": "look"})
    assert statuses == [200, 422]
    match = Match.objects.get(id=view["id"])
    assert match.version == view["version"] + 1
    seqs = stored_seqs(match.id)
    assert seqs == list(range(1, match.version + 1))


def test_three_threads_race_for_the_last_seat_and_exactly_one_sits():
    tokens = [
        APIClient().post("/api/v1/players", {"name": name}, format="json").json()["token"]
        for name in ("Roya", "Babak", "Nima", "Sara")
    ]
    owner = APIClient()
    owner.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")
    view = owner.post("/api/v1/matches", {"humans": 2}, format="json").json()
    url = f"/api/v1/matches/{view['id']}/join"
    assert race(tokens[1:], url, {"invite": view["invite"]}) == [200, 409, 409]
    types = [event["type"] for event in stored_events(view["id"])]
    assert types[:3] == ["match_created", "player_joined", "deal_started"]
    assert types.count("player_joined") == 1


def test_four_threads_create_matches_with_one_commitment_and_exactly_one_deals_from_it():
    token = APIClient().post("/api/v1/players", {"name": "Roya"}, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    committed = client.post("/api/v1/commitments", {}, format="json").json()
    body = {"commitment": committed["id"], "client_seed": "mine"}
    assert race([token] * 4, "/api/v1/matches", body) == [201, 409, 409, 409]
    (match,) = Match.objects.all()
    fair = client.get(f"/api/v1/matches/{match.id}").json()["fairness"]
    assert fair["commitment"] == committed["commitment"] and fair["client_seeds"][0] == "mine"
