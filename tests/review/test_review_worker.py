"""The review worker: a deal's review is worked out after the write that ended it commits, in
a thread of the process that is neither a request's nor the turn clock's, so that the clock
still acts on an expired turn while reviews are due; the sweep hands the worker reviews left
due by a process that died."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from asnas_api.clock import clock_run
from games.engine import ActionTaken, Status
from games.match import log as match_log
from games.match import store as match_store
from games.match.commands import match_clock_tick
from games.models import DealReview, Match
from games.review import commands as review_commands
from games.review import worker
from players.services import player_create
from tests.matches import play_until, seated

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people():
    return [player_create(name=name)[0] for name in ("Roya", "Babak")]


def test_a_committed_deal_end_is_reviewed_by_the_worker_within_seconds(people):
    match = seated(people, 1, seed=3)
    over = play_until(match, people, lambda state: state.status is Status.DEAL_OVER)
    started = time.monotonic()
    assert worker.wait_idle(timeout=60)
    [row] = DealReview.objects.filter(match_id=over.row.id)
    assert row.body is not None and set(row.body) == {"0"}
    assert time.monotonic() - started < 30
    assert row.reviewed_at >= row.due_at


def test_the_clock_acts_on_an_expired_turn_while_the_worker_reviews(people, monkeypatch, settings):
    """The worker is held inside a review for as long as the test likes; the clock's move on
    another match's expired turn does not wait for it."""
    entered, release = threading.Event(), threading.Event()
    reviews = review_commands.bodies.reviews_after

    def held(*args, **kwargs):
        entered.set()
        release.wait(60)
        yield from reviews(*args, **kwargs)

    monkeypatch.setattr(review_commands.bodies, "reviews_after", held)
    settings.ASNAS_CLOCK_GRACE_SECONDS = 0
    reviewed = seated(people, 1, seed=3)
    play_until(reviewed, people, lambda state: state.status is Status.DEAL_OVER)
    assert entered.wait(30), "the worker never started the review"
    try:
        clocked = seated(people, 2, seed=4, turn_seconds=60)
        seat, deadline = clocked.state.deal.turn, clocked.row.turn_deadline
        assert DealReview.objects.filter(body__isnull=True).exists()  # a review is due
        started = time.monotonic()
        assert match_clock_tick(now=deadline) is not None
        assert time.monotonic() - started < 5
        events = match_log.match_events(match_id=clocked.row.id, first=clocked.row.version + 1)
        acted = [e for _, e in events if isinstance(e, ActionTaken) and e.seat == seat]
        assert acted and {e.by for e in acted} == {"clock"}
    finally:
        release.set()
    assert worker.wait_idle(timeout=60)
    assert not DealReview.objects.filter(body__isnull=True).exists()


def test_the_sweep_hands_the_worker_reviews_a_dead_process_left_due(people):
    match = seated(people, 1, seed=5)
    over = play_until(match, people, lambda state: state.status is Status.DEAL_OVER)
    assert worker.wait_idle(timeout=60)
    # As a process that died before its worker stored it would leave it: due, long ago; and a
    # deal that ended before reviews were kept, with no row at all.
    long_ago = timezone.now() - timedelta(minutes=5)
    DealReview.objects.filter(match_id=over.row.id).update(body=None, due_at=long_ago)
    # The turn clock's housekeeping sweeps as it starts leading: it hands them over.
    stop = threading.Event()

    def run() -> None:
        try:
            clock_run(stop=stop)
        finally:
            connections.close_all()

    clock = threading.Thread(target=run)
    clock.start()
    try:
        deadline = time.monotonic() + 30
        while DealReview.objects.get(match_id=over.row.id).body is None:
            assert time.monotonic() < deadline, "the sweep left the review due"
            time.sleep(0.1)
    finally:
        stop.set()
        clock.join()
    DealReview.objects.all().delete()
    assert review_commands.reviews_resubmit(older_than_seconds=0) == 1
    assert worker.wait_idle(timeout=60)
    assert DealReview.objects.get(match_id=over.row.id).body is not None
    assert Match.objects.get(id=over.row.id).status == Status.DEAL_OVER
    assert match_store.match_ai_level(match_id=over.row.id) == "easy"
    assert connection.connection is not None
