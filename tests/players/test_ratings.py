"""The rating on /players/me and the leaderboard (docs/ratings.md, docs/api.md)."""

import uuid
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.rating import START
from players.services import match_rate, player_create
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db

FINISHED_AT = datetime(2026, 12, 1, 12, tzinfo=UTC)


def rated(player, places_won: list[int]) -> None:
    """Rate `player` in one made-up match per place, as the match services would."""
    for place in places_won:
        totals = [Fraction(0)] * 4
        totals[0] = Fraction(3 - place * 2, 3)  # exact, and ordered against the AI seats
        match_rate(
            match_id=uuid.uuid4(),
            series=1,
            ai_level="hard",
            humans={0: player.pk},
            totals=totals,
            quit=[False] * 4,
            finished_at=FINISHED_AT,
        )


def test_a_new_player_has_the_starting_rating_and_no_history(client):
    rating = client.get("/api/v1/players/me").json()["rating"]
    assert rating == {
        "mu": START.mu,
        "sigma": START.sigma,
        "displayed": pytest.approx(0.0),
        "matches": 0,
        "provisional": True,
        "leaderboard_from": 5,
        "history": [],
    }


@pytest.mark.parametrize("walk_away", ["leave", "restart"])
def test_leaving_or_restarting_a_series_in_play_is_rated_as_a_resignation(client, walk_away):
    match = client.post("/api/v1/matches", {"ai_level": "easy"}, format="json").json()
    response = client.post(f"/api/v1/matches/{match['id']}/{walk_away}", {}, format="json")
    assert response.status_code == 200, response.json()
    rating = client.get("/api/v1/players/me").json()["rating"]
    (change,) = rating["history"]
    assert (change["match_id"], change["series"], change["place"]) == (match["id"], 1, 4)
    assert rating["matches"] == 1 and rating["mu"] < START.mu


def test_a_resigned_match_shows_in_the_rating_and_its_history(client):
    match = client.post("/api/v1/matches", {"ai_level": "easy"}, format="json").json()
    response = client.post(f"/api/v1/matches/{match['id']}/resign", {}, format="json")
    assert response.status_code == 200, response.json()
    rating = client.get("/api/v1/players/me").json()["rating"]
    (change,) = rating["history"]
    assert change["match_id"] == match["id"] and change["series"] == 1
    assert change["place"] == 4  # a resignation ranks last
    assert change["before"] == {"mu": START.mu, "sigma": START.sigma, "displayed": 0.0}
    assert change["after"]["mu"] == rating["mu"] < START.mu
    assert rating["matches"] == 1
    assert rating["displayed"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
    assert change["finished_at"].endswith("Z")


def test_the_leaderboard_lists_players_with_5_rated_matches_best_first(client, make_client):
    rated(client.player, [1, 1, 1, 1, 1])
    strong, weak, newcomer = (player_create(name=n)[0] for n in ("Sara", "Omid", "Nima"))
    rated(strong, [1] * 8)
    rated(weak, [4] * 5)
    rated(newcomer, [1] * 4)  # one short of the board
    body = client.get("/api/v1/leaderboard").json()
    assert body["count"] == 3
    assert [(e["rank"], e["name"], e["you"]) for e in body["results"]] == [
        (1, "Sara", False),
        (2, "Roya", True),
        (3, "Omid", False),
    ]
    assert [e["matches"] for e in body["results"]] == [8, 5, 5]
    displayed = [e["displayed"] for e in body["results"]]
    assert displayed == sorted(displayed, reverse=True)
    second = client.get("/api/v1/leaderboard?page=2&page_size=2").json()
    assert [(e["rank"], e["name"]) for e in second["results"]] == [(3, "Omid")]
    assert second["previous"] and second["next"] is None


def test_a_page_past_the_end_is_a_problem(client):
    assert_problem(client.get("/api/v1/leaderboard?page=9"), 404, "not_found")
    assert_problem(client.get("/api/v1/leaderboard?page=x"), 404, "not_found")


def test_the_leaderboard_needs_a_token(make_client):
    from rest_framework.test import APIClient

    assert_problem(APIClient().get("/api/v1/leaderboard"), 401, "not_authenticated")


def queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as ran:
        assert client.get(path).status_code == 200
    return len([q for q in ran.captured_queries if "SAVEPOINT" not in q["sql"]])


def test_the_leaderboard_and_the_profile_cost_the_same_few_queries_however_many(client):
    rated(client.player, [2] * 5)
    few = queries(client, "/api/v1/leaderboard"), queries(client, "/api/v1/players/me")
    for number in range(30):
        rated(player_create(name=f"Player {number}")[0], [number % 4 + 1] * 5)
    rated(client.player, [1] * 20)
    many = queries(client, "/api/v1/leaderboard"), queries(client, "/api/v1/players/me")
    # The token with its rate counting, then the count and the page (the board); the stats,
    # the rating and its history (the profile).
    assert few == many == (3, 4)
