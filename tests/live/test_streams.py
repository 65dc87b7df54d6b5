"""The live endpoints in-process: the match's SSE stream, the player's stream, stream
tickets and the long-poll of events. The writes commit (transactional_db), so the notices
travel through Postgres to the listener as on a server."""

import random
import threading
import time
from datetime import timedelta
from urllib.parse import quote

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import PlayerLeft, evolve
from games.live import loop
from games.match import store as match_store
from players.models import StreamTicket, Token
from players.tokens import hash_token
from tests.http.play import play_match
from tests.http.problems import assert_problem
from tests.http.secrecy import hands_in
from tests.live_client import bearer, next_event

pytestmark = pytest.mark.django_db(transaction=True)


def events_of(client, match_id: str, after: int = 0) -> list[dict]:
    return client.get(f"/api/v1/matches/{match_id}/events?after={after}").json()["events"]


def is_event(message: dict) -> bool:
    return "event" in message


def test_the_stream_sends_each_event_as_events_lists_it_then_each_new_one(client, new_match, live):
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}/stream"
    before = view["version"]
    # Stop at the first event after the ones that were there when it opened.
    stream = live.follow(url, bearer(client.token), until=lambda m: m.get("id", 0) > before)
    live.wait_listening()
    time.sleep(0.2)  # the stream has read what there was
    client.post(f"/api/v1/matches/{view['id']}/actions", {"action": "look"}, format="json")
    messages = stream.result(timeout=30)
    assert messages[0] == {"comment": "keep-alive"}  # sent at once: the stream is open
    sent = [message for message in messages if is_event(message)]
    listed = events_of(client, view["id"])[: before + 1]
    assert [message["id"] for message in sent] == list(range(1, before + 2))
    for message, event in zip(sent, listed, strict=True):
        assert message["event"] == event["type"]
        assert message["json"] == event
        # The same JSON as every other body: compact.
        assert ", " not in message["data"] and '": ' not in message["data"]
    response = live.get(url, bearer(client.token))
    assert response["Content-Type"] == "text/event-stream; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"


@pytest.mark.parametrize(
    ("query", "header", "first"),
    [("?after=4", None, 5), ("", "2", 3), ("?after=5", "2", 3), ("?after=2", "0", 1)],
)
def test_a_stream_resumes_after_last_event_id_or_after_and_the_header_wins(
    client, new_match, live, query, header, first
):
    # A match whose creation wrote at least 5 events: AI seats acted before seat 0.
    view = next(
        v for v in map(lambda seed: new_match(seed=seed), range(3, 60)) if v["version"] >= 5
    )
    headers = bearer(client.token) | ({"Last-Event-ID": header} if header else {})
    url = f"/api/v1/matches/{view['id']}/stream{query}"
    messages = live.follow(url, headers, until=lambda m: m.get("id") == view["version"])
    ids = [message["id"] for message in messages.result(timeout=30) if is_event(message)]
    assert ids == list(range(first, view["version"] + 1))


@pytest.mark.parametrize(
    ("query", "header"), [("?after=-1", None), ("?after=x", None), ("", "seven"), ("", "-3")]
)
def test_a_bad_resume_point_is_a_400_before_the_stream_starts(client, new_match, query, header):
    view = new_match()
    headers = {"HTTP_LAST_EVENT_ID": header} if header else {}
    response = client.get(f"/api/v1/matches/{view['id']}/stream{query}", **headers)
    assert_problem(response, 400, "validation_error")


@pytest.mark.parametrize("past", [1, 50, "max"])
@pytest.mark.parametrize(
    ("path", "header"),
    [
        ("stream?after={after}", False),
        ("stream", True),
        ("stream?after=0", True),
        ("events?after={after}", False),
        ("events?after={after}&wait=5", False),
    ],
)
def test_a_resume_point_past_the_latest_event_is_a_400_that_names_the_latest(
    client, new_match, live, path, header, past
):
    """Read from a seq the match has not reached, a stream would skip every event up to it
    as they come, and a long-poll would wait for one past it: the stream, the long-poll and
    `events` all refuse it, before anything is sent, with the seq to resume after."""
    view = new_match(seed=3)

    def get(after: int):
        headers = bearer(client.token) | ({"Last-Event-ID": str(after)} if header else {})
        return live.get(f"/api/v1/matches/{view['id']}/{path.format(after=after)}", headers)

    after = 2**31 - 1 if past == "max" else view["version"] + past
    body = assert_problem(get(after), 400, "after_out_of_range")
    assert body["latest"] == view["version"]
    assert str(after) in body["detail"]
    if path.startswith("events"):  # at the latest event itself, answered as before
        assert get(view["version"]).status_code == 200


