"""The turn clock: a loop that acts for every present human whose turn ran out, and deals the
next deal of clocked matches whose deal ended a while ago. `manage.py serve` runs it in a
child process (`manage.py run_clock`); any number may run on one database, since each move
happens under the match's row lock and locked rows are skipped (docs/tables.md)."""

import logging
import os
import subprocess
import sys
import threading

from django.conf import settings
from django.db import connection
from django.utils import timezone

from asnas_api import embedded_db
from games.services import match_clock_tick

logger = logging.getLogger(__name__)
# A clock stops between two moves; one move takes milliseconds.
CLOCK_STOP_SECONDS = 10


def clock_run(*, stop: threading.Event) -> None:
    """Make every move that is due, then wait ASNAS_CLOCK_POLL_SECONDS; until `stop` is
    set. A failed move is logged and tried again at the next poll."""
    while not stop.is_set():
        try:
            while not stop.is_set() and match_clock_tick(now=timezone.now()) is not None:
                pass
        except Exception:  # the database went away, or a bug: the loop must outlive both
            logger.exception("the turn clock failed; it tries again in a moment")
            connection.close()  # the next poll opens a fresh connection
        stop.wait(settings.ASNAS_CLOCK_POLL_SECONDS)


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
