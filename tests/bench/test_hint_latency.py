"""Hint latency over the API, on real Postgres: prints p50 and p95 (run with -m simulation
-s). The bound only tells working from broken."""

import random
import statistics
import time

import pytest
from rest_framework.test import APIClient

from games.ai.coach import warm
from players.services import player_create

pytestmark = [pytest.mark.django_db, pytest.mark.simulation]


def test_hint_latency(settings):
    # One player asks for every hint of 100 matches: more than its rate limits allow.
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    unlimited = {
        scope: "100000/min" for scope in ("hint", "hint_address", "match_create", "token", "ip")
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, **unlimited},
    }
    warm()  # as a server's worker does when it starts (asnas_api.asgi)
    player, token = player_create(name="Roya")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    rng = random.Random(1)
    client.get("/api/v1/matches")  # warm the app
    timings = []
    for seed in range(100):
        view = client.post("/api/v1/matches", {"seed": seed}, format="json").json()
        url = f"/api/v1/matches/{view['id']}"
        view = client.post(f"{url}/actions", {"action": "look"}, format="json").json()
        while view["status"] == "in_deal":
            start = time.perf_counter()
            response = client.get(f"{url}/hint")
            timings.append(time.perf_counter() - start)
            assert response.status_code == 200, response.json()
            # Mostly stay in, so that hints come from every stage of the betting.
            choices = [a for a in view["legal_actions"] if a not in ("look", "fold")]
            action = rng.choice(choices or view["legal_actions"])
            view = client.post(f"{url}/actions", {"action": action}, format="json").json()
    timings = sorted(timings)
    p50 = statistics.median(timings) * 1000
    p95 = timings[int(0.95 * (len(timings) - 1))] * 1000
    print(
        f"\nhint latency over {len(timings)} hints: p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
        f"max {timings[-1] * 1000:.0f} ms"
    )
    assert p95 < 5000
