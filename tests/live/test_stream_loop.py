"""The one stream loop (games.live.loop.follow) and where each stream kind ends: pure asyncio
with scripted reads, no database. The streams over a real database are in
tests/live/test_streams.py and tests/reliability/test_streams_server.py."""

import asyncio
from types import SimpleNamespace

from django.db import OperationalError

from games.engine import MatchFinished, PlayerLeft, SeatFreed
from games.http.stream_reads import _Cursor, _Page
from games.live.loop import Batch, Beats, QuietBeats, follow
from games.live.sse import HEARTBEAT
from games.live.wakeups import Waiter


def run(scenario):
    return asyncio.run(asyncio.wait_for(scenario(), 10))


class Script:
    """A stream's read that answers the given batches in turn, counting its reads."""

    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.reads = 0

    async def __call__(self, changed: set[str], lost: bool) -> Batch | None:
        self.reads += 1
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


async def sent(waiter: Waiter, read_next, beats=None, **kwargs) -> list[str]:
    beats = beats or QuietBeats(5)
    return [message async for message in follow(waiter, read_next, beats, named="a", **kwargs)]


def test_the_loop_ends_after_a_batch_that_ends_the_stream_reading_no_more():
    script = Script(Batch(["one", "two"], ends=True), Batch(["never"]))
    assert run(lambda: sent(Waiter(), script)) == ["one", "two"]
    assert script.reads == 1


def test_the_loop_ends_sending_nothing_more_once_the_viewer_may_see_no_more():
    # A token rotated or revoked, a watch code drawn again: the read answers None.
    async def scenario():
        waiter = Waiter()
        script = Script(Batch(["one"]), None, Batch(["never"]))
        asyncio.get_running_loop().call_later(0.05, waiter.ring, "a-match")
        return await sent(waiter, script), script.reads

    assert run(scenario) == (["one"], 2)


def test_the_loop_reads_a_page_cut_short_again_at_once_and_a_full_one_on_a_wake_up():
    async def scenario():
        waiter = Waiter()
        script = Script(Batch(["one"], has_more=True), Batch(["two"]), Batch(["three"], ends=True))
        following = asyncio.create_task(sent(waiter, script))
        await asyncio.sleep(0.1)
        reads_before_the_wake_up = script.reads
        waiter.ring("a-match")
        return await following, reads_before_the_wake_up

    assert run(scenario) == (["one", "two", "three"], 2)


def test_the_loop_ends_when_the_server_stops_without_reading_again():
    async def scenario():
        waiter = Waiter()
        script = Script(Batch(["one"]), Batch(["never"]))
        asyncio.get_running_loop().call_later(0.05, waiter.close)
        return await sent(waiter, script), script.reads

    assert run(scenario) == (["one"], 1)


def test_the_loop_ends_when_the_database_fails():
    script = Script(OperationalError("gone"), Batch(["never"]))
    assert run(lambda: sent(Waiter(), script)) == []


def test_the_loop_beats_on_a_timer_from_the_opening_that_a_wake_up_does_not_move():
    # The watch stream's beats (its row is renewed apart: games.live.shared).
    async def scenario():
        waiter, messages = Waiter(), []
        script = Script(Batch([]), Batch([]), Batch(["end"], ends=True))

        async def collect():
            async for message in follow(waiter, script, Beats(0.2), named="a"):
                messages.append(message)

        following = asyncio.create_task(collect())
        await asyncio.sleep(0.1)
        waiter.ring("a-match")  # read, and the beat stays due 0.2 s after the opening
        await asyncio.sleep(0.15)
        beaten = list(messages)
        waiter.ring("a-match")
        await following
        return beaten, messages

    beaten_by_then, messages = run(scenario)
    assert beaten_by_then == [HEARTBEAT], "the beat waited a period from the wake-up"
    assert messages == [HEARTBEAT, "end"]


def match(*, version: int, over: bool):
    status = SimpleNamespace(ended=over)
    return SimpleNamespace(
        row=SimpleNamespace(version=version), state=SimpleNamespace(status=status)
    )


def event(seq: int, kind: str = "action", **fields) -> dict:
    return {"seq": seq, "type": kind, **fields}


def page(*events, has_more=False) -> _Page:
    return _Page.of({"events": list(events), "has_more": has_more})


def ids(batch: Batch) -> list[int]:
    return [int(message.split("\n")[0].removeprefix("id: ")) for message in batch.messages]


def test_a_cursor_ends_at_the_event_that_ends_the_stream_and_sends_nothing_after_it():
    cursor = _Cursor(match(version=9, over=False), after=3)
    seen = []
    found = cursor.batch(
        page(event(4), event(5, MatchFinished.type), event(6)),
        lambda e: e["type"] == MatchFinished.type,
        seen.append,
    )
    assert (ids(found), found.ends, cursor.last, [e["seq"] for e in seen]) == ([4, 5], True, 5, [4])


def test_a_match_streams_cursor_ends_at_the_viewers_own_seat_freed_not_anothers():
    # As match_stream's ends: its viewer's seat freed ends it, another seat's does not.
    def ends(e):
        return e["type"] == SeatFreed.type and e["seat"] == 2

    cursor = _Cursor(match(version=9, over=False), after=0)
    found = cursor.batch(
        page(event(1, SeatFreed.type, seat=1), event(2, PlayerLeft.type, seat=2)),
        ends,
    )
    assert (ids(found), found.ends) == ([1, 2], False)
    assert cursor.batch(page(event(3, SeatFreed.type, seat=2), event(4)), ends).ends


def test_a_cursor_opened_on_a_match_over_ends_at_its_latest_event_then():
    # A restart may follow a finished match: the stream ends where the match stood.
    cursor = _Cursor(match(version=5, over=True), after=3)
    assert not cursor.at_end()
    found = cursor.batch(page(event(4), event(5), event(6), has_more=True), lambda e: False)
    assert (ids(found), found.ends, found.has_more) == ([4, 5], True, False)
    assert _Cursor(match(version=5, over=True), after=5).at_end()


def test_a_page_cut_short_says_so_and_a_cursor_of_a_match_in_play_never_ends_by_itself():
    cursor = _Cursor(match(version=9, over=False), after=0)
    found = cursor.batch(page(event(1), has_more=True), lambda e: False)
    assert (ids(found), found.ends, found.has_more, cursor.at_end()) == ([1], False, True, False)
