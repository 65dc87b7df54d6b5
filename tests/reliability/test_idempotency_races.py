"""A finished Idempotency-Key replays its stored answer however many repeats arrive at once:
threads on real Postgres, each with its own connection.

Django's test client keeps a thread's connection for the thread's life (it does not close it
at the end of each request, as a server does), so each repeating thread holds one of the
pool's connections from its first request to its last. The main thread gives its own back
first: with it held too, one thread more than the pool holds wanted a connection, and that
thread waited for another thread's whole run, past the pool's timeout on a busy machine."""

import json
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection, connections
from rest_framework.test import APIClient

from games.http import idempotency
from players.services import player_create

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 16
REPEATS = 25


def repeat_a_finished_key(threads: int) -> tuple[Counter, set[str], str]:
    """`threads` threads repeat REPEATS times at once the POST that created a match with
    key "k": (answers by status and Idempotent-Replayed, bodies, the first answer's body)."""
    _, token = player_create(name="Roya")
    first_client = APIClient()
    first_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    first = first_client.post("/api/v1/matches", {}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert first.status_code == 201
    barrier = threading.Barrier(threads)
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

    # The threads need every connection of the pool: this thread's goes back first, and the
    # pool starts afresh, since an earlier test of this process may have left a thread
    # holding one of its connections (in a full run one request waited out the timeout).
    connections.close_all()
    connection.close_pool()
    with ThreadPoolExecutor(threads) as pool:
        for finished in [pool.submit(repeat) for _ in range(threads)]:
            finished.result()  # a thread's failure fails the test
    return answers, bodies, json.dumps(first.json(), sort_keys=True)


def test_a_finished_key_always_replays_under_concurrent_repeats():
    answers, bodies, first = repeat_a_finished_key(THREADS)
    assert answers == {(201, "true"): THREADS * REPEATS}
    assert bodies == {first}


@pytest.mark.slow
def test_as_many_threads_as_the_pool_holds_never_wait_out_its_timeout(monkeypatch):
    """A busy machine, made certain: each request takes 0.1 s more, so a thread's run
    (2.5 s) outlasts the pool's timeout (2 s). No request may wait for another thread's
    whole run."""
    assert THREADS == settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    replay = idempotency.idempotent_call

    def slow_replay(**kwargs):
        time.sleep(0.1)
        return replay(**kwargs)

    monkeypatch.setattr(idempotency, "idempotent_call", slow_replay)
    answers, _, _ = repeat_a_finished_key(THREADS)
    assert answers == {(201, "true"): THREADS * REPEATS}
