"""The repository: the only code that reads or writes match rows (Match, Seat, Deal,
EventBatch, and the rows that hang off a match: hints, commitments, watch tickets and watch
streams). A match is event-sourced: its events are the truth, and everything else is
their projection, which `match_columns`, `turn_deadline`, `deal_changes` and the engine's
seating (the seat rows and the ai_level column) define once for the writes, for
check_matches and for rebuild_projections alike."""

import json
import re
import secrets
import uuid
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.ai import skill
from games.engine import (
    DealEnded,
    DealStarted,
    Event,
    MatchState,
    Outcome,
    Seating,
    Status,
    abandons_deal,
    decode_event,
    encode_event,
    evolve,
    player_left_line,
    starts_turn,
)
from games.live.wakeups import NOTIFY_SQL, notice_payload
from games.models import Commitment, Deal, EventBatch, Hint, Match, Seat, WatchStream, WatchTicket
from players.models import Player, Token


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat, as a MatchView shows it: `name` and `player` are None at a human
    seat nobody has taken yet."""

    name: str | None
    kind: str
    player: str | None
    """The player's id, as text."""


@dataclass(slots=True)
class LoadedMatch:
    """A match row with the state it stores, its seats in seat order, and the seat of the
    player it was loaded for."""

    row: Match
    state: MatchState
    seats: list[SeatInfo]
    viewer_seat: int | None = None
    """None when loaded for someone not seated (a join)."""
    appended: list[tuple[int, Event]] = field(default_factory=list)
    """The events this request appended, with their seqs; empty for a match only read."""
    watchers: int = 0
    """How many watch streams are open on the match, over every server process."""
    watch_code: str | None = None
    """The watch code this request drew: only its hash is stored, so only this answer can
    show it."""
    viewer_left_at: int | None = None
    """The seq of the player_left of the player it was loaded for, once they left the table:
    they read every later event as a live spectator (engine.views.with_eyes)."""

    def admits(self, invite: str) -> bool:
        """Whether `invite` lets its holder join the table (or see it before joining): an
        open table's seats are anyone's; a table's need its invite; a single-player match
        has none to give."""
        # compare_digest: the time taken says nothing about how much of a guess was right.
        return bool(self.row.invite) and (
            self.row.open or secrets.compare_digest(self.row.invite.encode(), invite.encode())
        )


# --- The projection -------------------------------------------------------------------------


def match_columns(state: MatchState) -> dict:
    """The Match columns that project `state`."""
    return {
        "version": state.version,
        "status": state.status.value,
        "series": state.series,
        "deal_number": state.deal_number,
        "totals": [str(total) for total in state.totals],
        "winners": list(state.winners) if state.winners is not None else None,
        "state": state.to_dict(),
    }


def turn_deadline(
    state: MatchState,
    events: Iterable[Event],
    *,
    previous: datetime | None,
    written_at: datetime,
    turn_seconds: int | None,
) -> datetime | None:
    """When the seat to act runs out of time, after a write at `written_at` of `events` that
    led to `state`: None without a clock or unless a present human is to act. A turn starts
    at the write that deals or passes the turn, so it is derived from the time that write
    was stored (its EventBatch's created_at), never from an event; a look, the one action
    that keeps the turn, and a join or leave elsewhere keep the `previous` deadline."""
    if turn_seconds is None or state.status is not Status.IN_DEAL:
        return None
    if state.ai_plays(state.deal.turn):
        return None
    if any(starts_turn(event) for event in events):
        return written_at + timedelta(seconds=turn_seconds)
    return previous


@dataclass(frozen=True, slots=True)
class DealChange:
    """What one event does to the Deal rows: `insert` a row for `key` with `fields`, or
    update the row at `key` (every unfinished row of the match when `key` is None)."""

    key: tuple[int, int] | None
    fields: dict
    insert: bool = False


def deal_changes(seq: int, event: Event) -> list[DealChange]:
    """What event number `seq` does to the Deal rows. They keep only what the admin lists a
    deal by; its deck and result are read from its events."""
    if isinstance(event, DealStarted):
        fields = {"dealer": event.dealer, "started_seq": seq, "outcome": ""}
        return [DealChange((event.series, event.deal_number), fields, insert=True)]
    if isinstance(event, DealEnded):
        return [DealChange((event.series, event.deal_number), {"outcome": event.outcome})]
    if abandons_deal(event):
        return [DealChange(None, {"outcome": Outcome.ABANDONED})]
    return []


