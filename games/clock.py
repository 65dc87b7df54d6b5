"""The turn clock: a loop that acts for every present human whose turn ran out, and deals the
next deal of clocked matches whose deal ended a while ago. `manage.py serve` runs it in a
child process (`manage.py run_clock`); any number may run on one database, since each move
happens under the match's row lock and locked rows are skipped (docs/tables.md)."""

import logging
import threading

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.services import match_clock_tick

logger = logging.getLogger(__name__)


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
