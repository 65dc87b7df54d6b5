"""The spectating room's writes (docs/spectators.md): the owner's choice of who may watch
and the watch code it draws, the single-use watch tickets, and the count of open watch
streams, per match, per address and per server process (PROCESS), that keeps them within
their limits."""

import os
import socket
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import DomainError, SpectatorMode
from games.match import store as match_store
from games.match.loaded import LoadedMatch
from games.match.queries import match_view
from games.spectating import store
from players.models import Player
from players.tokens import hash_token, new_secret

WATCH_CODE_BYTES = 24
"""192 random bits, like an invite: a watch code cannot be guessed."""


def watch_code_draw() -> str:
    return new_secret(WATCH_CODE_BYTES)


@transaction.atomic
def match_spectators_set(
    *, match_id: uuid.UUID, player: Player, spectators: str, new_code: bool = False
) -> LoadedMatch:
    """The owner chooses who may watch: `off`, `delayed` or `live`. A watch code is drawn
    when spectators are turned on, or on `new_code` (the old one stops working at once);
    turning them off forgets the code. Only its hash is stored: the answer of the request
    that drew it is the one place it is ever shown. Not an event: a table setting, not a
    game fact, so it changes no version."""
    match = match_store.match_load(match_id=match_id, player=player, lock=True)
    if match is None:
        raise DomainError("not_found", "No such match.")
    if match.viewer_seat != 0:
        raise DomainError("not_owner", "Only the match's owner chooses who may watch.")
    if match.row.tournament_id is not None and spectators != SpectatorMode.OFF:
        raise DomainError("spectators_not_allowed", "A tournament's match cannot be watched.")
    code_hash = match.row.watch_code_hash
    if spectators == SpectatorMode.OFF:
        code_hash = ""
    elif new_code or not code_hash:
        match.watch_code = watch_code_draw()
        code_hash = hash_token(match.watch_code)
    store.match_set_spectators(match=match, spectators=spectators, watch_code_hash=code_hash)
    return match


def match_spectators_set_answer(
    *, match_id: uuid.UUID, player: Player, spectators: str, new_code: bool = False
) -> dict:
    """`match_spectators_set` and the MatchView's data it answers with, in one call."""
    match = match_spectators_set(
        match_id=match_id, player=player, spectators=spectators, new_code=new_code
    )
    return match_view(match=match)


WATCH_TICKET_SECONDS = 60
"""As long as a stream ticket (games.match.commands.STREAM_TICKET_SECONDS)."""


def watch_ticket_create(*, watch_code: str) -> tuple[str, datetime]:
    """A single-use ticket, good for WATCH_TICKET_SECONDS, to open the watch stream of the
    match this code watches; `not_found` for a code that watches nothing."""
    code_hash = hash_token(watch_code)
    if store.match_id_watched(watch_code_hash=code_hash) is None:
        raise DomainError("not_found", "No match to watch with this code.")
    ticket = new_secret(32)
    expires_at = timezone.now() + timedelta(seconds=WATCH_TICKET_SECONDS)
    store.watch_ticket_insert(
        ticket_hash=hash_token(ticket), watch_code_hash=code_hash, expires_at=expires_at
    )
    return ticket, expires_at


def watch_ticket_redeem(*, ticket: str) -> str | None:
    """The hash of the watch code `ticket` was issued for, or None if it is not good (used,
    expired, unknown). Used up either way: the DELETE lets exactly one server redeem it."""
    found = store.watch_ticket_take(ticket_hash=hash_token(ticket))
    if found is None or found[1] <= timezone.now():
        return None
    return found[0]


def watch_tickets_purge(*, now: datetime) -> int:
    return store.watch_tickets_purge(now=now)


PROCESS = f"{socket.gethostname()}:{os.getpid()}"
"""This server process, as its watch streams are counted."""


def _watch_stream_life() -> timedelta:
    # Three heartbeats: a live stream renews its row at each one; a dead process's rows expire.
    return timedelta(seconds=3 * settings.ASNAS_STREAM_HEARTBEAT_SECONDS)


@transaction.atomic
def watch_stream_open(*, match: LoadedMatch, address: str) -> uuid.UUID:
    """Count a new watch stream of `match` from `address` in this process, within the limits
    per match, per address and per process (settings ASNAS_WATCH_STREAMS_PER_*): over one,
    `watch_limit_*` (429). The address's and the match's advisory locks make their counts
    exact across servers.
    Returns the stream's id, for watch_streams_renew and watch_stream_close."""
    address_hash = hash_token(address)
    per_match, per_address, per_process = store.watch_streams_counted(
        match_id=match.row.id, address_hash=address_hash, process=PROCESS
    )
    if per_process >= settings.ASNAS_WATCH_STREAMS_PER_PROCESS:
        raise DomainError("watch_limit_server", "This server has no room for another spectator.")
    if per_match >= settings.ASNAS_WATCH_STREAMS_PER_MATCH:
        raise DomainError("watch_limit_match", "This match has as many spectators as it takes.")
    if per_address >= settings.ASNAS_WATCH_STREAMS_PER_ADDRESS:
        raise DomainError("watch_limit_address", "Your address watches as many streams as it may.")
    stream_id = store.watch_stream_insert(
        match_id=match.row.id,
        address_hash=address_hash,
        process=PROCESS,
        expires_at=timezone.now() + _watch_stream_life(),
    )
    match_store.match_announce(match_id=match.row.id, version=match.row.version, seats=match.seats)
    return stream_id


def watch_streams_renew(*, stream_ids: list[uuid.UUID]) -> None:
    """Keep the rows of the watch streams still open counted, all in one statement: a process
    renews its streams together once a period (games.live.shared.renewed_together)."""
    store.watch_streams_renew(
        stream_ids=stream_ids, expires_at=timezone.now() + _watch_stream_life()
    )


@transaction.atomic
def watch_stream_close(*, match: LoadedMatch, stream_id: uuid.UUID) -> None:
    store.watch_stream_delete(match_id=match.row.id, stream_id=stream_id)
    match_store.match_announce(match_id=match.row.id, version=match.row.version, seats=match.seats)


def watch_streams_purge(*, now: datetime) -> int:
    """Delete the rows of watch streams that expired (their process died)."""
    return store.watch_streams_purge(now=now)
