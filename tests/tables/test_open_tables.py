"""Open tables through the services, without HTTP: listed while they wait, joined without the
invite, filled by the AI when `fill_after` runs out (by the clock, under the row lock), and
quick play seating a player at the table that waited longest, or opening one."""

import threading
from datetime import timedelta

import pytest
from django.db import connections, transaction
from django.utils import timezone

from games.engine import DomainError, Status
from games.http.shapes import MATCH_VIEW
from games.match import queries as match_queries
from games.match import store as match_store
from games.match.commands import match_clock_tick, match_create, match_join, match_move
from games.match.integrity import check_matches
from games.models import Match
from games.tables import queries as tables_queries
from games.tables.commands import QUICK_PLAY_FILL_AFTER, match_quick_play
from games.tables.filters import TableFilters
from players.services import player_create
from tests.matches import stored_events

pytestmark = pytest.mark.django_db

ANY = TableFilters(verifiable=None)  # any table: verifiable or not


@pytest.fixture
def people():
    return [player_create(name=name)[0] for name in ("Roya", "Babak", "Nima", "Sara", "Omid")]


def refused(code: str, call, **arguments) -> None:
    with pytest.raises(DomainError) as raised:
        call(**arguments)
    assert raised.value.code == code


def lobby(filters: TableFilters = ANY) -> list[dict]:
    return tables_queries.tables_open(filters=filters)


def open_table(owner, humans: int = 3, **options):
    return match_create(owner=owner, ai_level="easy", humans=humans, open=True, **options)


def test_an_open_table_is_listed_while_it_waits_and_joined_without_the_invite(people):
    match = open_table(people[0], humans=3, turn_seconds=90)
    (listed,) = lobby()
    assert listed["id"] == match.row.id and listed["owner"] == "Roya"
    assert (listed["humans"], listed["seats_free"], listed["turn_seconds"]) == (3, 2, 90)
    assert (listed["ai_level"], listed["verifiable"], listed["spectators"]) == (
        "easy",
        False,
        "off",
    )
    assert [seat["free"] for seat in listed["seats"]] == [False, True, True, False]
    joined = match_join(match_id=match.row.id, player=people[1], invite="")
    assert joined.viewer_seat == 1
    assert lobby()[0]["seats_free"] == 1
    match_join(match_id=match.row.id, player=people[2], invite="")
    assert lobby() == []  # full: deal 1 started


def test_a_table_that_is_not_open_is_not_listed_and_needs_its_invite(people):
    match = match_create(owner=people[0], ai_level="easy", humans=2)
    assert lobby() == []
    refused("not_found", match_join, match_id=match.row.id, player=people[1], invite="")
    refused("not_found", match_join, match_id=match.row.id, player=people[1], invite="x" * 32)


def test_only_a_table_is_open_or_filled_and_nothing_is_stored_otherwise(people):
    refused("not_a_table", match_create, owner=people[0], ai_level="easy", open=True)
    refused("not_a_table", match_create, owner=people[0], ai_level="easy", fill_after=30)
    assert not Match.objects.exists()


def test_the_lobby_lists_the_fitting_tables_longest_waiting_first(people):
    first = open_table(people[0], humans=2, turn_seconds=30)
    second = open_table(people[1], humans=4, turn_seconds=120)
    third = match_create(owner=people[2], ai_level="hard", humans=2, turn_seconds=60, open=True)
    open_table(people[3], humans=2, turn_seconds=None)  # no clock
    ids = [table["id"] for table in lobby()]
    assert ids[:3] == [first.row.id, second.row.id, third.row.id] and len(ids) == 4
    assert [t["id"] for t in lobby(TableFilters(humans=2, max_turn_seconds=60))] == [
        first.row.id,
        third.row.id,
    ]
    assert [t["id"] for t in lobby(TableFilters(ai_level="hard"))] == [third.row.id]
    assert [t["id"] for t in lobby(TableFilters(humans=4))] == [second.row.id]


def test_a_table_its_owner_closed_leaves_the_lobby(people):
    match = open_table(people[0])
    match_move(move="leave", match_id=match.row.id, player=people[0])
    assert lobby() == []


