"""The turn clock: a loop that acts for every present human whose turn ran out, deals the next
deal of clocked matches whose deal ended a while ago, closes the tournaments whose deadline
passed, and every ASNAS_PURGE_INTERVAL_SECONDS deletes expired rows (asnas_api.housekeeping),
so that no request does, and hands the process's review worker the reviews a dead process
left due (it never works one out itself).

Under `manage.py serve` it runs as a thread in every granian worker, and acts only in the one
that leads (ClockLeadership): no process of its own. `manage.py run_clock` runs it in a
process, on other machines for instance. Any number may act on one database, since each move
happens under the match's row lock and locked rows are skipped (docs/turn-clock.md)."""

import logging
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from datetime import timedelta

import psycopg
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from asnas_api import metrics
from asnas_api.housekeeping import close_due_tournaments, purge_expired
from games.http.fields import MIN_FILL_AFTER, MIN_TURN_SECONDS
from games.live.wakeups import direct_params
from games.match.commands import ClockMove, ClockMoveFailed, clock_due_next, match_clock_tick
from games.puzzles import commands as puzzle_commands
from games.review import commands as review_commands

logger = logging.getLogger(__name__)
# A clock stops between two moves; one move takes milliseconds.
CLOCK_STOP_SECONDS = 10
FAILED_MATCH_PAUSE = 60
"""Seconds the clock leaves a match alone after its move there failed."""
PURGE_LOCK = 0x61736E6173  # "asnas": one purge at a time, whichever clocks run
LEADER_LOCK = 0x61736E6174
"""The session advisory lock whose holder is the workers' one acting clock."""


def clock_run(*, stop: threading.Event, leading: Callable[[], bool] = lambda: True) -> None:
    """While `leading()`, make every move that is due, purge expired rows when that is due,
    then wait ASNAS_CLOCK_POLL_SECONDS; until `stop` is set. A match whose move failed is
    logged and left alone for FAILED_MATCH_PAUSE seconds, so that it cannot hold up the
    others, which are due after it."""
    failed: dict[uuid.UUID, float] = {}  # match id: when to try it again (monotonic)
    purge_due = time.monotonic()  # at once: the rows that expired while nothing served
    while not stop.is_set():
        if not leading():
            stop.wait(settings.ASNAS_CLOCK_POLL_SECONDS)
            continue
        failed = {match_id: at for match_id, at in failed.items() if at > time.monotonic()}
        wait = settings.ASNAS_CLOCK_POLL_SECONDS
        try:
            searched_at = timezone.now()
            while not stop.is_set() and (
                move := match_clock_tick(now=timezone.now(), skip=list(failed))
            ):
                _count(move)
                searched_at = timezone.now()
            close_due_tournaments()
            if _on_citus():
                next_due = clock_due_next(searched_at=searched_at, within=_citus_horizon())
                wait = max(wait, (next_due - timezone.now()).total_seconds())
        except ClockMoveFailed as error:
            logger.exception("the turn clock could not move in match %s", error.match_id)
            failed[error.match_id] = time.monotonic() + FAILED_MATCH_PAUSE
            continue  # the others may be due now
        except Exception:  # the database went away: the loop must outlive it
            logger.exception("the turn clock failed; it tries again in a moment")
            connection.close()  # the next poll opens a fresh connection
        if time.monotonic() >= purge_due:
            purge_due = time.monotonic() + settings.ASNAS_PURGE_INTERVAL_SECONDS
            purge_if_unlocked()
            reviews_left_due()
            puzzles_mined()
        stop.wait(min(wait, max(purge_due - time.monotonic(), settings.ASNAS_CLOCK_POLL_SECONDS)))


_citus: list[bool] = []


def _on_citus() -> bool:
    """Whether the database is a Citus coordinator: there the clock's search asks every shard,
    so it searches only when something can be due (clock_due_next), not at every poll."""
    if not _citus:
        with connection.cursor() as cursor:
            cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')")
            _citus.append(cursor.fetchone()[0])
    return _citus[0]


def _citus_horizon() -> timedelta:
    """The soonest a match written after a search can fall due: a turn gets at least the
    API's shortest clock (plus the grace), a deal over waits ASNAS_NEXT_DEAL_SECONDS, a table
    fills at the earliest after the API's shortest `fill_after`."""
    turn = MIN_TURN_SECONDS + settings.ASNAS_CLOCK_GRACE_SECONDS
    return timedelta(seconds=min(turn, settings.ASNAS_NEXT_DEAL_SECONDS, MIN_FILL_AFTER))


