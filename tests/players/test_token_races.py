"""Concurrent rotations and revocations of one token, in real threads on real Postgres: exactly
one request may end the token, so someone racing the owner with a stolen token cannot come
away with a live token of their own."""

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from players.models import Token
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db(transaction=True)

ROTATE = ("post", "/api/v1/players/me/tokens/rotate")
REVOKE = ("delete", "/api/v1/players/me/tokens/current")
# Rounds per test: a round that loses the race on the broken code is likely, not certain.
ROUNDS = 4


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def first_token(name: str) -> str:
    return APIClient().post("/api/v1/players", {"name": name}, format="json").json()["token"]


def race(token: str, requests: list[tuple[str, str]]) -> list[tuple[str, object]]:
    """Send every (method, path) with `token`, each in its own thread, released at once by a
    barrier; the (path, response) pairs."""
    barrier = threading.Barrier(len(requests))
    answers: list[tuple[str, object]] = []

    def send(method: str, path: str):
        client = bearer(token)
        barrier.wait()
        try:
            answers.append((path, getattr(client, method)(path)))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=request) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def authenticates(token: str) -> bool:
    return bearer(token).get("/api/v1/players/me").status_code == 200


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_of_five_concurrent_rotations_exactly_one_wins(round_):
    old = first_token(f"Roya {round_}")
    answers = race(old, [ROTATE] * 5)
    winners = [response for _, response in answers if response.status_code == 200]
    assert len(winners) == 1, [response.status_code for _, response in answers]
    for _, response in answers:
        if response.status_code != 200:
            assert_problem(response, 401, "invalid_token")
    new = winners[0].json()["token"]
    assert authenticates(new)
    assert not authenticates(old)
    assert Token.objects.count() == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_revoke_racing_rotations_leaves_at_most_the_winners_token(round_):
    old = first_token(f"Babak {round_}")
    answers = race(old, [REVOKE, ROTATE, ROTATE])
    won = [(path, response) for path, response in answers if response.status_code < 300]
    assert len(won) == 1, [(path, response.status_code) for path, response in answers]
    for _, response in answers:
        if response.status_code >= 300:
            assert_problem(response, 401, "invalid_token")
    assert not authenticates(old)
    path, response = won[0]
    if path == REVOKE[1]:
        assert response.status_code == 204
        assert not Token.objects.exists()
    else:
        assert authenticates(response.json()["token"])
        assert Token.objects.count() == 1
