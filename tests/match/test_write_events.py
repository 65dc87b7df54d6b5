"""Every write answers with the events it appended, as `events` lists them; a read does not."""

import random

import pytest

from tests.http.play import play_match

pytestmark = pytest.mark.django_db


def listed(client, match_id, after: int) -> list[dict]:
    return client.get(f"/api/v1/matches/{match_id}/events?after={after}").json()["events"]


@pytest.mark.parametrize("seed", [1, 2])
def test_each_answer_carries_exactly_the_events_since_the_last(client, new_match, seed):
    answers = [new_match(seed=seed)]
    play_match(client, answers[0], random.Random(seed), on_view=answers.append)
    restarted = client.post(f"/api/v1/matches/{answers[0]['id']}/restart", {}, format="json")
    answers.append(restarted.json())
    before = 0
    ai_moves = 0
    for answer in answers:
        assert answer["events"], answer
        assert [event["seq"] for event in answer["events"]] == list(
            range(before + 1, answer["version"] + 1)
        )
        upto = listed(client, answer["id"], before)
        assert answer["events"] == [event for event in upto if event["seq"] <= answer["version"]]
        ai_moves += sum(
            event["type"] == "action" and event["seat"] != 0 for event in answer["events"]
        )
        before = answer["version"]
    assert ai_moves > 0
    assert answers[-1]["events"][0]["type"] == "match_restarted"


def test_a_read_has_no_events(client, new_match):
    view = new_match()
    created = view["events"][0]
    assert {**created, "commitment": "<c>", "next_commitment": "<n>"} == {
        "seq": 1,
        "type": "match_created",
        "scheme": "hmac-sha256/1",
        "verifiable": True,
        "commitment": "<c>",
        "next_commitment": "<n>",
        "client_seed": "",
    }
    assert view["fairness"]["commitment"] == created["commitment"]
    assert "events" not in client.get(f"/api/v1/matches/{view['id']}").json()


def test_restart_may_change_the_ai_level(client, new_match):
    view = new_match(ai_level="hard")
    response = client.post(
        f"/api/v1/matches/{view['id']}/restart", {"ai_level": "easy"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["ai_level"] == "easy"
    assert client.get(f"/api/v1/matches/{view['id']}").json()["ai_level"] == "easy"
    kept = client.post(f"/api/v1/matches/{view['id']}/restart", {}, format="json").json()
    assert kept["ai_level"] == "easy"


def test_the_log_records_a_change_of_ai_level(client, new_match):
    view = new_match(ai_level="hard")
    path = f"/api/v1/matches/{view['id']}"
    changed = client.post(f"{path}/restart", {"ai_level": "easy"}, format="json").json()
    same = client.post(f"{path}/restart", {"ai_level": "easy"}, format="json").json()
    kept = client.post(f"{path}/restart", {}, format="json").json()
    restarts = [e for e in listed(client, view["id"], 0) if e["type"] == "match_restarted"]
    assert [e["ai_level"] for e in restarts] == ["easy", None, None]
    assert [answer["events"][0] for answer in (changed, same, kept)] == restarts
