"""Two matches of one player finishing at once, on real Postgres with real threads: both are
rated, the second from the first's result (docs/ratings.md, "Concurrency")."""

import threading

import pytest
from django.db import connections

from games.match.commands import match_create, match_move
from players.models import Rating, RatingChange
from players.rating import START
from players.services import player_create

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = 4
"""Matches of one player resigned at once, each by its own thread."""


def test_matches_finishing_at_once_each_count_on_the_last():
    roya = player_create(name="Roya")[0]
    babak = player_create(name="Babak")[0]
    for round_number in range(3):
        matches = [match_create(owner=roya, ai_level="hard") for _ in range(MATCHES)]
        barrier = threading.Barrier(MATCHES)
        errors = []

        def resign(match_id, barrier=barrier, errors=errors):
            barrier.wait()
            try:
                match_move(move="resign", match_id=match_id, player=roya)
            except Exception as error:  # reported below, with the others
                errors.append(error)
            finally:
                connections.close_all()

        workers = [threading.Thread(target=resign, args=(m.row.id,)) for m in matches]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        assert errors == []
        rated = (round_number + 1) * MATCHES
        assert Rating.objects.get(player=roya).matches == rated
        # A chain from the starting rating: each match began from the rating the one before
        # it left. A lost update would start two matches from one rating and break it.
        after = {(c.mu_before, c.sigma_before): c for c in RatingChange.objects.filter(player=roya)}
        assert len(after) == rated
        link, walked = (START.mu, START.sigma), 0
        while link in after:
            link, walked = (after[link].mu_after, after[link].sigma_after), walked + 1
        assert walked == rated
        final = Rating.objects.get(player=roya)
        assert (final.mu, final.sigma) == link
    assert not Rating.objects.filter(player=babak).exists()
