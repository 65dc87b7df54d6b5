"""A spectator's streams and long-polls over time, real threads on real Postgres: their rows
count them exactly however the match is played and however often streams open and close, and
what a delayed spectator gets (bytes, moments, versions) does not depend on the deal in play
(docs/spectators.md)."""

import asyncio
import contextlib
import threading
import time

import pytest
from django.db import OperationalError, connection, connections
from django.test import AsyncClient
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import DomainError
from games.match import store as match_store
from games.models import EventBatch, WatchStream
from games.spectating import commands as spectating_commands
from games.spectating import queries as spectating_queries
from tests.live_client import sse_messages
from tests.spectating.test_spectators import play_until_deal_over, post

pytestmark = pytest.mark.django_db(transaction=True)

PERIOD = 1.0
"""ASNAS_STREAM_HEARTBEAT_SECONDS in these tests: a row lives three periods."""
LIFETIMES = 10
"""How many row lifetimes the streams are followed for."""


def recorded(live, url: str, headers: dict) -> tuple[list, object]:
    """The stream at `url` as it comes: a list of (moment, message) that fills, and the future
    whose cancellation closes the stream (the client gone)."""
    messages: list = []

    async def record() -> None:
        response = await AsyncClient().get(url, headers=headers)
        assert response.status_code == 200, response.content
        async for message in sse_messages(response):
            messages.append((time.monotonic(), message))

    return messages, live.run(record())


def unexpired(match_id: str) -> int:
    return WatchStream.objects.filter(match_id=match_id, expires_at__gt=timezone.now()).count()


def announce(match_id: str) -> None:
    """What each write of the match sends its streams (match_store.match_append's notice)."""
    match_store.match_announce(match_id=match_id, version=0, seats=[])


@pytest.mark.slow
def test_delayed_streams_beat_alike_and_stay_counted_whatever_the_deal_in_play_does(
    client, new_match, live, settings
):
    """Two delayed watch streams, one of a match with a deal in play that is written to five
    times a period and whose other watch stream closes and opens again every 0.7 periods
    (each announcing the match), one of a match with no deal in play and nothing written:
    for ten row lifetimes, each stream's row stays counted, and both get the same bytes at the
    same moments, a heartbeat a period from their opening."""
    settings.ASNAS_STREAM_HEARTBEAT_SECONDS = PERIOD
    live.wait_listening()
    in_play = new_match(seed=3, spectators="delayed")
    quiet = new_match(seed=3, spectators="delayed")
    ended = play_until_deal_over(client, quiet)
    assert (in_play["status"], ended["status"]) == ("in_deal", "deal_over")
    streams = {
        name: recorded(
            live, f"/api/v1/watch/stream?after={horizon}", {"Watch-Code": view["watch_code"]}
        )
        for name, view, horizon in (("in_play", in_play, 1), ("quiet", quiet, ended["version"]))
    }
    counted: dict[str, set[int]] = {"in_play": set(), "quiet": set(), "watchers": set()}
    start = time.monotonic()
    churned = 0
    while time.monotonic() - start < LIFETIMES * 3 * PERIOD + 1:
        for _ in range(3):
            announce(in_play["id"])
            time.sleep(PERIOD / 5)
        churn = live.run(_open_and_close("/api/v1/watch/stream?after=1", in_play["watch_code"]))
        churn.result(timeout=10)
        churned += 1
        counted["watchers"].add(client.get(f"/api/v1/matches/{in_play['id']}").json()["watchers"])
        counted["in_play"].add(unexpired(in_play["id"]))
        counted["quiet"].add(unexpired(quiet["id"]))
    for _, future in streams.values():
        future.cancel()
    # The held streams' rows never expired, whatever woke them; a closed one's went with it.
    assert counted["quiet"] == {1}
    assert counted["in_play"] <= {1, 2} and 1 in counted["in_play"], counted
    assert counted["watchers"] <= {1, 2} and 1 in counted["watchers"], counted
    held, alone = (streams[name][0] for name in ("in_play", "quiet"))
    beats = min(len(held), len(alone))
    assert beats >= LIFETIMES * 3 - 2, (len(held), len(alone), churned)
    assert abs(len(held) - len(alone)) <= 1
    assert [m for _, m in held[:beats]] == [{"comment": "keep-alive"}] * beats
    assert [m for _, m in alone[:beats]] == [{"comment": "keep-alive"}] * beats
    # The moments, by sequence rather than against the wall clock, as a busy machine makes any
    # beat late: no beat comes before its period since its stream opened (a wake-up never
    # brings one forward), and each beat of either stream comes with one of the other, within
    # half a period (the two streams share one event loop, so a late loop delays both alike).
    for stream in (held, alone):
        opened = stream[0][0]
        early = [n for n, (at, _) in enumerate(stream) if at - opened < (n - 0.5) * PERIOD]
        assert early == [], [round(at - opened, 2) for at, _ in stream]
    unpaired = {
        name: [at for at, _ in stream if min(abs(at - other) for other, _ in others) >= PERIOD / 2]
        for name, stream, others in (("in_play", held, alone), ("quiet", alone, held))
    }
    # One beat apiece at most, which the count above allows too: a beat a loaded machine made
    # more than a period late, skipped on one stream alone.
    assert all(len(moments) <= 1 for moments in unpaired.values()), unpaired


