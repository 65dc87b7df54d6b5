"""Idempotency keys: a retried request with the same key and body gets the stored
response and changes nothing.

The first request takes a transaction-scoped advisory lock on (player, key), so a
repeat that arrives while it still runs is told to retry instead of waiting, and the
outcome is stored in the transaction of the change itself. A repeat of a finished key
replays its stored outcome whether or not it got the lock."""

import hashlib
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import connection, transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from games.engine import DomainError
from games.models import IdempotencyRecord

if TYPE_CHECKING:  # a player is handed in; the HTTP layer reads no player rows
    from players.models import Player

KEY_TTL = timedelta(hours=24)
MAX_KEY_LENGTH = 255


def fingerprint(method: str, path: str, body) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{method} {path}\n{canonical}".encode()).hexdigest()


def validate_key(key: str) -> str:
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isascii() or not key.isprintable():
        raise DomainError(
            "invalid_idempotency_key",
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable ASCII characters.",
        )
    return key


def _lock_key(player: "Player", key: str) -> int:
    digest = hashlib.blake2b(f"{player.pk}:{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@transaction.atomic
def idempotent_call(
    *, player: "Player", key: str, fingerprint: str, call: Callable[[], tuple[int, dict]]
) -> tuple[int, dict, bool]:
    """Run `call` (returning status and body) once per (player, key) within 24 hours.
    Returns the status, the body, and whether they were replayed from the first call."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [_lock_key(player, key)])
        (locked,) = cursor.fetchone()
    # Read after trying the lock: whoever held it has either committed its outcome, which
    # this read sees, or is still running. So a finished key always replays, however many
    # repeats contend for the lock at once.
    now = timezone.now()
    record = IdempotencyRecord.objects.filter(
        player=player, key=key, created_at__gt=now - KEY_TTL
    ).first()
    if record is not None:
        if record.fingerprint != fingerprint:
            raise DomainError(
                "idempotency_key_reused",
                "This Idempotency-Key was used with a different request.",
            )
        return record.status_code, record.response, True
    if not locked:
        raise DomainError(
            "idempotency_in_progress",
            "A request with this Idempotency-Key is still running; retry shortly.",
        )
    status, body = call()
    # An expired record under the same key is replaced.
    IdempotencyRecord.objects.bulk_create(
        [
            IdempotencyRecord(
                player=player,
                key=key,
                fingerprint=fingerprint,
                status_code=status,
                response=body,
                created_at=now,
            )
        ],
        update_conflicts=True,
        unique_fields=["player", "key"],
        update_fields=["fingerprint", "status_code", "response", "created_at"],
    )
    return status, body, False


def purge_idempotency_records(*, now: datetime) -> int:
    """Delete the records of keys that have expired."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lte=now - KEY_TTL).delete()
    return deleted


def idempotent_response(
    request: Request, call: Callable[[], tuple[int, dict]], *, one_shot: tuple[str, ...] = ()
) -> Response:
    """`call`'s answer, once per Idempotency-Key when the request has one. The `one_shot`
    fields are secrets the server keeps only hashed (a watch code): the stored reply holds
    them as null, and only the first answer shows them."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        status, body = call()
        return Response(body, status=status)
    secrets: dict[str, object] = {}

    def stored_call() -> tuple[int, dict]:
        status, body = call()
        for name in one_shot:
            secrets[name], body[name] = body[name], None
        return status, body

    status, body, replayed = idempotent_call(
        player=request.user,
        key=validate_key(key),
        fingerprint=fingerprint(request.method, request.path, request.data),
        call=stored_call,
    )
    if replayed:
        return Response(body, status=status, headers={"Idempotent-Replayed": "true"})
    return Response({**body, **secrets}, status=status)
