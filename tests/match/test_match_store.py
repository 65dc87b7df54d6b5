"""The repository, called directly: one event row per write, every event addressable by its
seq, the Deal rows as the projection of the events, and the repair of a broken projection."""

import pytest
from django.db import transaction

from games.engine import DealEnded, DealStarted, MatchRestarted, MatchState, replay
from games.match import log as match_log
from games.match import projection
from games.match import store as match_store
from games.match.commands import match_create, match_move
from games.match.integrity import replay_stored
from games.models import Deal, EventBatch
from players.services import player_create
from tests.matches import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return player_create(name="Roya")[0]


def test_each_write_stores_its_events_as_one_row_ending_at_its_last_seq(make_match):
    match = make_match(deals=0)
    first = EventBatch.objects.get(match=match)
    assert first.seq == match.version  # match_created, deal_started and the AI seats' actions
    loaded = match_store.match_load(match_id=match.id, player=match.owner)
    after = match_move(move="act", match_id=match.id, player=match.owner, action="look")
    batches = list(EventBatch.objects.filter(match=match).order_by("seq"))
    assert [batch.seq for batch in batches] == [loaded.row.version, after.row.version]
    assert batches[1].events.count("\n") + 1 == after.row.version - loaded.row.version


def test_any_range_of_events_reads_back_by_seq(make_match):
    match = make_match(deals=3, seed=4)
    events = match_log.match_events(match_id=match.id)
    assert [seq for seq, _ in events] == list(range(1, match.version + 1))
    assert replay(event for _, event in events) == MatchState.from_dict(match.state)
    assert EventBatch.objects.filter(match=match).count() < match.version / 2
    for first in range(1, match.version + 1, 3):
        for last in (first, first + 1, first + 7, match.version):
            last = min(last, match.version)
            got = match_log.match_events(match_id=match.id, first=first, last=last)
            assert got == events[first - 1 : last], (first, last)
    for after in (0, 5, match.version - 1, match.version):
        got = match_log.match_events_after(match_id=match.id, after=after, limit=4)
        assert got == events[after : after + 4]


def test_a_deal_reads_its_own_events_only(make_match):
    match = make_match(deals=2, seed=6)
    match_move(move="next_deal", match_id=match.id, player=match.owner)
    restarted = match_move(move="restart", match_id=match.id, player=match.owner)
    deal_2 = match_log.deal_events(match_id=match.id, series=1, deal_number=2)
    assert isinstance(deal_2[0][1], DealStarted) and deal_2[0][1].deal_number == 2
    assert isinstance(deal_2[-1][1], DealEnded)
    abandoned = match_log.deal_events(match_id=match.id, series=1, deal_number=3)
    assert isinstance(abandoned[-1][1], MatchRestarted)  # a restart ends the abandoned deal
    started = Deal.objects.get(match=match, series=2, deal_number=1).started_seq
    new = match_log.deal_events(match_id=match.id, series=2, deal_number=1)
    assert new[0][0] == started and new[-1][0] == restarted.row.version
    assert match_log.deal_events(match_id=match.id, series=2, deal_number=2) == []


def test_deal_rows_are_the_projection_of_the_events(owner):
    match = play(match_create(owner=owner, ai_level="easy", seed=8), deals=3)
    expected: dict = {}
    for seq, event in match_log.match_events(match_id=match.id):
        projection.deals_in_memory(expected, seq, event)
    rows = Deal.objects.filter(match=match).values("series", "deal_number", *expected[1, 1])
    assert {(row.pop("series"), row.pop("deal_number")): row for row in rows} == expected
    assert all(expected[1, number]["outcome"] for number in (1, 2, 3))


def test_reproject_rewrites_a_broken_projection_from_the_events(make_match):
    match = make_match(deals=2, seed=9)
    good = list(
        Deal.objects.filter(match=match).values_list("series", "deal_number", "started_seq")
    )
    Deal.objects.filter(match=match).update(started_seq=1, outcome="abandoned")
    with transaction.atomic():
        stored = match_log.match_stored(match_id=match.id)
        replayed = replay_stored(stored, [])
        match_store.match_reproject(
            match_id=match.id,
            state=replayed.state,
            deals=replayed.deals,
            deadline=replayed.turn_deadline,
            seating=replayed.seating,
        )
    again = Deal.objects.filter(match=match).values_list("series", "deal_number", "started_seq")
    assert sorted(again) == sorted(good)