def deals_in_memory(deals: dict[tuple[int, int], dict], seq: int, event: Event) -> None:
    """Apply the deal changes of event number `seq` to `deals`, the deal rows' fields keyed
    by (series, deal_number): the projection of the Deal rows without a database."""
    for change in deal_changes(seq, event):
        if change.insert:
            deals[change.key] = dict(change.fields)
        elif change.key is not None:
            deals[change.key].update(change.fields)
        else:
            for deal in deals.values():
                if not deal["outcome"]:
                    deal.update(change.fields)


def numbered_lines(batches: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """(seq, encoded event) for each event of the (seq, events) batches."""
    for last, text in batches:
        lines = text.split("\n")
        yield from enumerate(lines, start=last - len(lines) + 1)


# --- Reads ----------------------------------------------------------------------------------

_MATCH_FIELDS = Match._meta.concrete_fields
_MATCH_ATTNAMES = [field.attname for field in _MATCH_FIELDS]
# The fields whose stored value Django converts on the way out (JSON, read as text).
_CONVERTED = [(n, f) for n, f in enumerate(_MATCH_FIELDS) if hasattr(f, "from_db_value")]


def _from_db(values: list) -> list:
    """The match row's values as the ORM would hand them to the model (what a RawQuerySet
    does, without the cost of its column matching on every request)."""
    for number, converted in _CONVERTED:
        values[number] = converted.from_db_value(values[number], None, connection)
    return values


# Raw SQL: the ORM takes longer to compile this query than Postgres takes to run it, and every
# action and view runs it (docs/performance.md).
# An open seat (no player yet) is a human seat.
_MATCH_WITH_SEATS = (
    f"SELECT {', '.join(f'm.{field.column}' for field in _MATCH_FIELDS)}, "
    "(SELECT json_agg(json_build_object('name', p.name, 'kind', coalesce(p.kind, 'human'),"
    " 'player', s.player_id) ORDER BY s.number)"
    f" FROM {Seat._meta.db_table} s LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id"
    " WHERE s.match_id = m.id)::text,"
    # Counted only where spectators may watch: most matches pay nothing for it.
    " CASE WHEN m.spectators = 'off' THEN 0 ELSE"
    f" (SELECT count(*) FROM {WatchStream._meta.db_table} w"
    " WHERE w.match_id = m.id AND w.expires_at > now()) END"
    f" FROM {Match._meta.db_table} m WHERE m.id = %s"
)
_SEATED = (
    f" AND EXISTS (SELECT 1 FROM {Seat._meta.db_table} s"
    " WHERE s.match_id = m.id AND s.player_id = %s)"
)


def match_load(
    *, match_id: uuid.UUID, player: Player | None, lock: bool = False
) -> LoadedMatch | None:
    """The match with its state and seats in one query, or None: a match `player` sits at,
    or with `player=None` any match (for joining it). `lock` locks the match row until the
    transaction ends: every write takes that lock first."""
    sql = _MATCH_WITH_SEATS + (_SEATED if player is not None else "")
    sql += " FOR UPDATE OF m" if lock else ""
    params = [match_id] if player is None else [match_id, player.pk]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    if found is None:
        return None
    *values, seats_json, watchers = found
    row = Match.from_db(connection.alias, _MATCH_ATTNAMES, _from_db(values))
    seats = [SeatInfo(**seat) for seat in json.loads(seats_json)]
    viewer = None if player is None else str(player.pk)
    viewer_seat = next((n for n, seat in enumerate(seats) if seat.player == viewer), None)
    state = MatchState.from_dict(row.state)
    match = LoadedMatch(row, state, seats, viewer_seat, watchers=watchers)
    if viewer_seat is not None and state.left[viewer_seat]:  # a query for leavers alone
        left = match_lines_matching(match_id=row.id, line=player_left_line(viewer_seat))
        match.viewer_left_at = left[0][0]
    return match


def match_id_watched(*, watch_code_hash: str) -> uuid.UUID | None:
    """The match whose watch code has this hash, if its spectators are not off."""
    found = Match.objects.filter(watch_code_hash=watch_code_hash).exclude(spectators="off")
    return found.values_list("id", flat=True).first() if watch_code_hash else None


def deal_in_play_from(*, match_id: uuid.UUID) -> int | None:
    """The seq of the deal_started of the match's deal still being played, or None. Read it
    after the events it is to judge: a deal that started after them is not among them, and
    one that ended since has ended."""
    in_play = Deal.objects.filter(match_id=match_id, outcome="").order_by("-started_seq")
    return in_play.values_list("started_seq", flat=True).first()


def deal_in_play(*, match_id: uuid.UUID) -> tuple[int, MatchState | None] | None:
    """The match's deal still being played, as the seq of its deal_started and the match's
    state just before it (None where it was not stored: see Deal.state_before), or None.
    Read after the events it is to judge, as `deal_in_play_from`."""
    in_play = Deal.objects.filter(match_id=match_id, outcome="").order_by("-started_seq")
    found = in_play.values_list("started_seq", "state_before").first()
    if found is None:
        return None
    started, before = found
    return started, None if before is None else MatchState.from_dict(before)


def match_lock_due(
    *,
    turns_before: datetime,
    deals_over_before: datetime,
    fills_before: datetime | None = None,
    skip: Collection[uuid.UUID] = (),
) -> tuple[LoadedMatch, int] | None:
    """A match where the clock is due, with the version it was due at, locked until the
    transaction ends; None when there is none. Due: a present human's turn whose deadline is
    before `turns_before`, a clocked match whose deal ended before `deals_over_before`, or
    a waiting table whose `fill_at` is before `fills_before`.
    Rows another transaction holds are skipped (SKIP LOCKED): that one is acting on them, so
    several clocks share the work and never act on one turn twice. So are the `skip` ones."""
    matches = (
        Match.objects.select_for_update(skip_locked=True)
        .exclude(id__in=skip)
        .values_list("id", "version")
    )
    due = (
        matches.filter(turn_deadline__lte=turns_before).order_by("turn_deadline").first()
        or matches.filter(
            status=Status.DEAL_OVER.value,
            turn_seconds__isnull=False,
            updated_at__lte=deals_over_before,
        )
        .order_by("updated_at")
        .first()
        or (
            matches.filter(status=Status.WAITING.value, fill_at__lte=fills_before)
            .order_by("fill_at")
            .first()
            if fills_before is not None
            else None
        )
    )
    if due is None:
        return None
    match_id, version = due
    # Locked already: this reads the row as the lock found it.
    return match_load(match_id=match_id, player=None, lock=True), version


def match_list(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    """The matches `player` sits at."""
    matches = Match.objects.filter(seats__player=player)
    if status is not None:
        matches = matches.filter(status=status)
    return matches.order_by("-created_at", "-id")


# --- Open tables ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableFilters:
    """Which open tables fit: with exactly `humans` human seats, a turn clock of at most
    `max_turn_seconds` (a table without a clock never fits a limit), AI seats at `ai_level`,
    and verifiable or not as `verifiable` says: a verifiable table shows every folded hand
    to all once its series ends, which nobody is to meet unasked, so by default none fits.
    None: any."""

    humans: int | None = None
    max_turn_seconds: int | None = None
    ai_level: str | None = None
    verifiable: bool | None = False


# Whether a match's series reveal their seeds (a match stored before verifiable dealing has
# no seeds, and reveals nothing).
_VERIFIABLE = "coalesce(({alias}.state -> 'seeds' ->> 'verifiable')::boolean, false)"


def _fitting(filters: TableFilters, *, alias: str = "m") -> tuple[str, list]:
    """The SQL condition, and its parameters, for the open waiting tables that fit."""
    sql = f"{alias}.open AND {alias}.status = 'waiting'"
    params: list = []
    if filters.humans is not None:
        sql += f" AND ({alias}.state -> 'table' ->> 'humans')::int = %s"
        params.append(filters.humans)
    if filters.max_turn_seconds is not None:
        sql += f" AND {alias}.turn_seconds <= %s"
        params.append(filters.max_turn_seconds)
    if filters.ai_level is not None:
        sql += f" AND {alias}.ai_level = %s"
        params.append(filters.ai_level)
    if filters.verifiable is not None:
        sql += f" AND {_VERIFIABLE.format(alias=alias)} = %s"
        params.append(filters.verifiable)
    return sql, params


# One query for the whole lobby, however many tables: their seats come aggregated.
_LOBBY = (
    "SELECT m.id, m.created_at, m.ai_level, m.turn_seconds, m.spectators, m.fill_at,"
    " (m.state -> 'table' ->> 'humans')::int,"
    f" {_VERIFIABLE.format(alias='m')},"
    " (SELECT json_agg(json_build_object('name', p.name, 'kind', coalesce(p.kind, 'human'),"
    " 'player', s.player_id) ORDER BY s.number)"
    f" FROM {Seat._meta.db_table} s LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id"
    " WHERE s.match_id = m.id)::text"
    f" FROM {Match._meta.db_table} m WHERE {{fitting}}"
    " ORDER BY m.created_at, m.id LIMIT %s"
)


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A table in the lobby: what someone choosing where to sit may know of it."""

    id: uuid.UUID
    created_at: datetime
    ai_level: str
    turn_seconds: int | None
    spectators: str
    fill_at: datetime | None
    humans: int
    verifiable: bool
    seats: list[SeatInfo]


def open_table(match: LoadedMatch) -> OpenTable:
    """A loaded match as the lobby reads a table (`tables_open`)."""
    row, seeds = match.row, match.state.seeds
    return OpenTable(
        id=row.id,
        created_at=row.created_at,
        ai_level=row.ai_level,
        turn_seconds=row.turn_seconds,
        spectators=row.spectators,
        fill_at=row.fill_at,
        humans=match.state.humans,
        verifiable=seeds is not None and seeds.verifiable,
        seats=match.seats,
    )


def tables_open(*, filters: TableFilters, limit: int) -> list[OpenTable]:
    """The open tables still waiting that fit `filters`, the longest waiting first, at most
    `limit` of them: one query."""
    fitting, params = _fitting(filters)
    with connection.cursor() as cursor:
        cursor.execute(_LOBBY.format(fitting=fitting), [*params, limit])
        rows = cursor.fetchall()
    return [
        OpenTable(*values, seats=[SeatInfo(**seat) for seat in json.loads(seats)])
        for *values, seats in rows
    ]


def table_lock_oldest_fitting(*, filters: TableFilters, player: Player) -> LoadedMatch | None:
    """The open table still waiting that fits `filters` and has waited longest, among those
    `player` does not sit at, locked until the transaction ends; None when there is none.
    The lock waits for a join in progress: if that join took the last seat, Postgres
    checks the row again, finds it no longer waiting and takes the next one, so exactly
    one of them gets the last seat."""
    fitting, params = _fitting(filters)
    sql = (
        f"SELECT m.id FROM {Match._meta.db_table} m WHERE {fitting}"
        f" AND NOT EXISTS (SELECT 1 FROM {Seat._meta.db_table} s"
        " WHERE s.match_id = m.id AND s.player_id = %s)"
        " ORDER BY m.created_at, m.id LIMIT 1 FOR UPDATE OF m"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, player.pk])
        found = cursor.fetchone()
    return None if found is None else match_load(match_id=found[0], player=None, lock=True)


QUICK_PLAY_LOCK = "quick-play:open"


def quick_play_lock() -> None:
    """Quick plays one at a time, until the transaction ends: each finds the tables the ones
    before it opened or filled."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [QUICK_PLAY_LOCK])


def commitment_insert(*, player: Player, server_seed: str, expires_at: datetime) -> Commitment:
    return Commitment.objects.create(player=player, server_seed=server_seed, expires_at=expires_at)


def commitment_lock(*, commitment_id: uuid.UUID, player: Player) -> Commitment | None:
    """The player's commitment, locked until the transaction ends; None if they have none
    of this id."""
    return Commitment.objects.select_for_update().filter(pk=commitment_id, player=player).first()


def commitment_use(commitment: Commitment) -> None:
    """Mark a locked commitment used, so that no other match deals from it."""
    commitment.used = True
    commitment.save(update_fields=["used"])


def commitments_purge(*, now: datetime) -> int:
    """Delete the commitments no match can take any more."""
    return Commitment.objects.filter(expires_at__lte=now).delete()[0]


def hint_insert(*, match: LoadedMatch, player: Player, state: MatchState, advice: dict) -> None:
    """Keep the advice `player` was given at this point of the match (docs/ai.md)."""
    Hint.objects.create(
        match_id=match.row.id,
        player=player,
        version=state.version,
        series=state.series,
        deal_number=state.deal_number,
        advice=advice,
    )


def watch_ticket_insert(*, ticket_hash: str, watch_code_hash: str, expires_at: datetime) -> None:
    WatchTicket.objects.create(
        ticket_hash=ticket_hash, watch_code_hash=watch_code_hash, expires_at=expires_at
    )


_WATCH_TICKET_TAKE = (
    f"DELETE FROM {WatchTicket._meta.db_table} WHERE ticket_hash = %s"
    " RETURNING watch_code_hash, expires_at"
)


def watch_ticket_take(*, ticket_hash: str) -> tuple[str, datetime] | None:
    """The watch code hash and expiry of the ticket, which is gone afterwards: the DELETE
    lets exactly one server take it. None for an unknown (or already taken) ticket."""
    with connection.cursor() as cursor:
        cursor.execute(_WATCH_TICKET_TAKE, [ticket_hash])
        return cursor.fetchone()


def watch_tickets_purge(*, now: datetime) -> int:
    return WatchTicket.objects.filter(expires_at__lt=now).delete()[0]


_WATCH_COUNTS = (
    "SELECT count(*) FILTER (WHERE match_id = %s), count(*) FILTER (WHERE address = %s),"
    f" count(*) FILTER (WHERE process = %s) FROM {WatchStream._meta.db_table}"
    " WHERE expires_at > now() AND (match_id = %s OR address = %s OR process = %s)"
)


def watch_streams_counted(
    *, match_id: uuid.UUID, address_hash: str, process: str
) -> tuple[int, int, int]:
    """The live watch streams of the match, of the address and of the process, with the
    address's and the match's advisory locks held to the end of the transaction, so that both
    counts stay exact across servers until the caller has inserted its own. The address's is
    taken first, always: two opens never wait for each other's second lock."""
    ids = [match_id, address_hash, process]
    with connection.cursor() as cursor:
        for key in (f"watch-address:{address_hash}", f"watch:{match_id}"):
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [key])
        cursor.execute(_WATCH_COUNTS, [*ids, *ids])
        return cursor.fetchone()


def watch_stream_insert(
    *, match_id: uuid.UUID, address_hash: str, process: str, expires_at: datetime
) -> uuid.UUID:
    return WatchStream.objects.create(
        match_id=match_id, address=address_hash, process=process, expires_at=expires_at
    ).id


def watch_stream_renew(*, stream_id: uuid.UUID, expires_at: datetime) -> None:
    WatchStream.objects.filter(id=stream_id).update(expires_at=expires_at)


def watch_stream_delete(*, stream_id: uuid.UUID) -> None:
    WatchStream.objects.filter(id=stream_id).delete()


def watch_streams_purge(*, now: datetime) -> int:
    """Delete the rows of watch streams that expired (their process died)."""
    return WatchStream.objects.filter(expires_at__lt=now).delete()[0]


def match_count_in_play() -> int:
    return Match.objects.exclude(status=Status.FINISHED.value).count()


def match_ids_unfinished(*, player: Player, limit: int) -> list[uuid.UUID]:
    """The newest `limit` matches `player` sits at that are still played or waited for."""
    ended = [status.value for status in Status if status.ended]
    unfinished = match_list(player=player).exclude(status__in=ended)
    return list(unfinished.values_list("id", flat=True)[:limit])


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


def deal_skills(*, match_id: uuid.UUID, series: int) -> dict[int, dict | None]:
    """The stored figures (docs/skill.md) of the series' ended deals, by deal number; None
    for a deal whose figures are not worked out yet."""
    # Not an abandoned deal: cut short, it has no result to split.
    settled = (Outcome.SHOWDOWN, Outcome.UNCONTESTED)
    ended = Deal.objects.filter(match_id=match_id, series=series, outcome__in=settled)
    return dict(ended.values_list("deal_number", "skill"))


def match_ids(*, among: Iterable[uuid.UUID] | None = None) -> Iterator[uuid.UUID]:
    """Every match id oldest first, or those of `among` that exist."""
    matches = Match.objects.all() if among is None else Match.objects.filter(id__in=among)
    return matches.order_by("created_at", "id").values_list("id", flat=True).iterator()


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


# --- Writes ---------------------------------------------------------------------------------

_PROJECTION = (*match_columns(MatchState()), "ai_level", "turn_deadline", "updated_at")
# A write that settles a deal changes the series' figures too; the others leave them be.
_WITH_SKILL = (*_PROJECTION, "skill")
_FIELDS = {
    names: [Match._meta.get_field(name) for name in names] for names in (_PROJECTION, _WITH_SKILL)
}
_UPDATE_PROJECTION = {
    names: f"UPDATE {Match._meta.db_table} SET "
    + ", ".join(f"{field.column} = %s" for field in fields)
    + f" WHERE {Match._meta.pk.column} = %s"
    for names, fields in _FIELDS.items()
}

# A write's statements are SQL written here rather than compiled by the ORM, which would spend
# longer compiling them than Postgres spends running them (docs/performance.md); values still
# go through the fields' get_db_prep_save, so they are stored exactly as the ORM stores them.
Statement = tuple[str, list]


def _update_projection(row: Match, names: tuple[str, ...] = _PROJECTION) -> Statement:
    """`row.save(update_fields=names)`."""
    fields = _FIELDS[names]
    values = [field.get_db_prep_save(getattr(row, field.attname), connection) for field in fields]
    return _UPDATE_PROJECTION[names], [*values, row.pk]


def _insert(objects: list) -> Statement:
    """`bulk_create(objects)` of one model, filling auto_now(_add) times as save() would."""
    opts = objects[0]._meta
    fields = [field for field in opts.concrete_fields if not field.auto_created]
    row = f"({', '.join(['%s'] * len(fields))})"
    params = [
        field.get_db_prep_save(field.pre_save(instance, add=True), connection)
        for instance in objects
        for field in fields
    ]
    columns = ", ".join(field.column for field in fields)
    return (
        f"INSERT INTO {opts.db_table} ({columns}) VALUES {', '.join([row] * len(objects))}",
        params,
    )


def _events_batch(row: Match, first_seq: int, events: list[Event], now: datetime) -> EventBatch:
    """The write's events as one EventBatch."""
    text = "\n".join(encode_event(event) for event in events)
    return EventBatch(match=row, seq=first_seq + len(events) - 1, events=text, created_at=now)


def _humans(seats: Iterable[SeatInfo]) -> list[str]:
    return [seat.player for seat in seats if seat.kind == Player.Kind.HUMAN and seat.player]


def _states_before_deals(stored: dict | None, events: list[Event]) -> Iterator[dict]:
    """The match's state just before each deal_started of `events`, in their order, as the
    match row stores a state: `stored` is the state before the first of them (None for a new
    match). A delayed spectator is shown the state before the deal in play (Deal.state_before):
    kept as it is written, it is read in one row where a replay would read every event."""
    if not any(isinstance(event, DealStarted) for event in events):
        return
    state = MatchState() if stored is None else MatchState.from_dict(stored)
    for event in events:
        if isinstance(event, DealStarted):
            yield state.to_dict()
        evolve(state, event)


def _deal_writes(
    row: Match,
    first_seq: int,
    events: list[Event],
    now: datetime,
    before: dict | None,
    figures: dict[tuple[int, int], dict],
) -> list:
    """The events' deal changes as statements: new rows in one insert, and updates of stored
    rows. They run in one statement, which sees no row it inserts and may update a row only
    once, so every change is first folded into what each row ends as. `before` is the stored
    state the events follow (None for a new match): a new row keeps the state before its
    deal, until the deal ends; a settled deal's row keeps its skill `figures` (by key, as
    `skill.settled` gives them: worked out by the write that ends the deal, never by a read)."""
    new: dict[tuple[int, int], Deal] = {}
    ended: dict[tuple[int, int], dict] = {}  # stored rows given an outcome
    abandoned: dict | None = None  # for every other stored row still unfinished
    states_before = _states_before_deals(before, events)
    for seq, event in enumerate(events, start=first_seq):
        for change in deal_changes(seq, event):
            if change.insert:
                series, deal_number = change.key
                new[change.key] = Deal(
                    match=row,
                    series=series,
                    deal_number=deal_number,
                    state_before=next(states_before),
                    **change.fields,
                )
                continue
            fields = {**change.fields, "ended_at": now, "state_before": None}
            if change.key in figures:
                fields["skill"] = figures[change.key]
            if change.key is None:
                abandoned = fields
                for deal in new.values():
                    if not deal.outcome:
                        for name, value in fields.items():
                            setattr(deal, name, value)
            elif change.key in new:
                for name, value in fields.items():
                    setattr(new[change.key], name, value)
            else:
                ended[change.key] = fields
    statements = [_insert(list(new.values()))] if new else []
    table = Deal._meta.db_table
    for (series, deal_number), fields in ended.items():
        skill_value = Deal._meta.get_field("skill").get_db_prep_save(
            fields.get("skill"), connection
        )
        statements.append(
            (
                f"UPDATE {table} SET outcome = %s, ended_at = %s, state_before = NULL, skill = %s"
                " WHERE match_id = %s AND series = %s AND deal_number = %s",
                [fields["outcome"], fields["ended_at"], skill_value, row.pk, series, deal_number],
            )
        )
    if abandoned is not None:
        sql = (
            f"UPDATE {table} SET outcome = %s, ended_at = %s, state_before = NULL"
            " WHERE match_id = %s AND outcome = ''"
        )
        params = [abandoned["outcome"], abandoned["ended_at"], row.pk]
        for series, deal_number in ended:
            sql += " AND (series, deal_number) <> (%s, %s)"
            params += [series, deal_number]
        statements.append((sql, params))
    return statements


def _run_as_one(statements: list[Statement], notice: str | None = None) -> None:
    """Run the write's statements as one, the first ones as data-modifying CTEs: one round
    trip. Foreign keys are checked at the end of the statement, so a row may refer to one
    inserted beside it. With a `notice`, the statement ends by sending it to the streams
    (games.live.wakeups): Postgres delivers it at commit, and never for a rolled-back write."""
    if notice is not None:
        statements = [*statements, (NOTIFY_SQL, [notice])]
    *before, (last, last_params) = statements
    ctes = ", ".join(f"write_{number} AS ({sql})" for number, (sql, _) in enumerate(before))
    params = [param for _, statement_params in before for param in statement_params]
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {ctes} {last}" if before else last, [*params, *last_params])


def _set_projection(row: Match, state: MatchState, events: list[Event], now: datetime) -> None:
    for name, value in match_columns(state).items():
        setattr(row, name, value)
    row.turn_deadline = turn_deadline(
        state, events, previous=row.turn_deadline, written_at=now, turn_seconds=row.turn_seconds
    )
    row.updated_at = now


def match_insert(
    *,
    players: list[Player | None],
    ai_level: str,
    seeded: bool,
    events: list[Event],
    state: MatchState,
    invite: str = "",
    turn_seconds: int | None = None,
    spectators: str = "off",
    watch_code_hash: str = "",
    open: bool = False,
    fill_at: datetime | None = None,
) -> LoadedMatch:
    """Store a new match owned by `players[0]`: its row, its seats (`players` in seat order,
    None for an open human seat), its first events and their projection. Call inside a
    transaction."""
    now = timezone.now()
    row = Match(
        id=uuid.uuid4(),
        owner=players[0],
        ai_level=ai_level,
        seed=state.seed,
        seeded=seeded,
        invite=invite,
        turn_seconds=turn_seconds,
        spectators=spectators,
        watch_code_hash=watch_code_hash,
        open=open,
        fill_at=fill_at,
    )
    _set_projection(row, state, events, now)
    figures, row.skill = skill.settled(state, events, row.skill)
    seats = [
        SeatInfo(player.name, player.kind, str(player.pk))
        if player
        else SeatInfo(None, Player.Kind.HUMAN, None)
        for player in players
    ]
    _run_as_one(
        [
            _insert([row]),
            _insert([Seat(match=row, number=n, player=player) for n, player in enumerate(players)]),
            *_deal_writes(row, 1, events, now, None, figures),
            _insert([_events_batch(row, 1, events, now)]),
        ],
        notice=notice_payload(row.pk, row.version, _humans(seats)),
    )
    return LoadedMatch(row, state, seats, 0, list(enumerate(events, start=1)))


def match_set_spectators(*, match: LoadedMatch, spectators: str, watch_code_hash: str) -> None:
    """Store who may watch and the hash of the watch code, and wake the match's streams (a
    watch stream whose code no longer works ends). Call on a match loaded with its lock."""
    Match.objects.filter(id=match.row.id).update(
        spectators=spectators, watch_code_hash=watch_code_hash
    )
    match.row.spectators, match.row.watch_code_hash = spectators, watch_code_hash
    match_announce(match_id=match.row.id, version=match.row.version, seats=match.seats)


def match_announce(*, match_id: uuid.UUID, version: int, seats: Iterable[SeatInfo]) -> None:
    """Wake the streams of the match and of its human players, which read what changed: for
    what is not an event (who may watch, how many are watching)."""
    with connection.cursor() as cursor:
        cursor.execute(NOTIFY_SQL, [notice_payload(match_id, version, _humans(seats))])


def seating_after(match: LoadedMatch, events: Iterable[Event]) -> Seating:
    """Who sits where and the AI level once `events` follow the match's rows."""
    rows = Seating.of_rows([each.player for each in match.seats], match.row.ai_level)
    return rows.follow(match.row.version + 1, events)


_SEAT_PLAYERS = (
    f"UPDATE {Seat._meta.db_table} s SET player_id = v.player"
    " FROM (VALUES {rows}) v(number, player) WHERE s.match_id = %s AND s.number = v.number"
)


def _seat_writes(match: LoadedMatch, seating: Seating, newcomers: Iterable[Player]) -> list:
    """The seat rows `seating` changes, as one statement (none when it changes none), and
    the match's seats in memory with them: a seat taken by one of `newcomers`, or open."""
    by_id = {str(p.pk): SeatInfo(p.name, p.kind, str(p.pk)) for p in newcomers}
    changed = [(n, pid) for n, pid in enumerate(seating.players) if pid != match.seats[n].player]
    for number, player in changed:
        match.seats[number] = by_id[player] if player else SeatInfo(None, Player.Kind.HUMAN, None)
    rows = ", ".join(["(%s::int, %s::uuid)"] * len(changed))
    params = [value for change in changed for value in change]
    return [(_SEAT_PLAYERS.format(rows=rows), [*params, match.row.pk])] if changed else []


def match_append(
    *,
    match: LoadedMatch,
    events: list[Event],
    state: MatchState,
    newcomers: Iterable[Player] = (),
) -> None:
    """Append `events`, which lead from the stored state to `state`, with their projection,
    seats (taken by `newcomers`) and AI level included. Call inside a transaction, on a match
    loaded with its lock."""
    now = timezone.now()
    first_seq = match.row.version + 1
    before = match.row.state
    seating = seating_after(match, events)
    seat_writes = _seat_writes(match, seating, newcomers)
    match.row.ai_level = seating.ai_level
    _set_projection(match.row, state, events, now)
    figures, match.row.skill = skill.settled(state, events, match.row.skill)
    # The projection, the seats, the deals, the events and the streams' notice in one
    # statement: one round trip, and one notice, which the players just seated get too.
    _run_as_one(
        [
            _update_projection(match.row, _WITH_SKILL if figures else _PROJECTION),
            *seat_writes,
            *_deal_writes(match.row, first_seq, events, now, before, figures),
            _insert([_events_batch(match.row, first_seq, events, now)]),
        ],
        notice=notice_payload(match.row.pk, match.row.version, _humans(match.seats)),
    )
    match.state = state
    match.appended = list(enumerate(events, start=first_seq))


def match_reproject(
    *,
    match_id: uuid.UUID,
    state: MatchState,
    deals: dict,
    deadline: datetime | None,
    seating: Seating,
) -> None:
    """Overwrite the stored projection of a match with `state`, its turn `deadline`, `deals`
    (as `deals_in_memory` builds them) and the seats and level `seating` knows (the rows
    stay the truth for the others), under its row lock: the repair of rebuild_projections."""
    row = Match.objects.select_for_update().get(id=match_id)
    for name, value in match_columns(state).items():
        setattr(row, name, value)
    if seating.level_known_from is not None:
        row.ai_level = seating.ai_level
    for number, player in enumerate(seating.players):
        if seating.seats_known_from[number] is not None:
            Seat.objects.filter(match=row, number=number).update(player_id=player)
    row.turn_deadline = deadline
    row.updated_at = timezone.now()
    _run_as_one([_update_projection(row)])
    Deal.objects.filter(match=row).delete()
    Deal.objects.bulk_create(
        Deal(match=row, series=series, deal_number=deal_number, **fields)
        for (series, deal_number), fields in deals.items()
    )
