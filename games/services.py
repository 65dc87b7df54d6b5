"""Services: every write to a match. Each one locks the match row, decides through the
engine, lets the AI seats act, and stores the new events with their projection, all in
one transaction."""

import os
import secrets
import socket
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from games import ai, hints, reactions, repository, selectors
from games.ai.coach import advice_key, coach
from games.engine import (
    HUMAN_SEAT,
    Act,
    Command,
    DomainError,
    FillSeats,
    Join,
    Leave,
    MatchState,
    NextDeal,
    Resign,
    Restart,
    Seeds,
    StartMatch,
    Status,
    Step,
    clock_move,
    fairness,
    legal_actions,
    new_seed,
    observe,
    require_turn,
    run_ai_seats,
)
from games.repository import LoadedMatch, TableFilters
from players import selectors as player_selectors
from players.models import Player
from players.services import player_ai_personas, stream_ticket_issue
from players.tokens import hash_token

AI_PERSONAS = ("Darius", "Shirin", "Kaveh")


TABLE_TURN_SECONDS = 60
"""The turn clock of a table when its owner names none."""
INVITE_BYTES = 24
"""192 random bits: an invite cannot be guessed."""
SPECTATORS_OFF = "off"
WATCH_CODE_BYTES = 24
"""192 random bits, like an invite: a watch code cannot be guessed."""


def _watch_code_draw() -> str:
    return secrets.token_urlsafe(WATCH_CODE_BYTES)


def default_turn_seconds(humans: int) -> int | None:
    return None if humans == 1 else TABLE_TURN_SECONDS


COMMITMENT_SECONDS = 600
"""How long a commitment may wait for the match it deals."""


@transaction.atomic
def commitment_create(*, player: Player) -> tuple[uuid.UUID, str, datetime]:
    """A server seed drawn now, before any client seed, for a match the player creates
    later: its id, its commitment (SHA-256, hex) and when it expires."""
    server_seed = secrets.token_bytes(fairness.SEED_BYTES).hex()
    expires_at = timezone.now() + timedelta(seconds=COMMITMENT_SECONDS)
    row = repository.commitment_insert(
        player=player, server_seed=server_seed, expires_at=expires_at
    )
    return row.id, fairness.commitment(bytes.fromhex(server_seed)), expires_at


def seeded_seeds(seed: int, *, client_seed: str = "", verifiable: bool = True) -> Seeds:
    """The first seeds of a match created with the test-only `seed` (docs/fairness.md)."""
    first, following = fairness.test_server_seed(seed, 1), fairness.test_server_seed(seed, 2)
    return Seeds(first, following, client_seed, verifiable)


def seeded_next_server_seed(seed: int, series: int) -> str:
    """A seeded match's server seed for the series after `series` + 1, which a restart into
    series `series` + 1 commits to."""
    return fairness.test_server_seed(seed, series + 2)


@transaction.atomic
def commitments_purge(*, now: datetime) -> int:
    """Delete the commitments that can no longer create a match."""
    return repository.commitments_purge(now=now)


def _commitment_take(commitment_id: uuid.UUID, *, player: Player, verifiable: bool) -> str:
    """The server seed of the player's commitment, which no other match may deal from now.
    A match that never reveals its seed would use a commitment up for nothing: refused,
    and the commitment stays as it was."""
    commitment = repository.commitment_lock(commitment_id=commitment_id, player=player)
    if commitment is None:
        raise DomainError("commitment_not_found", "No such commitment.")
    if not verifiable:
        raise DomainError(
            "commitment_not_verifiable",
            "A commitment is for a verifiable match, whose seed is revealed when its series "
            "ends; pass verifiable: true or leave the commitment out.",
        )
    if commitment.used:
        raise DomainError("commitment_used", "This commitment was used already; draw a new one.")
    if commitment.expires_at <= timezone.now():
        raise DomainError("commitment_expired", "This commitment has expired; draw a new one.")
    repository.commitment_use(commitment)
    return commitment.server_seed


