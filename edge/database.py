"""What any layer may need when the database fails: the exceptions that mean it did, and the
watchdog that bounds a request's database work by its deadline (asnas_api.deadline sets the
deadline of each request; a stream's reads use it too)."""

import heapq
import itertools
import logging
import os
import socket
import threading
import time

from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

DATABASE_FAILURES = (OperationalError, InterfaceError)
# How often the watchdog looks again at a request past its deadline that had no connection.
RECHECK = 0.05


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
                wrapper = self._watched.get(ticket)
                if wrapper is not None and wrapper.connection is None:
                    # Past its deadline with no connection yet (waiting on the pool): one it
                    # opens later must not escape, so look again shortly.
                    heapq.heappush(self._heap, (time.monotonic() + RECHECK, ticket))
                    continue
                self._watched.pop(ticket, None)
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
