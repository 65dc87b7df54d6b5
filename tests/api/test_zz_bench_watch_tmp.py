"""POST /watch on a ~1,400-event delayed match, with and without a deal in play: several
alternated rounds in one run. Copied into tests/api/ to run (pytest -s), never committed."""

import random
import statistics
import time

import pytest
from rest_framework.test import APIClient

from games.engine import Status, legal_actions
from games.match.commands import match_create, match_move
from games.spectating.commands import match_spectators_set
from players.services import player_create

pytestmark = pytest.mark.django_db


def long_match(events: int):
    owner, _ = player_create(name="Roya")
    match = match_create(owner=owner, ai_level="easy", seed=11)
    rng = random.Random(2)
    while not (match.row.version >= events and match.state.status is Status.DEAL_OVER):
        state = match.state
        if state.status is Status.FINISHED:
            match = match_move(move="restart", match_id=match.row.id, player=owner)
        elif state.status is Status.DEAL_OVER:
            match = match_move(move="next_deal", match_id=match.row.id, player=owner)
        else:
            action = rng.choice(legal_actions(state, 0))
            match = match_move(move="act", match_id=match.row.id, player=owner, action=action)
    code = match_spectators_set(
        match_id=match.row.id, player=owner, spectators="delayed"
    ).watch_code
    return match, owner, code


def test_watch_view_cost():
    quiet, _, quiet_code = long_match(1400)
    busy, owner, busy_code = long_match(1400)
    busy = match_move(move="next_deal", match_id=busy.row.id, player=owner)
    assert busy.state.status is Status.IN_DEAL
    print(f"\nevents: quiet {quiet.row.version}, busy {busy.row.version}")
    client = APIClient()

    def round_of(code: str, n: int = 40) -> float:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            answer = client.post("/api/v1/watch", {"watch_code": code}, format="json")
            times.append(time.perf_counter() - start)
            assert answer.status_code == 200
        return statistics.median(times) * 1000

    round_of(quiet_code, 10), round_of(busy_code, 10)  # warm-up
    results = {"no deal in play": [], "deal in play": []}
    for _ in range(6):
        results["no deal in play"].append(round_of(quiet_code))
        results["deal in play"].append(round_of(busy_code))
    for name, medians in results.items():
        print(f"{name}: medians per round (ms) {', '.join(f'{m:.2f}' for m in medians)}")