def _first_seeds(
    *,
    player: Player,
    seed: int | None,
    commitment: uuid.UUID | None,
    client_seed: str,
    verifiable: bool,
) -> Seeds:
    """The seeds a new match deals its first series from: derived from the test-only
    `seed`, taken from the player's commitment, or drawn now; and the next series' seed."""
    if seed is not None:
        return seeded_seeds(seed, client_seed=client_seed, verifiable=verifiable)
    if commitment is None:
        first = secrets.token_bytes(fairness.SEED_BYTES).hex()
    else:
        first = _commitment_take(commitment, player=player, verifiable=verifiable)
    following = secrets.token_bytes(fairness.SEED_BYTES).hex()
    return Seeds(first, following, client_seed, verifiable)


@transaction.atomic
def match_create(
    *,
    owner: Player,
    ai_level: str,
    seed: int | None = None,
    humans: int = 1,
    turn_seconds: int | None = None,
    commitment: uuid.UUID | None = None,
    client_seed: str = "",
    verifiable: bool | None = None,
    spectators: str = SPECTATORS_OFF,
    open: bool = False,
    fill_after: int | None = None,
) -> LoadedMatch:
    """A new match with the owner at seat 0, open human seats up to `humans` - 1 and AI
    personas at the others. Alone, deal 1 starts at once and the AI seats that act before
    the owner have acted; a table waits for its humans, who join with its invite, or
    without it when the table is `open` (listed in the lobby). With `fill_after`, the
    clock seats the AI at the seats still open that many seconds from now, and deal 1
    starts. Unless `spectators` is off, a watch code is drawn, shown in this answer only.

    It deals verifiably (docs/fairness.md) from the `commitment`'s server seed if given,
    else from one drawn now. `verifiable` (whether the seeds are revealed as each series
    ends) is true by default alone and false at a table, where only its owner may choose it.
    """
    if humans == 1 and (open or fill_after is not None):
        raise DomainError("not_a_table", "Only a table (humans above 1) is open or filled.")
    if verifiable is None:
        verifiable = humans == 1
    seeds = _first_seeds(
        player=owner,
        seed=seed,
        commitment=commitment,
        client_seed=client_seed,
        verifiable=verifiable,
    )
    players = [owner, *[None] * (humans - 1), *player_ai_personas(names=AI_PERSONAS)[humans - 1 :]]
    step = Step(MatchState())
    step.apply(
        StartMatch(
            new_seed() if seed is None else seed,
            humans,
            seeds,
            ai_level=ai_level,
            players=tuple(None if player is None else str(player.pk) for player in players),
        )
    )
    run_ai_seats(step, ai.chooser(ai_level))
    watch_code = _watch_code_draw() if spectators != SPECTATORS_OFF else None
    match = reactions.insert(
        players=players,
        ai_level=ai_level,
        seeded=seed is not None,
        events=step.events,
        state=step.state,
        invite=secrets.token_urlsafe(INVITE_BYTES) if humans > 1 else "",
        turn_seconds=turn_seconds,
        spectators=spectators,
        watch_code_hash=hash_token(watch_code) if watch_code else "",
        open=open,
        fill_at=None if fill_after is None else timezone.now() + timedelta(seconds=fill_after),
    )
    match.watch_code = watch_code
    return match


def _next_server_seed(match: LoadedMatch) -> str | None:
    """The server seed of the series after the one a restart starts: drawn now, or for a
    seeded match derived from its seed, as its first ones were."""
    if match.state.seeds is None:
        return None
    if match.row.seeded:
        return seeded_next_server_seed(match.state.seed, match.state.series)
    return secrets.token_bytes(fairness.SEED_BYTES).hex()


def _match_apply(
    *,
    match_id: uuid.UUID,
    player: Player,
    command: Callable[[LoadedMatch], Command],
    expected_version: int | None,
) -> LoadedMatch:
    """Load the match `player` sits at, under its lock, and apply the command built for the
    player's seat."""
    match = repository.match_load(match_id=match_id, player=player, lock=True)
    if match is None:
        raise DomainError("not_found", "No such match.")
    return _match_step(match, command(match), expected_version=expected_version)


