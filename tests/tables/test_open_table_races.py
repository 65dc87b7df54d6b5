"""Open tables under concurrent requests, real threads on real Postgres: quick plays and joins
racing for the last seat (exactly one sits there), and quick plays that find no table at
once (they share one table rather than each opening their own)."""

import threading
from collections import Counter

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.models import Match, Seat
from games.tables.store import QUICK_PLAY_LOCK
from tests.matches import stored_events

pytestmark = pytest.mark.django_db(transaction=True)


def tokens(*names: str) -> list[str]:
    return [
        APIClient().post("/api/v1/players", {"name": name}, format="json").json()["token"]
        for name in names
    ]


def client_of(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def race(requests: list[tuple[str, str, dict]]) -> list:
    """Send each (token, url, body) from its own thread, all at once; the answers in order."""
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def send(number: int, token: str, url: str, body: dict):
        client = client_of(token)
        barrier.wait()
        try:
            answers[number] = client.post(url, body, format="json")
        finally:
            connections.close_all()

    workers = [
        threading.Thread(target=send, args=(number, *request))
        for number, request in enumerate(requests)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return answers


def open_table(token: str, humans: int) -> dict:
    created = client_of(token).post(
        "/api/v1/matches", {"humans": humans, "open": True}, format="json"
    )
    assert created.status_code == 201, created.json()
    return created.json()


def joins_of(match_id) -> int:
    return [event["type"] for event in stored_events(match_id)].count("player_joined")


def test_quick_plays_and_joins_race_for_the_last_seat_and_exactly_one_sits():
    owner, *others = tokens("Roya", "Babak", "Nima", "Sara", "Omid", "Leila")
    table = open_table(owner, humans=2)
    join = f"/api/v1/matches/{table['id']}/join"
    answers = race(
        [(token, join, {}) for token in others[:2]]
        + [(token, "/api/v1/quick-play", {}) for token in others[2:]]
    )
    assert all(answer.status_code in (200, 409) for answer in answers), [
        answer.json() for answer in answers
    ]
    at_table = [a for a in answers if a.status_code == 200 and a.json()["id"] == table["id"]]
    assert len(at_table) == 1 and at_table[0].json()["your_seat"] == 1
    assert joins_of(table["id"]) == 1
    assert Seat.objects.filter(match_id=table["id"], player__isnull=False).count() == 4
    refused = [a.json()["code"] for a in answers if a.status_code == 409]
    assert set(refused) <= {"match_full"}
    # A quick play that lost the seat sat elsewhere, at tables quick plays opened, each
    # filled before the next was opened: at most one of them still waits for a human.
    elsewhere = {a.json()["id"] for a in answers if a.status_code == 200} - {table["id"]}
    still_waiting = Match.objects.filter(id__in=elsewhere, status="waiting").count()
    assert still_waiting <= 1, [a.json()["id"] for a in answers if a.status_code == 200]


def test_quick_plays_that_find_no_table_at_once_share_the_table_one_of_them_opens():
    players = tokens("Roya", "Babak", "Nima", "Sara")
    answers = race([(token, "/api/v1/quick-play", {"humans": 4}) for token in players])
    assert [answer.status_code for answer in answers] == [200] * 4, [a.json() for a in answers]
    assert len({answer.json()["id"] for answer in answers}) == 1
    assert Match.objects.count() == 1
    assert sorted(answer.json()["your_seat"] for answer in answers) == [0, 1, 2, 3]
    (match,) = Match.objects.all()
    assert match.status == "in_deal" or match.status == "deal_over"


def test_quick_plays_fill_tables_two_by_two_when_tables_seat_two():
    players = tokens("Roya", "Babak", "Nima", "Sara", "Omid", "Leila")
    answers = race([(token, "/api/v1/quick-play", {}) for token in players])
    assert [answer.status_code for answer in answers] == [200] * 6
    per_table = Counter(answer.json()["id"] for answer in answers)
    assert sorted(per_table.values()) == [2, 2, 2]
    assert Match.objects.filter(status="waiting").count() == 0


def test_a_quick_play_takes_its_turn_before_it_looks_for_a_table():
    """A quick play that looked first (locking a table it then found full) and only then
    waited for the turn could deadlock with the one holding the turn, waiting for that same
    table: Postgres broke it after a second with a 503. Holding the turn elsewhere, a quick
    play waits for it even when a table fits, and sits there once the turn is free."""
    owner, guest = tokens("Roya", "Babak")
    table = open_table(owner, humans=2)
    holder = connections.create_connection("default")
    try:
        with holder.cursor() as cursor:
            holder.set_autocommit(False)
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [QUICK_PLAY_LOCK])
            answer: list = []

            def quick_play():
                try:
                    answer.append(client_of(guest).post("/api/v1/quick-play", {}, format="json"))
                finally:
                    connections.close_all()

            quick = threading.Thread(target=quick_play)
            quick.start()
            quick.join(timeout=0.5)
            assert quick.is_alive() and joins_of(table["id"]) == 0  # it waits for the turn
            holder.rollback()
            quick.join(timeout=10)
    finally:
        holder.close()
    assert answer[0].status_code == 200 and answer[0].json()["id"] == table["id"]
