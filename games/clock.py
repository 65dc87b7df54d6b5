"""The turn clock: a loop that acts for every present human whose turn ran out, and deals the
next deal of clocked matches whose deal ended a while ago. `manage.py serve` runs it in a
child process (`manage.py run_clock`); any number may run on one database, since each move
happens under the match's row lock and locked rows are skipped (docs/turn-clock.md)."""

import logging
import os
import subprocess
import sys
import threading
import time
import uuid

from django.conf import settings
from django.db import connection
from django.utils import timezone

from asnas_api import embedded_db, metrics
from games.services import ClockMove, ClockMoveFailed, match_clock_tick

logger = logging.getLogger(__name__)
# A clock stops between two moves; one move takes milliseconds.
CLOCK_STOP_SECONDS = 10
FAILED_MATCH_PAUSE = 60
"""Seconds the clock leaves a match alone after its move there failed."""


def clock_run(*, stop: threading.Event) -> None:
    """Make every move that is due, then wait ASNAS_CLOCK_POLL_SECONDS; until `stop` is
    set. A match whose move failed is logged and left alone for FAILED_MATCH_PAUSE seconds,
    so that it cannot hold up the others, which are due after it."""
    failed: dict[uuid.UUID, float] = {}  # match id: when to try it again (monotonic)
    while not stop.is_set():
        failed = {match_id: at for match_id, at in failed.items() if at > time.monotonic()}
        try:
            while not stop.is_set() and (
                move := match_clock_tick(now=timezone.now(), skip=list(failed))
            ):
                _count(move)
        except ClockMoveFailed as error:
            logger.exception("the turn clock could not move in match %s", error.match_id)
            failed[error.match_id] = time.monotonic() + FAILED_MATCH_PAUSE
            continue  # the others may be due now
        except Exception:  # the database went away: the loop must outlive it
            logger.exception("the turn clock failed; it tries again in a moment")
            connection.close()  # the next poll opens a fresh connection
        stop.wait(settings.ASNAS_CLOCK_POLL_SECONDS)


def _count(move: ClockMove) -> None:
    if move.deadline is None:
        metrics.CLOCK_MOVES.labels("next_deal").inc()
        return
    metrics.CLOCK_MOVES.labels("turn").inc()
    metrics.CLOCK_LATENESS.observe((timezone.now() - move.deadline).total_seconds())


def clock_process(stdout=None) -> subprocess.Popen:
    """`manage.py run_clock` in a process of its own on this process's database; it dies
    with this process. With `stdout=subprocess.PIPE`, its first line says it is ready."""
    return subprocess.Popen(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_clock"],
        env={**os.environ, "DATABASE_URL": settings.DATABASE_URL},
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
