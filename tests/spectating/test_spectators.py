"""Spectators over HTTP: the owner's choice and watch code, the spectator's view and events
(live and delayed), watch tickets, and the watch stream's limits (docs/spectators.md)."""

import hashlib
import time

import pytest
from rest_framework.test import APIClient

from games.live import wakeups
from games.models import IdempotencyRecord, Match, WatchStream
from games.spectating import commands as spectating_commands
from tests.http.problems import assert_problem
from tests.http.secrecy import hands_in
from tests.live_client import bearer

pytestmark = pytest.mark.django_db


def post(client, url: str, body: dict | None = None, **headers):
    return client.post(url, body or {}, format="json", headers=headers)


def watch(code: str):
    return post(APIClient(), "/api/v1/watch", {"watch_code": code})


def watch_events(code: str, after: int = 0):
    return APIClient().get(f"/api/v1/watch/events?after={after}", headers={"Watch-Code": code})


def play_until_deal_over(client, view: dict) -> dict:
    while view["status"] == "in_deal":
        action = "fold" if "fold" in view["legal_actions"] else view["legal_actions"][0]
        view = post(client, f"/api/v1/matches/{view['id']}/actions", {"action": action}).json()
    return view


def test_spectators_are_off_by_default_and_the_code_is_shown_once(client, new_match):
    view = new_match()
    assert (view["spectators"], view["watch_code"], view["watchers"]) == ("off", None, 0)
    chosen = post(client, f"/api/v1/matches/{view['id']}/spectators", {"spectators": "live"})
    assert chosen.status_code == 200, chosen.json()
    code = chosen.json()["watch_code"]
    assert chosen.json()["spectators"] == "live" and len(code) >= 32  # 192 bits, base64
    row = Match.objects.get(id=view["id"])
    assert row.watch_code_hash == hashlib.sha256(code.encode()).hexdigest()
    assert code not in str(Match.objects.filter(id=view["id"]).values().get())
    # The version is the same: a table setting is not a game fact.
    assert chosen.json()["version"] == view["version"]
    again = client.get(f"/api/v1/matches/{view['id']}").json()
    assert again["watch_code"] is None and again["spectators"] == "live"
    assert watch(code).status_code == 200


def test_a_new_code_ends_the_old_one_and_off_forgets_it(client, new_match):
    view = new_match(spectators="delayed")
    first = view["watch_code"]
    assert first and watch(first).status_code == 200
    url = f"/api/v1/matches/{view['id']}/spectators"
    second = post(client, url, {"spectators": "delayed", "new_code": True}).json()["watch_code"]
    assert second != first
    assert_problem(watch(first), 404, "not_found")
    assert watch(second).status_code == 200
    # Keeping the mode keeps the code; switching modes keeps it too.
    assert post(client, url, {"spectators": "live"}).json()["watch_code"] is None
    assert watch(second).json()["spectators"] == "live"
    assert post(client, url, {"spectators": "off"}).json()["watch_code"] is None
    assert_problem(watch(second), 404, "not_found")
    assert Match.objects.get(id=view["id"]).watch_code_hash == ""


def test_only_the_owner_chooses(make_client):
    owner, guest = make_client("Roya"), make_client("Babak")
    view = post(owner, "/api/v1/matches", {"seed": 1, "humans": 2}).json()
    post(guest, f"/api/v1/matches/{view['id']}/join", {"invite": view["invite"]})
    refused = post(guest, f"/api/v1/matches/{view['id']}/spectators", {"spectators": "live"})
    assert_problem(refused, 403, "not_owner")
    stranger = make_client("Nima")
    refused = post(stranger, f"/api/v1/matches/{view['id']}/spectators", {"spectators": "live"})
    assert_problem(refused, 404, "not_found")
    assert Match.objects.get(id=view["id"]).spectators == "off"


def test_bad_input_is_refused(client, new_match):
    view = new_match()
    url = f"/api/v1/matches/{view['id']}/spectators"
    assert_problem(post(client, url, {"spectators": "always"}), 400, "validation_error")
    assert_problem(post(client, "/api/v1/matches", {"spectators": "x"}), 400, "validation_error")
    assert_problem(watch("nothing"), 404, "not_found")
    assert_problem(post(APIClient(), "/api/v1/watch", {}), 400, "validation_error")
    missing = APIClient().get("/api/v1/watch/events")
    assert_problem(missing, 400, "validation_error")


