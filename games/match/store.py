"""The match room's store: the only code that reads or writes the match aggregate's rows
(Match, Seat, Deal and the EventBatch a write appends). A match is event-sourced: its
events are the truth (games.match.log reads them), and everything else is their projection
(games.match.projection and the engine's seating), which the writes here store."""

import json
import uuid
from collections.abc import Collection, Iterable, Iterator
from datetime import datetime

from django.db import connection
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from games.ai import skill
from games.engine import (
    DealStarted,
    Event,
    MatchState,
    Outcome,
    Seating,
    SpectatorMode,
    Status,
    encode_event,
    evolve,
    player_left_line,
)
from games.live.wakeups import NOTIFY_SQL, notice_payload
from games.match.loaded import LoadedMatch, SeatInfo
from games.match.log import match_lines_matching
from games.match.projection import deal_changes, match_columns, turn_deadline
from games.models import Deal, EventBatch, Match, Seat, Tournament, WatchCode, WatchStream
from games.review import store as review_store
from players.models import Player

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
# Every subquery names the match itself (`match_id = %s`, not `= m.id`): on Citus only a query
# whose every part names the distribution column's value runs on one shard (docs/scaling.md).
# An open seat (no player yet) is a human seat.
_MATCH_WITH_SEATS = (
    f"SELECT {', '.join(f'm.{field.column}' for field in _MATCH_FIELDS)}, "
    "(SELECT json_agg(json_build_object('name', p.name, 'kind', coalesce(p.kind, 'human'),"
    " 'player', s.player_id) ORDER BY s.number)"
    f" FROM {Seat._meta.db_table} s LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id"
    " WHERE s.match_id = %s)::text,"
    # Counted only where spectators may watch: most matches pay nothing for it.
    f" CASE WHEN m.spectators = '{SpectatorMode.OFF}' THEN 0 ELSE"
    f" (SELECT count(*) FROM {WatchStream._meta.db_table} w"
    " WHERE w.match_id = %s AND w.expires_at > now()) END"
    f" FROM {Match._meta.db_table} m WHERE m.id = %s"
)
_SEATED = (
    f" AND EXISTS (SELECT 1 FROM {Seat._meta.db_table} s"
    " WHERE s.match_id = %s AND s.player_id = %s)"
)


def match_load(
    *, match_id: uuid.UUID, player: Player | None, lock: bool = False
) -> LoadedMatch | None:
    """The match with its state and seats in one query, or None: a match `player` sits at,
    or with `player=None` any match (for joining it). `lock` locks the match row until the
    transaction ends: every write takes that lock first."""
    sql = _MATCH_WITH_SEATS + (_SEATED if player is not None else "")
    sql += " FOR UPDATE OF m" if lock else ""
    params = [match_id] * 3 if player is None else [match_id] * 4 + [player.pk]
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
    The search takes no lock: on Citus a search across matches asks every shard, where a
    lock is refused. The one chosen is then locked by its id, and one that another
    transaction holds is passed over for the next (SKIP LOCKED): that one is acting on it,
    so several clocks share the work and never act on one turn twice. So are the `skip` ones.
    A match that changed between the search and the lock has another version than the one
    returned, which the caller checks."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {SEQUENTIAL}")  # the AI's players may be created after it
    matches = Match.objects.exclude(id__in=skip).values_list("id", "version")
    queues = [
        matches.filter(turn_deadline__lte=turns_before).order_by("turn_deadline"),
        matches.filter(
            status=Status.DEAL_OVER.value,
            turn_seconds__isnull=False,
            updated_at__lte=deals_over_before,
        ).order_by("updated_at"),
    ]
    if fills_before is not None:
        queues.append(
            matches.filter(status=Status.WAITING.value, fill_at__lte=fills_before).order_by(
                "fill_at"
            )
        )
    for queue in queues:
        for match_id, version in queue[:_DUE_CANDIDATES]:
            if _lock_unless_held(match_id):
                return match_load(match_id=match_id, player=None, lock=True), version
    return None


# On Citus: the transaction's searches across shards take one connection a node, for Citus
# refuses to write a reference table (the AI's players, made the first time they sit)
# after a search over several connections a node in the same transaction. Postgres alone
# keeps the setting as a placeholder and ignores it.
SEQUENTIAL = "set_config('citus.multi_shard_modify_mode', 'sequential', true)"

# How many due matches of a queue a clock tries to lock before it looks at the next queue:
# the others are held by other clocks, which act on them.
_DUE_CANDIDATES = 8
_LOCK_UNLESS_HELD = (
    f"SELECT 1 FROM {Match._meta.db_table} WHERE {Match._meta.pk.column} = %s"
    " FOR UPDATE SKIP LOCKED"
)


def _lock_unless_held(match_id: uuid.UUID) -> bool:
    """Lock the match's row until the transaction ends, unless another transaction holds it
    (or it is gone): whether this one has it now."""
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_UNLESS_HELD, [match_id])
        return cursor.fetchone() is not None


