"""Hints under load (games/coaching/cache.py): a worker computes at most ASNAS_HINTS_AT_ONCE at once
and refuses the rest with 503 `hints_busy`, and keeps the coach's answers in a cache that
every match shares. Real threads against real Postgres."""

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.coaching import commands as coaching_commands
from games.engine import HUMAN_SEAT
from games.match import store as match_store
from games.models import Hint
from players.services import player_create
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db(transaction=True)

# Two deals (found by replaying seeds through the engine) where the human is first to act
# (node 0, dealer at seat 3) holding As Shah Shah Bibi Sarbaz, the other seats' hands
# differing: the coach's answer is the same for both.
SAME_SPOT_SEEDS = (271, 1)


@pytest.fixture(autouse=True)
def empty_cache():
    from games.coaching import cache as hint_cache

    hint_cache.ADVICE.clear()


def new_client(name: str) -> APIClient:
    player, token = player_create(name=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.player = player
    return client


def looked_match(client: APIClient, seed: int, ai_level: str = "hard") -> dict:
    """A new match of `client` where seat 0 has looked and has a decision to make."""
    view = client.post("/api/v1/matches", {"seed": seed, "ai_level": ai_level}, format="json")
    assert view.status_code == 201, view.json()
    assert view.json()["turn"] == HUMAN_SEAT
    looked = client.post(
        f"/api/v1/matches/{view.json()['id']}/actions", {"action": "look"}, format="json"
    )
    assert looked.status_code == 200, looked.json()
    return looked.json()


def hint(client: APIClient, match_id: str):
    return client.get(f"/api/v1/matches/{match_id}/hint")


class CountedCoach:
    """Stands in for the coach in the hint service: counts its calls, and holds the first one
    until `release` is set, having set `entered`, when `hold_first` is true."""

    def __init__(self, hold_first: bool = False):
        self.real = coaching_commands.coach
        self.calls = 0
        self.hold_first = hold_first
        self.entered = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, *args):
        with self._lock:
            self.calls += 1
            first = self.calls == 1
        if first and self.hold_first:
            self.entered.set()
            assert self.release.wait(60), "the test never let the first hint finish"
        return self.real(*args)


def test_two_matches_at_the_same_spot_share_one_computation(monkeypatch):
    counted = CountedCoach()
    monkeypatch.setattr(coaching_commands, "coach", counted)
    roya, babak = new_client("Roya"), new_client("Babak")
    # Different seeds deal different cards to the other seats, and expert's AI table for the
    # coach is hard's: only the table, the betting and the asker's own hand decide.
    first = looked_match(roya, SAME_SPOT_SEEDS[0], "hard")
    second = looked_match(babak, SAME_SPOT_SEEDS[1], "expert")
    deals = [
        match_store.match_load(match_id=view["id"], player=client.player).state.deal
        for client, view in ((roya, first), (babak, second))
    ]
    assert deals[0].hands[HUMAN_SEAT] == deals[1].hands[HUMAN_SEAT]
    assert deals[0].hands[1:] != deals[1].hands[1:]

    answers = [hint(roya, first["id"]), hint(babak, second["id"])]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert counted.calls == 1
    bodies = [answer.json() for answer in answers]
    assert bodies[0]["actions"] == bodies[1]["actions"]  # exact fraction strings, equal
    assert all("/" in action["expected_value"] for action in bodies[0]["actions"][:2])
    for key in ("values_are_exact", "hand_rank", "showdown_win", "showdown_tie"):
        assert bodies[0][key] == bodies[1][key]
    # What is the match's own stays its own.
    assert (bodies[0]["ai_level"], bodies[1]["ai_level"]) == ("hard", "expert")
    assert Hint.objects.count() == 2
    # And the cached answer is the one the coach computes afresh.
    monkeypatch.setattr(coaching_commands, "coach", counted.real)
    from games.coaching import cache as hint_cache

    hint_cache.ADVICE.clear()
    assert hint(babak, second["id"]).json()["actions"] == bodies[1]["actions"]


def test_past_the_cap_a_hint_to_compute_is_refused_with_retry_after(monkeypatch, settings):
    settings.ASNAS_HINTS_AT_ONCE = 1
    counted = CountedCoach(hold_first=True)
    monkeypatch.setattr(coaching_commands, "coach", counted)
    roya, babak = new_client("Roya"), new_client("Babak")
    held_match = looked_match(roya, SAME_SPOT_SEEDS[0])
    other_match = looked_match(babak, 5)
    held: list = []

    def ask_and_close():
        try:
            held.append(hint(roya, held_match["id"]))
        finally:
            connections.close_all()

    thread = threading.Thread(target=ask_and_close)
    thread.start()
    try:
        assert counted.entered.wait(60), "the first hint never reached the coach"
        refused = hint(babak, other_match["id"])
        # The same spot as the one in flight is no better off: it is not in the cache yet.
        same_spot = hint(babak, looked_match(babak, SAME_SPOT_SEEDS[1])["id"])
    finally:
        counted.release.set()
        thread.join()
    for response in (refused, same_spot):
        assert_problem(response, 503, "hints_busy")
        assert response["Retry-After"] == "1"
    assert counted.calls == 1
    assert held[0].status_code == 200, held[0].json()
    # Refused hints are not logged; the place is free again once the first is done.
    assert Hint.objects.count() == 1
    assert hint(babak, other_match["id"]).status_code == 200
    assert counted.calls == 2


def test_a_hint_in_the_cache_is_answered_while_the_cap_is_reached(monkeypatch, settings):
    settings.ASNAS_HINTS_AT_ONCE = 1
    roya, babak = new_client("Roya"), new_client("Babak")
    cached_match = looked_match(babak, SAME_SPOT_SEEDS[1])
    assert hint(babak, cached_match["id"]).status_code == 200
    counted = CountedCoach(hold_first=True)
    monkeypatch.setattr(coaching_commands, "coach", counted)
    held_match = looked_match(roya, 5)
    thread = threading.Thread(
        target=lambda: (hint(roya, held_match["id"]), connections.close_all())
    )
    thread.start()
    try:
        assert counted.entered.wait(60), "the first hint never reached the coach"
        served = hint(babak, cached_match["id"])
    finally:
        counted.release.set()
        thread.join()
    assert served.status_code == 200, served.json()
    assert counted.calls == 1
