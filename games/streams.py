"""The live reads: a match's event stream, the player's stream of notices, and the long-poll
of a match's events (docs/streams.md).

They run on the server's event loop and hold nothing while they wait but a Waiter
(games.notices): no thread, no database connection. When rung they read through the
selectors in a worker thread, whose connection goes back to the pool at once, so what they
send is exactly what the same reads answer over plain requests, filtered for the viewer's
seat by the same code (selectors.events_seen)."""

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.http import StreamingHttpResponse
from rest_framework.renderers import JSONRenderer

from edge.database import DATABASE_FAILURES, watchdog
from games import notices, selectors, services
from games.engine import (
    MatchFinished,
    Notice,
    PlayerLeft,
    SeatFreed,
    Status,
    ends_match,
    starts_series,
    starts_turn,
)
from games.repository import LoadedMatch
from games.serializers import NOTICE_SHAPES
from players import selectors as player_selectors
from players.models import Player

logger = logging.getLogger(__name__)

HEARTBEAT = ": keep-alive\n\n"
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


def _ends_stream(event: dict, viewer: int | None) -> bool:
    """The match ended, or the viewer's own seat was freed: whoever sits there next must
    not be followed with the leaver's eyes (their cards would show)."""
    return ends_match(event) or _of_seat(event, SeatFreed, viewer)


def _of_seat(event: dict, kind: type, seat: int | None) -> bool:
    """Whether `event` is a `kind` event (a seat_freed, a player_left) of `seat`."""
    return event["type"] == kind.type and event["seat"] == seat


async def match_stream(*, match: LoadedMatch, after: int, token_hash: str) -> AsyncIterator[str]:
    """Every event after seq `after` (checked by selectors.match_cursor) as the viewer may
    see it, then each new one as it is written, until the match ends: the stream ends after
    the first event that ends it, and one opened on a match already over ends at the latest
    event there was then (at once when `after` is that event), so that no stream waits for
    an end that came before it. It also ends, sending nothing more, once the token with
    `token_hash` (that opened it, or issued its ticket) no longer works: each read checks it
    in the same statement, and the token's rotation or revocation wakes the stream to read."""
    with notices.watching(match_id=str(match.row.id), token_hash=token_hash) as waiter:
        yield HEARTBEAT  # the client knows the stream is open
        last = after
        # A finished match may have events after its match_finished (stored before leaving a
        # finished match was refused), and a restart may follow any time: the end is here.
        over_at = match.row.version if match.state.status.ended else None
        if last == over_at:
            return
        while not waiter.closing:
            # Taken before the read: a notice that comes during it rings again.
            waiter.take()
            try:
                page = await read(
                    selectors.match_events_while_token,
                    match=match,
                    after=last,
                    token_hash=token_hash,
                )
            except DATABASE_FAILURES:
                logger.warning("a stream of match %s lost the database; closed", match.row.id)
                return  # the client resumes from its Last-Event-ID
            if page is None:
                return  # its token was rotated or revoked: whoever holds it sees no more
            for event in page["events"]:
                yield sse(event["type"], event, event["seq"])
                last = event["seq"]
                if _ends_stream(event, match.viewer_seat) or last == over_at:
                    return
                if _of_seat(event, PlayerLeft, match.viewer_seat):
                    # Loaded before its reader left: the next pages are read as a live
                    # spectator's, as the rest of this one was (engine.views.with_eyes).
                    match.viewer_left_at = last
            if page["has_more"]:
                continue
            while not await waiter.wait(settings.ASNAS_STREAM_HEARTBEAT_SECONDS):
                yield HEARTBEAT


def _events_now(*, match_id: str, player: Player, after: int, token_hash: str) -> dict | None:
    """The `events` answer as a request made now with the token of `token_hash` would get
    it; None once the player no longer sits at the match (their seat was freed before deal 1)
    or the token no longer works (checked in the same statement as the events are read)."""
    match = selectors.match_get(match_id=match_id, player=player)
    if match is None:
        return None
    return selectors.match_events_while_token(match=match, after=after, token_hash=token_hash)


def long_poll(
    *, match: LoadedMatch, player: Player, after: int, wait: float, token_hash: str
) -> AsyncIterator[str]:
    """The `events` answer once there is an event after `after`, or with none after `wait`
    seconds: the JSON body, sent when known; with none either if the token of `token_hash`
    was rotated or revoked meanwhile."""
    return _long_poll(
        match,
        match.row.version,
        wait,
        _events_now,
        token_hash,
        match_id=str(match.row.id),
        player=player,
        after=after,
        token_hash=token_hash,
    )


