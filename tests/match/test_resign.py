"""POST /matches/{id}/resign: the match ends at once, recorded by an event."""

import pytest

from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def resign(client, match_id, body=None):
    return client.post(f"/api/v1/matches/{match_id}/resign", body or {}, format="json")


def test_resigning_finishes_the_match_and_the_resigner_does_not_win(client, new_match):
    view = new_match(seed=3)
    response = resign(client, view["id"])
    assert response.status_code == 200
    after = response.json()
    assert after["status"] == "finished"
    assert after["legal_actions"] == []
    assert 0 not in after["winners"] and after["winners"]
    assert [seat["total"] for seat in after["seats"]] == [seat["total"] for seat in view["seats"]]
    resigned, finished = after["events"]
    assert resigned == {"seq": view["version"] + 1, "type": "resigned", "seat": 0}
    assert finished["type"] == "match_finished" and finished["winners"] == after["winners"]
    events = client.get(f"/api/v1/matches/{view['id']}/events").json()["events"]
    assert events[-2:] == after["events"]


def test_a_resigned_match_counts_as_finished_and_not_won(client):
    match_id = client.post("/api/v1/matches", {}, format="json").json()["id"]
    resign(client, match_id)
    stats = client.get("/api/v1/players/me").json()["stats"]
    assert (stats["matches_finished"], stats["matches_won"]) == (1, 0)


def test_a_finished_match_cannot_be_resigned_again(client, new_match):
    view = new_match()
    resign(client, view["id"])
    assert_problem(resign(client, view["id"]), 409, "match_finished")
    restarted = client.post(f"/api/v1/matches/{view['id']}/restart", {}, format="json")
    assert restarted.json()["status"] == "in_deal"


def test_resign_checks_the_version(client, new_match):
    view = new_match()
    assert_problem(resign(client, view["id"], {"expected_version": 1}), 409, "stale_version")
    assert client.get(f"/api/v1/matches/{view['id']}").json()["status"] == "in_deal"