def test_a_stream_ends_after_match_finished_though_events_follow_it(client, new_match, live):
    """A resigned match restarted at once: its match_finished is not its latest event, and a
    stream that reads past it still ends there, whatever its cursor."""
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}"
    finished = client.post(f"{url}/resign", {}, format="json").json()
    client.post(f"{url}/restart", {}, format="json")
    end = finished["version"]
    for after in (0, end - 1):
        stream = live.follow(f"{url}/stream?after={after}", bearer(client.token))
        sent = [m for m in stream.result(timeout=10) if is_event(m)]  # ends by itself
        assert [m["id"] for m in sent] == list(range(after + 1, end + 1))
        assert sent[-1]["event"] == "match_finished"
    # Resumed after that end, it follows the new series.
    stream = live.follow(
        f"{url}/stream", bearer(client.token) | {"Last-Event-ID": str(end)}, until=is_event
    )
    assert [m["event"] for m in stream.result(timeout=10) if is_event(m)] == ["match_restarted"]


def test_a_stream_needs_a_token_or_ticket_and_a_match_of_yours(client, make_client, new_match):
    view = new_match()
    url = f"/api/v1/matches/{view['id']}/stream"
    other = make_client("Babak")
    assert_problem(other.get(url), 404, "not_found")
    other.credentials()
    assert_problem(other.get(url), 401, "not_authenticated")
    # EventSource asks for text/event-stream: its errors are problem bodies all the same.
    response = other.get(url, HTTP_ACCEPT="text/event-stream")
    assert_problem(response, 401, "not_authenticated")


def test_the_stream_closes_after_match_finished_with_no_gap_or_duplicate_under_writes(
    client, new_match, live
):
    view = new_match(seed=5)
    url = f"/api/v1/matches/{view['id']}/stream"
    # The whole match is played in another thread while the stream follows it; halfway the
    # client drops the stream and resumes from its Last-Event-ID.
    first = live.follow(url, bearer(client.token), until=lambda m: m.get("id", 0) >= 40)
    player = threading.Thread(target=play_match, args=(client, view, random.Random(5)))
    player.start()
    part = [m for m in first.result(timeout=60) if is_event(m)]
    resumed = live.follow(url, bearer(client.token) | {"Last-Event-ID": str(part[-1]["id"])})
    rest = [m for m in resumed.result(timeout=120) if is_event(m)]  # ends by itself
    player.join(timeout=120)
    sent = part + rest
    listed = events_of(client, view["id"])
    assert listed[-1]["type"] == "match_finished"
    assert [m["id"] for m in sent] == [event["seq"] for event in listed]
    assert [m["json"] for m in sent] == listed
    # A stream of a finished match, resumed after its end, ends at once.
    again = live.follow(url, bearer(client.token) | {"Last-Event-ID": str(listed[-1]["seq"])})
    assert again.result(timeout=10) == [{"comment": "keep-alive"}]


def test_a_stream_of_a_match_over_ends_at_its_latest_event_stored_after_the_end(
    client, new_match, live
):
    """Before leaving a finished match was refused, it stored a player_left after the
    match_finished: a stream resumed between the two, or at the latest, still ends."""
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}"
    end = client.post(f"{url}/resign", {}, format="json").json()["version"]
    match = match_store.match_load(match_id=view["id"], player=client.player, lock=True)
    left = PlayerLeft(0)
    seating = match_store.seating_after(match, [left])
    match_store.match_append(
        match=match, events=[left], state=evolve(match.state, left), seating=seating
    )
    resumed = live.follow(f"{url}/stream?after={end}", bearer(client.token))
    assert [m["event"] for m in resumed.result(timeout=10) if is_event(m)] == ["player_left"]
    at_the_latest = live.follow(f"{url}/stream?after={end + 1}", bearer(client.token))
    assert at_the_latest.result(timeout=10) == [{"comment": "keep-alive"}]


