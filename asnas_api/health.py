"""Liveness and readiness probes: no auth, kept cheap.

`manage.py serve` answers them on the ASGI event loop in front of Django (PROBES, used by
asgi.py): Django runs a worker's views in one thread, and while that thread waits on a hung
database a probe routed through Django would wait too. There /healthz answers at once and
/readyz within READY_TIMEOUT, whatever the database does. The Django views below answer the
same under a WSGI server (the bench's reference) and Django's test client.

/readyz is unauthenticated and unthrottled, so each process keeps its last answer for
READY_CACHE_SECONDS and lets one check run at a time: a flood of it costs the database at most
one round trip per process per second.
"""

import asyncio
import json
import math
import threading
import time

import psycopg
from django.db import DEFAULT_DB_ALIAS, Error, connection, connections
from django.http import JsonResponse

from edge.problems import problem

READY_TIMEOUT = 1.0
READY_CACHE_SECONDS = 1.0
ALIVE = {"status": "ok"}
READY = {"status": "ready"}
UNAVAILABLE = {"status": "unavailable"}
# serve's preparation of the database at start: the API's problem for a database not there.
PREPARING = problem(
    503, "database_unavailable", "The server is starting: its database is being prepared."
)
RETRY_AFTER = "5"
PROBLEM_TYPE = b"application/problem+json"


async def send_json(
    send, status: int, body: dict, headers: tuple = (), content_type: bytes = b"application/json"
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", content_type), *headers],
        }
    )
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})


class Readiness:
    """The last readiness check of this process, and the one under way."""

    def __init__(self):
        self.checked_at = -math.inf
        self.ready = False
        self.lock = threading.Lock()  # for the sync view: threads wait for one check
        self.pending: asyncio.Future | None = None  # for the ASGI probe: the check under way

    def fresh(self) -> bool:
        return time.monotonic() - self.checked_at < READY_CACHE_SECONDS

    def store(self, ready: bool) -> bool:
        self.ready, self.checked_at = ready, time.monotonic()
        return ready

    async def check_async(self) -> bool:
        if self.fresh():
            return self.ready
        if self.pending is None or self.pending.done():
            self.pending = asyncio.ensure_future(self._check_async())
        # Shielded: a caller that goes away does not cancel the check the others wait for.
        return await asyncio.shield(self.pending)

    async def _check_async(self) -> bool:
        return self.store(await database_answers())

    def check(self) -> bool:
        with self.lock:
            return self.ready if self.fresh() else self.store(database_answers_sync())


readiness = Readiness()


async def database_answers() -> bool:
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    try:
        async with asyncio.timeout(READY_TIMEOUT):
            conn = await psycopg.AsyncConnection.connect(**params)
            async with conn:
                await conn.execute("SELECT 1")
    except (psycopg.Error, TimeoutError, OSError):
        return False
    return True


async def healthz_asgi(scope, receive, send) -> None:
    """The process is alive; touches no database."""
    await send_json(send, 200, ALIVE)


async def readyz_asgi(scope, receive, send) -> None:
    """The database answers, within READY_TIMEOUT."""
    if await readiness.check_async():
        await send_json(send, 200, READY)
    else:
        await send_json(send, 503, UNAVAILABLE, ((b"retry-after", RETRY_AFTER.encode()),))


PROBES = {"/healthz": healthz_asgi, "/readyz": readyz_asgi}


async def not_prepared(scope, receive, send) -> None:
    """serve has not finished preparing the database (its migrations) yet: a second or two
    at start."""
    await send_json(send, 503, PREPARING, ((b"retry-after", b"1"),), PROBLEM_TYPE)


def healthz(request):
    return JsonResponse(ALIVE)


def database_answers_sync() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Error:
        return False
    return True


def readyz(request):
    if readiness.check():
        return JsonResponse(READY)
    return JsonResponse(UNAVAILABLE, status=503, headers={"Retry-After": RETRY_AFTER})
