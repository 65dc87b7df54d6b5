"""GET /matches?status=...: a frontend lists what is still to play, or what is done."""

import random

import pytest

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
