"""The turn clock through the services, without HTTP: the deadline a present human's turn gets,
the clock acting for them at the match's level (`by` "clock", `away`), the next deal starting
by itself, and matches it must leave alone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import ActionTaken, DealStarted, Status
from games.http.shapes import MATCH_VIEW
from games.match import log as match_log
from games.match import queries as match_queries
from games.match import store as match_store
from games.match.commands import ClockMove, match_clock_tick, match_create, match_move
from games.match.integrity import check_matches
from games.models import EventBatch
from players.services import player_create
from tests.matches import play_until, seated

pytestmark = pytest.mark.django_db

TURN = 60


def shown(match) -> dict:
    """The MatchView as the API renders it for the player `match` was loaded for."""
    return MATCH_VIEW.render(match_queries.match_view(match=match))


@pytest.fixture(autouse=True)
def clock_settings(settings):
    settings.ASNAS_CLOCK_GRACE_SECONDS = 0
    settings.ASNAS_NEXT_DEAL_SECONDS = 5


@pytest.fixture
def people():
    return [player_create(name=name)[0] for name in ("Roya", "Babak", "Nima")]


def loaded(match, player=None):
    return match_store.match_load(match_id=match.row.id, player=player)


def last_write_time(match):
    return EventBatch.objects.filter(match_id=match.row.id).order_by("-seq")[0].created_at


def far_future():
    return timezone.now() + timedelta(days=365)


def test_a_present_human_s_turn_has_a_deadline_from_the_write_that_gave_it(people):
    match = seated(people, 2, seed=3, turn_seconds=TURN)
    seat = match.state.deal.turn
    assert seat in (0, 1)
    deadline = match.row.turn_deadline
    assert deadline == last_write_time(match) + timedelta(seconds=TURN)
    assert loaded(match).row.turn_deadline == deadline  # stored, not only in memory
    view = shown(loaded(match, people[seat]))
    assert view["turn_deadline"] == deadline.isoformat().replace("+00:00", "Z")
    # A look keeps the turn, and so its deadline.
    looked = match_move(move="act", match_id=match.row.id, player=people[seat], action="look")
    assert looked.state.deal.turn == seat and looked.row.turn_deadline == deadline
    # A betting action passes the turn: a new deadline for the next human, or none at all.
    after = play_until(looked, people, lambda state: state.version > looked.state.version)
    state = after.state
    if state.status is Status.IN_DEAL:
        assert after.row.turn_deadline == last_write_time(after) + timedelta(seconds=TURN)
        assert after.row.turn_deadline > deadline
    else:
        assert after.row.turn_deadline is None
    over = play_until(after, people, lambda state: state.status is Status.DEAL_OVER)
    assert over.row.turn_deadline is None
    assert shown(loaded(over, people[0]))["turn_deadline"] is None
    assert [problems for _, problems in check_matches([match.row.id])] == [[]]


def test_no_clock_no_deadline_and_the_clock_leaves_the_match_alone(people):
    single = match_create(owner=people[0], ai_level="easy", seed=3)
    table = seated(people[1:], 2, seed=3)  # a table whose owner named no clock
    for match in (single, table):
        assert match.row.turn_deadline is None
    view = shown(loaded(single, people[0]))
    assert view["turn_deadline"] is None and view["turn_seconds"] is None
    played = play_until(single, people, lambda state: state.status is Status.DEAL_OVER)
    assert played.row.turn_deadline is None
    assert match_clock_tick(now=far_future()) is None
    assert loaded(single).row.version == played.row.version


def test_the_clock_acts_once_for_the_late_human_at_the_match_level(people):
    match = seated(people, 2, seed=4, turn_seconds=TURN)
    seat, version = match.state.deal.turn, match.row.version
    deadline = match.row.turn_deadline
    assert match_clock_tick(now=deadline - timedelta(milliseconds=1)) is None  # not yet
    assert match_clock_tick(now=deadline) == ClockMove(match.row.id, deadline)
    after = loaded(match, people[seat])
    events = match_log.match_events(match_id=match.row.id, first=version + 1)
    actions = [event for _, event in events if isinstance(event, ActionTaken)]
    mine = [event for event in actions if event.seat == seat]
    # The seat's turn, and only it, is the clock's: a look keeps it, a bet ends it.
    assert [event.by for event in mine] == ["clock"] * len(mine)
    assert mine[-1].action != "look"
    assert actions[: len(mine)] == mine
    assert all(event.by == "ai" for event in actions[len(mine) :] if event.seat >= 2)
    view = shown(after)
    assert view["seats"][seat]["away"] is True
    assert view["seats"][1 - seat]["away"] is False
    assert match_clock_tick(now=deadline) is None  # acted once: nothing else is due
    # When the human acts again, they are back.
    back = play_until(
        after,
        people,
        lambda state: state.status is not Status.IN_DEAL or state.deal.turn == seat,
    )
    if back.state.status is Status.IN_DEAL:
        back = match_move(move="act", match_id=match.row.id, player=people[seat], action="look")
        view = shown(loaded(match, people[seat]))
        assert view["seats"][seat]["away"] is False
    assert [problems for _, problems in check_matches([match.row.id])] == [[]]


def test_the_clock_alone_plays_a_clocked_match_to_its_end_and_then_leaves_it(people):
    match = seated(people, 2, seed=5, turn_seconds=TURN)
    moves = 0
    while match_clock_tick(now=far_future()) is not None:
        moves += 1
    state = loaded(match).state
    assert state.status is Status.FINISHED and state.deal_number == 12
    events = [event for _, event in match_log.match_events(match_id=match.row.id)]
    by = {event.by for event in events if isinstance(event, ActionTaken) and event.seat < 2}
    assert by == {"clock"}
    # One move per late turn, and one per next deal (11 of them).
    assert moves > 11
    assert sum(isinstance(event, DealStarted) for event in events) == 12
    assert loaded(match).row.turn_deadline is None
    assert [problems for _, problems in check_matches([match.row.id])] == [[]]


def test_the_next_deal_starts_by_itself_a_few_seconds_after_a_deal_ends(people, settings):
    match = seated(people, 2, seed=6, turn_seconds=TURN)
    over = play_until(match, people, lambda state: state.status is Status.DEAL_OVER)
    ended = loaded(over).row.updated_at
    assert match_clock_tick(now=ended + timedelta(seconds=4.9)) is None
    assert match_clock_tick(now=ended + timedelta(seconds=5)) == ClockMove(match.row.id, None)
    state = loaded(match).state
    assert state.status is Status.IN_DEAL and state.deal_number == 2
    # A human may start it sooner; then the clock has nothing to do.
    over = play_until(loaded(match, people[0]), people, lambda s: s.status is Status.DEAL_OVER)
    match_move(move="next_deal", match_id=match.row.id, player=people[1])
    assert match_clock_tick(now=loaded(over).row.updated_at + timedelta(seconds=5)) is None
    assert loaded(match).state.deal_number == 3


def test_the_clock_leaves_abandoned_and_unclocked_deals_over_alone(people):
    abandoned = seated(people, 2, seed=7, turn_seconds=TURN)
    match_move(move="leave", match_id=abandoned.row.id, player=people[1])
    match_move(move="leave", match_id=abandoned.row.id, player=people[0])
    gone = loaded(abandoned)
    assert gone.state.status is Status.ABANDONED and gone.row.turn_deadline is None
    unclocked = seated(people[1:], 2, seed=7)
    play_until(unclocked, people[1:], lambda state: state.status is Status.DEAL_OVER)
    assert match_clock_tick(now=far_future()) is None
    assert loaded(abandoned).row.version == gone.row.version


def test_a_human_who_left_gets_no_deadline(people):
    match = seated(people, 3, seed=8, turn_seconds=TURN)
    for person in people[1:]:
        match_move(move="leave", match_id=match.row.id, player=person)
    # Only the owner is left: every deadline is theirs, and only at their turn.
    while match_clock_tick(now=far_future()) is not None:
        pass
    events = [event for _, event in match_log.match_events(match_id=match.row.id)]
    clock_seats = {e.seat for e in events if isinstance(e, ActionTaken) and e.by == "clock"}
    assert clock_seats == {0}
    assert [problems for _, problems in check_matches([match.row.id])] == [[]]
