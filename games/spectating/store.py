"""The spectating room's store: who may watch a match and the hash of its watch code (on the
match row, and which match a code opens in a table of its own), the watch tickets, and the
watch streams counted across server processes (docs/spectators.md)."""

import uuid
from datetime import datetime

from django.db import connection

from games.engine import SpectatorMode
from games.match.loaded import LoadedMatch
from games.match.store import match_announce
from games.models import Match, WatchCode, WatchStream, WatchTicket


def match_id_watched(*, watch_code_hash: str) -> uuid.UUID | None:
    """The match whose watch code has this hash, if its spectators are not off. Two reads by
    key (the code's row, then the match by its id), so that on Citus each asks one shard."""
    if not watch_code_hash:
        return None
    code = WatchCode.objects.filter(code_hash=watch_code_hash).values_list("match_id", flat=True)
    match_id = code.first()
    found = Match.objects.filter(id=match_id, watch_code_hash=watch_code_hash).exclude(
        spectators=SpectatorMode.OFF
    )
    return None if match_id is None else found.values_list("id", flat=True).first()


def match_set_spectators(*, match: LoadedMatch, spectators: str, watch_code_hash: str) -> None:
    """Store who may watch and the hash of the watch code, and wake the match's streams (a
    watch stream whose code no longer works ends). Call on a match loaded with its lock."""
    before = match.row.watch_code_hash
    Match.objects.filter(id=match.row.id).update(
        spectators=spectators, watch_code_hash=watch_code_hash
    )
    if before != watch_code_hash:
        if before:
            WatchCode.objects.filter(code_hash=before).delete()
        if watch_code_hash:
            WatchCode.objects.create(code_hash=watch_code_hash, match_id=match.row.id)
    match.row.spectators, match.row.watch_code_hash = spectators, watch_code_hash
    match_announce(match_id=match.row.id, version=match.row.version, seats=match.seats)


def watch_ticket_insert(*, ticket_hash: str, watch_code_hash: str, expires_at: datetime) -> None:
    WatchTicket.objects.create(
        ticket_hash=ticket_hash, watch_code_hash=watch_code_hash, expires_at=expires_at
    )


_WATCH_TICKET_TAKE = (
    f"DELETE FROM {WatchTicket._meta.db_table} WHERE ticket_hash = %s"
    " RETURNING watch_code_hash, expires_at"
)


def watch_ticket_take(*, ticket_hash: str) -> tuple[str, datetime] | None:
    """The watch code hash and expiry of the ticket, which is gone afterwards: the DELETE
    lets exactly one server take it. None for an unknown (or already taken) ticket."""
    with connection.cursor() as cursor:
        cursor.execute(_WATCH_TICKET_TAKE, [ticket_hash])
        return cursor.fetchone()


def watch_tickets_purge(*, now: datetime) -> int:
    return WatchTicket.objects.filter(expires_at__lt=now).delete()[0]


_WATCH_COUNTS = (
    "SELECT count(*) FILTER (WHERE match_id = %s), count(*) FILTER (WHERE address = %s),"
    f" count(*) FILTER (WHERE process = %s) FROM {WatchStream._meta.db_table}"
    " WHERE expires_at > now() AND (match_id = %s OR address = %s OR process = %s)"
)


def watch_streams_counted(
    *, match_id: uuid.UUID, address_hash: str, process: str
) -> tuple[int, int, int]:
    """The live watch streams of the match, of the address and of the process, with the
    address's and the match's advisory locks held to the end of the transaction, so that both
    counts stay exact across servers until the caller has inserted its own. The address's is
    taken first, always: two opens never wait for each other's second lock."""
    ids = [match_id, address_hash, process]
    with connection.cursor() as cursor:
        for key in (f"watch-address:{address_hash}", f"watch:{match_id}"):
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [key])
        cursor.execute(_WATCH_COUNTS, [*ids, *ids])
        return cursor.fetchone()


def watch_stream_insert(
    *, match_id: uuid.UUID, address_hash: str, process: str, expires_at: datetime
) -> uuid.UUID:
    return WatchStream.objects.create(
        match_id=match_id, address=address_hash, process=process, expires_at=expires_at
    ).id


# On Citus one statement across the shards of every match watched: a worker's renewals of a
# period go together rather than one per match (docs/scaling.md's multi-shard queries).
def watch_streams_renew(*, stream_ids: list[uuid.UUID], expires_at: datetime) -> None:
    WatchStream.objects.filter(id__in=stream_ids).update(expires_at=expires_at)


def watch_stream_delete(*, match_id: uuid.UUID, stream_id: uuid.UUID) -> None:
    WatchStream.objects.filter(match_id=match_id, id=stream_id).delete()


def watch_streams_purge(*, now: datetime) -> int:
    """Delete the rows of watch streams that expired (their process died)."""
    return WatchStream.objects.filter(expires_at__lt=now).delete()[0]
