"""A tournament closes once, however many close it at the same moment (#37): two turn
clocks in real processes on one database, and readers racing the close in threads. Each of
its matches gets one seed_revealed, never two, and one rating change."""

import os
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.engine import SeedRevealed
from games.match import log as match_log
from games.models import Match, Tournament
from games.tournaments.commands import tournament_close, tournament_create, tournament_enter
from players.models import RatingChange
from players.services import player_create
from tests.servers import clocks_running, committed_database_url

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def tournament_with_entrants(entrants: int, name: str) -> Tournament:
    now = timezone.now()
    creator, _ = player_create(name=f"{name}-owner")
    tournament = tournament_create(
        creator=creator,
        name=name,
        ai_level="easy",
        entry_opens_at=now - timedelta(minutes=1),
        entry_closes_at=now + timedelta(minutes=1),
        deadline=now + timedelta(minutes=2),
    )
    for number in range(entrants):
        tournament_enter(
            tournament_id=tournament.pk, player=player_create(name=f"{name}-{number}")[0]
        )
    Tournament.objects.filter(pk=tournament.pk).update(deadline=timezone.now())
    return tournament


def reveals(tournament: Tournament) -> list[int]:
    """How many seed_revealed each of the tournament's matches has."""
    return [
        sum(isinstance(event, SeedRevealed) for _, event in match_log.match_events(match_id=m))
        for m in Match.objects.filter(tournament=tournament).values_list("id", flat=True)
    ]


def ratings(tournament: Tournament) -> list[int]:
    """How many rating changes each of the tournament's matches has: one, from the close."""
    matches = Match.objects.filter(tournament=tournament).values_list("id", flat=True)
    return [RatingChange.objects.filter(match_id=m).count() for m in matches]


def test_two_clocks_close_a_tournament_past_its_deadline_once(tmp_path):
    tournament = tournament_with_entrants(3, "clocks")
    env = {
        **os.environ,
        "DATABASE_URL": committed_database_url(),
        "ASNAS_CLOCK_POLL_SECONDS": "0.05",
    }
    with clocks_running(2, tmp_path, env) as clocks:
        deadline = time.monotonic() + 60
        while Tournament.objects.get(pk=tournament.pk).closed_at is None:
            assert time.monotonic() < deadline, "no clock closed the tournament"
            time.sleep(0.05)
        time.sleep(0.5)  # time for a second close, were there one
        assert [clock.poll() for clock in clocks] == [None, None]
    assert reveals(tournament) == [1, 1, 1]
    assert ratings(tournament) == [1, 1, 1]


def test_readers_racing_the_close_close_it_once(transactional_db):
    tournament = tournament_with_entrants(2, "readers")
    closed, start = [], threading.Barrier(4)

    def close():
        try:
            start.wait()
            closed.append(tournament_close(tournament_id=tournament.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=close) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(closed) == [False, False, False, True]
    assert reveals(tournament) == [1, 1]
    assert ratings(tournament) == [1, 1]