def test_an_idempotent_create_keeps_no_watch_code(client):
    body = {"seed": 1, "spectators": "live"}
    first = post(client, "/api/v1/matches", body, **{"Idempotency-Key": "k1"})
    assert first.json()["watch_code"]
    stored = IdempotencyRecord.objects.get(key="k1").response
    assert stored["watch_code"] is None
    replay = post(client, "/api/v1/matches", body, **{"Idempotency-Key": "k1"})
    assert replay.json()["watch_code"] is None and replay.json()["id"] == first.json()["id"]


def test_a_repeated_spectators_call_with_one_key_draws_one_code(client, new_match):
    """A retry with the same Idempotency-Key replays the first answer, without its code (the
    server keeps only the hash), and draws no other code: the first one still watches."""
    view = new_match()
    url, body = f"/api/v1/matches/{view['id']}/spectators", {"spectators": "live"}
    first = post(client, url, body, **{"Idempotency-Key": "s1"})
    code = first.json()["watch_code"]
    assert first.status_code == 200 and code
    replay = post(client, url, body, **{"Idempotency-Key": "s1"})
    assert replay.status_code == 200 and replay.headers["Idempotent-Replayed"] == "true"
    assert replay.json()["watch_code"] is None
    assert replay.json()["spectators"] == "live" and replay.json()["id"] == view["id"]
    assert IdempotencyRecord.objects.get(key="s1").response["watch_code"] is None
    assert (
        Match.objects.get(id=view["id"]).watch_code_hash
        == hashlib.sha256(code.encode()).hexdigest()
    )
    assert watch(code).status_code == 200
    other = post(client, url, {"spectators": "off"}, **{"Idempotency-Key": "s1"})
    assert_problem(other, 422, "idempotency_key_reused")
    assert watch(code).status_code == 200


def test_the_spectator_view_shows_no_hidden_card(client, new_match):
    view = new_match(seed=7, spectators="live")
    code = view["watch_code"]
    view = post(client, f"/api/v1/matches/{view['id']}/actions", {"action": "look"}).json()
    seen = watch(code).json()
    assert seen["version"] == view["version"]
    assert "your_cards" not in seen and "invite" not in seen and "watch_code" not in seen
    assert seen["seats"][0]["looked"] is True
    assert list(hands_in(seen)) == []
    events = watch_events(code).json()
    assert [e["seq"] for e in events["events"]] == list(range(1, view["version"] + 1))
    assert list(hands_in(events)) == []


def test_a_delayed_spectator_sees_a_deal_once_it_ended(client, new_match):
    view = new_match(seed=3, spectators="delayed")
    code, match_id = view["watch_code"], view["id"]
    # Deal 1 is in play: the delayed spectator sees the match as it stood before it was dealt.
    seen = watch(code).json()
    assert (seen["version"], seen["status"], seen["deal_number"]) == (1, "not_started", 0)
    assert [e["type"] for e in watch_events(code).json()["events"]] == ["match_created"]
    assert watch_events(code, after=1).json()["events"] == []
    view = play_until_deal_over(client, view)
    seen = watch(code).json()
    assert (seen["version"], seen["status"]) == (view["version"], "deal_over")
    events = watch_events(code).json()["events"]
    assert len(events) == view["version"] and events[1]["type"] == "deal_started"
    # Deal 2 starts: deal 1 stays shown, deal 2 is held back.
    view = post(client, f"/api/v1/matches/{match_id}/next-deal").json()
    assert view["status"] == "in_deal"
    later = watch(code).json()
    assert later["version"] == seen["version"] and later["last_deal"] == seen["last_deal"]
    assert watch_events(code, after=seen["version"]).json() == {
        "version": seen["version"],
        "has_more": False,
        "events": [],
    }


@pytest.mark.django_db(transaction=True)
def test_watch_tickets_are_single_use(client, new_match, live):
    code = new_match(spectators="live")["watch_code"]
    assert_problem(
        post(APIClient(), "/api/v1/watch/tickets", {"watch_code": "x"}), 404, "not_found"
    )
    ticket = post(APIClient(), "/api/v1/watch/tickets", {"watch_code": code})
    assert ticket.status_code == 201
    url = f"/api/v1/watch/stream?ticket={ticket.json()['ticket']}"
    assert live.get(url).status_code == 200
    assert_problem(live.get(url), 401, "invalid_ticket")
    assert_problem(APIClient().get("/api/v1/watch/stream?ticket=wrong"), 401, "invalid_ticket")


