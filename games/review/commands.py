"""The review room's writes: make a match's reviews be worked out once the write that ended a
deal commits (`review_soon`), and work out and store the reviews that are due
(`reviews_compute`), bounded in time. Reviews are never worked out in a request nor in the
turn clock's thread: in the process's review worker (games.review.worker)."""

import time
import uuid

from django.db import transaction
from django.utils import timezone

from games.ai import coach_tables
from games.match import log
from games.match import store as match_store
from games.review import bodies, store, worker

REVIEW_BUDGET_SECONDS = 2.0
"""How long one call of `reviews_compute` may go on storing reviews: past it, the rest stay
due and go back to the worker's queue, behind the other matches'."""


def review_soon(*, match_id: uuid.UUID) -> None:
    """Hand the match to this process's review worker once the current transaction (the
    write that ended a deal, and made its review due) commits; nothing if it rolls back."""
    transaction.on_commit(lambda: worker.submit(match_id))


def reviews_compute(
    *, match_id: uuid.UUID, budget_seconds: float = REVIEW_BUDGET_SECONDS
) -> tuple[int, int]:
    """Work out and store the match's due reviews, the oldest deals first, until
    `budget_seconds` have gone; (stored, still due). One replay of the match's events; each
    review is stored in a statement of its own, and only if still due (another process may
    have stored it meanwhile, with the same body)."""
    due = store.due_keys(match_id=match_id)
    if not due:
        return 0, 0
    # The coach's tables make a review a walk down the betting tree rather than sums over
    # deals: mapped once per process (a file built once per set of AI assets).
    coach_tables.load()
    ai_level = match_store.match_ai_level(match_id=match_id)
    if ai_level is None:  # deleted meanwhile
        return 0, 0
    events = (event for _, event in log.match_events(match_id=match_id))
    ends_at = time.monotonic() + budget_seconds
    stored = 0
    for key, body in bodies.reviews(events, ai_level, wanted=due):
        with transaction.atomic():
            store.review_save(match_id=match_id, key=key, body=body, now=timezone.now())
        due.discard(key)
        stored += 1
        if time.monotonic() > ends_at:
            break
    return stored, len(due)


def reviews_resubmit(*, older_than_seconds: float = 30, limit: int = 100) -> int:
    """The sweep: hand this process's worker every match with a review due for longer than
    `older_than_seconds` (its process died before its worker stored it), making due first
    the reviews of deals that ended before reviews were kept; how many matches."""
    before = timezone.now() - timezone.timedelta(seconds=older_than_seconds)
    with transaction.atomic():
        matches = store.matches_due(before=before, limit=limit)
    for match_id in matches:
        worker.submit(match_id)
    return len(matches)
