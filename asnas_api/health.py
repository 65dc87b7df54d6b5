"""Liveness and readiness probes: no auth, kept cheap.

`manage.py serve` answers them on the ASGI event loop in front of Django (PROBES, used by
asgi.py): Django runs a worker's views in one thread, and while that thread waits on a hung
database a probe routed through Django would wait too. There /healthz answers at once and
/readyz within READY_TIMEOUT, whatever the database does. The Django views below answer the
same under a WSGI server (the bench's reference) and Django's test client.
"""

import asyncio
import json

import psycopg
from django.db import DEFAULT_DB_ALIAS, Error, connection, connections
from django.http import JsonResponse

READY_TIMEOUT = 1.0
ALIVE = {"status": "ok"}
READY = {"status": "ready"}
UNAVAILABLE = {"status": "unavailable"}
RETRY_AFTER = "5"


async def send_json(send, status: int, body: dict, headers: tuple = ()) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), *headers],
        }
    )
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})


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
    if await database_answers():
        await send_json(send, 200, READY)
    else:
        await send_json(send, 503, UNAVAILABLE, ((b"retry-after", RETRY_AFTER.encode()),))


PROBES = {"/healthz": healthz_asgi, "/readyz": readyz_asgi}


def healthz(request):
    return JsonResponse(ALIVE)


def readyz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Error:
        return JsonResponse(UNAVAILABLE, status=503, headers={"Retry-After": RETRY_AFTER})
    return JsonResponse(READY)
