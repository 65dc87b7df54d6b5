"""The leak property for the bot ladder (#39 item 6): a benchmark's bodies, its matches'
views, events and records, and the bots' leaderboard show no card their reader may not see,
and no seed before its match ended. A benchmark's figure counts only matches that ended
(their seeds revealed): deals of the match in play move it not at all. The card checks are
those of tests/http/secrecy.py."""

import json
import random

import pytest
from rest_framework.test import APIClient

from games.engine import fairness
from games.models import Benchmark
from players.services import player_create
from tests.http.secrecy import check_event, check_record, check_view, hands_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

URL = "/api/v1/bots/me/benchmark"


class Bot:
    """A bot's API client that keeps every body it receives."""

    def __init__(self, name: str):
        _, token = player_create(name=name, bot=True)
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        self.bodies: list[dict] = []

    def get(self, url: str) -> dict:
        self.bodies.append(self.client.get(url).json())
        return self.bodies[-1]

    def post(self, url: str, body: dict | None = None) -> dict:
        self.bodies.append(self.client.post(url, body or {}, format="json").json())
        return self.bodies[-1]


def play_deals(bot: Bot, match_id: str, deals: int, rng: random.Random) -> dict:
    """Random legal actions in the match until `deals` deals ended (or the match did), every
    answer checked for cards as the bot's seat may see them."""
    view = bot.get(f"/api/v1/matches/{match_id}")
    ended = 0
    while view["status"] != "finished" and ended < deals:
        if view["status"] == "deal_over":
            view = bot.post(f"/api/v1/matches/{match_id}/next-deal")
        else:
            action = rng.choice(view["legal_actions"])
            view = bot.post(f"/api/v1/matches/{match_id}/actions", {"action": action})
            ended += view["status"] in ("deal_over", "finished")
        check_view(view)
    return view


def test_no_benchmark_body_shows_a_card_or_a_seed_before_its_match_ended():
    shir, other = Bot("Shirbot"), Bot("Otherbot")
    started = shir.post(URL, {"deals": 120})
    seed = Benchmark.objects.get(pk=started["id"]).server_seed
    match_seeds = [fairness.pool_seed(bytes.fromhex(seed), n).hex() for n in range(10)]
    rng = random.Random(39)
    first = started["current_match"]
    assert play_deals(shir, first, 12, rng)["status"] == "finished"
    after_first = shir.get(URL)
    assert after_first["deals_counted"] == 12 and after_first["play"] is not None
    second = after_first["current_match"]
    # Four deals into the second match: the figure is still the first match's, exactly.
    play_deals(shir, second, 4, rng)
    during = shir.get(URL)
    assert (during["deals_counted"], during["play"], during["result"]) == (
        12,
        after_first["play"],
        after_first["result"],
    )
    # The first match's record shows every hand, dealt again from its revealed seed; the
    # second's, only what its seat saw; every event likewise.
    first_record = shir.get(f"/api/v1/matches/{first}/record")
    assert first_record["series"][0]["server_seed"] == match_seeds[0]
    check_record(first_record, first, 0)
    check_record(shir.get(f"/api/v1/matches/{second}/record"), second, 0)
    for match_id in (first, second):
        events = shir.get(f"/api/v1/matches/{match_id}/events")["events"]
        assert all(check_event(event, match_id) >= 0 for event in events)
    board = other.get("/api/v1/bots/leaderboard")
    assert other.client.get(URL).status_code == 404  # another bot's benchmark is not its own
    assert other.client.get(f"/api/v1/matches/{first}").status_code == 404
    # No benchmark or leaderboard body holds a card; none holds the benchmark's seed; the
    # seeds of the match in play and of the matches to come show nowhere at all.
    for body in [*(b for b in shir.bodies if "deals_counted" in b), board]:
        assert list(hands_in(body)) == []
    text = json.dumps(shir.bodies + other.bodies)
    assert seed not in text
    assert not [s for s in match_seeds[1:] if s in text]
    assert first not in json.dumps(other.bodies) and second not in json.dumps(other.bodies)