def test_a_leaver_s_stream_ends_at_their_seat_freed(make_client, live):
    """Whoever takes the seat next must not be followed with the leaver's eyes: once deal 1
    is on, the seat's cards would show in their stream."""
    roya, babak, nima = make_client("Roya"), make_client("Babak"), make_client("Nima")
    view = roya.post("/api/v1/matches", {"humans": 3, "seed": 2}, format="json").json()
    url = f"/api/v1/matches/{view['id']}"
    babak.post(f"{url}/join", {"invite": view["invite"]}, format="json")
    stream = live.follow(f"{url}/stream?after=2", bearer(babak.token))
    # The listener may listen from an earlier test: it is the stream that must be in before
    # Babak leaves, or it is refused as a stranger's (404).
    live.wait_waiting()
    assert babak.post(f"{url}/leave", {}, format="json").status_code == 200
    sent = [m for m in stream.result(timeout=10) if is_event(m)]  # ends by itself
    assert [(m["event"], m["json"]["seat"]) for m in sent] == [("seat_freed", 1)]
    joined = nima.post(f"{url}/join", {"invite": view["invite"]}, format="json").json()
    assert joined["your_seat"] == 1 and joined["status"] == "waiting"


def test_an_idle_stream_sends_a_comment_every_heartbeat(client, new_match, live, settings):
    settings.ASNAS_STREAM_HEARTBEAT_SECONDS = 0.2
    view = new_match(humans=2)  # waits for its second human: no event comes
    url = f"/api/v1/matches/{view['id']}/stream?after={view['version']}"
    started = time.monotonic()
    count = iter(range(1, 100))
    messages = live.follow(url, bearer(client.token), until=lambda m: next(count) == 4)
    assert messages.result(timeout=10) == [{"comment": "keep-alive"}] * 4
    assert 0.5 < time.monotonic() - started < 5


def test_a_client_gone_leaves_no_waiter_behind(client, new_match, live):
    view = new_match()
    url = f"/api/v1/matches/{view['id']}/stream"
    stream = live.follow(url, bearer(client.token), until=lambda m: False)
    deadline = time.monotonic() + 10
    while live.waiters() == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.waiters() == 1
    # Django's ASGI handler cancels the response's task when the client disconnects.
    stream.cancel()
    deadline = time.monotonic() + 10
    while live.waiters() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.waiters() == 0


def test_two_humans_play_a_table_on_the_notices_of_their_own_streams(make_client, live):
    """Each human acts only when their stream says `your_turn`: every turn is announced
    once, when it begins, and the stream holds no card."""
    roya, babak = make_client("Roya"), make_client("Babak")
    streams = [live.open("/api/v1/players/me/stream", bearer(c.token)) for c in (roya, babak)]
    for messages in streams:  # the streams have read what there was
        assert messages.get(timeout=30) == {"comment": "keep-alive"}
    view = roya.post("/api/v1/matches", {"seed": 4, "humans": 2}, format="json").json()
    match_id = view["id"]
    live.wait_listening()
    joined = babak.post(
        f"/api/v1/matches/{match_id}/join", {"invite": view["invite"]}, format="json"
    )
    view = joined.json()
    clients, rng, counts = (roya, babak), random.Random(4), {"your_turn": 0, "actions": 0}
    for messages in streams:
        assert next_event(messages) == {
            "event": "match_started",
            "data": f'{{"match_id":"{match_id}"}}',
            "json": {"match_id": match_id},
        }
    announced = [False, False]  # a look keeps the turn: it is not announced again
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = roya.post(f"/api/v1/matches/{match_id}/next-deal", {}, format="json").json()
            continue
        seat = view["turn"]
        mine = clients[seat].get(f"/api/v1/matches/{match_id}").json()
        if not announced[seat]:
            notice = next_event(streams[seat])
            assert notice["event"] == "your_turn"
            assert notice["json"] == {"match_id": match_id, "deadline": mine["turn_deadline"]}
            counts["your_turn"] += 1
        action = rng.choice(mine["legal_actions"])
        announced[seat] = action == "look"
        counts["actions"] += action != "look"
        url = f"/api/v1/matches/{match_id}/actions"
        view = clients[seat].post(url, {"action": action}, format="json").json()
    assert counts["your_turn"] == counts["actions"] > 12
    for messages in streams:
        finished = next_event(messages)
        assert finished["event"] == "match_finished"
        assert finished["json"] == {
            "match_id": match_id,
            "winners": view["winners"],
            "totals": [seat["total"] for seat in view["seats"]],
        }
        assert not list(hands_in(finished["json"]))
        assert messages.empty() or next_event(messages, timeout=1) is None