def test_the_clock_fills_the_open_seats_when_fill_after_runs_out(people):
    match = open_table(people[0], humans=4, turn_seconds=60, fill_after=30)
    match_join(match_id=match.row.id, player=people[1], invite="")
    fill_at = Match.objects.get(id=match.row.id).fill_at
    assert fill_at == match.row.fill_at
    assert timedelta(seconds=29) < fill_at - timezone.now() <= timedelta(seconds=30)
    assert match_clock_tick(now=fill_at - timedelta(milliseconds=1)) is None  # not yet
    move = match_clock_tick(now=fill_at)
    assert move.match_id == match.row.id and move.deadline is None
    filled = match_store.match_load(match_id=match.row.id, player=people[0])
    assert filled.state.status in (Status.IN_DEAL, Status.DEAL_OVER)
    assert [(seat.name, seat.kind) for seat in filled.seats] == [
        ("Roya", "human"),
        ("Babak", "human"),
        ("Darius", "ai"),
        ("Shirin", "ai"),
    ]
    types = [event["type"] for event in stored_events(match.row.id)]
    assert types[:4] == ["match_created", "player_joined", "seats_filled", "deal_started"]
    view = MATCH_VIEW.render(match_queries.match_view(match=filled))
    assert view["fill_at"] is None and not any(seat["away"] for seat in view["seats"])
    assert lobby() == []
    assert list(check_matches([match.row.id])) == [(match.row.id, [])]
    refused("match_full", match_join, match_id=match.row.id, player=people[2], invite="")


def test_a_table_filled_plays_on_with_the_ai_at_the_filled_seats(people):
    match = open_table(people[0], humans=3, turn_seconds=None, fill_after=10)
    match_clock_tick(now=match.row.fill_at)
    match = match_store.match_load(match_id=match.row.id, player=people[0])
    assert [seat.kind for seat in match.seats] == ["human", "ai", "ai", "ai"]
    # Whatever the AI did, it is the owner's turn or the deal is over: nobody waits for seat 1.
    state = match.state
    assert state.status is Status.DEAL_OVER or state.deal.turn == 0
    if state.status is Status.IN_DEAL:
        match_move(move="act", match_id=match.row.id, player=people[0], action="fold")


def test_a_table_full_before_its_fill_is_left_alone_by_the_clock(people):
    match = open_table(people[0], humans=2, fill_after=30)
    match_join(match_id=match.row.id, player=people[1], invite="")
    version = Match.objects.get(id=match.row.id).version
    assert match_clock_tick(now=match.row.fill_at + timedelta(seconds=1)) is None
    assert Match.objects.get(id=match.row.id).version == version


@pytest.mark.django_db(transaction=True)
def test_the_clock_skips_a_table_whose_row_another_transaction_holds(people):
    match = open_table(people[0], humans=2, fill_after=10)
    held, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                match_store.match_load(match_id=match.row.id, player=None, lock=True)
                held.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    try:
        assert match_clock_tick(now=match.row.fill_at) is None  # skipped, not waited for
    finally:
        release.set()
        holder.join()
    assert match_clock_tick(now=match.row.fill_at).match_id == match.row.id


def test_quick_play_seats_the_player_at_the_fitting_table_that_waited_longest(people):
    older = open_table(people[0], humans=2, turn_seconds=120)
    newer = open_table(people[1], humans=2, turn_seconds=30)
    fitting = match_quick_play(player=people[2], filters=TableFilters(max_turn_seconds=60))
    assert fitting.row.id == newer.row.id and fitting.viewer_seat == 1
    assert fitting.state.status is Status.IN_DEAL
    oldest = match_quick_play(player=people[3], filters=ANY)
    assert oldest.row.id == older.row.id


def test_quick_play_opens_a_table_when_none_fits_and_never_picks_your_own(people):
    mine = open_table(people[0], humans=2)
    opened = match_quick_play(player=people[0], filters=TableFilters(ai_level="normal"))
    assert opened.row.id != mine.row.id and opened.viewer_seat == 0
    row = Match.objects.get(id=opened.row.id)
    assert row.open and row.ai_level == "normal" and row.turn_seconds == 60
    assert opened.state.humans == 2 and opened.state.status is Status.WAITING
    assert timedelta(0) < row.fill_at - timezone.now() <= timedelta(seconds=QUICK_PLAY_FILL_AFTER)
    with_four = match_quick_play(
        player=people[1], filters=TableFilters(humans=4, max_turn_seconds=30)
    )
    assert with_four.state.humans == 4 and with_four.row.turn_seconds == 30


def test_quick_play_joins_a_verifiable_table_with_the_client_seed(people):
    match = match_create(
        owner=people[0], ai_level="easy", humans=2, open=True, verifiable=True, client_seed="o"
    )
    assert lobby()[0]["verifiable"] is True
    unasked = TableFilters()
    assert match_quick_play(player=people[2], filters=unasked).row.id != match.row.id
    asked = TableFilters(verifiable=True)
    joined = match_quick_play(player=people[1], filters=asked, client_seed="mine")
    assert joined.row.id == match.row.id
    assert joined.state.seeds.client_seeds[:2] == ["o", "mine"]


def test_a_query_count_for_the_lobby_does_not_grow_with_its_tables(
    people, django_assert_num_queries
):
    for owner in people[:4]:
        open_table(owner, humans=4)
    with django_assert_num_queries(1):
        assert len(lobby()) == 4
