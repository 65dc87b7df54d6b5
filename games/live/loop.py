"""The one stream loop that the match, watch and player streams run, each with its own read,
and the read they all make off the event loop.

A stream holds nothing while it waits but a Waiter (games.live.wakeups): no thread, no
database connection. When woken it reads in a worker thread, whose connection goes back to
the pool at once."""

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from edge.database import DATABASE_FAILURES, watchdog
from games.live.sse import HEARTBEAT
from games.live.wakeups import Waiter

logger = logging.getLogger(__name__)


def _read_closed(selector: Callable, kwargs: dict):
    """`selector(**kwargs)` under the request deadline, the connection back to the pool
    after."""
    database = connections[DEFAULT_DB_ALIAS]
    ticket = watchdog.watch(database, time.monotonic() + settings.ASNAS_REQUEST_DEADLINE)
    try:
        return selector(**kwargs)
    finally:
        watchdog.release(ticket)
        database.close()


async def read(selector: Callable, /, **kwargs):
    """A selector's answer, read in a worker thread off the event loop."""
    return await sync_to_async(_read_closed, thread_sensitive=False)(selector, kwargs)


@dataclass(frozen=True)
class Batch:
    """What one read of a stream found: the messages to send, in order; whether the stream
    ends once they are sent; whether more waits to be read at once (a page cut short)."""

    messages: list[str]
    ends: bool = False
    has_more: bool = False


ReadNext = Callable[[set[str], bool], Awaitable[Batch | None]]
"""A stream's read, given what woke it (the matches whose wake-ups came, and whether some may
have been lost): what is new for its viewer, or None once the viewer may see no more (the
token that opened it, or the watch code, no longer works)."""


class Heartbeats(Protocol):
    def until_due(self) -> float:
        """Seconds until the next heartbeat is due."""

    def beaten(self) -> None:
        """The heartbeat that was due is sent."""


class QuietBeats:
    """A heartbeat once the stream has been quiet a whole period: the wait for one starts
    again after each read. Right for a stream that renews nothing at its beats and whose
    viewer sees each event as it is written (a seat's, a player's)."""

    __slots__ = ("period",)

    def __init__(self, period: float) -> None:
        self.period = period

    def until_due(self) -> float:
        return self.period

    def beaten(self) -> None:
        """Nothing to move on: the next wait is a whole period again."""


class Beats:
    """A stream's heartbeats on a timer of their own: one every period from the stream's
    opening, whatever wakes it between them. A wait restarted by each notice would beat only
    once the match had been quiet a whole period, so the moments of the beats would tell a
    delayed spectator when the deal in play was written to."""

    __slots__ = ("period", "due")

    def __init__(self, period: float) -> None:
        self.period = period
        self.due = time.monotonic() + period

    def until_due(self) -> float:
        return max(0.0, self.due - time.monotonic())

    def beaten(self) -> None:
        """The beat that was due is sent: the next is due a period after it (one late beyond
        a period, a slow read's, skips the moments it missed rather than beating twice)."""
        now = time.monotonic()
        while self.due <= now:
            self.due += self.period


async def follow(
    waiter: Waiter,
    read_next: ReadNext,
    beats: Heartbeats,
    *,
    named: str,
) -> AsyncIterator[str]:
    """What `read_next` finds, sent as it is found: read, send, then wait for a wake-up,
    sending a heartbeat each time one is due first, and read again. It ends after a batch
    that ends the stream, when `read_next` finds the viewer may see no more, when the server
    stops (reading nothing more), or when the database fails (logged, with the stream
    `named`: the client resumes from its Last-Event-ID)."""
    try:
        while not waiter.closing:
            # Taken before the read: a wake-up that comes during it rings again.
            batch = await read_next(*waiter.take())
            if batch is None:
                return  # whoever holds the token or the code sees no more
            for message in batch.messages:
                yield message
            if batch.ends:
                return
            if batch.has_more:
                continue
            while not await waiter.wait(beats.until_due()):
                beats.beaten()
                yield HEARTBEAT
    except DATABASE_FAILURES:
        logger.warning("%s lost the database; closed", named)