def _match_step(
    match: LoadedMatch,
    command: Command,
    *,
    expected_version: int | None,
    newcomers: Collection[Player] = (),
) -> LoadedMatch:
    """Apply `command`, then the AI seats' actions, and store their events; `newcomers` are
    the players the command may seat."""
    if expected_version is not None and expected_version != match.row.version:
        raise DomainError(
            "stale_version",
            f"The match is at version {match.row.version}, not {expected_version}; reload it.",
        )
    step = _step(match)
    step.apply(command)
    # The AI plays at the level the log says from now on (a restart may have changed it).
    level = repository.seating_after(match, step.events).ai_level
    run_ai_seats(step, ai.chooser(level))
    reactions.append(match=match, events=step.events, state=step.state, newcomers=newcomers)
    return match


@transaction.atomic
def match_act(
    *, match_id: uuid.UUID, player: Player, action: str, expected_version: int | None = None
) -> LoadedMatch:
    """The player's action at their seat, then the AI's actions up to a present human's next
    turn."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=lambda match: Act(_present_seat(match), action, "player"),
        expected_version=expected_version,
    )


@transaction.atomic
def match_next_deal(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> LoadedMatch:
    return _match_apply(
        match_id=match_id,
        player=player,
        command=_next_deal,
        expected_version=expected_version,
    )


@transaction.atomic
def match_restart(
    *,
    match_id: uuid.UUID,
    player: Player,
    expected_version: int | None = None,
    ai_level: str | None = None,
    client_seed: str = "",
) -> LoadedMatch:
    """A new 12-deal series with every total at zero; an unfinished deal is abandoned.
    `ai_level`, if given, is the AI seats' level from the new series on; a change of level
    is recorded in the match_restarted event."""

    def restart(match: LoadedMatch) -> Restart:
        changed = ai_level if ai_level != match.row.ai_level else None
        return Restart(
            match.viewer_seat,
            ai_level=changed,
            client_seed=client_seed,
            next_server_seed=_next_server_seed(match),
        )

    return _match_apply(
        match_id=match_id,
        player=player,
        command=restart,
        expected_version=expected_version,
    )


@transaction.atomic
def match_resign(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> LoadedMatch:
    """Alone, the owner gives the match up: it ends at once, the totals stand, and the
    winners are the leaders among the AI seats. At a shared table it is `match_leave`."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=lambda match: Resign(match.viewer_seat),
        expected_version=expected_version,
    )


@transaction.atomic
def match_leave(
    *, match_id: uuid.UUID, player: Player, expected_version: int | None = None
) -> LoadedMatch:
    """Before deal 1 a guest's seat is freed (anyone may take it, the guest too) and the
    owner's leaving closes the table (`abandoned`); after it the AI plays the player's seat
    for the rest of the match, and when no human is left the match ends `abandoned`. A
    finished match is refused (`match_finished`): there is nothing to leave."""
    return _match_apply(
        match_id=match_id,
        player=player,
        command=lambda match: Leave(match.viewer_seat),
        expected_version=expected_version,
    )


@transaction.atomic
def match_join(
    *, match_id: uuid.UUID, player: Player, invite: str, client_seed: str = ""
) -> LoadedMatch:
    """Seat `player` at the table's next open human seat. An open table needs no invite;
    else a wrong or missing invite is `not_found`, as for a match that does not exist. Deal
    1 starts when the last seat is taken."""
    match = selectors.table_admitting(
        match=repository.match_load(match_id=match_id, player=None, lock=True),
        player=player,
        invite=invite,
    )
    return _seat_at(match, player=player, client_seed=client_seed)


def _seat_at(match: LoadedMatch, *, player: Player, client_seed: str) -> LoadedMatch:
    """Seat `player` at the next open seat of `match`, loaded with its lock."""
    seat = match.state.open_seat()
    join = Join(player.name, client_seed, str(player.pk))
    _match_step(match, join, expected_version=None, newcomers=[player])
    match.viewer_seat = seat
    return match


QUICK_PLAY_HUMANS = 2
"""The size of a table quick play opens when the player names none."""
QUICK_PLAY_FILL_AFTER = 60
"""How long a table quick play opens waits for humans before the AI fills it."""


