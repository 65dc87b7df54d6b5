"""What a process's streams share (games.live.shared): one read for every stream of a match
that asks before it starts, and one renewal a period for every stream that keeps a row.
Pure asyncio with counting readers; the reads over a real database, counted statement by
statement, are in tests/live/test_streams_shared.py."""

import asyncio
import threading

import pytest
from django.db import OperationalError

from games.live.shared import renewed_together, shared_read


def run(scenario):
    return asyncio.run(asyncio.wait_for(scenario(), 10))


class Reader:
    """A reader that answers each round with its number and the asks it was given."""

    def __init__(self, fail_first: bool = False) -> None:
        self.rounds: list[list] = []
        self.fail_first = fail_first
        self.released = threading.Event()
        self.released.set()

    def __call__(self, *, asks: list) -> tuple[int, list]:
        self.released.wait(5)
        self.rounds.append(list(asks))
        if self.fail_first and len(self.rounds) == 1:
            raise OperationalError("gone")
        return len(self.rounds), list(asks)


def test_the_streams_that_ask_together_share_one_read_and_its_answer():
    reader = Reader()

    async def scenario():
        asks = [shared_read("a match", number, reader) for number in range(500)]
        return await asyncio.gather(*asks)

    answers = run(scenario)
    assert len(reader.rounds) == 1
    assert sorted(reader.rounds[0]) == list(range(500))
    assert all(answer is answers[0] for answer in answers)


def test_an_ask_during_a_read_waits_for_the_next_which_follows_at_once():
    reader = Reader()

    async def scenario():
        reader.released.clear()
        first = asyncio.create_task(shared_read("a match", "first", reader))
        await asyncio.sleep(0.05)  # the first read is under way, held by the reader
        late = [asyncio.create_task(shared_read("a match", n, reader)) for n in ("a", "b")]
        await asyncio.sleep(0.05)
        reader.released.set()
        return await first, await asyncio.gather(*late)

    first, late = run(scenario)
    assert first == (1, ["first"])
    assert late == [(2, ["a", "b"]), (2, ["a", "b"])]


def test_other_keys_are_read_apart():
    reader = Reader()

    async def scenario():
        return await asyncio.gather(shared_read("one", 1, reader), shared_read("two", 2, reader))

    answers = run(scenario)
    assert sorted(asks for _, asks in answers) == [[1], [2]]
    assert len(reader.rounds) == 2


def test_a_failed_read_fails_each_of_its_streams_and_the_next_read_is_made():
    reader = Reader(fail_first=True)

    async def scenario():
        failed = await asyncio.gather(
            *(shared_read("a match", n, reader) for n in range(3)), return_exceptions=True
        )
        return failed, await shared_read("a match", "again", reader)

    failed, again = run(scenario)
    assert [type(error) for error in failed] == [OperationalError] * 3
    assert again == (2, ["again"])


def test_a_stream_whose_client_left_does_not_stop_the_others_answer():
    reader = Reader()

    async def scenario():
        reader.released.clear()
        gone = asyncio.create_task(shared_read("a match", "gone", reader))
        stays = asyncio.create_task(shared_read("a match", "stays", reader))
        await asyncio.sleep(0.05)
        gone.cancel()
        reader.released.set()
        return await stays

    assert run(scenario) == (1, ["gone", "stays"])


def test_the_streams_of_a_process_are_renewed_together_once_a_period_while_open():
    renewals: list[list] = []

    def renew(*, items: list) -> None:
        renewals.append(items)

    async def rounds(count: int) -> None:
        # The renewal runs in a thread, which a busy machine may start late: fixed sleeps
        # (0.15 s with c, 0.1 s more without) let a late first round leave no round for a
        # and b alone. `run` bounds the wait.
        while len(renewals) < count:
            await asyncio.sleep(0.01)

    async def scenario():
        with renewed_together("rows", "a", 0.1, renew), renewed_together("rows", "b", 0.1, renew):
            with renewed_together("rows", "c", 0.1, renew):
                await rounds(1)
            await rounds(2)  # the next round takes its items after c left
        seen = len(renewals)
        await asyncio.sleep(0.25)
        return seen

    seen_while_open = run(scenario)
    assert renewals[0] == ["a", "b", "c"], "one renewal for the three"
    assert ["a", "b"] in renewals[1:], "the one that left is renewed no more"
    assert len(renewals) == seen_while_open, "none once all had left"


def test_a_failed_renewal_is_tried_again_a_period_later(caplog):
    calls: list[list] = []

    def renew(*, items: list) -> None:
        calls.append(items)
        if len(calls) == 1:
            raise OperationalError("gone")

    async def scenario():
        with renewed_together("rows", "a", 0.05, renew):
            while len(calls) < 2:
                await asyncio.sleep(0.01)

    run(scenario)
    assert calls == [["a"], ["a"]]
    assert "renewing 1 streams failed" in caplog.text


pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