def test_the_player_stream_opens_with_the_turns_waiting_now(client, new_match, live):
    waiting = new_match(seed=3)  # single-player: the owner's turn at once
    assert waiting["turn"] == 0
    messages = live.open("/api/v1/players/me/stream", bearer(client.token))
    notice = next_event(messages)
    assert (notice["event"], notice["json"]["match_id"]) == ("your_turn", waiting["id"])


# --- Stream tickets --------------------------------------------------------------------------


def ticket_for(client, match_id: str | None) -> dict:
    body = {"match_id": match_id} if match_id else {}
    response = client.post("/api/v1/stream-tickets", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_ticket_opens_its_stream_once(client, new_match, live):
    view = new_match()
    issued = ticket_for(client, view["id"])
    expires = timezone.datetime.fromisoformat(issued["expires_at"])
    assert timedelta(seconds=55) < expires - timezone.now() <= timedelta(seconds=60)
    url = f"/api/v1/matches/{view['id']}/stream?ticket={issued['ticket']}"
    # No Authorization header: the ticket alone, as a browser's EventSource sends it.
    messages = live.follow(url, {}, until=lambda m: m.get("id") == view["version"])
    assert [m["id"] for m in messages.result(timeout=30) if is_event(m)][-1] == view["version"]
    response = live.get(url)
    assert_problem(response, 401, "invalid_ticket")
    assert not StreamTicket.objects.exists()  # stored hashed, and gone once used
    personal = ticket_for(client, None)
    first = live.follow(f"/api/v1/players/me/stream?ticket={personal['ticket']}", {}, until=bool)
    assert first.result(timeout=30)[0] == {"comment": "keep-alive"}


def test_a_ticket_is_stored_only_as_its_hash(client, new_match):
    issued = ticket_for(client, new_match()["id"])
    stored = StreamTicket.objects.get()
    assert issued["ticket"] not in stored.ticket_hash and len(stored.ticket_hash) == 64


def test_an_expired_or_foreign_ticket_is_401_invalid_ticket(client, make_client, new_match):
    view, other = new_match(), new_match(seed=2)
    expired = ticket_for(client, view["id"])
    StreamTicket.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    cases = [
        (f"matches/{view['id']}/stream", expired["ticket"]),
        (f"matches/{other['id']}/stream", ticket_for(client, view["id"])["ticket"]),
        (f"matches/{view['id']}/stream", ticket_for(client, None)["ticket"]),
        ("players/me/stream", ticket_for(client, view["id"])["ticket"]),
        (f"matches/{view['id']}/stream", "not-a-ticket"),
    ]
    anonymous = make_client("Babak")
    anonymous.credentials()
    for path, ticket in cases:
        response = anonymous.get(f"/api/v1/{path}?ticket={ticket}")
        assert_problem(response, 401, "invalid_ticket")


def test_a_ticket_is_only_for_a_match_you_sit_at(client, make_client, new_match):
    view = new_match()
    stranger = make_client("Babak")
    response = stranger.post("/api/v1/stream-tickets", {"match_id": view["id"]}, format="json")
    assert_problem(response, 404, "not_found")
    response = client.post("/api/v1/stream-tickets", {"match": view["id"]}, format="json")
    assert_problem(response, 400, "unknown_field")
    client.credentials()
    response = client.post("/api/v1/stream-tickets", {}, format="json")
    assert_problem(response, 401, "not_authenticated")


# --- The long-poll ---------------------------------------------------------------------------


def test_a_long_poll_answers_as_soon_as_an_event_is_written(client, new_match, live):
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}/events?after={view['version']}&wait=20"
    started = time.monotonic()
    polled = live.poll(url, bearer(client.token))
    live.wait_listening()
    time.sleep(0.5)
    client.post(f"/api/v1/matches/{view['id']}/actions", {"action": "look"}, format="json")
    status, body = polled.result(timeout=30)
    elapsed = time.monotonic() - started
    assert status == 200
    assert body["events"] == events_of(client, view["id"], after=view["version"])
    assert body["version"] == view["version"] + 1 and body["has_more"] is False
    assert elapsed < 10  # woken, not timed out at 20 s


