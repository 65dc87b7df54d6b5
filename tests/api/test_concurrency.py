"""Concurrent requests on real Postgres: the match row lock lets exactly one apply."""

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.models import Match
from tests.matches import stored_seqs

pytestmark = pytest.mark.django_db(transaction=True)


def race(token: str, url: str, body: dict, threads: int) -> list[int]:
    barrier = threading.Barrier(threads)
    statuses: list[int] = []

    def send():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        barrier.wait()
        try:
            statuses.append(client.post(url, body, format="json").status_code)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=send) for _ in range(threads)]
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
    statuses = race(token, f"/api/v1/matches/{view['id']}/actions", {"action": "look"}, 2)
    assert statuses == [200, 422]
    match = Match.objects.get(id=view["id"])
    assert match.version == view["version"] + 1
    seqs = stored_seqs(match.id)
    assert seqs == list(range(1, match.version + 1))
