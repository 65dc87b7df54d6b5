"""The live reads: a match's event stream, the player's stream of notices, and the long-poll
of a match's events (docs/streams.md).

They run on the server's event loop and hold nothing while they wait but a Waiter
(games.notices): no thread, no database connection. When rung they read through the
selectors in a worker thread, whose connection goes back to the pool at once, so what they
send is exactly what the same reads answer over plain requests, filtered for the viewer's
seat by the same code (selectors.events_seen)."""

import logging
import time
from collections.abc import AsyncIterator, Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import StreamingHttpResponse
from rest_framework.renderers import JSONRenderer

from edge.database import DATABASE_FAILURES, watchdog
from games import notices, selectors
from games.engine import Status
from games.repository import LoadedMatch, match_list
from players.models import Player

logger = logging.getLogger(__name__)

HEARTBEAT = ": keep-alive\n\n"
ENDED = (Status.FINISHED, Status.ABANDONED)
OPEN_MATCHES_LIMIT = 100
"""The player's stream announces the turns of at most this many unfinished matches when it
opens (the newest); later turns in any match are announced as they come."""


def _json(data) -> str:
    """As DRF writes every other body: compact, UTF-8."""
    return JSONRenderer().render(data).decode()


def sse(event: str, data: dict, event_id: int | None = None) -> str:
    """One Server-Sent Event. JSON holds no raw newline, so `data` is one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {_json(data)}\n\n"


def event_stream_response(events: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    # No cache or proxy may hold the stream back (X-Accel-Buffering: nginx's buffering).
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


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


def _ends_match(event: dict) -> bool:
    return event["type"] == "match_finished" or (
        event["type"] == "player_left" and event["abandoned"]
    )


async def match_stream(*, match: LoadedMatch, after: int) -> AsyncIterator[str]:
    """Every event after seq `after` as the viewer may see it, then each new one as it is
    written, until the match ends. A comment line at least every heartbeat."""
    with notices.watching(match_id=str(match.row.id)) as waiter:
        yield HEARTBEAT  # the client knows the stream is open
        last = after
        if match.state.status in ENDED and last >= match.row.version:
            return
        while not waiter.closing:
            # Taken before the read: a notice that comes during it rings again.
            waiter.take()
            try:
                page = await read(selectors.match_events, match=match, after=last)
            except DATABASE_FAILURES:
                logger.warning("a stream of match %s lost the database; closed", match.row.id)
                return  # the client resumes from its Last-Event-ID
            for event in page["events"]:
                yield sse(event["type"], event, event["seq"])
                last = event["seq"]
            if page["has_more"]:
                continue
            if page["events"] and _ends_match(page["events"][-1]):
                return
            while not await waiter.wait(settings.ASNAS_STREAM_HEARTBEAT_SECONDS):
                yield HEARTBEAT


def _events_now(*, match_id: str, player: Player, after: int) -> dict:
    """The `events` answer as a request made now would get it."""
    return selectors.match_events(
        match=selectors.match_get(match_id=match_id, player=player), after=after
    )


async def long_poll(*, match: LoadedMatch, player: Player, after: int, wait: float):
    """The `events` answer once there is an event after `after`, or with none after `wait`
    seconds: the JSON body, sent when known."""
    deadline = time.monotonic() + wait
    match_id = str(match.row.id)
    with notices.watching(match_id=match_id) as waiter:
        while True:
            waiter.take()
            try:
                page = await read(_events_now, match_id=match_id, player=player, after=after)
            except DATABASE_FAILURES:
                # Answered 200 already: say "nothing yet", and the next poll gets the 503.
                page = {"version": match.row.version, "has_more": False, "events": []}
                break
            if page["events"] or not await waiter.wait(deadline - time.monotonic()):
                break
            if waiter.closing:
                # The server stops: "nothing yet" now, without reading again from a database
                # that may be stopping too; the next poll goes to another server.
                break
    yield _json(page)


# --- The player's stream -------------------------------------------------------------------


class TurnWatch:
    """What the player's stream knows of one match: the last version read, and whether it
    was the player's turn then."""

    __slots__ = ("version", "my_turn")

    def __init__(self) -> None:
        self.version = 0
        self.my_turn = False