@transaction.atomic
def match_quick_play(
    *, player: Player, filters: TableFilters, client_seed: str = ""
) -> LoadedMatch:
    """Seat `player` at the open table that fits `filters` and has waited longest, or, when
    none does, open one that fits: `filters.humans` seats (QUICK_PLAY_HUMANS if not named),
    the AI at `filters.ai_level`, the default turn clock or the limit if shorter, verifiable
    if `filters.verifiable`, and the AI filling the seats still open after
    QUICK_PLAY_FILL_AFTER seconds.

    Quick plays take their turns (repository.quick_play_lock), so two that find no table at
    once do not both open one: the second finds the table the first opened and sits there.
    The turn comes before the look: one that looked first could hold the lock of a table it
    had found full while it waited for the turn, whose holder waited for that table (a
    deadlock). A table the player already sits at is never chosen;
    if their own other quick play seated them at the chosen table meanwhile, that table is
    the answer, unchanged."""
    repository.quick_play_lock()
    match = _quick_play_seat(player=player, filters=filters, client_seed=client_seed)
    if match is not None:
        return match
    humans = filters.humans or QUICK_PLAY_HUMANS
    turn_seconds = TABLE_TURN_SECONDS
    if filters.max_turn_seconds is not None:
        turn_seconds = min(turn_seconds, filters.max_turn_seconds)
    return match_create(
        owner=player,
        ai_level=filters.ai_level or ai.DEFAULT_AI_LEVEL,
        humans=humans,
        turn_seconds=turn_seconds,
        client_seed=client_seed,
        verifiable=filters.verifiable,
        open=True,
        fill_after=QUICK_PLAY_FILL_AFTER,
    )


def _quick_play_seat(
    *, player: Player, filters: TableFilters, client_seed: str
) -> LoadedMatch | None:
    match = repository.table_lock_oldest_fitting(filters=filters, player=player)
    if match is None:
        return None
    mine = str(player.pk)
    if any(seat.player == mine for seat in match.seats):
        match.viewer_seat = next(n for n, seat in enumerate(match.seats) if seat.player == mine)
        return match
    return _seat_at(match, player=player, client_seed=client_seed)


class ClockMoveFailed(Exception):
    """The clock's move in one match failed (and was rolled back)."""

    def __init__(self, match_id: uuid.UUID):
        super().__init__(f"the clock's move in match {match_id} failed")
        self.match_id = match_id


@dataclass(frozen=True, slots=True)
class ClockMove:
    match_id: uuid.UUID
    deadline: datetime | None
    """The deadline of the turn the clock took; None when it dealt the next deal or filled
    a table."""


@transaction.atomic
def match_clock_tick(*, now: datetime, skip: Collection[uuid.UUID] = ()) -> ClockMove | None:
    """The clock's move in one match where it is due (other than those in `skip`), and the
    AI seats' replies: the AI acts for a present human whose turn ran out (recorded `by`
    "clock"), deals the next deal of a clocked match whose deal ended a while ago, or
    seats the AI at the open seats of a table whose `fill_after` ran out (deal 1 starts).
    None when nothing is due; a move that fails raises ClockMoveFailed, which names the
    match."""
    grace = timedelta(seconds=settings.ASNAS_CLOCK_GRACE_SECONDS)
    pause = timedelta(seconds=settings.ASNAS_NEXT_DEAL_SECONDS)
    due = repository.match_lock_due(
        turns_before=now - grace, deals_over_before=now - pause, fills_before=now, skip=skip
    )
    if due is None:
        return None
    match, version = due
    if match.row.version != version:  # changed before the lock: the next poll looks again
        return None
    deadline = match.row.turn_deadline
    try:
        if match.state.status is Status.WAITING:
            _table_fill(match)
        else:
            _clock_move(match)
    except DatabaseError:
        raise  # the database's fault, not the match's
    except Exception as error:
        raise ClockMoveFailed(match.row.id) from error
    return ClockMove(match.row.id, deadline)


def _step(match: LoadedMatch) -> Step:
    """A step from the stored state (parsed for this request only, so the step may change
    it), with the match's events for the AI levels that watch the table."""
    step = Step(match.state)
    if match.row.ai_level in ai.WATCHING_LEVELS:
        step.earlier = [event for _, event in repository.match_events(match_id=match.row.id)]
    return step


