"""Under ASGI a request's deadline runs from when it was whole, not from when the innermost
middleware took it: time lost before that (a thread to run in, an outer middleware waiting on
the database) counts, and a request whose time ran out before its view is answered 503 at
once rather than given a whole deadline again."""

import asyncio
import json
import time
from unittest import mock

import pytest
from django.contrib.sessions.middleware import SessionMiddleware

from asnas_api.asgi import application
from edge.schema import CachedSchemaView
from tests.reliability.support import asgi_get

DEADLINE = 1.0

# The app's periodic purge may fall due in any request, from a thread of Django's.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_request_whose_deadline_ran_out_before_its_view_is_503_at_once(settings):
    settings.ASNAS_REQUEST_DEADLINE = DEADLINE
    original = SessionMiddleware.process_request

    def stuck(self, request):
        time.sleep(DEADLINE + 0.2)
        return original(self, request)

    with (
        mock.patch.object(SessionMiddleware, "process_request", stuck),
        mock.patch.object(CachedSchemaView, "get", side_effect=AssertionError("view ran")),
    ):
        started = time.monotonic()
        status, headers, body = asyncio.run(asgi_get(application, "/api/schema/"))
        waited = time.monotonic() - started

    assert status == 503, body
    problem = json.loads(body)
    assert problem["code"] == "database_unavailable"
    assert problem["request_id"] == headers["x-request-id"]
    assert int(headers["retry-after"]) > 0
    assert waited < DEADLINE + 1, waited


def test_a_request_in_time_is_served(settings):
    settings.ASNAS_REQUEST_DEADLINE = DEADLINE
    status, headers, body = asyncio.run(asgi_get(application, "/api/schema/"))
    assert status == 200, body
