"""What the streams of one process share, so that a popular match costs the database the same
whatever its audience (issue #41, docs/streams.md): one read of what is new in a match for
every stream that follows it, and one renewal a period for every stream that keeps a row
counted open.

Both are bound to the running event loop (a server process has one; the tests run one per
test) and hold nothing once no stream asks."""

import asyncio
import contextlib
import logging
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from edge.database import DATABASE_FAILURES
from games.live.loop import read

logger = logging.getLogger(__name__)


class _Round:
    """The asks that the next read of a key answers, all with the same answer."""

    __slots__ = ("asks", "answers")

    def __init__(self) -> None:
        self.asks: list = []
        self.answers: list[asyncio.Future] = []


_next_rounds: dict[tuple[asyncio.AbstractEventLoop, Hashable], _Round] = {}
_readers: dict[tuple[asyncio.AbstractEventLoop, Hashable], asyncio.Task] = {}


async def shared_read(key: Hashable, ask: object, reader: Callable[..., Any]) -> Any:
    """`reader(asks=[...])`, read off the event loop (games.live.loop.read) once for every
    stream of this process that asks about `key` before the read starts, `ask` among the
    asks; every one of them gets the same answer (or the same error). An ask that comes while
    a read of `key` is under way waits for the next one, which starts as soon as that one
    ends: a notice that came during a read is in the next."""
    loop = asyncio.get_running_loop()
    slot = (loop, key)
    round_ = _next_rounds.get(slot)
    if round_ is None:
        round_ = _next_rounds[slot] = _Round()
    answer = loop.create_future()
    round_.asks.append(ask)
    round_.answers.append(answer)
    if slot not in _readers:
        _readers[slot] = loop.create_task(_read_rounds(slot, reader), name=f"asnas-read {key}")
    return await answer


async def _read_rounds(slot: tuple, reader: Callable[..., Any]) -> None:
    try:
        while True:
            # One turn of the event loop first: the streams woken by the same notice are all
            # ready to run now, and each asks before this read starts.
            await asyncio.sleep(0)
            round_ = _next_rounds.pop(slot, None)
            if round_ is None:
                return
            try:
                answer = await read(reader, asks=round_.asks)
            except Exception as error:  # each stream ends as its own read would have
                for waiting in round_.answers:
                    if not waiting.done():
                        waiting.set_exception(error)
                continue
            for waiting in round_.answers:
                if not waiting.done():  # a stream whose client left stopped waiting
                    waiting.set_result(answer)
    finally:
        del _readers[slot]


_held: dict[tuple[asyncio.AbstractEventLoop, Hashable], set] = {}
_renewers: dict[tuple[asyncio.AbstractEventLoop, Hashable], asyncio.Task] = {}


@contextlib.contextmanager
def renewed_together(
    key: Hashable, item: Hashable, period: float, renew: Callable[..., Any]
) -> Iterator[None]:
    """`item` renewed while the block runs, with every other item of `key` in this process,
    by one `renew(items=[...])` a `period` (the first a period after the first item came),
    read off the event loop. A renewal that fails is logged and tried again a period later:
    the rows live three periods. Call on the event loop."""
    loop = asyncio.get_running_loop()
    slot = (loop, key)
    _held.setdefault(slot, set()).add(item)
    if slot not in _renewers:
        _renewers[slot] = loop.create_task(
            _renew_rounds(slot, period, renew), name=f"asnas-renew {key}"
        )
    try:
        yield
    finally:
        held = _held.get(slot)
        if held is not None:
            held.discard(item)
            if not held:
                del _held[slot]


async def _renew_rounds(slot: tuple, period: float, renew: Callable[..., Any]) -> None:
    try:
        while slot in _held:
            await asyncio.sleep(period)
            items = sorted(_held.get(slot, ()), key=str)
            if not items:
                return
            try:
                await read(renew, items=items)
            except DATABASE_FAILURES as error:
                logger.warning("renewing %d streams failed (%s); trying again", len(items), error)
    finally:
        del _renewers[slot]