@pytest.mark.django_db(transaction=True)
def test_watch_streams_are_limited_and_counted(client, new_match, live, settings):
    settings.ASNAS_WATCH_STREAMS_PER_MATCH = 2
    view = new_match(spectators="live")
    code = view["watch_code"]
    opened = [live.get("/api/v1/watch/stream", headers={"Watch-Code": code}) for _ in range(2)]
    assert all(response.status_code == 200 for response in opened)
    assert client.get(f"/api/v1/matches/{view['id']}").json()["watchers"] == 2
    third = live.get("/api/v1/watch/stream", headers={"Watch-Code": code})
    assert_problem(third, 429, "watch_limit_match")
    assert third.headers["Retry-After"] == "30"
    settings.ASNAS_WATCH_STREAMS_PER_MATCH = 100
    settings.ASNAS_WATCH_STREAMS_PER_ADDRESS = 2
    other = new_match(spectators="live")["watch_code"]
    refused = live.get("/api/v1/watch/stream", headers={"Watch-Code": other})
    assert_problem(refused, 429, "watch_limit_address")
    assert int(refused.headers["Retry-After"]) > 0
    settings.ASNAS_WATCH_STREAMS_PER_ADDRESS = 100
    settings.ASNAS_WATCH_STREAMS_PER_PROCESS = 2
    refused = live.get("/api/v1/watch/stream", headers={"Watch-Code": other})
    assert_problem(refused, 429, "watch_limit_server")
    assert int(refused.headers["Retry-After"]) > 0
    assert WatchStream.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_players_stream_announces_how_many_are_watching(client, new_match, live):
    live.wait_listening()
    view = new_match(spectators="live")
    notices = live.open("/api/v1/players/me/stream", bearer(client.token))
    assert notices.get(timeout=10) == {"comment": "keep-alive"}
    watched = live.open("/api/v1/watch/stream", {"Watch-Code": view["watch_code"]})
    assert watched.get(timeout=10) == {"comment": "keep-alive"}
    message = notices.get(timeout=10)
    if message.get("event") == "your_turn":  # the turn waiting as the stream opened
        message = notices.get(timeout=10)
    assert message["event"] == "watchers_changed"
    assert message["json"] == {"match_id": view["id"], "watchers": 1}


@pytest.mark.django_db(transaction=True)
def test_a_watch_stream_ends_when_its_code_is_drawn_again(client, new_match, live):
    live.wait_listening()
    view = new_match(spectators="live")
    ticket = post(APIClient(), "/api/v1/watch/tickets", {"watch_code": view["watch_code"]})
    watched = live.open(f"/api/v1/watch/stream?ticket={ticket.json()['ticket']}", {})
    messages = [watched.get(timeout=10)]
    while messages[-1] is not None and messages[-1].get("id") != view["version"]:
        messages.append(watched.get(timeout=10))
    assert [m["event"] for m in messages[1:]] == [
        "match_created",
        "deal_started",
        *["action"] * (view["version"] - 2),
    ]
    post(
        client, f"/api/v1/matches/{view['id']}/spectators", {"spectators": "live", "new_code": True}
    )
    while (message := watched.get(timeout=10)) is not None:
        assert "comment" in message
    # The ticket was used up by the first opening.
    again = APIClient().get(f"/api/v1/watch/stream?ticket={ticket.json()['ticket']}")
    assert_problem(again, 401, "invalid_ticket")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "header"),
    [
        ("stream?after={after}", False),
        ("stream", True),
        ("events?after={after}", False),
        ("events?after={after}&wait=5", False),
    ],
)
@pytest.mark.parametrize("spectators", ["live", "delayed"])
def test_a_watch_resume_point_past_what_spectators_may_see_is_a_400_that_names_it(
    client, new_match, live, path, header, spectators
):
    """As a player's cursor (tests/live/test_streams.py): read from a seq not reached, a watch
    stream would skip every event up to it. The `latest` named is the last event the
    spectator may see, so a delayed one learns nothing of the deal in play."""
    view = new_match(seed=3, spectators=spectators)
    code = view["watch_code"]
    latest = watch(code).json()["version"]
    assert latest == (view["version"] if spectators == "live" else 1)

    def get(after: int):
        headers = {"Watch-Code": code} | ({"Last-Event-ID": str(after)} if header else {})
        return live.get(f"/api/v1/watch/{path.format(after=after)}", headers)

    for after in (latest + 1, 2**31 - 1):
        body = assert_problem(get(after), 400, "after_out_of_range")
        assert body["latest"] == latest
        assert str(after) in body["detail"]
    if path.startswith("events"):  # at the latest event itself, answered as before
        assert get(latest).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_watch_stream_ends_after_match_finished_though_events_follow_it(client, new_match, live):
    """A resigned match restarted at once: the watch stream still ends at match_finished,
    whatever its cursor, and one resumed after that end follows the new series."""
    view = new_match(seed=3, spectators="live")
    headers = {"Watch-Code": view["watch_code"]}
    url = f"/api/v1/matches/{view['id']}"
    end = post(client, f"{url}/resign").json()["version"]
    post(client, f"{url}/restart")
    for after in (0, end - 1):
        stream = live.follow(f"/api/v1/watch/stream?after={after}", headers)
        sent = [m for m in stream.result(timeout=10) if "comment" not in m]  # ends by itself
        assert [m["id"] for m in sent] == list(range(after + 1, end + 1))
        assert sent[-1]["event"] == "match_finished"
    resumed = live.follow(
        "/api/v1/watch/stream", headers | {"Last-Event-ID": str(end)}, until=lambda m: "id" in m
    )
    assert [m["event"] for m in resumed.result(timeout=10) if "id" in m] == ["match_restarted"]


