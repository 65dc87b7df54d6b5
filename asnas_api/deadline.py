"""A client-side deadline on each request's database work.

Postgres enforces statement_timeout and lock_timeout itself, but a stopped or hung server
enforces nothing, and the kernel keeps acknowledging its packets, so a query could wait for
ever. One watchdog thread per process shuts down the socket of any connection whose request
has outlived ASNAS_REQUEST_DEADLINE: the blocked query then fails with OperationalError, which
asnas_api.errors answers as 503 database_unavailable, and the pool discards the connection.

Under ASGI (asnas_api.asgi) the deadline runs from when the request was whole, not from when
the worker's Django thread took it: a request queued behind one hung on the database gets
only what is left, and none at all (an immediate 503) if its time ran out in the queue. Under
WSGI it runs from when the thread took the request, the server's own queue unbounded.
"""

import time

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from asnas_api.errors import database_unavailable
from edge.database import watchdog

# The scope key under which asnas_api.asgi notes when the request was whole (monotonic).
ARRIVED = "asnas.arrived"


class DeadlineMiddleware:
    """Arms the watchdog for the request's database connection (one per thread)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        now = time.monotonic()
        arrived = getattr(request, "scope", {}).get(ARRIVED, now)
        deadline = arrived + settings.ASNAS_REQUEST_DEADLINE
        if deadline <= now:
            # It waited out its deadline in this worker's queue, most likely behind requests
            # hung on the database: answer now rather than add to the pile.
            return database_unavailable(request)
        # connections[...] is this thread's wrapper, which the view will use.
        ticket = watchdog.watch(connections[DEFAULT_DB_ALIAS], deadline)
        try:
            return self.get_response(request)
        finally:
            watchdog.release(ticket)
