"""The review room's writes: make a match's reviews be worked out once the write that ended a
deal commits (`review_soon`), and work out and store the reviews that are due
(`reviews_compute`), bounded in time. Reviews are never worked out in a request nor in the
turn clock's thread: in the process's review worker (games.review.worker)."""

import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.ai import coach_tables
from games.engine import decode_event
from games.match import log
from games.match import store as match_store
from games.review import bodies, store, worker

REVIEW_BUDGET_SECONDS = 2.0
"""How long one call of `reviews_compute` may go on storing reviews: past it, the rest stay
due and go back to the worker's queue, behind the other matches'."""

REPLAYS_KEPT = 256
"""How many matches' replays a process keeps between their deals' ends: a few hundred states
of a few kilobytes each, more than the matches one process sees end deals at once."""


def review_soon(*, match_id: uuid.UUID) -> None:
    """Hand the match to this process's review worker once the current transaction (the
    write that ended a deal, and made its review due) commits; nothing if it rolls back."""
    transaction.on_commit(lambda: worker.submit(match_id))


def reviews_compute(
    *, match_id: uuid.UUID, budget_seconds: float = REVIEW_BUDGET_SECONDS
) -> tuple[int, int]:
    """Work out and store the match's due reviews, the oldest deals first, until
    `budget_seconds` have gone; (stored, still due). The match's events are replayed from
    where this process left them at the match's last deal end (`_Replays`), so a deal's end
    costs its own deal, not the match; each review is stored in a statement of its own, and
    only if still due (another process may have stored it meanwhile, with the same body)."""
    due = store.due_keys(match_id=match_id)
    if not due:
        return 0, 0
    # The coach's tables make a review a walk down the betting tree rather than sums over
    # deals: mapped once per process (a file built once per set of AI assets).
    coach_tables.load()
    ai_level = match_store.match_ai_level(match_id=match_id)
    if ai_level is None:  # deleted meanwhile
        return 0, 0
    replay, lines = _replays.resume(match_id, ai_level, due)
    after = replay.seq
    events = ((seq, decode_event(text)) for seq, _, text in lines if seq > after)
    ends_at = time.monotonic() + budget_seconds
    stored = 0
    for key, body in bodies.reviews_after(replay, events, due):
        with transaction.atomic():
            store.review_save(match_id=match_id, key=key, body=body, now=timezone.now())
        due.discard(key)
        stored += 1
        if time.monotonic() > ends_at:
            break
    _replays.keep(match_id, ai_level, replay, lines)
    return stored, len(due)


@dataclass(slots=True)
class _Kept:
    ai_level: str
    replay: bodies.Replay
    line: str
    """The encoded event at `replay.seq`, as read then."""


class _Replays:
    """The replays of the matches this process reviewed last, each where its last call
    left it. A match's log only grows, so a kept replay goes on with the events after its
    seq, once the event stored at that seq is still the one it replayed (a match deleted and
    made again under its id is replayed anew). A match whose deals end in another process,
    one this process never saw, or with a due deal the kept replay has already passed (its
    review made due after this process read its events, or before reviews were kept) is
    replayed from its first event, as every call did before."""

    def __init__(self, size: int):
        self._size = size
        self._kept: OrderedDict[uuid.UUID, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def resume(
        self, match_id: uuid.UUID, ai_level: str, due: set[bodies.Key]
    ) -> tuple[bodies.Replay, list]:
        """The replay to go on from (taken out until `keep`: a call that fails leaves none),
        and the match's events from its seq on, as read."""
        with self._lock:
            kept = self._kept.pop(match_id, None)
        if kept is not None and kept.ai_level == ai_level and not due & kept.replay.ended:
            lines = log.match_event_lines(match_id=match_id, first=kept.replay.seq)
            if lines and lines[0][0] == kept.replay.seq and lines[0][2] == kept.line:
                return kept.replay, lines
        return bodies.Replay(ai_level), log.match_event_lines(match_id=match_id)

    def keep(self, match_id: uuid.UUID, ai_level: str, replay: bodies.Replay, lines: list) -> None:
        line = next((text for seq, _, text in reversed(lines) if seq == replay.seq), None)
        if line is None:  # no event read
            return
        with self._lock:
            self._kept[match_id] = _Kept(ai_level, replay, line)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)


_replays = _Replays(size=REPLAYS_KEPT)


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