def test_a_long_poll_of_a_guest_whose_seat_was_freed_answers_with_no_events(make_client, live):
    roya, babak = make_client("Roya"), make_client("Babak")
    view = roya.post("/api/v1/matches", {"humans": 3}, format="json").json()
    url = f"/api/v1/matches/{view['id']}"
    version = babak.post(f"{url}/join", {"invite": view["invite"]}, format="json").json()["version"]
    started = time.monotonic()
    polled = live.poll(f"{url}/events?after={version}&wait=20", bearer(babak.token))
    live.wait_listening()
    time.sleep(0.5)
    assert babak.post(f"{url}/leave", {}, format="json").status_code == 200
    status, body = polled.result(timeout=30)
    assert (status, body) == (200, {"version": version, "has_more": False, "events": []})
    assert time.monotonic() - started < 10  # answered on the notice, not at its 20 s wait
    assert_problem(babak.get(f"{url}/events?after={version}"), 404, "not_found")


@pytest.mark.parametrize("how", ["rotate", "revoke"])
def test_a_long_poll_whose_token_is_rotated_while_it_waits_answers_with_no_events(
    client, new_match, live, how
):
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}"
    before = bearer(client.token)
    started = time.monotonic()
    polled = live.poll(f"{url}/events?after={view['version']}&wait=20", before)
    live.wait_listening()
    time.sleep(0.5)
    ending_token(client, how)
    assert client.post(f"{url}/actions", {"action": "look"}, format="json").status_code == 200
    status, body = polled.result(timeout=30)
    assert (status, body) == (200, {"version": view["version"], "has_more": False, "events": []})
    assert time.monotonic() - started < 10  # answered on the notice, not at its 20 s wait
    assert_problem(live.get(f"{url}/events?after={view['version']}", before), 401, "invalid_token")


def test_a_long_poll_with_nothing_new_answers_empty_after_its_wait(client, new_match, live):
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}/events?after={view['version']}&wait=1"
    started = time.monotonic()
    status, body = live.poll(url, bearer(client.token)).result(timeout=30)
    assert (status, body) == (200, {"version": view["version"], "has_more": False, "events": []})
    assert 1 <= time.monotonic() - started < 5


def test_a_long_poll_with_events_already_there_answers_at_once(client, new_match):
    view = new_match(seed=3)
    response = client.get(f"/api/v1/matches/{view['id']}/events?after=0&wait=30")
    assert len(response.json()["events"]) == view["version"]


@pytest.mark.parametrize("wait", ["31", "-1", "1.5", "soon"])
def test_a_long_poll_wait_beyond_30_s_or_not_a_whole_number_is_a_400(client, new_match, wait):
    view = new_match()
    response = client.get(f"/api/v1/matches/{view['id']}/events?wait={wait}")
    body = assert_problem(response, 400, "validation_error")
    assert body["errors"][0]["field"] == "wait"


# --- A stream lives as long as its token (#22 item 1: a stolen token's holder must not keep
# reading the seat's events once the owner rotated or revoked it) ---------------------------


def ending_token(client, how: str) -> None:
    """Rotate or revoke the client's token; the client goes on with a new one."""
    if how == "rotate":
        fresh = client.post("/api/v1/players/me/tokens/rotate").json()["token"]
    else:
        fresh = client.post("/api/v1/players/me/tokens").json()["token"]
        assert client.delete("/api/v1/players/me/tokens/current").status_code == 204
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {fresh}")


@pytest.mark.parametrize("how", ["rotate", "revoke"])
def test_a_stream_ends_when_the_token_that_opened_it_is_rotated(client, new_match, live, how):
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}"
    live.wait_listening()
    stream = live.open(f"{url}/stream?after={view['version']}", bearer(client.token))
    assert stream.get(timeout=10) == {"comment": "keep-alive"}
    ending_token(client, how)
    assert client.post(f"{url}/actions", {"action": "look"}, format="json").status_code == 200
    assert next_event(stream, timeout=5) is None, f"the {how}d token's stream read on"


def test_a_stream_opened_with_a_ticket_ends_with_the_token_that_issued_it(client, new_match, live):
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}"
    issued = ticket_for(client, view["id"])
    live.wait_listening()
    stream = live.open(f"{url}/stream?after={view['version']}&ticket={issued['ticket']}", {})
    assert stream.get(timeout=10) == {"comment": "keep-alive"}
    ending_token(client, "rotate")
    assert client.post(f"{url}/actions", {"action": "look"}, format="json").status_code == 200
    assert next_event(stream, timeout=5) is None, "the stream of the rotated token's ticket read on"


