"""The match's event log, read: its events as stored in EventBatch rows (one row per write),
numbered by seq, whole or by range, by pattern, or one deal's; and everything stored for a
match at once, for checking it against its events."""

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Subquery, Value
from django.db.models.functions import Coalesce

from games.engine import Event, decode_event
from games.match.projection import numbered_lines
from games.models import Deal, EventBatch, Match, Seat
from players.models import Token


def match_event_lines(
    *, match_id: uuid.UUID, first: int = 1, last: int | None = None
) -> list[tuple[int, datetime, str]]:
    """(seq, time written, encoded event) for the events `first` to `last` (to the end when
    None) of the match, in order. Reads only the batches that hold them."""
    batches = EventBatch.objects.filter(match_id=match_id, seq__gte=first)
    if last is not None:
        # The batch that holds `last` is the first to end at or after it.
        holder = EventBatch.objects.filter(match_id=match_id, seq__gte=last).order_by("seq")
        batches = batches.filter(seq__lte=Coalesce(Subquery(holder.values("seq")[:1]), Value(last)))
    lines = []
    for end, created_at, text in batches.order_by("seq").values_list("seq", "created_at", "events"):
        for seq, line in numbered_lines([(end, text)]):
            if first <= seq and (last is None or seq <= last):
                lines.append((seq, created_at, line))
    return lines


def match_lines_matching(*, match_id: uuid.UUID, line: str) -> list[tuple[int, datetime, str]]:
    """(seq, time written, encoded event) for the match's events whose encoded line matches
    the regular expression `line` whole, in order. Postgres picks the batches that hold one,
    so a long match is not read whole."""
    pattern = re.compile(line)
    batches = EventBatch.objects.filter(match_id=match_id, events__regex=f"(?n)^{line}$")
    return [
        (seq, created_at, text)
        for end, created_at, events in batches.order_by("seq").values_list(
            "seq", "created_at", "events"
        )
        for seq, text in numbered_lines([(end, events)])
        if pattern.fullmatch(text)
    ]


def match_events(
    *, match_id: uuid.UUID, first: int = 1, last: int | None = None
) -> list[tuple[int, Event]]:
    """As `match_event_lines`, decoded: (seq, event)."""
    lines = match_event_lines(match_id=match_id, first=first, last=last)
    return [(seq, decode_event(line)) for seq, _, line in lines]


def match_events_after(*, match_id: uuid.UUID, after: int, limit: int) -> list[tuple[int, Event]]:
    """Up to `limit` events of the match after seq `after`, in order, as (seq, event)."""
    # Every batch holds at least one event: `limit` batches hold `limit` events or more.
    rows = (
        EventBatch.objects.filter(match_id=match_id, seq__gt=after)
        .order_by("seq")
        .values_list("seq", "events")[:limit]
    )
    return _events_of(rows, after, limit)


def _events_of(batches: Iterable[tuple[int, str]], after: int, limit: int) -> list:
    lines = [(seq, line) for seq, line in numbered_lines(batches) if seq > after][:limit]
    return [(seq, decode_event(line)) for seq, line in lines]


# One row with `works` false when the token is gone, else a row per batch (one of NULLs when
# there is none): the stream's check costs no round trip of its own.
_EVENTS_WHILE_TOKEN = (
    "SELECT k.works, b.seq, b.events FROM"
    f" (SELECT EXISTS (SELECT 1 FROM {Token._meta.db_table} WHERE token_hash = %s) AS works) k"
    f" LEFT JOIN LATERAL (SELECT seq, events FROM {EventBatch._meta.db_table}"
    " WHERE match_id = %s AND seq > %s ORDER BY seq LIMIT %s) b ON k.works"
)


def match_events_while_token(
    *, match_id: uuid.UUID, after: int, limit: int, token_hash: str
) -> list[tuple[int, Event]] | None:
    """As `match_events_after`, read in the same statement as the check that the token with
    `token_hash` still works; None once it does not (rotated or revoked)."""
    with connection.cursor() as cursor:
        cursor.execute(_EVENTS_WHILE_TOKEN, [token_hash, match_id, after, limit])
        rows = cursor.fetchall()
    if not rows[0][0]:
        return None
    return _events_of(((seq, text) for _, seq, text in rows if seq is not None), after, limit)


