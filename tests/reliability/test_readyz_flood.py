"""/readyz needs no token and has no rate limit, so a flood of it must not become a flood of
database round trips: each process answers from its last check for about a second."""

import asyncio
import time
from unittest import mock

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from asnas_api import health

pytestmark = pytest.mark.django_db

FLOOD = 300


async def probe_flood(batches: int, pause: float) -> list[int]:
    """FLOOD probes in `batches` at once, `pause` seconds apart: a count, not a duration, so
    that a slow machine sends them all too (it only takes longer)."""
    statuses = []

    async def probe():
        sent = []

        async def send(message):
            sent.append(message)

        await health.readyz_asgi({"type": "http", "path": "/readyz"}, None, send)
        statuses.append(sent[0]["status"])

    for _ in range(batches):
        await asyncio.gather(*(probe() for _ in range(FLOOD // batches)))
        await asyncio.sleep(pause)
    return statuses


def test_a_flood_of_the_asgi_probe_makes_one_connection_a_second():
    connect = psycopg.AsyncConnection.connect
    with mock.patch.object(psycopg.AsyncConnection, "connect", side_effect=connect) as spy:
        started = time.monotonic()
        statuses = asyncio.run(probe_flood(batches=10, pause=0.15))
        elapsed = time.monotonic() - started
    assert statuses == [200] * FLOOD
    assert spy.call_count <= elapsed + 1  # one a second, and the first, spy.call_count


def test_a_flood_of_the_django_view_makes_one_query_a_second(client):
    with CaptureQueriesContext(connection) as queries:
        started = time.monotonic()
        statuses = [client.get("/readyz").status_code for _ in range(FLOOD)]
        elapsed = time.monotonic() - started
    assert set(statuses) == {200}
    assert len(queries) <= elapsed + 1  # one a second, and the first, len(queries)


def test_a_changed_database_shows_once_the_answer_is_a_second_old(client, monkeypatch):
    assert client.get("/readyz").status_code == 200
    monkeypatch.setattr(health, "database_answers_sync", lambda: False)
    assert client.get("/readyz").status_code == 200  # the cached answer
    monkeypatch.setattr(health.readiness, "checked_at", time.monotonic() - 1.01)
    assert client.get("/readyz").status_code == 503