def watch_long_poll(
    *, match: LoadedMatch, after: int, wait: float, horizon: int
) -> AsyncIterator[str]:
    """The `watch/events` answer, as `long_poll`: a spectator's page once there is an event
    they may see after `after`. `horizon` is the `version` of the page that found none: the
    answer's when it is cut short (a new code, spectators off, the database gone), since a
    delayed spectator's every body carries their horizon, never the match's version."""
    return _long_poll(
        match,
        horizon,
        wait,
        selectors.watch_events_now,
        None,
        watch_code_hash=match.row.watch_code_hash,
        after=after,
    )


async def _long_poll(
    match: LoadedMatch,
    version: int,
    wait: float,
    page_now: Callable,
    opened_with: str | None,
    **kwargs,
):
    """`page_now(**kwargs)` once it has events, or with none after `wait` seconds (`version`
    as that page's when none could be read); woken by the match's notices, and by the
    rotation or revocation of the token whose hash is `opened_with`."""
    deadline = time.monotonic() + wait
    nothing = {"version": version, "has_more": False, "events": []}
    with notices.watching(match_id=str(match.row.id), token_hash=opened_with) as waiter:
        while True:
            waiter.take()
            try:
                page = await read(page_now, **kwargs)
            except DATABASE_FAILURES:
                # Answered 200 already: say "nothing yet", and the next poll gets the 503.
                page = nothing
                break
            if page is None:
                # The reader no longer sits at the match (their seat was freed), or their
                # token or watch code is gone: nothing to see, now or later, as the next
                # poll's 401 or 404 says; answer at once rather than at the deadline.
                page = nothing
                break
            if page["events"] or not await waiter.wait(deadline - time.monotonic()):
                break
            if waiter.closing:
                # The server stops: "nothing yet" now, without reading again from a database
                # that may be stopping too; the next poll goes to another server.
                break
    yield _json(page)


class Beats:
    """A stream's heartbeats on a timer of their own: one every period from the stream's
    opening, whatever wakes it between them. A wait restarted by each notice would beat only
    once the match had been quiet a whole period, so the moments of the beats would tell a
    delayed spectator when the deal in play was written to, and a stream that renews its row
    at each beat would let it expire while open, under any play faster than a beat."""

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


async def watch_stream(*, match: LoadedMatch, after: int, stream_id) -> AsyncIterator[str]:
    """A spectator's stream: as `match_stream` (after `after`, checked by
    selectors.watch_cursor), with the events the match's spectators may see (a delayed
    spectator gets a deal's events once it has ended). It ends after the first event that
    ends the match, or at the latest event of a match already over, or when its watch code
    stops working (drawn again, or spectators off). Counted open in the database
    (services.watch_stream_open) until it ends; renewed at each heartbeat, which comes every
    ASNAS_STREAM_HEARTBEAT_SECONDS from its opening (Beats), whatever is written meanwhile."""
    code_hash = match.row.watch_code_hash
    beats = Beats(settings.ASNAS_STREAM_HEARTBEAT_SECONDS)
    try:
        with notices.watching(match_id=str(match.row.id)) as waiter:
            yield HEARTBEAT
            last = after
            # As in match_stream: a restart may follow a match_finished in the same read.
            over_at = match.row.version if match.state.status.ended else None
            if last == over_at:
                return
            while not waiter.closing:
                waiter.take()
                page = await read(selectors.watch_events_now, watch_code_hash=code_hash, after=last)
                if page is None:
                    return  # the code no longer watches this match
                for event in page["events"]:
                    yield sse(event["type"], event, event["seq"])
                    last = event["seq"]
                    if ends_match(event) or last == over_at:
                        return
                if page["has_more"]:
                    continue
                while not await waiter.wait(beats.until_due()):
                    beats.beaten()
                    await read(services.watch_stream_renew, stream_id=stream_id)
                    yield HEARTBEAT
    except DATABASE_FAILURES:
        logger.warning("a watch stream of match %s lost the database; closed", match.row.id)
    finally:
        # A client gone: the row would expire by itself; closing it now updates the count.
        # Not while the server stops: its database may be stopping too, and a write that
        # waits for it would hold back the stream's clean end until the worker is killed.
        if not notices.stopping():
            with contextlib.suppress(Exception):
                await read(services.watch_stream_close, match=match, stream_id=stream_id)


