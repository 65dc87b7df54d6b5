"""The match room's writes. Each one locks the match row, decides through the engine, lets
the AI seats act, and stores the new events with their projection and reactions, all in
one transaction: creating a match, a player's moves (MOVES), joining a table, and the
clock's moves."""

import secrets
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, ParamSpec

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from games import ai
from games.engine import (
    HUMAN_SEAT,
    Act,
    Actor,
    Command,
    DomainError,
    FillSeats,
    Join,
    Leave,
    MatchState,
    NextDeal,
    Resign,
    Restart,
    RevealSeed,
    Seeds,
    SpectatorMode,
    StartMatch,
    Status,
    Step,
    clock_move,
    fairness,
    new_seed,
    run_ai_seats,
)
from games.fairness.commands import first_seeds, next_server_seed
from games.ladder import store as ladder_store
from games.match import log, reactions, store
from games.match.loaded import LoadedMatch
from games.match.queries import match_write_view
from games.models import Tournament
from games.spectating.commands import watch_code_draw
from games.tables.queries import table_admitting
from players import selectors as player_selectors
from players.models import Player
from players.services import player_ai_personas, player_kind_locked, stream_ticket_issue
from players.tokens import hash_token, new_secret

AI_PERSONAS = ("Darius", "Shirin", "Kaveh")


TABLE_TURN_SECONDS = 60
"""The turn clock of a table when its owner names none."""
BOT_TURN_SECONDS = 10
"""The turn clock of a bot's match alone: a program answers at once or not at all, and its
matches go on without it when it is gone (docs/bots.md)."""
INVITE_BYTES = 24
"""192 random bits: an invite cannot be guessed."""


