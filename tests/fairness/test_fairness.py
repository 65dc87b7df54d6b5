"""Verifiable deals over the API (docs/fairness.md): commit, then choose your client seed;
the seed stays hidden until the series ends; then anyone verifies every deal from the
public record alone, and a tampered seed or a swapped card fails."""

import copy
import hashlib
import json
from datetime import datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.engine import fairness
from games.models import Commitment, Match
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def commit(client) -> dict:
    response = client.post("/api/v1/commitments", {}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def play_to_the_end(client, view: dict, bodies: list) -> dict:
    """Look, then call or hold, until the match is finished; every body kept."""
    url = f"/api/v1/matches/{view['id']}"
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = client.post(f"{url}/next-deal", {}, format="json").json()
        else:
            legal = view["legal_actions"]
            action = next(a for a in ("look", "call", "hold") if a in legal)
            view = client.post(f"{url}/actions", {"action": action}, format="json").json()
        bodies.append(view)
    return view


def events_of(client, match_id) -> list[dict]:
    return client.get(f"/api/v1/matches/{match_id}/events").json()["events"]


def test_a_committed_match_reveals_its_seed_only_at_the_end_and_verifies(client):
    committed = commit(client)
    assert len(committed["commitment"]) == 64
    created = client.post(
        "/api/v1/matches",
        {"commitment": committed["id"], "client_seed": "roya's own, 42"},
        format="json",
    ).json()
    fair = created["fairness"]
    assert fair["verifiable"] and fair["scheme"] == fairness.SCHEME
    assert fair["commitment"] == committed["commitment"]
    assert fair["client_seeds"] == ["roya's own, 42", "", "", ""]
    assert fair["server_seed"] is None and len(fair["next_commitment"]) == 64
    secret = Commitment.objects.get(pk=committed["id"]).server_seed
    bodies = [created, client.get(f"/api/v1/matches/{created['id']}").json()]
    final = play_to_the_end(client, created, bodies)
    *before, last = bodies
    for body in [*before, {"events": events_of(client, created["id"])[:-1]}]:
        assert secret not in json.dumps(body)
    assert last["fairness"]["server_seed"] == secret == final["events"][-1]["server_seed"]
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == committed["commitment"]
    record = events_of(client, created["id"])
    found = fairness.verify(record)
    assert found.ok and found.series == [1] and found.deals == 12 and found.hands >= 12


def test_a_tampered_seed_or_a_swapped_card_fails_verification(client):
    view = client.post("/api/v1/matches", {"client_seed": "x"}, format="json").json()
    play_to_the_end(client, view, [])
    record = events_of(client, view["id"])
    assert fairness.verify(record).ok
    tampered = copy.deepcopy(record)
    tampered[-1]["server_seed"] = "00" * 32
    assert not fairness.verify(tampered).ok
    swapped = copy.deepcopy(record)
    ended = next(e for e in swapped if e["type"] == "deal_ended" and e["seats"][0]["hand"])
    hand = ended["seats"][0]["hand"]
    hand[0] = next(rank for rank in ("As", "Shah", "Bibi") if rank != hand[0])
    assert any("showed" in problem for problem in fairness.verify(swapped).problems)


def test_verify_match_checks_a_match_from_its_public_record(client, tmp_path, capsys):
    view = client.post("/api/v1/matches", {}, format="json").json()
    with pytest.raises(CommandError, match="no revealed seed"):
        call_command("verify_match", view["id"])
    client.post(f"/api/v1/matches/{view['id']}/resign", {}, format="json")
    call_command("verify_match", view["id"])
    assert "Every deal is the one its seeds deal." in capsys.readouterr().out
    page = client.get(f"/api/v1/matches/{view['id']}/events").json()
    page["events"][-1]["server_seed"] = "ab" * 32
    (tmp_path / "events.json").write_text(json.dumps(page))
    with pytest.raises(CommandError, match="disagrees"):
        call_command("verify_match", events=tmp_path / "events.json")


def test_verify_match_checks_a_downloaded_record(client, tmp_path, capsys):
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    play_to_the_end(client, view, [])
    record = client.get(f"/api/v1/matches/{view['id']}/record").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("verify_match", record=path)
    out = capsys.readouterr().out
    assert "deals dealt again: 12; shown hands checked: " in out
    assert int(out.split("shown hands checked: ")[1].split()[0]) >= 48  # every hand, revealed
    tampered = copy.deepcopy(record)
    tampered["series"][0]["server_seed"] = "ab" * 32
    path.write_text(json.dumps(tampered))
    with pytest.raises(CommandError, match="disagrees"):
        call_command("verify_match", record=path)
    swapped = copy.deepcopy(record)
    hands = next(
        deal["hands"]
        for deal in swapped["series"][0]["deals"]
        if sorted(deal["hands"][1]) != sorted(deal["hands"][2])
    )
    hands[1], hands[2] = hands[2], hands[1]
    path.write_text(json.dumps(swapped))
    with pytest.raises(CommandError, match="disagrees"):
        call_command("verify_match", record=path)
    moved = copy.deepcopy(record)
    moved["series"][0]["deals"][3]["dealer"] = (moved["series"][0]["deals"][3]["dealer"] + 1) % 4
    path.write_text(json.dumps(moved))
    with pytest.raises(CommandError, match="disagrees"):
        call_command("verify_match", record=path)


def test_a_commitment_is_single_use_mine_alone_and_short_lived(client, make_client):
    before = timezone.now()
    committed = commit(client)
    lives = datetime.fromisoformat(committed["expires_at"]) - before
    assert timedelta(minutes=10) <= lives < timedelta(minutes=10, seconds=5)
    body = {"commitment": committed["id"]}
    assert client.post("/api/v1/matches", body, format="json").status_code == 201
    assert_problem(client.post("/api/v1/matches", body, format="json"), 409, "commitment_used")
    other = commit(client)
    thief = make_client("Babak")
    answer = thief.post("/api/v1/matches", {"commitment": other["id"]}, format="json")
    assert_problem(answer, 404, "commitment_not_found")
    Commitment.objects.filter(pk=other["id"]).update(expires_at=timezone.now() - timedelta(1))
    late = client.post("/api/v1/matches", {"commitment": other["id"]}, format="json")
    assert_problem(late, 409, "commitment_expired")
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    "body",
    [{"verifiable": False}, {"humans": 2}, {"humans": 4, "verifiable": False, "open": True}],
)
def test_a_commitment_for_a_match_that_reveals_nothing_is_refused_and_kept(client, body):
    """Its seed would never be revealed, so the commitment would be used up for nothing:
    refused, no match made, and the commitment still creates the verifiable match."""
    committed = commit(client)
    refused = client.post("/api/v1/matches", {**body, "commitment": committed["id"]}, format="json")
    assert_problem(refused, 422, "commitment_not_verifiable")
    assert Match.objects.count() == 0
    assert Commitment.objects.get(pk=committed["id"]).used is False
    table = {**body, "verifiable": True, "commitment": committed["id"]}
    created = client.post("/api/v1/matches", table, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["fairness"]["commitment"] == committed["commitment"]


@pytest.mark.parametrize("client_seed", ["", "x" * 65, "é", "tab\there", 7])
def test_a_bad_client_seed_is_refused_and_creates_nothing(client, client_seed):
    answer = client.post("/api/v1/matches", {"client_seed": client_seed}, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "client_seed"
    assert not Match.objects.exists()


@pytest.mark.parametrize("client_seed", ["", "x" * 65, "é", "new\nline", None])
def test_a_bad_client_seed_at_a_restart_or_a_join_is_refused_and_changes_nothing(
    client, make_client, client_seed
):
    table = client.post(
        "/api/v1/matches", {"humans": 2, "verifiable": True, "client_seed": "o"}, format="json"
    ).json()
    url = f"/api/v1/matches/{table['id']}"
    friend = make_client("Babak")
    body = {"invite": table["invite"], "client_seed": client_seed}
    answer = friend.post(f"{url}/join", body, format="json")
    assert_problem(answer, 400, "validation_error")
    assert answer.json()["errors"][0]["field"] == "client_seed"
    alone = client.post("/api/v1/matches", {}, format="json").json()
    answer = client.post(
        f"/api/v1/matches/{alone['id']}/restart", {"client_seed": client_seed}, format="json"
    )
    assert_problem(answer, 400, "validation_error")
    assert answer.json()["errors"][0]["field"] == "client_seed"
    for match, version in ((table, table["version"]), (alone, alone["version"])):
        assert Match.objects.get(pk=match["id"]).version == version


def test_a_restart_takes_a_client_seed_for_the_series_committed_to_before(client):
    view = client.post("/api/v1/matches", {}, format="json").json()
    announced = view["fairness"]["next_commitment"]
    url = f"/api/v1/matches/{view['id']}/restart"
    restarted = client.post(url, {"client_seed": "series two"}, format="json").json()
    assert restarted["fairness"]["commitment"] == announced
    assert restarted["fairness"]["client_seeds"][0] == "series two"
    assert restarted["events"][0]["server_seed"]  # series 1 ended unfinished: revealed
    assert fairness.verify(events_of(client, view["id"])).series == [1]


def test_a_table_is_verifiable_only_by_its_owner_s_choice(client, make_client):
    plain = client.post("/api/v1/matches", {"humans": 2}, format="json").json()
    assert plain["fairness"]["verifiable"] is False and plain["fairness"]["commitment"] is None
    table = client.post(
        "/api/v1/matches", {"humans": 2, "verifiable": True, "client_seed": "o"}, format="json"
    ).json()
    friend = make_client("Babak")
    url = f"/api/v1/matches/{table['id']}/join"
    joined = friend.post(url, {"invite": table["invite"], "client_seed": "b"}, format="json")
    assert joined.json()["fairness"]["client_seeds"] == ["o", "b", "", ""]
    assert joined.json()["fairness"]["commitment"] == table["fairness"]["commitment"]


def test_a_seeded_match_derives_its_seeds_as_documented(client):
    view = client.post("/api/v1/matches", {"seed": 11}, format="json").json()
    expected = fairness.test_server_seed(11, 1)
    assert view["seeded"]
    assert view["fairness"]["commitment"] == hashlib.sha256(bytes.fromhex(expected)).hexdigest()
