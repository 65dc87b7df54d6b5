"""The bodies of the stream endpoints: a match's event stream, a spectator's, the player's
stream of notices, and the long-polls of a match's events (docs/streams.md).

Each stream is the one loop of games.live.loop (the live room, which knows no domain)
with a read of its own. They read through the rooms' queries, so what they send is exactly
what the same reads answer over plain requests, filtered for the viewer's seat by the same
code (match_queries.events_seen)."""

import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.http import StreamingHttpResponse

from edge.database import DATABASE_FAILURES
from games.engine import PlayerLeft, SeatFreed, ends_match
from games.http import notices as player_notices
from games.live import wakeups
from games.live.loop import Batch, Beats, QuietBeats, follow, read
from games.live.shared import renewed_together, shared_read
from games.live.sse import HEARTBEAT, as_json, sse
from games.match import queries as match_queries
from games.match.loaded import LoadedMatch
from games.spectating import commands as spectating_commands
from games.spectating import queries as spectating_queries
from players import selectors as player_selectors

if TYPE_CHECKING:  # a player is handed in; the HTTP layer reads no player rows
    from players.models import Player


def event_stream_response(events: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    # No cache or proxy may hold the stream back (X-Accel-Buffering: nginx's buffering).
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _of_seat(event: dict, kind: type, seat: int | None) -> bool:
    """Whether `event` is a `kind` event (a seat_freed, a player_left) of `seat`."""
    return event["type"] == kind.type and event["seat"] == seat


@dataclass(frozen=True, slots=True)
class _Page:
    """A page of events as one viewer may see them, each with its message as sent."""

    events: list[dict]
    messages: list[str]
    has_more: bool

    @classmethod
    def of(cls, page: dict | None) -> "_Page | None":
        if page is None:
            return None
        events = page["events"]
        messages = [sse(event["type"], event, event["seq"]) for event in events]
        return cls(events, messages, page["has_more"])


class _SharedRead:
    """One read of a match shared by all its streams in this process (games.live.shared),
    and the pages made of it: the streams of one audience at one cursor (a match's thousand
    live spectators, all at its latest event) share one filtering and one framing too, so
    that what grows with the audience is a lookup per stream."""

    __slots__ = ("read", "pages")

    def __init__(self, read: match_queries.StreamsRead | None) -> None:
        self.read = read
        self.pages: dict[tuple, _Page | None] = {}

    def page(
        self, key: tuple, make: Callable[[match_queries.StreamsRead | None], dict | None]
    ) -> "_Page | None":
        """The page `make` makes of the read for the audience, cursor and credential of
        `key`, made once whoever asks for it."""
        if key not in self.pages:
            self.pages[key] = _Page.of(make(self.read))
        return self.pages[key]


def _read_for_streams(*, match_id: uuid.UUID, asks: list[tuple[int, str | None]]) -> _SharedRead:
    return _SharedRead(match_queries.events_for_streams(match_id=match_id, asks=asks))


async def _shared(match_id: uuid.UUID, after: int, token_hash: str | None) -> _SharedRead:
    """The read of the match's new events that this stream shares with the others of the
    process: `after` is its cursor, `token_hash` the token it lives by (a seat's stream)."""
    return await shared_read(
        ("match", match_id), (after, token_hash), partial(_read_for_streams, match_id=match_id)
    )


class _Cursor:
    """Where a match or watch stream is in its match's events, and where it ends: at the
    first event that ends it, and, for one opened on a match already over, at the latest
    event there was then (at once when it opened there), so that no stream waits for an end
    that came before it. A finished match may have events after its match_finished (stored
    before leaving a finished match was refused), and a restart may follow any time: the end
    is where the stream opened."""

    __slots__ = ("last", "over_at")

    def __init__(self, match: LoadedMatch, after: int) -> None:
        self.last = after
        self.over_at = match.row.version if match.state.status.ended else None

    def at_end(self) -> bool:
        return self.last == self.over_at

    def batch(
        self,
        page: "_Page",
        ends: Callable[[dict], bool],
        seen: Callable[[dict], None] | None = None,
    ) -> Batch:
        """`page`'s events as messages, up to the first that ends the stream; `seen`, when
        given, is told of each other one, in order, once the cursor is past it."""
        messages = []
        for event, message in zip(page.events, page.messages, strict=True):
            messages.append(message)
            self.last = event["seq"]
            if ends(event) or self.at_end():
                return Batch(messages, ends=True)
            if seen is not None:
                seen(event)
        return Batch(messages, has_more=page.has_more)


async def match_stream(*, match: LoadedMatch, after: int, token_hash: str) -> AsyncIterator[str]:
    """Every event after seq `after` (checked by match_queries.match_cursor) as the viewer may
    see it, then each new one as it is written, until the match ends (_Cursor), or the
    viewer's own seat is freed: whoever sits there next must not be followed with the
    leaver's eyes (their cards would show). It also ends, sending nothing more, once the
    token with `token_hash` (that opened it, or issued its ticket) no longer works: each read
    checks it in the same statement, and the token's rotation or revocation wakes the stream
    to read."""
    cursor = _Cursor(match, after)
    seat = match.viewer_seat

    def ends(event: dict) -> bool:
        return ends_match(event) or _of_seat(event, SeatFreed, seat)

    def seen(event: dict) -> None:
        if _of_seat(event, PlayerLeft, seat):
            # Loaded before its reader left: the next pages are read as a live spectator's,
            # as the rest of this one was (engine.views.with_eyes).
            match.viewer_left_at = event["seq"]

    async def read_next(_changed: set[str], _lost: bool) -> Batch | None:
        after, viewer = cursor.last, match_queries.reader(match)
        shared = await _shared(match.row.id, after, token_hash)
        page = shared.page(
            (viewer, after, token_hash),
            partial(match_queries.events_page_of, match=match, after=after, token_hash=token_hash),
        )
        return None if page is None else cursor.batch(page, ends, seen)

    with wakeups.watching(match_id=str(match.row.id), token_hash=token_hash) as waiter:
        yield HEARTBEAT  # the client knows the stream is open
        if cursor.at_end():
            return
        beats = QuietBeats(settings.ASNAS_STREAM_HEARTBEAT_SECONDS)
        named = f"a stream of match {match.row.id}"
        async for message in follow(waiter, read_next, beats, named=named):
            yield message


async def watch_stream(*, match: LoadedMatch, after: int, stream_id) -> AsyncIterator[str]:
    """A spectator's stream: as `match_stream` (after `after`, checked by
    spectating_queries.watch_cursor), with the events the match's spectators may see (a
    delayed spectator gets a deal's events once it has ended). It ends after the first event
    that ends the match, or at the latest event of a match already over, or when its watch
    code stops working (drawn again, or spectators off). Counted open in the database
    (spectating_commands.watch_stream_open) until it ends; renewed at each heartbeat, which
    comes every ASNAS_STREAM_HEARTBEAT_SECONDS from its opening (Beats), whatever is written
    meanwhile."""
    code_hash = match.row.watch_code_hash
    cursor = _Cursor(match, after)
    beats = Beats(settings.ASNAS_STREAM_HEARTBEAT_SECONDS)

    async def read_next(_changed: set[str], _lost: bool) -> Batch | None:
        after = cursor.last
        shared = await _shared(match.row.id, after, None)
        page = shared.page(
            ("watch", code_hash, after),
            partial(spectating_queries.watch_page_of, watch_code_hash=code_hash, after=after),
        )
        return None if page is None else cursor.batch(page, ends_match)

    renewal = renewed_together(
        "watch streams",
        stream_id,
        settings.ASNAS_STREAM_HEARTBEAT_SECONDS,
        _renew_watch_streams,
    )
    try:
        with wakeups.watching(match_id=str(match.row.id)) as waiter, renewal:
            yield HEARTBEAT
            if cursor.at_end():
                return
            named = f"a watch stream of match {match.row.id}"
            async for message in follow(waiter, read_next, beats, named=named):
                yield message
    finally:
        # A client gone: the row would expire by itself; closing it now updates the count.
        # Not while the server stops: its database may be stopping too, and a write that
        # waits for it would hold back the stream's clean end until the worker is killed.
        if not wakeups.stopping():
            with contextlib.suppress(Exception):
                await read(spectating_commands.watch_stream_close, match=match, stream_id=stream_id)


def _renew_watch_streams(*, items: list[uuid.UUID]) -> None:
    spectating_commands.watch_streams_renew(stream_ids=items)


async def player_stream(*, player: "Player", token_hash: str) -> AsyncIterator[str]:
    """your_turn, match_started and match_finished for every match the player sits in: first
    the turns waiting now, then each notice as it comes; until the token with `token_hash`
    (that opened it, or issued its ticket) no longer works, checked at each wake (which its
    rotation or revocation causes)."""
    watches: dict[str, player_notices.TurnWatch] = {}
    opened = False

    async def read_next(changed: set[str], lost: bool) -> Batch | None:
        nonlocal opened
        if not opened:
            # The wake-ups taken before it are in what it reads: every unfinished match as
            # it is now (one that finished meanwhile goes unannounced, as one just before).
            opened = True
            return await read_open()
        # A statement of its own: a wake may read several matches (each in a read of its
        # own, under the request deadline), or none.
        if not await read(player_selectors.token_works, token_hash=token_hash):
            return None  # rotated or revoked: whoever holds it learns no more
        found = []
        for match_id in sorted(changed | (set(watches) if lost else set())):
            watch = watches.setdefault(match_id, player_notices.TurnWatch())
            found += await read(
                player_notices.notices_of, player=player, match_id=match_id, watch=watch
            )
        return Batch([sse(name, data) for name, data in found])

    async def read_open() -> Batch:
        found = await read(player_notices.open_turns, player=player, watches=watches)
        # Sent once the turns waiting now are read: from this comment on, every change is
        # announced, so a client may start a match and count on its match_started.
        return Batch([HEARTBEAT, *(sse(name, data) for name, data in found)])

    with wakeups.watching(player_id=str(player.pk), token_hash=token_hash) as waiter:
        beats = QuietBeats(settings.ASNAS_STREAM_HEARTBEAT_SECONDS)
        named = f"the stream of player {player.pk}"
        async for message in follow(waiter, read_next, beats, named=named):
            yield message


def _events_now(*, match_id: str, player: "Player", after: int, token_hash: str) -> dict | None:
    """The `events` answer as a request made now with the token of `token_hash` would get
    it; None once the player no longer sits at the match (their seat was freed before deal 1)
    or the token no longer works (checked in the same statement as the events are read)."""
    match = match_queries.match_get(match_id=match_id, player=player)
    if match is None:
        return None
    return match_queries.events_page_while_token(match=match, after=after, token_hash=token_hash)


def long_poll(
    *, match: LoadedMatch, player: "Player", after: int, wait: float, token_hash: str
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
        spectating_queries.watch_events_now,
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
    with wakeups.watching(match_id=str(match.row.id), token_hash=opened_with) as waiter:
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
    yield as_json(page)