def default_turn_seconds(humans: int) -> int | None:
    return None if humans == 1 else TABLE_TURN_SECONDS


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
    spectators: str = SpectatorMode.OFF,
    open: bool = False,
    bots: bool = False,
    fill_after: int | None = None,
    tournament: Tournament | None = None,
    pool: int = 0,
    dealt_from: bytes | None = None,
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

    A `tournament`'s entry deals from the seed of its deal `pool`, derived from the
    tournament's seed and held until its close, with no client seed, so that every entrant
    of the pool meets the same deals (docs/tournaments.md). Only a table with `bots` seats
    a bot beside its owner (docs/bots.md).

    A bot's benchmark match deals from `dealt_from` (derived from the benchmark's seed,
    docs/bots.md), with no client seed, and reveals it as its one series ends.
    """
    _refuse_table(owner=owner, humans=humans, lobby=open or fill_after is not None, bots=bots)
    if humans == 1 and tournament is None and owner.kind == Player.Kind.BOT:
        turn_seconds = _bot_turn_seconds(turn_seconds)
    if verifiable is None:
        verifiable = humans == 1
    seeds = _first_seeds(
        owner=owner,
        seed=seed,
        commitment=commitment,
        client_seed=client_seed,
        verifiable=verifiable,
        tournament=tournament,
        pool=pool,
        dealt_from=dealt_from,
    )
    players = [owner, *[None] * (humans - 1), *player_ai_personas(names=AI_PERSONAS)[humans - 1 :]]
    step = _started(players=players, humans=humans, seeds=seeds, seed=seed, ai_level=ai_level)
    watch_code = watch_code_draw() if spectators != SpectatorMode.OFF else None
    match = reactions.insert(
        players=players,
        ai_level=ai_level,
        seeded=seed is not None,
        events=step.events,
        state=step.state,
        invite=new_secret(INVITE_BYTES) if humans > 1 else "",
        turn_seconds=turn_seconds,
        spectators=spectators,
        watch_code_hash=hash_token(watch_code) if watch_code else "",
        open=open,
        bots=bots,
        fill_at=None if fill_after is None else timezone.now() + timedelta(seconds=fill_after),
        tournament=tournament,
        tournament_pool=None if tournament is None else pool,
    )
    match.watch_code = watch_code
    return match


def _started(*, players: list, humans: int, seeds: Seeds, seed: int | None, ai_level: str) -> Step:
    """The match's first events: started, deal 1 dealt, and the AI seats that act before the
    first human have acted."""
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
    return step


def _first_seeds(
    *,
    owner: Player,
    seed: int | None,
    commitment: uuid.UUID | None,
    client_seed: str,
    verifiable: bool,
    tournament: Tournament | None,
    pool: int,
    dealt_from: bytes | None,
) -> Seeds:
    """The seeds of a new match's first series: a tournament pool's (held until its close), a
    benchmark's, or the owner's commitment or a fresh draw."""
    if tournament is not None:
        following = secrets.token_bytes(fairness.SEED_BYTES).hex()  # never dealt: no restart
        dealt = fairness.pool_seed(bytes.fromhex(tournament.server_seed), pool).hex()
        return Seeds(dealt, following, "", True, held=True)
    if dealt_from is not None:
        following = secrets.token_bytes(fairness.SEED_BYTES).hex()  # never dealt: no restart
        return Seeds(dealt_from.hex(), following, "", True)
    return first_seeds(
        player=owner,
        seed=seed,
        commitment=commitment,
        client_seed=client_seed,
        verifiable=verifiable,
    )


def _bot_turn_seconds(asked: int | None) -> int:
    """A bot's match alone has the bot's clock, whatever it asked (or nothing): a longer one
    would let a bot that went away hold its matches for longer (`not_for_bots`)."""
    if asked not in (None, BOT_TURN_SECONDS):
        raise DomainError(
            "not_for_bots",
            f"A bot's match has a {BOT_TURN_SECONDS} s turn clock; leave turn_seconds out.",
        )
    return BOT_TURN_SECONDS


def _refuse_table(*, owner: Player, humans: int, lobby: bool, bots: bool) -> None:
    """A table's settings for a match alone (`not_a_table`), or a table a bot would open
    (`not_for_bots`). Alone, a human and a bot are alike: only a table reads the kind, under
    its lock (players.services.player_kind_locked)."""
    if humans == 1 and (lobby or bots):
        raise DomainError(
            "not_a_table", "Only a table (humans above 1) is open, filled or allows bots."
        )
    if humans > 1 and player_kind_locked(player=owner) == Player.Kind.BOT:
        raise DomainError("not_for_bots", "A bot may not open a table for humans.")


# --- A player's moves -------------------------------------------------------------------------


def _present_seat(match: LoadedMatch) -> int:
    """The caller's seat, if they still sit there: a human who left only watches."""
    seat = match.viewer_seat
    if match.state.left[seat]:
        raise DomainError("not_seated", "You left this match; the AI plays your seat.")
    return seat


def _act(match: LoadedMatch, *, action: str) -> Act:
    return Act(_present_seat(match), action, Actor.PLAYER)


def _next_deal(match: LoadedMatch) -> NextDeal:
    _present_seat(match)  # any human still seated may start it
    return NextDeal()


def _restart(match: LoadedMatch, *, ai_level: str | None = None, client_seed: str = "") -> Restart:
    if match.row.tournament_id is not None:
        raise DomainError(
            "restart_not_allowed", "A tournament's match is one series: it cannot be restarted."
        )
    if ladder_store.is_benchmark_match(match_id=match.row.id):
        raise DomainError(
            "restart_not_allowed", "A benchmark's match is one series: it cannot be restarted."
        )
    changed = ai_level if ai_level != match.row.ai_level else None
    return Restart(
        match.viewer_seat,
        ai_level=changed,
        client_seed=client_seed,
        next_server_seed=next_server_seed(match),
    )


def _giving_up(command: type[Resign] | type[Leave]) -> Callable[[LoadedMatch], Command]:
    """Resigning alone and leaving a table are built alike: the player's own seat gives up.
    Not in a bot's benchmark match, whose deals all count (docs/bots.md): a bot that gave
    up the matches going badly would choose which deals make its figure."""

    def given_up(match: LoadedMatch) -> Command:
        if ladder_store.is_benchmark_match(match_id=match.row.id):
            raise DomainError(
                "give_up_not_allowed",
                "A benchmark's match is played to its last deal: it cannot be given up.",
            )
        return command(match.viewer_seat)

    return given_up