def purge_if_unlocked() -> bool:
    """Purge expired rows unless another clock does it now; whether this one did. A failure
    is logged: the next due purge tries again."""
    try:
        # A transaction-scoped lock: behind PgBouncer in transaction mode, a session lock
        # could be taken on one server connection and released on another, and then never.
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [PURGE_LOCK])
            (locked,) = cursor.fetchone()
            if locked:
                purge_expired()
            return locked
    except DatabaseError:
        logger.exception("Purging expired rows failed")
        connection.close()
        return False


def reviews_left_due() -> None:
    """Hand this process's review worker the reviews left due (a process died before its
    worker stored them): two short statements here; the worker's thread works them out,
    never this one (games.review.worker). A failure is logged: the next sweep tries again."""
    try:
        review_commands.reviews_resubmit()
    except DatabaseError:
        logger.exception("Sweeping the reviews left due failed")
        connection.close()


def puzzles_mined() -> None:
    """Mine the puzzles of matches that ended and whose reviews are all stored (a few a
    sweep: a replay and a read of stored reviews each; never a request). A failure is
    logged: the next sweep tries again."""
    try:
        puzzle_commands.puzzles_mine()
    except DatabaseError:
        logger.exception("Mining puzzles failed")
        connection.close()


class ClockLeadership:
    """Whether this process's clock is the one that acts: the holder of a session advisory
    lock, on a connection of its own straight to Postgres (never a transaction pooler's,
    which would hand the session to others). Postgres drops the lock with the connection, so
    when the leading process dies or loses the database, another one's next poll takes
    over."""

    def __init__(self) -> None:
        self.connection: psycopg.Connection | None = None
        self.held = False

    def __call__(self) -> bool:
        try:
            if self.connection is None:
                self.held = False
                self.connection = psycopg.connect(
                    **direct_params(),
                    autocommit=True,
                    application_name=f"asnas clock {os.getpid()}",
                )
            if self.held:
                self.connection.execute("SELECT 1")  # the session, and its lock, still live
            else:
                (self.held,) = self.connection.execute(
                    "SELECT pg_try_advisory_lock(%s)", [LEADER_LOCK]
                ).fetchone()
        except psycopg.Error:
            if self.held:
                logger.warning("the turn clock lost its lead with its connection")
            self.release()
        return self.held

    def release(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection, self.held = None, False


def clock_in_this_worker(*, prepared: Callable[[], bool]) -> threading.Event:
    """Start the clock as a thread of this worker, acting while it leads; return the event
    that stops it. Until `prepared()` (serve's migrations are done) it does not even ask
    for the lead: on a fresh database its moves and purge would query tables that do not
    exist yet."""
    stop = threading.Event()
    leadership = ClockLeadership()

    def run() -> None:
        try:
            clock_run(stop=stop, leading=lambda: prepared() and leadership())
        finally:
            leadership.release()

    threading.Thread(target=run, name="turn-clock", daemon=True).start()
    return stop


def _count(move: ClockMove) -> None:
    if move.deadline is None:
        metrics.CLOCK_MOVES.labels("next_deal").inc()
        return
    metrics.CLOCK_MOVES.labels("turn").inc()
    metrics.CLOCK_LATENESS.observe((timezone.now() - move.deadline).total_seconds())


def clock_process(stdout=None) -> subprocess.Popen:
    """`manage.py run_clock` in a process of its own on this process's database; it dies
    with this process. With `stdout=subprocess.PIPE`, its first line says it is ready."""
    # Here, not at the top: the workers import this module for the clock, and need none of
    # the embedded database's code.
    from asnas_api import embedded_db

    database_url = settings.DATABASE_URL or embedded_db.attach_default()
    return subprocess.Popen(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_clock"],
        env={**os.environ, "DATABASE_URL": database_url},
        stdout=stdout,
        process_group=0,  # signals reach it from its parent only, as granian's do
        preexec_fn=embedded_db.die_with_parent,
    )


def clocks_stop(clocks: list[subprocess.Popen]) -> None:
    """Stop clock processes: SIGTERM, which each obeys between two moves, then SIGKILL for any
    still running CLOCK_STOP_SECONDS later."""
    for clock in clocks:
        clock.terminate()
    for clock in clocks:
        try:
            clock.wait(timeout=CLOCK_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            clock.kill()
            clock.wait()