def _clock_move(match: LoadedMatch) -> None:
    step, level = _step(match), match.row.ai_level
    clock_move(step, ai.chooser(level))
    reactions.append(match=match, events=step.events, state=step.state)


def _table_fill(match: LoadedMatch) -> None:
    """The AI takes the open seats of a waiting table (the AI personas not yet at it), and
    deal 1 starts."""
    at_table = {seat.name for seat in match.seats if seat.kind == Player.Kind.AI}
    spare = player_ai_personas(names=tuple(n for n in AI_PERSONAS if n not in at_table))
    step = _step(match)
    step.apply(FillSeats(tuple(str(persona.pk) for persona in spare)))
    run_ai_seats(step, ai.chooser(match.row.ai_level))
    reactions.append(match=match, events=step.events, state=step.state, newcomers=spare)


def _next_deal(match: LoadedMatch) -> NextDeal:
    _present_seat(match)  # any human still seated may start it
    return NextDeal()


def _present_seat(match: LoadedMatch) -> int:
    """The caller's seat, if they still sit there: a human who left only watches."""
    seat = match.viewer_seat
    if match.state.left[seat]:
        raise DomainError("not_seated", "You left this match; the AI plays your seat.")
    return seat


@transaction.atomic
def hint_create(
    *, match_id: uuid.UUID, player: Player, shaped: Callable[[hints.GivenHint], dict]
) -> dict:
    """The coach's advice for the owner's current decision, as `shaped` gives it (the API's
    HintSerializer: the answer's body), logged so as a Hint row: the row keeps what the
    player got. The match itself is not written: its version stays as it was. The advice
    comes from the worker's cache when any match asked it before, else is computed within
    the worker's cap (games.hints: 503 `hints_busy` past it)."""
    match = repository.match_load(match_id=match_id, player=player)
    if match is None:
        raise DomainError("not_found", "No such match.")
    humans = sum(seat.kind == Player.Kind.HUMAN for seat in match.seats)
    if humans > 1:
        raise DomainError(
            "hints_not_allowed", f"Hints are for single-player matches; this one has {humans}."
        )
    state, level = match.state, match.row.ai_level
    require_turn(state, HUMAN_SEAT)  # the engine's own refusals of the action asked about
    view, legal = observe(state, HUMAN_SEAT), legal_actions(state, HUMAN_SEAT)
    advice = hints.cached_advice(advice_key(view, legal, level), lambda: coach(view, legal, level))
    body = shaped(hints.GivenHint(state.version, state.series, state.deal_number, level, advice))
    repository.hint_insert(match=match, player=player, state=state, advice=body)
    return body


STREAM_TICKET_SECONDS = 60


@transaction.atomic
def stream_ticket_create(
    *, player: Player, token: str, match_id: uuid.UUID | None
) -> tuple[str, datetime]:
    """A ticket to open the stream of `match_id`, one the player sits at, or with None the
    player's own stream: single-use, good for STREAM_TICKET_SECONDS while `token`, which
    issues it, works. Returns it with the moment it expires; only its hash is stored."""
    seated = match_id is None or player_selectors.player_seated(player=player, match_id=match_id)
    if not seated:
        raise DomainError("not_found", "No such match.")
    return stream_ticket_issue(
        player=player, token=token, match_id=match_id, seconds=STREAM_TICKET_SECONDS
    )


# --- Spectators (docs/spectators.md) --------------------------------------------------------


@transaction.atomic
def match_spectators_set(
    *, match_id: uuid.UUID, player: Player, spectators: str, new_code: bool = False
) -> LoadedMatch:
    """The owner chooses who may watch: `off`, `delayed` or `live`. A watch code is drawn
    when spectators are turned on, or on `new_code` (the old one stops working at once);
    turning them off forgets the code. Only its hash is stored: the answer of the request
    that drew it is the one place it is ever shown. Not an event: a table setting, not a
    game fact, so it changes no version."""
    match = repository.match_load(match_id=match_id, player=player, lock=True)
    if match is None:
        raise DomainError("not_found", "No such match.")
    if match.viewer_seat != 0:
        raise DomainError("not_owner", "Only the match's owner chooses who may watch.")
    code_hash = match.row.watch_code_hash
    if spectators == SPECTATORS_OFF:
        code_hash = ""
    elif new_code or not code_hash:
        match.watch_code = _watch_code_draw()
        code_hash = hash_token(match.watch_code)
    repository.match_set_spectators(match=match, spectators=spectators, watch_code_hash=code_hash)
    return match


