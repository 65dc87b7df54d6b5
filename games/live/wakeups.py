"""The live reads' wake-ups: notices of new match events through Postgres LISTEN/NOTIFY
(docs/streams.md). A wake-up says only "read again": what the reader then sends (events,
the player's notices) is read and framed by the rest of games.live.

Every write announces the match's new version inside its transaction (games.match.store), so
Postgres delivers the notice at commit, to every server on the database, and never for a
write rolled back. Each server process keeps one LISTEN connection on its event loop,
outside the pool, and rings the waiters (open streams and long-polls) that watch the match
or one of its players. Notices are only hints: a waiter then reads the events after the last
one it has, and after the connection was lost every waiter reads again. A rotated or revoked
token announces itself too (players.services.token_revoke), waking the waiters it opened:
their next read finds it gone and ends them."""

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from prometheus_client import Gauge

from players.tokens import ENDED_CHANNEL

logger = logging.getLogger(__name__)

CHANNEL = "asnas_match"
NOTIFY_SQL = f"SELECT pg_notify('{CHANNEL}', %s)"
OPEN_WAITERS = Gauge(
    "asnas_open_streams",
    "Event streams and long-polls waiting for notices, over every process.",
    multiprocess_mode="livesum",
)
RECONNECT_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0)
"""Seconds between attempts to connect again, the last one repeated while Postgres is down."""


def notice_payload(match_id: uuid.UUID, version: int, humans: Iterable[str]) -> str:
    """The notice of `match_id` at `version`, for the streams of the match and of its human
    players (by id). Under 200 bytes, far inside Postgres's 8000."""
    return f"{match_id}:{version}:{','.join(humans)}"


class Waiter:
    """What one open stream or long-poll waits on: rung by every notice about what it
    watches, remembering which matches changed until it takes them."""

    __slots__ = ("_rung", "changed", "lost", "closing")

    def __init__(self) -> None:
        self._rung = asyncio.Event()
        self.changed: set[str] = set()
        self.lost = False
        """Notices may have been missed (the LISTEN connection was down): read everything."""
        self.closing = False
        """The server is stopping: end the stream now, cleanly (the client resumes elsewhere)."""

    def ring(self, match_id: str | None) -> None:
        if match_id is None:
            self.lost = True
        else:
            self.changed.add(match_id)
        self._rung.set()

    def wake(self) -> None:
        """Read again, though no match changed: the token it was opened with may be gone."""
        self._rung.set()

    def close(self) -> None:
        self.closing = True
        self._rung.set()

    async def wait(self, timeout: float) -> bool:
        """Whether it was rung within `timeout` seconds (at once if it was rung already, or
        is closing)."""
        if self.closing:
            return True
        # Not wait_for: on Python 3.11 it swallows a cancellation that comes as the event is
        # set, and the stream of a client gone would go on waiting.
        try:
            async with asyncio.timeout(timeout):
                await self._rung.wait()
        except TimeoutError:
            return False
        return True

    def take(self) -> tuple[set[str], bool]:
        """The matches that changed since the last take, and whether notices were lost."""
        changed, lost = self.changed, self.lost
        self.changed, self.lost = set(), False
        self._rung.clear()
        return changed, lost


class Listener:
    """The process's LISTEN connection and the waiters it rings, bound to one event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.by_match: dict[str, set[Waiter]] = defaultdict(set)
        self.by_player: dict[str, set[Waiter]] = defaultdict(set)
        # By the hash of the token that opened them: woken when it is rotated or revoked. Each
        # is also in by_match or by_player, which count them and ring them all.
        self.by_token: dict[str, set[Waiter]] = defaultdict(set)
        self.listening = asyncio.Event()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = self.loop.create_task(self._run(), name="asnas-listen")

    async def _run(self) -> None:
        attempt = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **direct_params(), autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    await connection.execute(f"LISTEN {ENDED_CHANNEL}")
                    attempt = 0
                    self.listening.set()
                    # A write committed before LISTEN took effect announced itself to nobody.
                    self._ring_everyone()
                    async for notice in connection.notifies():
                        if notice.channel == ENDED_CHANNEL:
                            self.token_ended(notice.payload)
                        else:
                            self.dispatch(notice.payload)
            except psycopg.Error as error:
                logger.warning("the LISTEN connection failed (%s); connecting again", error)
            self.listening.clear()
            await asyncio.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
            attempt += 1

    def dispatch(self, payload: str) -> None:
        match_id, _, players = payload.split(":", 2)
        for waiter in self.by_match.get(match_id, ()):
            waiter.ring(match_id)
        for player in players.split(","):
            for waiter in self.by_player.get(player, ()):
                waiter.ring(match_id)

    def token_ended(self, token_hash: str) -> None:
        for waiter in self.by_token.get(token_hash, ()):
            waiter.wake()

    def _ring_everyone(self) -> None:
        for waiters in (*self.by_match.values(), *self.by_player.values()):
            for waiter in waiters:
                waiter.ring(None)

    def waiters(self) -> int:
        return sum(map(len, self.by_match.values())) + sum(map(len, self.by_player.values()))


def direct_params() -> dict:
    """Straight to Postgres, never through a transaction pooler (which would drop the
    LISTEN, or the turn clock's session lock, between transactions):
    ASNAS_LISTEN_DATABASE_URL, else the database Django uses."""
    if settings.ASNAS_LISTEN_DATABASE_URL:
        return {"conninfo": settings.ASNAS_LISTEN_DATABASE_URL}
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()
    # Django's own cursor class and adapters are for its sync connections.
    return {
        name: value for name, value in params.items() if name not in ("cursor_factory", "context")
    }


_listener: Listener | None = None
_closing = False


def close_every_waiter() -> None:
    """The process is stopping: every open stream and long-poll ends now, with a clean end of
    its body, and any opened from now on ends at once. Call on the event loop."""
    global _closing
    _closing = True
    if _listener is not None:
        for waiters in (*_listener.by_match.values(), *_listener.by_player.values()):
            for waiter in waiters:
                waiter.close()


def stopping() -> bool:
    """Whether this process is stopping (close_every_waiter was called)."""
    return _closing


def listener() -> Listener:
    """This process's listener, made (and its connection started) on first use; a new one if
    the event loop changed (tests run one loop per test)."""
    global _listener
    loop = asyncio.get_running_loop()
    if _listener is None or _listener.loop is not loop:
        _listener = Listener(loop)
    _listener.start()
    return _listener


@contextlib.contextmanager
def watching(
    *, match_id: str | None = None, player_id: str | None = None, token_hash: str | None = None
) -> Iterator[Waiter]:
    """A waiter rung by each notice about the match, or about any match of the player, and
    woken when the token with `token_hash` (that opened the stream) is rotated or revoked;
    call on the event loop. Leaving the block (a client gone, a stream over) forgets it."""
    found = listener()
    waiter = Waiter()
    if _closing:
        waiter.close()
    keyed = found.by_match if match_id is not None else found.by_player
    key = match_id if match_id is not None else player_id
    keyed[key].add(waiter)
    if token_hash is not None:
        found.by_token[token_hash].add(waiter)
    OPEN_WAITERS.inc()
    try:
        yield waiter
    finally:
        OPEN_WAITERS.dec()
        _forget(keyed, key, waiter)
        if token_hash is not None:
            _forget(found.by_token, token_hash, waiter)


def _forget(keyed: dict[str, set[Waiter]], key: str, waiter: Waiter) -> None:
    keyed[key].discard(waiter)
    if not keyed[key]:
        del keyed[key]