# One statement for every stream of a process that follows the match (games.live.shared): the
# tokens among theirs that still work, what the match's spectators may see and through which
# code, its version, the deal in play, and the events after the earliest of their cursors.
# One row of the match's fields (NULL events) when there is no event; none without the match.
# Each subquery names the match itself, not through `m.id`: so Citus runs it on one shard.
_EVENTS_FOR_STREAMS = (
    "SELECT k.working, k.spectators, k.watch_code_hash, k.version, k.in_play, b.seq, b.events"
    " FROM (SELECT"
    f" ARRAY(SELECT token_hash FROM {Token._meta.db_table} WHERE token_hash = ANY(%s)) AS working,"
    " m.spectators, m.watch_code_hash, m.version,"
    f" (SELECT started_seq FROM {Deal._meta.db_table} d WHERE d.match_id = %s"
    " AND d.outcome = '' ORDER BY started_seq DESC LIMIT 1) AS in_play"
    f" FROM {Match._meta.db_table} m WHERE m.id = %s) k"
    f" LEFT JOIN LATERAL (SELECT seq, events FROM {EventBatch._meta.db_table}"
    " WHERE match_id = %s AND seq > %s ORDER BY seq LIMIT %s) b ON true"
    " ORDER BY b.seq"
)


@dataclass(frozen=True, slots=True)
class StreamsRead:
    """What one statement read for every stream of a match in a process."""

    after: int
    """The earliest cursor among the streams': `events` are the ones after it."""
    events: list[tuple[int, Event]]
    full: bool
    """Whether `events` was cut at the limit: more may follow its last."""
    working_tokens: frozenset[str]
    """The hashes, among those asked about, of the tokens that still work."""
    spectators: str
    watch_code_hash: str
    version: int
    in_play_from: int | None
    """The seq of the deal_started of the deal still being played (read in the same
    statement as the events, so judged on them: see store.deal_in_play_from)."""


def match_events_for_streams(
    *, match_id: uuid.UUID, after: int, limit: int, token_hashes: Iterable[str]
) -> StreamsRead | None:
    """Up to `limit` events of the match after seq `after`, with what every stream needs to
    judge them for its viewer, in one statement; None when there is no such match."""
    with connection.cursor() as cursor:
        cursor.execute(
            _EVENTS_FOR_STREAMS,
            [sorted(token_hashes), match_id, match_id, match_id, after, limit],
        )
        rows = cursor.fetchall()
    if not rows:
        return None
    working, spectators, watch_code_hash, version, in_play = rows[0][:5]
    batches = [(seq, text) for *_, seq, text in rows if seq is not None]
    events = _events_of(batches, after, limit)
    return StreamsRead(
        after=after,
        events=events,
        full=len(events) >= limit,
        working_tokens=frozenset(working),
        spectators=spectators,
        watch_code_hash=watch_code_hash,
        version=version,
        in_play_from=in_play,
    )


def deal_events(*, match_id: uuid.UUID, series: int, deal_number: int) -> list[tuple[int, Event]]:
    """The events of one deal, from its deal_started to the event before the next deal (or
    the match's last event), as (seq, event); empty for a deal that does not exist."""
    starts = Deal.objects.filter(match_id=match_id).order_by("started_seq")
    first = starts.filter(series=series, deal_number=deal_number).values_list(
        "started_seq", flat=True
    )
    if not first:
        return []
    after = starts.filter(started_seq__gt=first[0]).values_list("started_seq", flat=True)[:1]
    last = after[0] - 1 if after else None
    return match_events(match_id=match_id, first=first[0], last=last)


@dataclass(slots=True)
class StoredMatch:
    """Everything stored for one match, for checking it against its events."""

    row: Match
    events: list[tuple[int, str]]
    """(seq, encoded event) in seq order, as stored."""
    deals: list[Deal]
    writes: dict[int, datetime]
    """When each write was stored, by the seq of its last event."""
    seats: list[str | None]
    """The player id each seat row holds, in seat order (None: an open seat)."""


def match_stored(*, match_id: uuid.UUID) -> StoredMatch | None:
    """Everything stored for the match, under its row lock (call inside a transaction): every
    write locks that row first, so this is one consistent snapshot even on a live server."""
    row = Match.objects.select_for_update().filter(id=match_id).first()
    if row is None:
        return None
    batches = list(
        EventBatch.objects.filter(match_id=match_id)
        .order_by("seq")
        .values_list("seq", "events", "created_at")
    )
    events = list(numbered_lines((seq, text) for seq, text, _ in batches))
    writes = {seq: created_at for seq, _, created_at in batches}
    deals = list(Deal.objects.filter(match_id=match_id))
    seats = Seat.objects.filter(match_id=match_id).order_by("number").values_list("player_id")
    return StoredMatch(row, events, deals, writes, [pid and str(pid) for (pid,) in seats])
