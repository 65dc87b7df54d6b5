"""Tables for friends over HTTP: creating, joining, leaving and restarting, and each human
seeing only their own cards in every body and event."""

import json
import random
import uuid
from datetime import datetime, timedelta

import pytest

from games.http.shapes import MATCH_VIEW, MatchViewSerializer
from games.match import queries as match_queries
from tests.http.play import play_table
from tests.http.problems import assert_problem
from tests.http.secrecy import check_event, check_view
from tests.live_client import bearer

pytestmark = pytest.mark.django_db


def post(client, url: str, body: dict | None = None):
    return client.post(url, body or {}, format="json")


@pytest.fixture
def table(make_client):
    """A table of `humans` through the API: (clients by seat, the last join's answer)."""

    def make(humans: int, seed: int = 1, **body):
        clients = [make_client(name) for name in ("Roya", "Babak", "Nima", "Sara")[:humans]]
        created = post(clients[0], "/api/v1/matches", {"seed": seed, "humans": humans, **body})
        assert created.status_code == 201, created.json()
        view = created.json()
        invite = view["invite"]
        for guest in clients[1:]:
            response = post(guest, f"/api/v1/matches/{view['id']}/join", {"invite": invite})
            assert response.status_code == 200, response.json()
            view = response.json()
        return clients, view

    return make


def test_a_table_waits_for_its_humans_and_shows_the_invite_to_the_owner_only(make_client):
    roya, babak = make_client("Roya"), make_client("Babak")
    view = post(roya, "/api/v1/matches", {"humans": 3}).json()
    assert view["status"] == "waiting" and view["humans"] == 3
    assert (view["deal_number"], view["dealer"], view["turn"]) == (0, None, None)
    assert view["turn_seconds"] == 60 and view["turn_deadline"] is None
    assert len(view["invite"]) >= 32  # 192 random bits
    assert [seat["name"] for seat in view["seats"]] == ["Roya", None, None, "Kaveh"]
    assert [seat["kind"] for seat in view["seats"]] == ["human", "human", "human", "ai"]
    assert [event["type"] for event in view["events"]] == ["match_created"]
    match_url = f"/api/v1/matches/{view['id']}"
    assert_problem(babak.get(match_url), 404, "not_found")  # not seated: nothing to see
    joined = post(babak, f"{match_url}/join", {"invite": view["invite"]}).json()
    assert joined["your_seat"] == 1 and joined["invite"] is None
    assert joined["events"] == [
        {"seq": 2, "type": "player_joined", "seat": 1, "name": "Babak", "client_seed": ""}
    ]
    assert roya.get(match_url).json()["invite"] == view["invite"]
    assert_problem(
        post(babak, f"{match_url}/actions", {"action": "look"}), 409, "match_not_started"
    )


def test_the_last_join_starts_deal_1_and_hides_the_invite(table):
    clients, view = table(2, seed=4)
    assert view["status"] == "in_deal" and view["deal_number"] == 1
    types = [event["type"] for event in view["events"]]
    assert types[:2] == ["player_joined", "deal_started"]
    assert all(event["by"] == "ai" for event in view["events"] if event["type"] == "action")
    assert view["turn"] in (0, 1)
    assert clients[0].get(f"/api/v1/matches/{view['id']}").json()["invite"] is None


def test_create_defaults_and_bounds(client):
    alone = post(client, "/api/v1/matches", {}).json()
    assert (alone["humans"], alone["turn_seconds"], alone["invite"]) == (1, None, None)
    no_clock = post(client, "/api/v1/matches", {"humans": 2, "turn_seconds": None}).json()
    assert no_clock["turn_seconds"] is None
    for body in ({"humans": 0}, {"humans": 5}, {"humans": 2, "turn_seconds": 9}):
        assert_problem(post(client, "/api/v1/matches", body), 400, "validation_error")
    assert_problem(
        post(client, "/api/v1/matches", {"turn_seconds": 86_401}), 400, "validation_error"
    )


