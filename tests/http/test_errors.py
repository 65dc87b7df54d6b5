"""Every error code of the match API: a clear 4xx body in one shape, and no change."""

import uuid

import pytest

from games.models import Match
from tests.http.problems import assert_problem
from tests.matches import stored_seqs

pytestmark = pytest.mark.django_db


def snapshot(match_id) -> tuple:
    match = Match.objects.get(id=match_id)
    return match.version, match.state, len(stored_seqs(match.id))


def act(client, match_id, body):
    return client.post(f"/api/v1/matches/{match_id}/actions", body, format="json")


def test_unknown_action_is_a_validation_error_naming_the_field(client, new_match):
    view = new_match()
    before = snapshot(view["id"])
    body = assert_problem(act(client, view["id"], {"action": "dance"}), 400, "validation_error")
    assert body["errors"] == [
        {
            "field": "action",
            "code": "invalid_choice",
            "message": '"dance" is not a valid choice; allowed: look, call, hold, raise, fold.',
        }
    ]
    assert snapshot(view["id"]) == before


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "action"),
        ({"action": 3}, "action"),
        ({"action": "look", "expected_version": -1}, "expected_version"),
        ({"action": "look", "expected_version": "x"}, "expected_version"),
        ({"action": "look", "expected_version": 2**40}, "expected_version"),
    ],
)
def test_bad_action_bodies_name_the_field(client, new_match, body, field):
    view = new_match()
    before = snapshot(view["id"])
    problem = assert_problem(act(client, view["id"], body), 400, "validation_error")
    assert [error["field"] for error in problem["errors"]] == [field]
    assert snapshot(view["id"]) == before


def test_malformed_json_is_a_parse_error(client, new_match):
    view = new_match()
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions", "{not json", content_type="application/json"
    )
    assert_problem(response, 400, "parse_error")


def test_a_json_list_body_is_a_validation_error(client, new_match):
    view = new_match()
    assert_problem(act(client, view["id"], ["look"]), 400, "validation_error")


def test_second_look_is_already_looked(client, new_match):
    view = new_match()
    assert act(client, view["id"], {"action": "look"}).status_code == 200
    before = snapshot(view["id"])
    assert_problem(act(client, view["id"], {"action": "look"}), 422, "already_looked")
    assert snapshot(view["id"]) == before


def test_hold_when_behind_is_an_illegal_action(client, new_match):
    view = new_match()
    action = "hold" if "call" in view["legal_actions"] else "call"
    before = snapshot(view["id"])
    body = assert_problem(act(client, view["id"], {"action": action}), 422, "illegal_action")
    assert "allowed" in body["detail"]
    assert snapshot(view["id"]) == before


def test_acting_when_the_deal_is_over_is_deal_over(client, new_match):
    view = new_match()
    while view["status"] == "in_deal":
        view = act(client, view["id"], {"action": "fold"}).json()
    before = snapshot(view["id"])
    assert_problem(act(client, view["id"], {"action": "hold"}), 409, "deal_over")
    assert snapshot(view["id"]) == before


def test_next_deal_during_a_deal_is_deal_in_progress(client, new_match):
    view = new_match()
    before = snapshot(view["id"])
    response = client.post(f"/api/v1/matches/{view['id']}/next-deal", format="json")
    assert_problem(response, 409, "deal_in_progress")
    assert snapshot(view["id"]) == before


def test_a_finished_match_refuses_actions_and_next_deal(client, new_match):
    view = new_match()
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = client.post(f"/api/v1/matches/{view['id']}/next-deal", format="json").json()
        else:
            view = act(client, view["id"], {"action": "fold"}).json()
    before = snapshot(view["id"])
    assert_problem(act(client, view["id"], {"action": "fold"}), 409, "match_finished")
    response = client.post(f"/api/v1/matches/{view['id']}/next-deal", format="json")
    assert_problem(response, 409, "match_finished")
    assert snapshot(view["id"]) == before


def test_not_your_turn_when_the_projection_has_an_ai_to_act(client, new_match):
    # The API never returns while an AI seat is to act, so put the stored state there.
    view = new_match()
    match = Match.objects.get(id=view["id"])
    match.state["deal"]["turn"] = 2
    match.save(update_fields=["state"])
    before = snapshot(view["id"])
    assert_problem(act(client, view["id"], {"action": "fold"}), 409, "not_your_turn")
    assert snapshot(view["id"]) == before


@pytest.mark.parametrize("path", ["actions", "next-deal", "restart"])
def test_stale_expected_version_is_refused(client, new_match, path):
    view = new_match()
    before = snapshot(view["id"])
    body = {
        "expected_version": view["version"] - 1,
        **({"action": "fold"} if path == "actions" else {}),
    }
    response = client.post(f"/api/v1/matches/{view['id']}/{path}", body, format="json")
    assert_problem(response, 409, "stale_version")
    assert snapshot(view["id"]) == before


def test_current_expected_version_is_accepted(client, new_match):
    view = new_match()
    response = act(client, view["id"], {"action": "look", "expected_version": view["version"]})
    assert response.status_code == 200


def test_unknown_match_is_not_found(client):
    for response in (
        client.get(f"/api/v1/matches/{uuid.uuid4()}"),
        client.get(f"/api/v1/matches/{uuid.uuid4()}/events"),
        act(client, uuid.uuid4(), {"action": "look"}),
        client.post(f"/api/v1/matches/{uuid.uuid4()}/restart", format="json"),
    ):
        assert_problem(response, 404, "not_found")


def test_non_uuid_match_id_is_not_found(client):
    assert client.get("/api/v1/matches/not-a-uuid").status_code == 404


@pytest.mark.parametrize("after", ["-1", "x", str(2**40)])
def test_bad_after_is_a_validation_error(client, new_match, after):
    view = new_match()
    response = client.get(f"/api/v1/matches/{view['id']}/events?after={after}")
    body = assert_problem(response, 400, "validation_error")
    assert body["errors"][0]["field"] == "after"


def test_bad_ai_level_and_seed(client):
    body = assert_problem(
        client.post("/api/v1/matches", {"ai_level": "godlike"}, format="json"),
        400,
        "validation_error",
    )
    assert body["errors"][0]["field"] == "ai_level"
    body = assert_problem(
        client.post("/api/v1/matches", {"seed": -5}, format="json"), 400, "validation_error"
    )
    assert body["errors"][0]["field"] == "seed"
    assert Match.objects.count() == 0


def test_client_seed_is_refused_where_the_setting_forbids_it(client, settings):
    settings.ASNAS_ALLOW_CLIENT_SEED = False
    body = assert_problem(
        client.post("/api/v1/matches", {"seed": 5}, format="json"), 400, "validation_error"
    )
    assert body["errors"][0] == {
        "field": "seed",
        "code": "seed_not_allowed",
        "message": "Choosing a seed is not allowed on this server.",
    }
    response = client.post("/api/v1/matches", {}, format="json")
    assert response.status_code == 201
    assert response.json()["seeded"] is False


def test_player_name_is_validated(db, client):
    body = assert_problem(
        client.post("/api/v1/players", {"name": "x" * 65}, format="json"), 400, "validation_error"
    )
    assert body["errors"][0]["field"] == "name"
    assert_problem(client.post("/api/v1/players", {}, format="json"), 400, "validation_error")