@pytest.mark.django_db(transaction=True)
def test_every_open_stream_ends_cleanly_when_the_server_stops(client, new_match, live, monkeypatch):
    """What a stopping worker does (wakeups.close_every_waiter): every open stream and
    long-poll ends at once with a clean end of body, the spectators' too (theirs read the
    database again and again instead, until the database or the worker went)."""
    monkeypatch.setattr(wakeups, "_closing", False)  # put back after the test
    live.wait_listening()
    view = new_match(spectators="live")
    watched = live.open("/api/v1/watch/stream", {"Watch-Code": view["watch_code"]})
    followed = live.open(f"/api/v1/matches/{view['id']}/stream", bearer(client.token))
    for stream in (watched, followed):
        while (message := stream.get(timeout=10)) is not None and message.get("id") != view[
            "version"
        ]:
            pass
    players = live.open("/api/v1/players/me/stream", bearer(client.token))
    assert players.get(timeout=10) == {"comment": "keep-alive"}
    after = view["version"]
    polled = live.poll(
        f"/api/v1/watch/events?after={after}&wait=30", {"Watch-Code": view["watch_code"]}
    )
    while live.waiters() < 4:  # the long-poll waits too
        time.sleep(0.05)

    # A stopping server writes nothing for the streams it ends: its database may be stopping
    # too, and a write waiting for it held back a watch stream's end until the worker's kill.
    closed = []
    monkeypatch.setattr(
        spectating_commands, "watch_stream_close", lambda **kwargs: closed.append(kwargs)
    )

    async def stop() -> None:
        wakeups.close_every_waiter()

    live.run(stop()).result(timeout=10)
    for stream in (followed, watched, players):
        while (message := stream.get(timeout=5)) is not None:
            assert "comment" in message or message.get("event") == "your_turn", message
    assert polled.result(timeout=5) == (200, {"version": after, "has_more": False, "events": []})
    assert closed == []


def test_a_live_cursor_is_refused_once_delayed_until_its_deal_has_ended(client, new_match):
    """Switched from live to delayed mid-deal, a spectator's place is past what they may now
    see: refused, naming the end of the last deal that ended, not how far this one has come;
    once the deal ends, the same place is good again."""
    view = new_match(seed=3, spectators="live")
    code, url = view["watch_code"], f"/api/v1/matches/{view['id']}"
    seen = watch_events(code).json()["version"]
    assert seen == view["version"] > 2
    post(client, f"{url}/spectators", {"spectators": "delayed"})
    body = assert_problem(watch_events(code, after=seen), 400, "after_out_of_range")
    assert body["latest"] == 1
    assert body["detail"] == f"after is {seen}, but the latest event spectators may see is 1."
    play_until_deal_over(client, client.get(url).json())
    assert watch_events(code, after=seen).status_code == 200
