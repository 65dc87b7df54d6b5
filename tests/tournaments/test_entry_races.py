"""Entries at the same moment, in real threads on real Postgres: the tournament's row lock,
which every entry takes first, makes its checks hold. On Citus (.ci/citus-suites) the check
of one entry per player holds alone, as the unique constraint that backs it on plain Postgres
cannot exist there (docs/scaling.md)."""

import time

import pytest

from games.engine import DomainError
from games.models import Match
from tests.match.test_concurrency import race
from tests.tournaments.support import BASE, create

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_player_entering_three_times_at_once_enters_once(make_client):
    roya = make_client("Roya")
    tournament = create(make_client("Owner"))
    statuses = race([roya.token] * 3, f"{BASE}/{tournament['id']}/entries", {})
    assert statuses == [201, 409, 409]
    assert Match.objects.filter(tournament_id=tournament["id"], owner=roya.player).count() == 1


def test_three_players_at_once_for_the_last_place_one_enters(make_client):
    tournament = create(make_client("Owner"), cap=1)
    tokens = [make_client(name).token for name in ("Roya", "Babak", "Nima")]
    statuses = race(tokens, f"{BASE}/{tournament['id']}/entries", {})
    assert statuses == [201, 409, 409]
    assert Match.objects.filter(tournament_id=tournament["id"]).count() == 1


def test_without_the_tournaments_lock_entries_at_once_all_pass_the_check(make_client, monkeypatch):
    """The first test can fail: with the lock taken away, entries at once each find no entry
    and each go on to make a match (stopped here before they do, so that nothing is stored:
    on plain Postgres the unique constraint would refuse the second, on Citus nothing)."""
    from games.tournaments import commands, store

    monkeypatch.setattr(
        store,
        "tournament_lock",
        lambda *, tournament_id: store.Tournament.objects.filter(pk=tournament_id).first(),
    )
    passed = []

    def match_create(**_):
        passed.append(1)
        time.sleep(0.2)  # the others' checks run meanwhile, as a slow insert lets them
        raise DomainError("tournament_full", "Stopped before its match, by the test.")

    monkeypatch.setattr(commands, "match_create", match_create)
    roya = make_client("Roya")
    tournament = create(make_client("Owner"))
    for _ in range(5):  # a race: almost always at the first try
        passed.clear()
        race([roya.token] * 3, f"{BASE}/{tournament['id']}/entries", {})
        if len(passed) > 1:
            break
    assert len(passed) > 1
