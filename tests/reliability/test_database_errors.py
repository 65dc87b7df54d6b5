"""A failing database becomes 503 database_unavailable, and a query past the request's
deadline is cut off by the client side, since a hung server enforces no timeout itself."""

import time
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections
from django.test import Client

from edge.database import watchdog
from tests.reliability.support import assert_edge_problem


@pytest.mark.django_db
def test_a_database_error_is_a_503_problem_with_retry_after(client, new_match):
    match = new_match()
    with mock.patch(
        "asnas_api.gate.RateLimit.allow_request",
        side_effect=OperationalError("connection timeout expired"),
    ):
        response = client.get(f"/api/v1/matches/{match['id']}")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "idle",
    [0, 0.5],  # 0.5: the deadline passes before the request has a connection; one it opens
    ids=["connected", "connects_late"],  # later must not escape
)
def test_the_watchdog_cuts_a_query_off_at_its_deadline(idle):
    wrapper = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        ticket = watchdog.watch(wrapper, time.monotonic() + 0.3)
        time.sleep(idle)
        started = time.perf_counter()
        with pytest.raises(OperationalError), wrapper.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(30)")
        watchdog.release(ticket)
        # Well before the statement timeout (seconds) and the sleep (30 s).
        assert time.perf_counter() - started < 2
    finally:
        wrapper.close()


SESSION_DOWN = mock.patch(
    "django.contrib.sessions.backends.db.SessionStore.load",
    side_effect=OperationalError("connection timeout expired"),
)


def assert_plain_503(response):
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert int(response["Retry-After"]) > 0
    assert b"Traceback" not in response.content


@pytest.mark.django_db
def test_a_database_error_in_the_admin_is_a_plain_503(client):
    client.cookies["sessionid"] = "x" * 32
    with SESSION_DOWN:
        response = client.get("/admin/")
    assert_plain_503(response)


@pytest.mark.django_db
def test_a_database_error_in_the_admin_is_a_plain_503_under_asgi(async_client):
    # Under ASGI Django hands a view's exception to handler500 in a thread of its own.
    async_client.cookies["sessionid"] = "x" * 32
    with SESSION_DOWN:
        response = async_to_sync(async_client.get)("/admin/")
    assert_plain_503(response)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/", "/admin/"])
def test_a_database_error_in_a_middleware_is_a_503(path):
    with mock.patch(
        "django.contrib.sessions.middleware.SessionMiddleware.process_request",
        side_effect=OperationalError("server closed the connection unexpectedly"),
    ):
        response = Client(raise_request_exception=False).get(path)
    if path.startswith("/api/"):
        assert_edge_problem(response, 503, "database_unavailable")
        assert int(response["Retry-After"]) > 0
    else:
        assert_plain_503(response)
