"""The waiter a stream waits on: a pure asyncio object, no database."""

import asyncio

import pytest

from games.live.wakeups import Waiter


def test_a_waiter_cancelled_as_it_is_rung_ends_cancelled():
    async def scenario() -> None:
        waiter = Waiter()
        waiting = asyncio.create_task(waiter.wait(15))
        await asyncio.sleep(0)  # it waits now
        # Rung, and cancelled in the same turn of the loop: a client gone as a notice came.
        waiter.ring("a-match")
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(scenario())


def test_a_waiter_tells_a_ring_from_a_timeout():
    async def scenario() -> tuple[bool, bool]:
        waiter = Waiter()
        quiet = await waiter.wait(0.01)
        waiter.ring("a-match")
        return quiet, await waiter.wait(15)

    assert asyncio.run(scenario()) == (False, True)


def test_a_closed_waiter_stops_waiting_at_once_and_for_good():
    """What a stopping server does to every open stream: it ends now, not at its next ring."""

    async def scenario() -> tuple[bool, bool]:
        waiter = Waiter()
        waiting = asyncio.create_task(waiter.wait(15))
        await asyncio.sleep(0)  # it waits now
        waiter.close()
        first = await asyncio.wait_for(waiting, 1)
        waiter.take()  # a stream takes what rang it, then would wait again
        return first, await asyncio.wait_for(waiter.wait(15), 1)

    assert asyncio.run(scenario()) == (True, True)
