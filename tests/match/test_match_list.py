"""GET /matches?status=...: a frontend lists what is still to play, or what is done, each
match with its seats, yours, and your place once it is over."""

import random
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.http.play import play_match
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def test_the_list_filters_by_status(client, new_match):
    playing = new_match(seed=1)
    finished = play_match(client, new_match(seed=2), random.Random(2))
    assert finished["status"] == "finished"

    def listed(status: str) -> list[str]:
        response = client.get(f"/api/v1/matches?status={status}")
        assert response.status_code == 200
        return [match["id"] for match in response.json()["results"]]

    assert listed("finished") == [finished["id"]]
    assert listed(playing["status"]) == [playing["id"]]
    assert len(client.get("/api/v1/matches").json()["results"]) == 2


def test_an_unknown_status_lists_the_statuses(client):
    body = assert_problem(client.get("/api/v1/matches?status=won"), 400, "validation_error")
    assert body["errors"][0]["field"] == "status"
    assert (
        "allowed: waiting, in_deal, deal_over, finished, abandoned" in body["errors"][0]["message"]
    )


def test_each_listed_match_names_its_seats_yours_and_your_place(client, make_client, new_match):
    playing = new_match(seed=1)
    finished = play_match(client, new_match(seed=2), random.Random(2))
    listed = {match["id"]: match for match in client.get("/api/v1/matches").json()["results"]}
    for view in (playing, finished):
        shown = listed[view["id"]]
        names = [(seat["name"], seat["kind"]) for seat in view["seats"]]
        assert [(seat["name"], seat["kind"]) for seat in shown["seats"]] == names
        assert shown["your_seat"] == 0
    assert listed[playing["id"]]["your_place"] is None  # no place before the end
    totals = [Fraction(seat["total"]) for seat in finished["seats"]]
    place = 1 + sum(1 for total in totals if total > totals[0])
    assert listed[finished["id"]]["your_place"] == place
    # A friend at the owner's table sees their own seat there, and the owner's name.
    table = client.post("/api/v1/matches", {"humans": 2}, format="json").json()
    friend = make_client("Darya")
    joined = friend.post(
        f"/api/v1/matches/{table['id']}/join", {"invite": table["invite"]}, format="json"
    )
    assert joined.status_code == 200, joined.json()
    (theirs,) = friend.get("/api/v1/matches").json()["results"]
    assert theirs["your_seat"] == 1
    assert [seat["name"] for seat in theirs["seats"]][:2] == [table["seats"][0]["name"], "Darya"]


def test_a_resignation_places_you_last_as_ratings_do(client, new_match):
    """At 0-0-0-0 a resigning player is fourth, not tied for first (docs/ratings.md), while a
    match played out is placed by its totals alone (above)."""
    at_nothing = new_match(seed=3)
    assert client.post(f"/api/v1/matches/{at_nothing['id']}/resign").status_code == 200
    (listed,) = client.get("/api/v1/matches").json()["results"]
    assert listed["totals"] == ["0", "0", "0", "0"]
    assert listed["your_place"] == 4


def test_the_list_reads_its_seats_in_the_same_statements_for_one_match_or_many(client, new_match):
    """The seats come with the page's rows (one subquery), not one statement per match."""

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/v1/matches").status_code == 200
        return len(queries)

    new_match(seed=1)
    one = statements()
    for seed in range(2, 7):
        new_match(seed=seed)
    assert statements() == one
