"""A finished Idempotency-Key replays its stored answer however many repeats arrive at
once: threads on real Postgres, each with its own connection."""

import json
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from rest_framework.test import APIClient

from players.services import player_create

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 16
REPEATS = 25


def test_a_finished_key_always_replays_under_concurrent_repeats():
    _, token = player_create(name="Roya")
    first_client = APIClient()
    first_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    first = first_client.post("/api/v1/matches", {}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 201
    barrier = threading.Barrier(THREADS)
    answers = Counter()
    bodies = set()

    def repeat():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        barrier.wait()
        try:
            for _ in range(REPEATS):
                response = client.post(
                    "/api/v1/matches", {}, format="json", HTTP_IDEMPOTENCY_KEY="k"
                )
                answers[response.status_code, response.get("Idempotent-Replayed")] += 1
                bodies.add(json.dumps(response.json(), sort_keys=True))
        finally:
            connections.close_all()

    with ThreadPoolExecutor(THREADS) as pool:
        for finished in [pool.submit(repeat) for _ in range(THREADS)]:
            finished.result()  # a thread's failure fails the test
    assert answers == {(201, "true"): THREADS * REPEATS}
    assert bodies == {json.dumps(first.json(), sort_keys=True)}
