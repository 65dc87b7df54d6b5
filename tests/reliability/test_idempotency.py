"""Idempotency-Key: a retry answers the first outcome and changes nothing."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction

from games.http import idempotency
from games.models import EventBatch, IdempotencyRecord, Match
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def post(client, url, body, key):
    return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_repeat_returns_the_stored_response_and_changes_nothing(client, new_match):
    view = new_match()
    url = f"/api/v1/matches/{view['id']}/actions"
    first = post(client, url, {"action": "look"}, "k-1")
    assert first.status_code == 200 and "Idempotent-Replayed" not in first
    events = EventBatch.objects.count()
    again = post(client, url, {"action": "look"}, "k-1")
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert EventBatch.objects.count() == events


def test_create_match_with_a_key_creates_one_match(client):
    first = post(client, "/api/v1/matches", {"seed": 4}, "create-1")
    again = post(client, "/api/v1/matches", {"seed": 4}, "create-1")
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert Match.objects.count() == 1


def test_next_deal_and_restart_take_keys(client, new_match):
    view = new_match()
    while view["status"] == "in_deal":
        view = client.post(
            f"/api/v1/matches/{view['id']}/actions", {"action": "fold"}, format="json"
        ).json()
    for path in ("next-deal", "restart"):
        url = f"/api/v1/matches/{view['id']}/{path}"
        first = post(client, url, {}, f"key-{path}")
        version = Match.objects.get(id=view["id"]).version
        again = post(client, url, {}, f"key-{path}")
        assert first.status_code == again.status_code == 200
        assert again.json() == first.json()
        assert Match.objects.get(id=view["id"]).version == version


def test_the_same_key_with_another_body_is_422(client, new_match):
    view = new_match()
    url = f"/api/v1/matches/{view['id']}/actions"
    post(client, url, {"action": "look"}, "k-2")
    before = Match.objects.get(id=view["id"]).version
    assert_problem(post(client, url, {"action": "fold"}, "k-2"), 422, "idempotency_key_reused")
    other_path = f"/api/v1/matches/{view['id']}/restart"
    assert_problem(post(client, other_path, {}, "k-2"), 422, "idempotency_key_reused")
    assert Match.objects.get(id=view["id"]).version == before


def test_keys_are_scoped_per_player(make_client):
    roya, babak = make_client("Roya"), make_client("Babak")
    mine = post(roya, "/api/v1/matches", {"seed": 1}, "shared-key").json()
    theirs = post(babak, "/api/v1/matches", {"seed": 1}, "shared-key").json()
    assert mine["id"] != theirs["id"]
    assert Match.objects.count() == 2


def test_a_key_expires_after_24_hours(client, new_match):
    first = post(client, "/api/v1/matches", {"seed": 1}, "old-key").json()
    IdempotencyRecord.objects.update(
        created_at=IdempotencyRecord.objects.get().created_at - timedelta(hours=24, seconds=1)
    )
    again = post(client, "/api/v1/matches", {"seed": 1}, "old-key")
    assert again.status_code == 201
    assert again.json()["id"] != first["id"]
    assert IdempotencyRecord.objects.count() == 1


def test_a_refused_request_stores_no_outcome(client, new_match):
    view = new_match()
    url = f"/api/v1/matches/{view['id']}/next-deal"
    assert_problem(post(client, url, {}, "k-3"), 409, "deal_in_progress")
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9"])
def test_bad_keys_are_400(client, new_match, key):
    view = new_match()
    response = post(client, f"/api/v1/matches/{view['id']}/actions", {"action": "look"}, key)
    assert_problem(response, 400, "invalid_idempotency_key")
    assert Match.objects.get(id=view["id"]).version == view["version"]


@pytest.mark.django_db(transaction=True)
def test_a_repeat_while_the_first_still_runs_is_409_with_retry_after(make_client):
    client = make_client()
    view = client.post("/api/v1/matches", {"seed": 2}, format="json").json()
    url = f"/api/v1/matches/{view['id']}/actions"
    holding, release = threading.Event(), threading.Event()

    def first_request_still_running():
        # Hold the key's lock the way a running request does.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s)",
                    [idempotency._lock_key(client.player, "slow-key")],
                )
            holding.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=first_request_still_running)
    holder.start()
    try:
        assert holding.wait(10)
        started = time.monotonic()
        response = post(client, url, {"action": "look"}, "slow-key")
        assert time.monotonic() - started < 5, "the repeat must not wait for the first"
    finally:
        release.set()
        holder.join()
    assert_problem(response, 409, "idempotency_in_progress")
    assert response["Retry-After"] == "1"
    assert Match.objects.get(id=view["id"]).version == view["version"]
