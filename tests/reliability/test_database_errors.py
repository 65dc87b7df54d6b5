"""A failing database becomes 503 database_unavailable, and a query past the request's
deadline is cut off by the client side, since a hung server enforces no timeout itself."""

import time
from unittest import mock

import pytest
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections

from asnas_api.deadline import watchdog


@pytest.mark.django_db
def test_a_database_error_is_a_503_problem_with_retry_after(client, new_match):
    match = new_match()
    with mock.patch(
        "asnas_api.throttling.RateLimit.allow_request",
        side_effect=OperationalError("connection timeout expired"),
    ):
        response = client.get(f"/api/v1/matches/{match['id']}")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db(transaction=True)
def test_the_watchdog_cuts_a_query_off_at_its_deadline():
    wrapper = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        ticket = watchdog.watch(wrapper, time.monotonic() + 0.5)
        started = time.perf_counter()
        with pytest.raises(OperationalError), wrapper.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(30)")
        watchdog.release(ticket)
        # Well before the statement timeout (seconds) and the sleep (30 s).
        assert time.perf_counter() - started < 2
    finally:
        wrapper.close()
