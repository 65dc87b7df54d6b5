"""GET /matches/{id}/hint: the coach's advice for the human's turn, logged, never a match
event, never a card the player has not seen."""

import random
from fractions import Fraction

import pytest

from games.ai.coach import coach
from games.engine import HUMAN_SEAT, MatchState, StartMatch, Step, legal_actions, observe
from games.match import store as match_store
from games.match.commands import AI_PERSONAS
from games.models import Hint, Match, Seat
from players.models import Player
from players.services import player_ai_personas
from tests.http.play import play_match
from tests.http.problems import assert_problem
from tests.http.secrecy import hands_in
from tests.matches import stored_seqs

pytestmark = pytest.mark.django_db


def hint(client, match_id):
    return client.get(f"/api/v1/matches/{match_id}/hint")


def act(client, match_id, action, **body):
    return client.post(
        f"/api/v1/matches/{match_id}/actions", {"action": action, **body}, format="json"
    )


def test_before_looking_the_hint_says_look_and_nothing_about_the_cards(client, new_match):
    hints = []
    for seed in range(1, 6):
        view = new_match(seed=seed)
        assert view["your_cards"] is None and view["turn"] == 0
        response = hint(client, view["id"])
        assert response.status_code == 200, response.json()
        body = response.json()
        assert list(hands_in(body)) == []
        assert body["hand_rank"] is body["showdown_win"] is body["showdown_tie"] is None
        assert {a["action"]: a["hard_probability"] for a in body["actions"]}["look"] == "1"
        assert all(a["expected_value"] is None for a in body["actions"])
        hints.append(body["actions"])
    # Five seeds deal five different hands to seat 0: the advice does not depend on them.
    assert all(actions == hints[0] for actions in hints)


def test_after_looking_the_hint_gives_the_coachs_exact_figures(client, new_match):
    view = new_match(seed=4)
    view = act(client, view["id"], "look").json()
    body = hint(client, view["id"]).json()
    match = match_store.match_load(match_id=view["id"], player=client.player)
    expected = coach(
        observe(match.state, HUMAN_SEAT), legal_actions(match.state, HUMAN_SEAT), "hard"
    )
    assert [a["action"] for a in body["actions"]] == view["legal_actions"]
    assert body["values_are_exact"] is True
    assert body["hand_rank"] == expected.hand_rank
    assert Fraction(body["showdown_win"]) == expected.showdown_win
    assert Fraction(body["showdown_tie"]) == expected.showdown_tie
    assert sum(Fraction(a["hard_probability"]) for a in body["actions"]) == 1
    for got, want in zip(body["actions"], expected.actions, strict=True):
        assert Fraction(got["hard_probability"]) == want.hard_probability
        assert Fraction(got["expected_value"]) == want.expected_value  # exact, not rounded
    # The only cards a hint could name are the player's own, which it does not repeat.
    assert list(hands_in(body)) == []


def test_a_hint_is_logged_and_changes_no_version(client, new_match):
    view = new_match(seed=2)
    events = len(stored_seqs(view["id"]))
    body = hint(client, view["id"]).json()
    assert body["version"] == view["version"]
    assert Match.objects.get(pk=view["id"]).version == view["version"]
    assert len(stored_seqs(view["id"])) == events
    logged = Hint.objects.get(match_id=view["id"])
    assert logged.advice == body and logged.player_id == client.player.id
    assert (logged.version, logged.series, logged.deal_number) == (view["version"], 1, 1)
    # The version the player held before asking is still the one to write with.
    response = act(client, view["id"], "look", expected_version=view["version"])
    assert response.status_code == 200, response.json()


def test_the_admin_shows_the_hints(client, new_match, admin_client):
    view = new_match(seed=2)
    view = act(client, view["id"], "look").json()
    body = hint(client, view["id"]).json()
    page = admin_client.get(f"/admin/games/match/{view['id']}/change/").content.decode()
    assert f"rank {body['hand_rank']}, wins a showdown {body['showdown_win']}" in page
    assert body["actions"][0]["expected_value"] in page


def test_no_hint_once_the_deal_or_the_match_is_over(client, new_match):
    view = new_match(seed=5)
    # Fold at once (after a look if folding needs one) to end the deal quickly.
    while view["status"] == "in_deal":
        action = "fold" if "fold" in view["legal_actions"] else view["legal_actions"][0]
        view = act(client, view["id"], action).json()
    assert view["status"] == "deal_over"
    before = Hint.objects.count()
    assert_problem(hint(client, view["id"]), 409, "deal_over")
    view = play_match(client, view, random.Random(1))
    assert_problem(hint(client, view["id"]), 409, "match_finished")
    assert Hint.objects.count() == before


def test_no_hint_when_it_is_an_ai_seats_turn(client):
    # Through the API the AI seats have always acted; a match stored mid-way cannot be
    # made otherwise than directly.
    step = Step(MatchState())
    seed = next(s for s in range(100) if _first_turn(s) != HUMAN_SEAT)
    step.apply(StartMatch(seed))
    match = match_store.match_insert(
        players=[client.player, *player_ai_personas(names=AI_PERSONAS)],
        ai_level="hard",
        seeded=True,
        events=step.events,
        state=step.state,
    )
    assert_problem(hint(client, match.row.id), 409, "not_your_turn")
    assert not Hint.objects.exists()


def _first_turn(seed: int) -> int:
    step = Step(MatchState())
    step.apply(StartMatch(seed))
    return step.state.deal.turn


def test_no_hint_in_a_match_with_two_humans(client, new_match):
    view = new_match(seed=3)
    friend = Player.objects.create(name="Babak", kind=Player.Kind.HUMAN)
    Seat.objects.filter(match_id=view["id"], number=2).update(player=friend)
    body = assert_problem(hint(client, view["id"]), 409, "hints_not_allowed")
    assert "2" in body["detail"]
    assert not Hint.objects.exists()


def test_another_players_match_has_no_hint(client, make_client, new_match):
    view = new_match(seed=3)
    assert_problem(hint(make_client("Omid"), view["id"]), 404, "not_found")