def _is_my_turn(match: LoadedMatch) -> bool:
    state, seat = match.state, match.viewer_seat
    return state.status is Status.IN_DEAL and state.deal.turn == seat and not state.ai_plays(seat)


def _notices_of(*, player: Player, match_id: str, watch: TurnWatch) -> list[tuple[str, dict]]:
    """The player's notices from what happened in the match since `watch.version`, which
    this moves on: match_started, match_finished, your_turn."""
    match = selectors.match_get(match_id=match_id, player=player)
    if match is None:
        return []
    seat, found = match.viewer_seat, []
    # Two reads, not one snapshot: a write that commits between them is left out here, so
    # that the events agree with the state read before them, and is read on its own notice.
    page = selectors.match_events(match=match, after=watch.version)["events"]
    events = [event for event in page if event["seq"] <= match.row.version]
    new_turn = not watch.my_turn
    for event in events:
        if event["type"] == "deal_started":
            new_turn = True
            if event["deal_number"] == 1:
                found.append(("match_started", {"match_id": match_id}))
        elif event["type"] == "action" and event["seat"] == seat and event["action"] != "look":
            new_turn = True  # that turn is over; a turn of the player's now is a new one
        elif event["type"] == "match_finished":
            totals = [str(total) for total in match.state.totals]
            found.append(
                (
                    "match_finished",
                    {"match_id": match_id, "winners": event["winners"], "totals": totals},
                )
            )
    watch.version = events[-1]["seq"] if events else watch.version
    watch.my_turn = _is_my_turn(match)
    if watch.my_turn and new_turn:
        deadline = selectors.match_view(match=match)["turn_deadline"]
        found.append(("your_turn", {"match_id": match_id, "deadline": deadline}))
    return found


def _open_turns(*, player: Player, watches: dict[str, TurnWatch]) -> list[tuple[str, dict]]:
    """your_turn for each of the player's unfinished matches where it is their turn now;
    fills `watches` with every one of them."""
    found = []
    unfinished = match_list(player=player).exclude(status__in=[status.value for status in ENDED])
    for match_id in unfinished.values_list("id", flat=True)[:OPEN_MATCHES_LIMIT]:
        match = selectors.match_get(match_id=match_id, player=player)
        if match is None:
            continue
        watch = watches[str(match_id)] = TurnWatch()
        watch.version, watch.my_turn = match.row.version, _is_my_turn(match)
        if watch.my_turn:
            deadline = selectors.match_view(match=match)["turn_deadline"]
            found.append(("your_turn", {"match_id": str(match_id), "deadline": deadline}))
    return found


async def player_stream(*, player: Player) -> AsyncIterator[str]:
    """your_turn, match_started and match_finished for every match the player sits in: first
    the turns waiting now, then each notice as it comes."""
    watches: dict[str, TurnWatch] = {}
    with notices.watching(player_id=str(player.pk)) as waiter:
        try:
            found = await read(_open_turns, player=player, watches=watches)
            # Sent once the turns waiting now are read: from this comment on, every change is
            # announced, so a client may start a match and count on its match_started.
            yield HEARTBEAT
            while not waiter.closing:
                for name, data in found:
                    yield sse(name, data)
                while not await waiter.wait(settings.ASNAS_STREAM_HEARTBEAT_SECONDS):
                    yield HEARTBEAT
                if waiter.closing:
                    break  # the server stops: end now, reading nothing more
                changed, lost = waiter.take()
                found = []
                for match_id in sorted(changed | (set(watches) if lost else set())):
                    watch = watches.setdefault(match_id, TurnWatch())
                    found += await read(_notices_of, player=player, match_id=match_id, watch=watch)
        except DATABASE_FAILURES:
            logger.warning("the stream of player %s lost the database; closed", player.pk)
