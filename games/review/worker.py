"""The review worker: one thread per process that works out the reviews the writes made due,
after they commit, so that neither a request nor the turn clock's thread waits for a review
(docs/review.md, "Cost"). A match handed to it twice while queued is worked on once; a call
that runs out of its time budget puts the match back at the end of the queue."""

import logging
import queue
import threading
import uuid

from django.db import connection

logger = logging.getLogger(__name__)

_queue: "queue.SimpleQueue[uuid.UUID]" = queue.SimpleQueue()
_queued: set[uuid.UUID] = set()
_lock = threading.Lock()
_thread: threading.Thread | None = None
_idle = threading.Condition(_lock)
_busy = 0


def submit(match_id: uuid.UUID) -> None:
    """Queue the match's due reviews for the worker thread, starting it if need be."""
    global _thread, _busy
    with _lock:
        if match_id in _queued:
            return
        _queued.add(match_id)
        _busy += 1
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_run, name="review-worker", daemon=True)
            _thread.start()
    _queue.put(match_id)


def wait_idle(timeout: float) -> bool:
    """Wait until nothing is queued or being worked on (tests, benchmarks); whether it was."""
    with _idle:
        return _idle.wait_for(lambda: _busy == 0, timeout)


def _run() -> None:
    from games.review import commands  # which imports this module

    while True:
        match_id = _queue.get()
        with _lock:
            _queued.discard(match_id)
        try:
            _, left = commands.reviews_compute(match_id=match_id)
            if left:
                submit(match_id)
        except Exception:
            logger.exception("reviewing match %s failed; the sweep tries again", match_id)
        finally:
            if _queue.empty():
                # Idle: hold no database connection (a server's pool, a test database's drop).
                connection.close()
            _done()


def _done() -> None:
    global _busy
    with _idle:
        _busy -= 1
        _idle.notify_all()