WATCH_TICKET_SECONDS = STREAM_TICKET_SECONDS


def watch_ticket_create(*, watch_code: str) -> tuple[str, datetime]:
    """A single-use ticket, good for WATCH_TICKET_SECONDS, to open the watch stream of the
    match this code watches; `not_found` for a code that watches nothing."""
    code_hash = hash_token(watch_code)
    if repository.match_id_watched(watch_code_hash=code_hash) is None:
        raise DomainError("not_found", "No match to watch with this code.")
    ticket = secrets.token_urlsafe(32)
    expires_at = timezone.now() + timedelta(seconds=WATCH_TICKET_SECONDS)
    repository.watch_ticket_insert(
        ticket_hash=hash_token(ticket), watch_code_hash=code_hash, expires_at=expires_at
    )
    return ticket, expires_at


def watch_ticket_redeem(*, ticket: str) -> str | None:
    """The hash of the watch code `ticket` was issued for, or None if it is not good (used,
    expired, unknown). Used up either way: the DELETE lets exactly one server redeem it."""
    found = repository.watch_ticket_take(ticket_hash=hash_token(ticket))
    if found is None or found[1] <= timezone.now():
        return None
    return found[0]


def watch_tickets_purge(*, now: datetime) -> int:
    return repository.watch_tickets_purge(now=now)


PROCESS = f"{socket.gethostname()}:{os.getpid()}"
"""This server process, as its watch streams are counted."""


def _watch_stream_life() -> timedelta:
    # Three heartbeats: a live stream renews its row at each one; a dead process's rows expire.
    return timedelta(seconds=3 * settings.ASNAS_STREAM_HEARTBEAT_SECONDS)


@transaction.atomic
def watch_stream_open(*, match: LoadedMatch, address: str) -> uuid.UUID:
    """Count a new watch stream of `match` from `address` in this process, within the limits
    per match, per address and per process (settings ASNAS_WATCH_STREAMS_PER_*): over one,
    `watch_limit_*` (429). The address's and the match's advisory locks make their counts
    exact across servers.
    Returns the stream's id, for watch_stream_renew and watch_stream_close."""
    address_hash = hash_token(address)
    per_match, per_address, per_process = repository.watch_streams_counted(
        match_id=match.row.id, address_hash=address_hash, process=PROCESS
    )
    if per_process >= settings.ASNAS_WATCH_STREAMS_PER_PROCESS:
        raise DomainError("watch_limit_server", "This server has no room for another spectator.")
    if per_match >= settings.ASNAS_WATCH_STREAMS_PER_MATCH:
        raise DomainError("watch_limit_match", "This match has as many spectators as it takes.")
    if per_address >= settings.ASNAS_WATCH_STREAMS_PER_ADDRESS:
        raise DomainError("watch_limit_address", "Your address watches as many streams as it may.")
    stream_id = repository.watch_stream_insert(
        match_id=match.row.id,
        address_hash=address_hash,
        process=PROCESS,
        expires_at=timezone.now() + _watch_stream_life(),
    )
    repository.match_announce(match_id=match.row.id, version=match.row.version, seats=match.seats)
    return stream_id


def watch_stream_renew(*, stream_id: uuid.UUID) -> None:
    repository.watch_stream_renew(
        stream_id=stream_id, expires_at=timezone.now() + _watch_stream_life()
    )


@transaction.atomic
def watch_stream_close(*, match: LoadedMatch, stream_id: uuid.UUID) -> None:
    repository.watch_stream_delete(stream_id=stream_id)
    repository.match_announce(match_id=match.row.id, version=match.row.version, seats=match.seats)


def watch_streams_purge(*, now: datetime) -> int:
    """Delete the rows of watch streams that expired (their process died)."""
    return repository.watch_streams_purge(now=now)