def test_each_wake_of_a_stream_is_one_statement_the_token_check_included(
    client, new_match, live, settings, monkeypatch
):
    settings.ASNAS_STREAM_HEARTBEAT_SECONDS = 0.2
    statements = []
    read_closed = loop._read_closed

    def counted(selector, kwargs):  # in the worker thread, on its own connection
        with CaptureQueriesContext(connections[DEFAULT_DB_ALIAS]) as queries:
            found = read_closed(selector, kwargs)
        statements.append(len(queries))
        return found

    monkeypatch.setattr(loop, "_read_closed", counted)
    view = new_match(seed=3)
    url = f"/api/v1/matches/{view['id']}"
    live.wait_listening()
    stream = live.open(f"{url}/stream?after={view['version']}", bearer(client.token))
    deadline = time.monotonic() + 10
    while not statements and time.monotonic() < deadline:  # the opening read is done
        time.sleep(0.05)
    assert client.post(f"{url}/actions", {"action": "look"}, format="json").status_code == 200
    assert next_event(stream, timeout=5)["event"] == "action"
    time.sleep(1)  # heartbeats, which read nothing
    ending_token(client, "rotate")
    assert next_event(stream, timeout=5) is None
    # Opening, the action's notice, the rotation's: one statement each, the check included.
    assert statements == [1, 1, 1], statements


def test_a_ticket_dies_with_the_token_that_issued_it(client, new_match):
    view = new_match()
    issued = ticket_for(client, view["id"])
    ending_token(client, "revoke")
    response = client.get(f"/api/v1/matches/{view['id']}/stream?ticket={issued['ticket']}")
    assert_problem(response, 401, "invalid_ticket")


@pytest.mark.parametrize("how", ["rotate", "delete the row"])
@pytest.mark.parametrize("stream", ["match", "player"])
def test_an_idle_stream_ends_as_soon_as_its_token_is_gone(client, new_match, live, stream, how):
    # No event comes (the table waits for its second human), and no heartbeat within 5 s:
    # the token's end itself wakes the stream, however it went (an operator's shell or SQL
    # deletes the row without the API).
    view = new_match(humans=2)
    url = {
        "match": f"/api/v1/matches/{view['id']}/stream?after={view['version']}",
        "player": "/api/v1/players/me/stream",
    }[stream]
    live.wait_listening()
    opened = live.open(url, bearer(client.token))
    assert opened.get(timeout=10) == {"comment": "keep-alive"}
    if how == "rotate":
        ending_token(client, "rotate")
    else:
        Token.objects.filter(token_hash=hash_token(client.token)).delete()
    assert next_event(opened, timeout=5) is None, "the idle stream outlived its token"


@pytest.mark.parametrize("how", ["rotate", "revoke"])
def test_the_players_stream_ends_when_its_token_is_rotated(client, new_match, live, how):
    view = new_match(seed=3)
    live.wait_listening()
    stream = live.open("/api/v1/players/me/stream", bearer(client.token))
    assert stream.get(timeout=10) == {"comment": "keep-alive"}
    assert next_event(stream, timeout=5)["event"] == "your_turn"  # the turn waiting as it opens
    ending_token(client, how)
    url = f"/api/v1/matches/{view['id']}/actions"
    assert client.post(url, {"action": "look"}, format="json").status_code == 200
    assert next_event(stream, timeout=5) is None, f"the {how}d token's stream read on"


# What int() or DRF would read as a number, though it is none in a cursor: other scripts'
# digits, full-width digits, a sign, a decimal point, spaces, nothing at all.
ODD_NUMBERS = ["٣", "３", "+3", "1.0", " 3", "3 ", ""]


@pytest.mark.parametrize("odd", ODD_NUMBERS)
@pytest.mark.parametrize("where", ["stream?after=", "stream Last-Event-ID", "events?after="])
def test_a_resume_point_in_anything_but_ascii_digits_is_a_400(client, new_match, where, odd):
    view = new_match()
    url = f"/api/v1/matches/{view['id']}/{where.split()[0]}"
    if where.endswith("="):
        response = client.get(url + quote(odd))
    else:
        response = client.get(url, HTTP_LAST_EVENT_ID=odd)
    assert_problem(response, 400, "validation_error")


@pytest.mark.parametrize("odd", ODD_NUMBERS)
def test_a_wait_or_a_table_filter_in_anything_but_ascii_digits_is_a_400(client, new_match, odd):
    view = new_match()
    response = client.get(f"/api/v1/matches/{view['id']}/events?wait={quote(odd)}")
    assert_problem(response, 400, "validation_error")
    assert_problem(client.get(f"/api/v1/tables?humans={quote(odd)}"), 400, "validation_error")
