"""The match services, called directly: what they return is what they stored."""

import pytest

from games.engine import DomainError, MatchState, Status, legal_actions
from games.match import store as match_store
from games.match.commands import match_create, match_create_answer, match_move, match_move_answer
from games.match.queries import match_view
from players.services import player_create

pytestmark = pytest.mark.django_db
ACTIONS = ("look", "hold", "call", "raise", "fold")


@pytest.fixture
def owner():
    return player_create(name="Roya")[0]


def stored(match):
    return match_store.match_load(match_id=match.row.id, player=match.row.owner)


def test_a_new_match_returns_the_state_it_stored(owner):
    match = match_create(owner=owner, ai_level="easy", seed=3)
    assert match.state.status is Status.IN_DEAL
    assert match.state.deal.turn == 0  # the AI seats before the owner have acted
    assert [seat.kind for seat in match.seats] == ["human", "ai", "ai", "ai"]
    again = stored(match)
    assert again.state == match.state
    assert again.row.version == match.row.version == match.state.version
    assert again.seats == match.seats


def test_each_write_returns_the_state_it_stored(owner):
    match = match_create(owner=owner, ai_level="easy", seed=3)
    match = match_move(move="act", match_id=match.row.id, player=owner, action="fold")
    assert match.state.status is Status.DEAL_OVER  # the AI seats finished the deal
    assert stored(match).state == match.state
    match = match_move(move="next_deal", match_id=match.row.id, player=owner)
    assert match.state.deal_number == 2 and stored(match).state == match.state
    match = match_move(move="restart", match_id=match.row.id, player=owner)
    assert (match.state.series, match.state.deal_number) == (2, 1)
    assert stored(match).state == match.state


def test_refusals_are_domain_errors_and_change_nothing(owner):
    match = match_create(owner=owner, ai_level="easy", seed=3)
    stranger = player_create(name="Bahram")[0]
    illegal = next(action for action in ACTIONS if action not in legal_actions(match.state, 0))
    refusals = [
        (dict(player=stranger, action="fold"), "not_found"),
        (dict(player=owner, action="fold", expected_version=1), "stale_version"),
        (dict(player=owner, action=illegal), "illegal_action"),
    ]
    for arguments, code in refusals:
        with pytest.raises(DomainError) as raised:
            match_move(move="act", match_id=match.row.id, **arguments)
        assert raised.value.code == code
    assert stored(match).state == match.state
    assert isinstance(match.state, MatchState)


def test_a_write_s_answer_form_returns_what_the_api_answers(owner):
    """One call per write: the answer form stores as the write does and returns the view
    the API renders (the MatchWriteView's data, with the events the write appended)."""
    created = match_create_answer(owner=owner, ai_level="easy", seed=3)
    assert created["version"] == stored_view(created["id"], owner)["version"]
    assert [event["type"] for event in created["events"]][0] == "match_created"
    acted = match_move_answer(move="act", match_id=created["id"], player=owner, action="fold")
    match = match_store.match_load(match_id=created["id"], player=owner)
    assert acted["version"] == match.row.version > created["version"]
    assert acted["skill"] is None and acted["events"]
    assert {key: value for key, value in acted.items() if key != "events"} == {
        key: value for key, value in match_view(match=match, figures=False).items()
    }


def stored_view(match_id, player):
    return match_view(match=match_store.match_load(match_id=match_id, player=player))