def test_join_refusals(make_client, table):
    roya, babak, nima = make_client("Roya"), make_client("Babak"), make_client("Nima")
    view = post(roya, "/api/v1/matches", {"humans": 2}).json()
    join = f"/api/v1/matches/{view['id']}/join"
    wrong = assert_problem(post(babak, join, {"invite": "x" * 32}), 404, "not_found")
    missing = assert_problem(
        post(babak, f"/api/v1/matches/{uuid.uuid4()}/join", {"invite": view["invite"]}),
        404,
        "not_found",
    )
    # A wrong invite reveals nothing: the same answer but for the request's own id.
    assert {**wrong, "request_id": ""} == {**missing, "request_id": ""}
    assert_problem(post(babak, join, {"invite": "ü"}), 404, "not_found")
    assert_problem(post(roya, join, {"invite": view["invite"]}), 409, "already_seated")
    assert post(babak, join, {"invite": view["invite"]}).status_code == 200
    assert_problem(post(babak, join, {"invite": view["invite"]}), 409, "already_seated")
    assert_problem(post(nima, join, {"invite": view["invite"]}), 409, "match_full")
    # No invite: an open table needs none, so for a table that is not open it is as wrong.
    assert_problem(post(nima, join, {}), 404, "not_found")
    single = post(roya, "/api/v1/matches", {}).json()
    assert_problem(
        post(nima, f"/api/v1/matches/{single['id']}/join", {"invite": ""}), 400, "validation_error"
    )


def test_a_table_s_view_carries_the_deadline_of_the_human_to_act(table):
    clients, view = table(2, seed=3, turn_seconds=30)
    assert view["turn"] in (0, 1)
    deadline = datetime.fromisoformat(view["turn_deadline"])
    assert view["turn_deadline"].endswith("Z") and deadline.utcoffset() == timedelta(0)
    updated = datetime.fromisoformat(view["updated_at"])
    assert deadline - updated == timedelta(seconds=30)
    seen = [client.get(f"/api/v1/matches/{view['id']}").json() for client in clients]
    assert {other["turn_deadline"] for other in seen} == {view["turn_deadline"]}


def test_leaving_and_resigning_at_a_table(table):
    clients, view = table(2, seed=2)
    url = f"/api/v1/matches/{view['id']}"
    left = post(clients[1], f"{url}/leave").json()
    assert left["events"][0] == {
        "seq": left["events"][0]["seq"],
        "type": "player_left",
        "seat": 1,
        "abandoned": False,
        "server_seed": None,
    }
    assert left["seats"][1]["away"] and left["seats"][1]["kind"] == "human"
    assert left["legal_actions"] == [] and left["turn"] in (0, None)
    assert_problem(post(clients[1], f"{url}/leave"), 409, "not_seated")
    assert_problem(post(clients[1], f"{url}/actions", {"action": "fold"}), 409, "not_seated")
    gone = post(clients[0], f"{url}/resign").json()  # at a table, resigning is leaving
    assert [event["type"] for event in gone["events"]] == ["player_left"]
    assert gone["events"][0]["abandoned"] and gone["status"] == "abandoned"
    assert gone["winners"] is None
    assert_problem(post(clients[0], f"{url}/restart"), 409, "restart_not_allowed")
    listed = clients[1].get("/api/v1/matches?status=abandoned").json()["results"]
    assert [match["id"] for match in listed] == [view["id"]]


def test_only_the_owner_restarts_a_table_once_it_is_finished(table):
    clients, view = table(2, seed=6)
    url = f"/api/v1/matches/{view['id']}/restart"
    assert_problem(post(clients[0], url), 409, "restart_not_allowed")
    final = play_table(clients, view, random.Random(6))
    assert final["status"] == "finished"
    assert_problem(post(clients[1], url), 409, "restart_not_allowed")
    assert post(clients[0], url).json()["series"] == 2


def test_a_table_view_is_what_its_serializer_writes(table):
    clients, view = table(3, seed=3)
    for seat, client in enumerate(clients):
        match = match_queries.match_get(match_id=view["id"], player=client.player)
        data = match_queries.match_view(match=match)
        shown = MATCH_VIEW.render(data)
        assert shown["your_seat"] == seat
        assert json.dumps(shown) == json.dumps(MatchViewSerializer(data).data)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the streams are woken by notices sent at commit
