"""Deal pools, the defence against sharing deals (#37 item 6): each entrant is dealt one of
the tournament's pools at random, whose seed derives from the tournament's one seed. A
friend told the deals by an entrant who finished holds them only if the friend was dealt
the same pool. This measures how often that is, and shows the pools' deals apart."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import fairness
from games.models import Match
from games.tournaments.commands import tournament_create, tournament_enter
from players.services import player_create

pytestmark = pytest.mark.django_db

ENTRANTS, POOLS = 40, 4


def test_each_pool_deals_alike_and_the_pools_deal_apart_and_a_shared_deal_is_rare():
    now = timezone.now()
    tournament = tournament_create(
        creator=player_create(name="Owner")[0],
        name="Pooled",
        ai_level="easy",
        entry_opens_at=now - timedelta(minutes=1),
        entry_closes_at=now + timedelta(minutes=5),
        deadline=now + timedelta(minutes=10),
        pools=POOLS,
    )
    for number in range(ENTRANTS):
        tournament_enter(tournament_id=tournament.pk, player=player_create(name=f"E{number}")[0])
    rows = Match.objects.filter(tournament=tournament).values_list("tournament_pool", "state")
    seeds_by_pool: dict[int, set[str]] = {}
    for pool, state in rows:
        seeds_by_pool.setdefault(pool, set()).add(state["seeds"]["server_seed"])
    key = bytes.fromhex(tournament.server_seed)
    # Each pool deals from one seed, its own, derived from the tournament's.
    assert {p: s for p, s in seeds_by_pool.items()} == {
        p: {fairness.pool_seed(key, p).hex()} for p in seeds_by_pool
    }
    decks = {p: fairness.deck(fairness.pool_seed(key, p), [""] * 4, 1, 1) for p in range(POOLS)}
    assert len(set(decks.values())) == POOLS  # four pools, four different first deals
    # How often a friend, entered at random, holds the deals an entrant could tell them: the
    # pairs of entrants in one pool among all pairs, about 1 in POOLS.
    sizes = [sum(1 for pool, _ in rows if pool == p) for p in range(POOLS)]
    shared = sum(n * (n - 1) for n in sizes) / (ENTRANTS * (ENTRANTS - 1))
    print(f"\npools {sizes}: a friend holds the told deals in {shared:.1%} of pairs")
    assert sum(sizes) == ENTRANTS and 0.1 < shared < 0.45
