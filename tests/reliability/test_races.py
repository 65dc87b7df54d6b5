"""20 threads send the same action at once, on real Postgres."""

import threading
from collections import Counter

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.models import Match
from tests.matches import stored_seqs

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 20


def race(token: str, url: str, body: dict, key: str | None = None) -> list:
    barrier = threading.Barrier(THREADS)
    responses = []

    def send():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        barrier.wait()
        try:
            responses.append(client.post(url, body, format="json", **headers))
        finally:
            connections.close_all()

    workers = [threading.Thread(target=send) for _ in range(THREADS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return responses


def new_match() -> tuple[str, dict]:
    token = APIClient().post("/api/v1/players", {"name": "Roya"}, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return token, client.post("/api/v1/matches", {"seed": 3}, format="json").json()


def assert_contiguous(match_id) -> int:
    match = Match.objects.get(id=match_id)
    seqs = stored_seqs(match.id)
    assert seqs == list(range(1, match.version + 1))
    return match.version


def test_the_same_action_from_20_threads_applies_once():
    token, view = new_match()
    body = {"action": "look", "expected_version": view["version"]}
    responses = race(token, f"/api/v1/matches/{view['id']}/actions", body)
    statuses = Counter(response.status_code for response in responses)
    assert statuses[200] == 1
    assert statuses[409] == THREADS - 1
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"stale_version"}
    assert assert_contiguous(view["id"]) == view["version"] + 1


def test_the_same_action_with_one_idempotency_key_applies_once():
    token, view = new_match()
    responses = race(token, f"/api/v1/matches/{view['id']}/actions", {"action": "look"}, "same")
    applied = [r for r in responses if r.status_code == 200 and "Idempotent-Replayed" not in r]
    replayed = [r for r in responses if r.status_code == 200 and "Idempotent-Replayed" in r]
    busy = [r for r in responses if r.status_code == 409]
    assert len(applied) == 1
    assert len(applied) + len(replayed) + len(busy) == THREADS
    assert all(r.json() == applied[0].json() for r in replayed)
    assert all(r.json()["code"] == "idempotency_in_progress" for r in busy)
    assert all(r["Retry-After"] for r in busy)
    assert assert_contiguous(view["id"]) == view["version"] + 1
