"""Under ASGI, Django's sync code runs in threads that live on from request to request, and
each request with a whole answer goes from the event loop to its thread once: its start
signal, its middleware chain with the view, and closing its response, in one call."""

import asyncio
import threading
import time
from unittest import mock

import pytest
from asgiref.sync import SyncToAsync
from django.core.signals import request_started

from asnas_api.asgi import IDLE_THREADS_KEPT, RequestThread, application
from tests.reliability.support import asgi_get

# Django's thread may fall due for the periodic purge, which writes from its own connection.
pytestmark = pytest.mark.django_db(transaction=True)

# The start signal's receivers, the middleware chain with the view, and the response's close,
# all in one call.
HOPS_PER_REQUEST = 1


def test_requests_one_after_another_run_in_the_same_thread():
    threads = []

    def note_thread(**kwargs):
        threads.append(threading.current_thread())

    request_started.connect(note_thread)
    try:
        for _ in range(5):
            status, _, _ = asyncio.run(asgi_get(application, "/api/v1/no-such-page"))
            assert status == 404
    finally:
        request_started.disconnect(note_thread)
    assert len(threads) == 5
    assert len(set(threads)) == 1, [thread.name for thread in threads]
    assert threads[0] is not threading.main_thread()


def test_a_request_goes_to_its_thread_once():
    asyncio.run(asgi_get(application, "/api/v1/no-such-page"))  # warm: imports, the URLconf
    hops = []
    original = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    with mock.patch.object(SyncToAsync, "__call__", counted):
        status, _, _ = asyncio.run(asgi_get(application, "/api/v1/no-such-page"))
    assert status == 404
    assert len(hops) == HOPS_PER_REQUEST, hops


def test_a_burst_of_requests_leaves_no_more_idle_threads_than_are_kept():
    burst = [RequestThread() for _ in range(IDLE_THREADS_KEPT + 20)]
    for request in burst:
        request.submit(lambda: None).result()  # each request's thread runs
    during = threading.active_count()
    for request in burst:
        request.release()
    # The 20 past those kept end; the kept ones serve the next requests.
    deadline = time.monotonic() + 10
    while threading.active_count() > during - 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= during - 20
    status, _, _ = asyncio.run(asgi_get(application, "/api/v1/no-such-page"))
    assert status == 404