Move = Literal["act", "next_deal", "restart", "resign", "leave"]
MOVES: dict[Move, Callable[..., Command]] = {
    "act": _act,
    "next_deal": _next_deal,
    "restart": _restart,
    "resign": _giving_up(Resign),
    "leave": _giving_up(Leave),
}
"""The engine command each move is, built from the match (loaded, with its lock, for the
player who moves) and the move's options."""


@transaction.atomic
def match_move(
    *,
    match_id: uuid.UUID,
    player: Player,
    move: Move,
    expected_version: int | None = None,
    **options: str | None,
) -> LoadedMatch:
    """The player's `move` at the match they sit at, then the AI seats' actions up to a
    present human's next turn:

    - `act` (option `action`): their action at their seat;
    - `next_deal`: the next deal, once the last one is over;
    - `restart` (options `ai_level`, `client_seed`): a new 12-deal series with every total
      at zero, an unfinished deal abandoned; `ai_level`, if given, is the AI seats' level
      from the new series on, and a change of level is recorded in match_restarted;
    - `resign`: alone, the owner gives the match up: it ends at once, the totals stand, and
      the winners are the leaders among the AI seats (at a shared table it is `leave`);
    - `leave`: before deal 1 a guest's seat is freed (anyone may take it, the guest too)
      and the owner's leaving closes the table (`abandoned`); after it the AI plays the
      player's seat for the rest of the match, and when no human is left the match ends
      `abandoned`. A finished match is refused (`match_finished`): nothing to leave.

    With `expected_version`, a match at another version is refused (`stale_version`)."""
    match = store.match_load(match_id=match_id, player=player, lock=True)
    if match is None:
        raise DomainError("not_found", "No such match.")
    command = MOVES[move](match, **options)
    return _decide_and_store(match, command, expected_version=expected_version)


@transaction.atomic
def match_join(
    *, match_id: uuid.UUID, player: Player, invite: str, client_seed: str = ""
) -> LoadedMatch:
    """Seat `player` at the table's next open human seat. An open table needs no invite;
    else a wrong or missing invite is `not_found`, as for a match that does not exist. Deal
    1 starts when the last seat is taken."""
    # The player's row before the match's, as a quick play takes them: on Citus a join that
    # took them the other way round met a quick play in a distributed deadlock (CI, #40).
    player_kind_locked(player=player)
    match = table_admitting(
        match=store.match_load(match_id=match_id, player=None, lock=True),
        player=player,
        invite=invite,
    )
    return match_seat(match=match, player=player, client_seed=client_seed)


def match_seat(*, match: LoadedMatch, player: Player, client_seed: str) -> LoadedMatch:
    """Seat `player` at the next open seat of `match`, loaded with its lock, in the caller's
    transaction (a join, a quick play): a bot only where the owner allowed bots. The caller
    locked the player's kind (players.services.player_kind_locked) before the match: every
    command that locks both takes them in that order."""
    if player.kind == Player.Kind.BOT and not match.row.bots:
        raise DomainError("bots_not_allowed", "This table's owner did not allow bots.")
    seat = match.state.open_seat()
    join = Join(player.name, client_seed, str(player.pk))
    _decide_and_store(match, join, expected_version=None, newcomers=[player])
    match.viewer_seat = seat
    return match