_FIRST_DUE = (
    f"SELECT (SELECT min(turn_deadline) FROM {Match._meta.db_table}"
    " WHERE turn_deadline IS NOT NULL),"
    f" (SELECT min(updated_at) FROM {Match._meta.db_table}"
    " WHERE status = %s AND turn_seconds IS NOT NULL),"
    f" (SELECT min(fill_at) FROM {Match._meta.db_table} WHERE status = %s AND fill_at IS NOT NULL)"
)


def match_due_first() -> tuple[datetime | None, datetime | None, datetime | None]:
    """What the clock's three queues hold first: the earliest turn deadline, the earliest
    end of a clocked deal over (its `updated_at`) and the earliest `fill_at` of a waiting
    table, each None when its queue is empty."""
    with connection.cursor() as cursor:
        cursor.execute(_FIRST_DUE, [Status.DEAL_OVER.value, Status.WAITING.value])
        return cursor.fetchone()


# Each listed match's seats as the match view has them, read with the list in one statement.
_SEAT_LIST = RawSQL(
    "SELECT json_agg(json_build_object('name', p.name, 'kind', coalesce(p.kind, 'human'),"
    " 'player', s.player_id) ORDER BY s.number)"
    f" FROM {Seat._meta.db_table} s LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id"
    f" WHERE s.match_id = {Match._meta.db_table}.id",
    [],
)


def match_list(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    """The matches `player` sits at."""
    matches = Match.objects.filter(seats__player=player)
    if status is not None:
        matches = matches.filter(status=status)
    return matches.order_by("-created_at", "-id")


def match_list_with_seats(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    """As match_list, each row with `seat_list`: its seats (SeatInfo's fields) in seat order."""
    return match_list(player=player, status=status).annotate(seat_list=_SEAT_LIST)


def seat_infos(row: Match) -> list[SeatInfo]:
    """The seats a row of match_list_with_seats was read with."""
    return [SeatInfo(**seat) for seat in row.seat_list]


def match_count_in_play() -> int:
    return Match.objects.exclude(status=Status.FINISHED.value).count()


def match_ids_unfinished(*, player: Player, limit: int) -> list[uuid.UUID]:
    """The newest `limit` matches `player` sits at that are still played or waited for."""
    ended = [status.value for status in Status if status.ended]
    unfinished = match_list(player=player).exclude(status__in=ended)
    return list(unfinished.values_list("id", flat=True)[:limit])


def match_ai_level(*, match_id: uuid.UUID) -> str | None:
    """The match's AI level, or None when there is no such match."""
    return Match.objects.filter(id=match_id).values_list("ai_level", flat=True).first()


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
    """The players behind seats played through the API, humans and bots: their streams wake."""
    return [seat.player for seat in seats if seat.kind != Player.Kind.AI and seat.player]


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


def _reviews_due(row: Match, figures: dict[tuple[int, int], dict], now: datetime) -> list:
    """The statement that makes the reviews of the deals the write ends due (games.review):
    `figures` has a key for each, as skill.settled gives them."""
    statement = review_store.due_statement(match_id=row.pk, keys=figures, now=now)
    return [statement] if statement else []


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
    spectators: str = SpectatorMode.OFF,
    watch_code_hash: str = "",
    open: bool = False,
    bots: bool = False,
    fill_at: datetime | None = None,
    tournament: Tournament | None = None,
    tournament_pool: int | None = None,
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
        bots=bots,
        fill_at=fill_at,
        tournament=tournament,
        tournament_pool=tournament_pool,
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
            *_reviews_due(row, figures, now),
            _insert([_events_batch(row, 1, events, now)]),
            *(
                [_insert([WatchCode(code_hash=watch_code_hash, match_id=row.id)])]
                if watch_code_hash
                else []
            ),
        ],
        notice=notice_payload(row.pk, row.version, _humans(seats)),
    )
    return LoadedMatch(row, state, seats, 0, list(enumerate(events, start=1)))


def match_announce(*, match_id: uuid.UUID, version: int, seats: Iterable[SeatInfo]) -> None:
    """Wake the streams of the match and of its human players, which read what changed: for
    what is not an event (who may watch, how many are watching)."""
    with connection.cursor() as cursor:
        cursor.execute(NOTIFY_SQL, [notice_payload(match_id, version, _humans(seats))])


def seating_after(match: LoadedMatch, events: Iterable[Event]) -> Seating:
    """Who sits where and the AI level once `events` follow the match's rows. Only a
    command's own events seat anyone or set the level, never the AI's moves after it, so
    the seating after the command is the seating its whole write stores."""
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
    seating: Seating,
    newcomers: Iterable[Player] = (),
) -> None:
    """Append `events`, which lead from the stored state to `state`, with their projection,
    seats (taken by `newcomers`) and AI level included: `seating` is what `seating_after`
    makes of them, which the command worked out once already for the AI's level. Call inside
    a transaction, on a match loaded with its lock."""
    now = timezone.now()
    first_seq = match.row.version + 1
    before = match.row.state
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
            *_reviews_due(match.row, figures, now),
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


def matches_delete(*, match_ids: list[uuid.UUID]) -> int:
    """Delete these matches with every row of theirs (the ladder's housekeeping of old
    benchmark matches, docs/bots.md): how many rows went, of every table."""
    return Match.objects.filter(id__in=match_ids).delete()[0]