async def _open_and_close(url: str, code: str) -> None:
    """A watch stream opened, then closed as a server closes it when its client goes (its
    task cancelled) once its first bytes came; returns once it has ended."""
    opened = asyncio.Event()

    async def follow() -> None:
        response = await AsyncClient().get(url, headers={"Watch-Code": code})
        assert response.status_code == 200, response.content
        async for _ in sse_messages(response):
            opened.set()

    task = asyncio.create_task(follow())
    await asyncio.wait_for(opened.wait(), 10)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def test_one_address_opening_streams_on_many_matches_at_once_gets_exactly_its_cap(
    client, new_match, settings
):
    """24 opens from one address on 24 matches at the same moment: the address's count is
    taken under its own lock, so exactly ASNAS_WATCH_STREAMS_PER_ADDRESS (8) are open."""
    assert settings.ASNAS_WATCH_STREAMS_PER_ADDRESS == 8
    matches = [
        spectating_queries.watch_get_by_code(
            watch_code=new_match(seed=n, spectators="live")["watch_code"]
        )
        for n in range(24)
    ]
    barrier = threading.Barrier(len(matches))
    answers: list = [None] * len(matches)

    def open_one(number: int) -> None:
        barrier.wait()
        try:
            answers[number] = spectating_commands.watch_stream_open(
                match=matches[number], address="203.0.113.7"
            )
        except DomainError as refused:
            answers[number] = refused.code
        finally:
            connections.close_all()

    workers = [threading.Thread(target=open_one, args=(n,)) for n in range(len(matches))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    refused = [answer for answer in answers if isinstance(answer, str)]
    assert refused == ["watch_limit_address"] * 16, answers
    assert WatchStream.objects.count() == 8


@pytest.mark.parametrize("cut", ["new_code", "off", "database"])
def test_a_delayed_long_poll_cut_short_answers_the_horizon_as_its_version(
    client, new_match, live, cut, monkeypatch
):
    """A delayed spectator's long-poll, waiting at the horizon while a deal is in play, ended
    by a new code, by spectators off or by a database failure: the body's `version` is the
    horizon, as every other body they get, never the match's."""
    live.wait_listening()
    view = new_match(seed=3, spectators="delayed")
    code, url = view["watch_code"], f"/api/v1/matches/{view['id']}/spectators"
    assert view["status"] == "in_deal" and view["version"] > 1
    if cut == "database":
        monkeypatch.setattr(spectating_queries, "watch_events_now", _database_gone)
    polled = live.poll("/api/v1/watch/events?after=1&wait=20", {"Watch-Code": code})
    if cut != "database":
        while live.waiters() < 1:
            time.sleep(0.05)
        changed = {"spectators": "delayed", "new_code": True} if cut == "new_code" else {}
        post(client, url, changed or {"spectators": "off"})
    assert polled.result(timeout=15) == (200, {"version": 1, "has_more": False, "events": []})


def _database_gone(**kwargs):
    raise OperationalError("the database went away")


def test_a_delayed_page_ending_at_the_horizon_has_no_more_once_the_next_deal_started(
    client, new_match
):
    """A page that ends at the horizon is the last a delayed spectator may read: its
    `has_more` is false, as it was before the next deal started."""
    view = new_match(seed=3, spectators="delayed")
    code = view["watch_code"]
    view = play_until_deal_over(client, view)
    end = view["version"]
    match = spectating_queries.watch_get_by_code(watch_code=code)
    before = spectating_queries.watch_events(match=match, after=end - 3, limit=3)
    post(client, f"/api/v1/matches/{view['id']}/next-deal")
    match = spectating_queries.watch_get_by_code(watch_code=code)
    after = spectating_queries.watch_events(match=match, after=end - 3, limit=3)
    assert before == after
    assert (after["version"], after["has_more"], len(after["events"])) == (end, False, 3)


def test_the_delayed_view_costs_the_same_statements_and_bytes_with_a_deal_in_play(
    client, new_match
):
    """POST /watch on a delayed match at the end of a deal, then once the next has begun:
    the same body and the same statements, none of them reading the events (the view is the
    state stored as the deal in play began, not a replay of the match)."""
    view = new_match(seed=3, spectators="delayed")
    code = view["watch_code"]
    play_until_deal_over(client, view)
    ended, ran_at_end = watched(code)
    post(client, f"/api/v1/matches/{view['id']}/next-deal")
    in_play, ran_in_play = watched(code)
    assert in_play == ended
    assert ran_in_play == ran_at_end
    assert not any(EventBatch._meta.db_table in sql for sql in ran_in_play)


def watched(code: str) -> tuple[bytes, list[str]]:
    """POST /watch's body, and the statements it ran."""
    with CaptureQueriesContext(connection) as queries:
        answer = APIClient().post("/api/v1/watch", {"watch_code": code}, format="json")
    assert answer.status_code == 200, answer.json()
    return answer.content, [query["sql"] for query in queries.captured_queries]
