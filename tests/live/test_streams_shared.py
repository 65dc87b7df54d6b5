"""A popular match on one worker (#41): a thousand streams of one match, seats' and live
spectators', cost one read of the database per write, not one per stream, and each still
gets exactly what a request of its viewer gets. Real Postgres, real notices, the streams'
own generators on one event loop (opened without the HTTP request each would cost: it is
the reads after the opening that are counted)."""

import dataclasses
import time
import uuid

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.http import stream_reads
from games.live import loop
from games.match import queries as match_queries
from games.spectating import commands as spectating_commands
from games.spectating import queries as spectating_queries
from players.tokens import hash_token
from tests.live_client import parse_message

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SEAT_STREAMS = 5
"""Streams of each of the two seated players (a player may follow from several tabs)."""
WATCHERS = 1000
"""Every stream of the match: the seats' and the live spectators'."""
AUDIENCES = 3
"""What these streams see differently: seat 0, seat 1, the live spectators."""
WRITES = 4


class Streams:
    """Streams followed on the live client's loop, each its messages as they come."""

    def __init__(self, live) -> None:
        self.live = live
        self.messages: dict[str, list[str]] = {}

    def follow(self, name: str, generator) -> None:
        self.messages[name] = []

        async def collect() -> None:
            async for message in generator:
                self.messages[name].append(message)

        self.live.loop.call_soon_threadsafe(self.live.loop.create_task, collect())

    def last_ids(self) -> list[int | None]:
        return [
            next(
                (parse_message(m.strip())["id"] for m in reversed(sent) if m.startswith("id:")),
                None,
            )
            for sent in list(self.messages.values())
        ]

    def wait_all_at(self, version: int, timeout: float = 300) -> None:
        """Until every stream has sent the event `version` (a deadline only so that a broken
        side fails rather than hangs: a working one takes a fraction of it)."""
        deadline = time.monotonic() + timeout
        while True:
            behind = [last for last in self.last_ids() if last != version]
            if not behind and len(self.messages) == WATCHERS:
                return
            assert time.monotonic() < deadline, f"{len(behind)} streams not at {version}"
            time.sleep(0.02)


def events_sent(messages: list[str]) -> list[dict]:
    return [parse_message(m.strip())["json"] for m in messages if m.startswith("id:")]


def test_a_thousand_streams_of_one_match_cost_one_read_per_write_not_one_per_stream(
    make_client, live, settings, monkeypatch
):
    settings.ASNAS_STREAM_HEARTBEAT_SECONDS = 600  # no beat, so no renewal, while counted
    # Each watch stream's row would be closed as it ends; these have none (see below).
    monkeypatch.setattr(spectating_commands, "watch_stream_close", lambda **kwargs: None)
    reads: list[int] = []
    read_closed = loop._read_closed

    def counted(selector, kwargs):  # in the worker thread, on its own connection
        with CaptureQueriesContext(connections[DEFAULT_DB_ALIAS]) as queries:
            found = read_closed(selector, kwargs)
        reads.append(len(queries))
        return found

    monkeypatch.setattr(loop, "_read_closed", counted)
    roya, babak = make_client("Roya"), make_client("Babak")
    body = {"humans": 2, "seed": 5, "turn_seconds": None, "spectators": "live"}
    created = roya.post("/api/v1/matches", body, format="json").json()
    url = f"/api/v1/matches/{created['id']}"
    view = babak.post(f"{url}/join", {"invite": created["invite"]}, format="json").json()
    live.wait_listening()

    # Each stream from the event before the latest: its first read sends it one event.
    after = view["version"] - 1
    streams = Streams(live)
    for number, client in enumerate((roya, babak)):
        loaded = match_queries.match_get(match_id=created["id"], player=client.player)
        for tab in range(SEAT_STREAMS):
            streams.follow(
                f"seat {number} tab {tab}",
                stream_reads.match_stream(
                    match=dataclasses.replace(loaded),
                    after=after,
                    token_hash=hash_token(client.token),
                ),
            )
    watched = spectating_queries.watch_get_by_code(watch_code=created["watch_code"])
    for number in range(WATCHERS - 2 * SEAT_STREAMS):
        # The rows that count them open are the endpoint's (watch_stream_open, tested in
        # tests/spectating): these streams are given an id of none, and renew none.
        streams.follow(
            f"spectator {number}",
            stream_reads.watch_stream(match=watched, after=after, stream_id=uuid.uuid4()),
        )
    streams.wait_all_at(view["version"])
    opening = len(reads)

    clients = {0: roya, 1: babak}
    for _ in range(WRITES):
        if view["status"] == "deal_over":
            view = roya.post(f"{url}/next-deal", {}, format="json").json()
        else:
            mine = clients[view["turn"]].get(url).json()
            action = next(
                (a for a in ("call", "hold") if a in mine["legal_actions"]),
                mine["legal_actions"][0],
            )
            view = (
                clients[view["turn"]]
                .post(f"{url}/actions", {"action": action}, format="json")
                .json()
            )
        streams.wait_all_at(view["version"])

    statements = sum(reads[opening:])
    per_write = statements / WRITES
    print(f"{WATCHERS} streams, {WRITES} writes: {per_write} statements a write, reads {reads}")
    # One statement a write when the streams share their reads; a read per stream is a
    # thousand, and the old watch stream's four statements each make it four thousand.
    assert 1 <= per_write <= AUDIENCES, (per_write, reads[opening:][:20])
    assert len(reads) - opening <= WRITES * AUDIENCES

    # The same bytes as a request of each viewer gets, for each stream.
    for number, client in enumerate((roya, babak)):
        listed = client.get(f"{url}/events?after={after}").json()["events"]
        for tab in range(SEAT_STREAMS):
            assert events_sent(streams.messages[f"seat {number} tab {tab}"]) == listed
    spectators = APIClient().get(
        f"/api/v1/watch/events?after={after}", headers={"Watch-Code": created["watch_code"]}
    )
    seen = spectators.json()["events"]
    assert len(seen) > WRITES
    for name, messages in streams.messages.items():
        if name.startswith("spectator"):
            assert events_sent(messages) == seen, name