def _decide_and_store(
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
    step = _step_from_stored(match)
    step.apply(command)
    # The AI plays at the level the log says from now on (a restart may have changed it);
    # the append stores this same seating.
    seating = store.seating_after(match, step.events)
    run_ai_seats(step, ai.chooser(seating.ai_level))
    reactions.append(
        match=match, events=step.events, state=step.state, seating=seating, newcomers=newcomers
    )
    return match


def _step_from_stored(match: LoadedMatch) -> Step:
    """A step from the stored state (parsed for this request only, so the step may change
    it), with the match's events for the AI levels that watch the table."""
    step = Step(match.state)
    if match.row.ai_level in ai.WATCHING_LEVELS:
        step.earlier = [event for _, event in log.match_events(match_id=match.row.id)]
    return step


P = ParamSpec("P")


def answering(
    write: Callable[P, LoadedMatch], view: Callable[..., dict] = match_write_view
) -> Callable[P, dict]:
    """`write`, answering with the `view` of the match it wrote (by default the
    MatchWriteView's data): the write and what the API answers, in one call. The view is
    read once the write's transaction is over, as the API read it after the write."""

    def answered(*args: P.args, **kwargs: P.kwargs) -> dict:
        return view(match=write(*args, **kwargs))

    answered.__doc__ = f"`{write.__name__}`, answering with `{view.__name__}`'s data."
    return answered


match_create_answer = answering(match_create)
match_move_answer = answering(match_move)
match_join_answer = answering(match_join)


# --- The clock ------------------------------------------------------------------------------


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
    due = store.match_lock_due(
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
            _ai_fills_table(match)
        else:
            _clock_plays(match)
    except DatabaseError:
        raise  # the database's fault, not the match's
    except Exception as error:
        raise ClockMoveFailed(match.row.id) from error
    return ClockMove(match.row.id, deadline)


def clock_due_next(*, searched_at: datetime, within: timedelta) -> datetime:
    """When the clock next has something to do, after a search at `searched_at` that left
    nothing due: the first moment a match now stored falls due, and at the latest `within`
    after the search, the soonest a match written since could fall due."""
    grace = timedelta(seconds=settings.ASNAS_CLOCK_GRACE_SECONDS)
    pause = timedelta(seconds=settings.ASNAS_NEXT_DEAL_SECONDS)
    turn, deal_over, fill = store.match_due_first()
    moments = [searched_at + within]
    moments += [turn + grace] if turn else []
    moments += [deal_over + pause] if deal_over else []
    moments += [fill] if fill else []
    return min(moments)


def _clock_plays(match: LoadedMatch) -> None:
    step = _step_from_stored(match)
    clock_move(step, ai.chooser(match.row.ai_level))
    seating = store.seating_after(match, step.events)
    reactions.append(match=match, events=step.events, state=step.state, seating=seating)


def _ai_fills_table(match: LoadedMatch) -> None:
    """The AI takes the open seats of a waiting table (the AI personas not yet at it), and
    deal 1 starts."""
    at_table = {seat.name for seat in match.seats if seat.kind == Player.Kind.AI}
    spare = player_ai_personas(names=tuple(n for n in AI_PERSONAS if n not in at_table))
    step = _step_from_stored(match)
    step.apply(FillSeats(tuple(str(persona.pk) for persona in spare)))
    run_ai_seats(step, ai.chooser(match.row.ai_level))
    seating = store.seating_after(match, step.events)
    reactions.append(
        match=match, events=step.events, state=step.state, seating=seating, newcomers=spare
    )


# --- A tournament's close -------------------------------------------------------------------


@transaction.atomic
def match_tournament_close(*, match_id: uuid.UUID) -> None:
    """At its tournament's close, a match still in play stops (its entrant resigns: the
    deals left score as the field's lowest), and its held seed is revealed (seed_revealed).
    A match whose seed is revealed already is left as it is."""
    match = store.match_load(match_id=match_id, player=None, lock=True)
    seeds = match.state.seeds
    if seeds is None or not seeds.held or seeds.revealed:
        return
    step = _step_from_stored(match)
    if match.state.status in (Status.IN_DEAL, Status.DEAL_OVER):
        step.apply(Resign(HUMAN_SEAT))
    step.apply(RevealSeed())
    seating = store.seating_after(match, step.events)
    reactions.append(match=match, events=step.events, state=step.state, seating=seating)


# --- Stream tickets -------------------------------------------------------------------------

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