@pytest.mark.parametrize("seed", range(3))
def test_four_humans_each_see_only_their_own_cards(table, live, seed):
    """Every body each human gets, every event as each one reads it, and every message of
    each one's live stream, shows no card its viewer may not see."""
    clients, view = table(4, seed=seed)
    url = f"/api/v1/matches/{view['id']}/stream"
    # Each follows the match from its first event to its end, as it is played.
    streams = [live.follow(url, bearer(client.token)) for client in clients]
    counts = {"bodies": 0, "events": 0, "stream messages": 0, "shown": 0}

    def check(body: dict) -> None:
        counts["bodies"] += 1
        counts["shown"] += check_view(body)

    check(view)
    final = play_table(clients, view, random.Random(seed), on_view=check)
    assert final["status"] == "finished"
    for seat, client in enumerate(clients):
        mine = client.get(f"/api/v1/matches/{view['id']}").json()
        assert mine["your_seat"] == seat
        check(mine)
        events = client.get(f"/api/v1/matches/{view['id']}/events").json()["events"]
        counts["events"] += len(events)
        counts["shown"] += sum(check_event(event, view["id"], seat) for event in events)
        actors = {event["by"] for event in events if event["type"] == "action"}
        assert actors == {"player"}  # four humans, no AI seat, nobody left
        streamed = [m["json"] for m in streams[seat].result(timeout=60) if "event" in m]
        counts["stream messages"] += len(streamed)
        counts["shown"] += sum(check_event(event, view["id"], seat) for event in streamed)
        assert streamed == events  # the stream is the events as this seat reads them
    print(f"\nleak test seed {seed}: {counts}")
    assert counts["shown"] > 0  # the checks saw other seats' hands at showdowns


def test_leaving_a_waiting_table_frees_the_seat_and_the_same_person_may_rejoin(make_client):
    roya, babak, nima = make_client("Roya"), make_client("Babak"), make_client("Nima")
    view = post(roya, "/api/v1/matches", {"humans": 3, "seed": 2}).json()
    url, invite = f"/api/v1/matches/{view['id']}", {"invite": view["invite"]}
    assert post(babak, f"{url}/join", invite).json()["your_seat"] == 1
    left = post(babak, f"{url}/leave")
    assert left.status_code == 200
    assert [event["type"] for event in left.json()["events"]] == ["seat_freed"]
    assert left.json()["events"][0]["seat"] == 1 and left.json()["seats"][1]["name"] is None
    assert_problem(babak.get(url), 404, "not_found")  # no longer seated
    assert_problem(post(babak, f"{url}/leave"), 404, "not_found")
    owner = roya.get(url).json()
    assert owner["status"] == "waiting" and owner["seats"][1]["name"] is None
    back = post(babak, f"{url}/join", invite)  # not 409 already_seated: the seat is free
    assert back.status_code == 200, back.json()
    assert back.json()["your_seat"] == 1 and back.json()["status"] == "waiting"
    last = post(nima, f"{url}/join", invite).json()
    assert last["your_seat"] == 2 and last["status"] == "in_deal"
    assert [seat["name"] for seat in last["seats"]] == ["Roya", "Babak", "Nima", "Kaveh"]
    assert not any(seat["away"] for seat in last["seats"])


def test_the_owner_leaving_a_waiting_table_closes_it(make_client):
    roya, babak, nima = make_client("Roya"), make_client("Babak"), make_client("Nima")
    view = post(roya, "/api/v1/matches", {"humans": 3}).json()
    url, invite = f"/api/v1/matches/{view['id']}", {"invite": view["invite"]}
    post(babak, f"{url}/join", invite)
    closed = post(roya, f"{url}/leave").json()
    assert closed["status"] == "abandoned" and closed["invite"] is None
    assert [(e["type"], e["abandoned"]) for e in closed["events"]] == [("player_left", True)]
    assert_problem(post(nima, f"{url}/join", invite), 409, "match_abandoned")
    assert_problem(post(babak, f"{url}/leave"), 409, "match_abandoned")
    assert babak.get(url).json()["status"] == "abandoned"


def test_leaving_a_finished_match_is_409_and_appends_no_event(table):
    clients, view = table(2, seed=6)
    final = play_table(clients, view, random.Random(6))
    assert final["status"] == "finished"
    url = f"/api/v1/matches/{view['id']}"
    before = clients[0].get(f"{url}/events").json()
    for client in clients:
        assert_problem(post(client, f"{url}/leave"), 409, "match_finished")
        assert_problem(post(client, f"{url}/resign"), 409, "match_finished")
    assert clients[0].get(f"{url}/events").json() == before
    assert post(clients[0], f"{url}/restart").json()["series"] == 2  # the owner still may