# --- The player's stream -------------------------------------------------------------------


class TurnWatch:
    """What the player's stream knows of one match: the last version read, and whether it
    was the player's turn then."""

    __slots__ = ("version", "my_turn", "watchers")

    def __init__(self) -> None:
        self.version = 0
        self.my_turn = False
        self.watchers = 0


def _is_my_turn(match: LoadedMatch) -> bool:
    state, seat = match.state, match.viewer_seat
    return state.status is Status.IN_DEAL and state.deal.turn == seat and not state.ai_plays(seat)


def _notices_of(*, player: Player, match_id: str, watch: TurnWatch) -> list[tuple[str, dict]]:
    """The player's notices from what happened in the match since `watch.version`, which
    this moves on: match_started, match_finished, your_turn."""
    match = selectors.match_get(match_id=match_id, player=player)
    if match is None:
        return []
    found = []
    # Two reads, not one snapshot: a write that commits between them is left out here, so
    # that the events agree with the state read before them, and is read on its own notice.
    page = selectors.match_events(match=match, after=watch.version)["events"]
    events = [event for event in page if event["seq"] <= match.row.version]
    new_turn = not watch.my_turn
    for event in events:
        # A turn that starts while it is the player's turn follows their own move: new.
        new_turn = new_turn or starts_turn(event)
        if starts_series(event):
            found.append(_notice(Notice.MATCH_STARTED, match_id=match.row.id))
        elif event["type"] == MatchFinished.type:
            found.append(
                _notice(
                    Notice.MATCH_FINISHED,
                    match_id=match.row.id,
                    winners=event["winners"],
                    totals=match.state.totals,
                )
            )
    watch.version = events[-1]["seq"] if events else watch.version
    if match.watchers != watch.watchers:
        watch.watchers = match.watchers
        found.append(
            _notice(Notice.WATCHERS_CHANGED, match_id=match.row.id, watchers=match.watchers)
        )
    watch.my_turn = _is_my_turn(match)
    if watch.my_turn and new_turn:
        found.append(_your_turn(match))
    return found


def _notice(name: Notice, **data) -> tuple[Notice, dict]:
    return name, NOTICE_SHAPES[name].render(data)


def _your_turn(match: LoadedMatch) -> tuple[Notice, dict]:
    return _notice(Notice.YOUR_TURN, match_id=match.row.id, deadline=match.row.turn_deadline)


def _open_turns(*, player: Player, watches: dict[str, TurnWatch]) -> list[tuple[str, dict]]:
    """your_turn for each of the player's unfinished matches where it is their turn now;
    fills `watches` with every one of them."""
    found = []
    for match_id in selectors.match_ids_unfinished(player=player, limit=OPEN_MATCHES_LIMIT):
        match = selectors.match_get(match_id=match_id, player=player)
        if match is None:
            continue
        watch = watches[str(match_id)] = TurnWatch()
        watch.version, watch.my_turn = match.row.version, _is_my_turn(match)
        watch.watchers = match.watchers
        if watch.my_turn:
            found.append(_your_turn(match))
    return found


async def player_stream(*, player: Player, token_hash: str) -> AsyncIterator[str]:
    """your_turn, match_started and match_finished for every match the player sits in: first
    the turns waiting now, then each notice as it comes; until the token with `token_hash`
    (that opened it, or issued its ticket) no longer works, checked at each wake (which its
    rotation or revocation causes)."""
    watches: dict[str, TurnWatch] = {}
    with notices.watching(player_id=str(player.pk), token_hash=token_hash) as waiter:
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
                # A statement of its own: a wake may read several matches (each in a read of
                # its own, under the request deadline), or none.
                if not await read(player_selectors.token_works, token_hash=token_hash):
                    return  # rotated or revoked: whoever holds it learns no more
                found = []
                for match_id in sorted(changed | (set(watches) if lost else set())):
                    watch = watches.setdefault(match_id, TurnWatch())
                    found += await read(_notices_of, player=player, match_id=match_id, watch=watch)
        except DATABASE_FAILURES:
            logger.warning("the stream of player %s lost the database; closed", player.pk)
