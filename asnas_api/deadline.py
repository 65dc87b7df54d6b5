"""A client-side deadline on each request's database work.

Postgres enforces statement_timeout and lock_timeout itself, but a stopped or hung server
enforces nothing, and the kernel keeps acknowledging its packets, so a query could wait for
ever. One watchdog thread per process shuts down the socket of any connection whose request
has outlived ASNAS_REQUEST_DEADLINE: the blocked query then fails with OperationalError, which
asnas_api.errors answers as 503 database_unavailable, and the pool discards the connection.
"""

import heapq
import itertools
import logging
import os
import socket
import threading
import time

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

logger = logging.getLogger(__name__)


class Watchdog:
    def __init__(self):
        self._wake = threading.Condition()
        self._heap: list[tuple[float, int]] = []  # (deadline, ticket) of every watched request
        self._watched: dict[int, object] = {}  # ticket -> the request's DatabaseWrapper
        self._tickets = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, wrapper, deadline: float) -> int:
        with self._wake:
            if self._thread is None or not self._thread.is_alive():
                # Started lazily, so that a forked worker gets a thread of its own.
                self._thread = threading.Thread(target=self._run, name="db-deadline", daemon=True)
                self._thread.start()
            ticket = next(self._tickets)
            self._watched[ticket] = wrapper
            heapq.heappush(self._heap, (deadline, ticket))
            if self._heap[0][1] == ticket:
                self._wake.notify()
            return ticket

    def release(self, ticket: int) -> None:
        with self._wake:
            self._watched.pop(ticket, None)  # its heap entry is skipped when it comes up

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._heap:
                    self._wake.wait()
                deadline, ticket = self._heap[0]
                delay = deadline - time.monotonic()
                if delay > 0:
                    self._wake.wait(delay)
                    continue
                heapq.heappop(self._heap)
                wrapper = self._watched.pop(ticket, None)
            if wrapper is not None:
                _drop(wrapper)


def _drop(wrapper) -> None:
    raw = wrapper.connection
    if raw is None or raw.closed:
        return
    try:
        # shutdown (not close) wakes the thread blocked on this socket without freeing the
        # descriptor under it; the duplicate is closed at once, the original by psycopg.
        with socket.socket(fileno=os.dup(raw.pgconn.socket)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        return  # closed meanwhile: nothing left to interrupt
    logger.warning("request deadline passed: dropped its database connection")


watchdog = Watchdog()


class DeadlineMiddleware:
    """Arms the watchdog for the request's database connection (one per thread)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # connections[...] is this thread's wrapper, which the view will use.
        deadline = time.monotonic() + settings.ASNAS_REQUEST_DEADLINE
        ticket = watchdog.watch(connections[DEFAULT_DB_ALIAS], deadline)
        try:
            return self.get_response(request)
        finally:
            watchdog.release(ticket)
