"""A human who left a table watches it as a live spectator from the event after their own
player_left: the AI plays their old seat, with cards they must not see. Every read of theirs
(the view, events, a long-poll, the stream they had open, the record) is checked here; the
property over random tables is tests/reliability/test_spectator_leaks.py."""

import random

import pytest

from tests.http.play import _post
from tests.http.secrecy import check_event, check_record, check_view, eyes
from tests.live_client import bearer

pytestmark = pytest.mark.django_db(transaction=True)

QUIT = 1
"""The seat whose human leaves."""


def play_deal(clients: list, view: dict, rng: random.Random, *, on_move) -> dict:
    """Random legal moves of the humans still seated until the deal is over; `on_move`
    after each."""
    url = f"/api/v1/matches/{view['id']}"
    while view["status"] == "in_deal":
        client = clients[view["turn"]]
        mine = client.get(url).json()
        view = _post(client, f"{url}/actions", {"action": rng.choice(mine["legal_actions"])})
        on_move()
    return view


def test_a_leaver_sees_the_table_as_a_live_spectator_from_their_player_left(make_client, live):
    clients = [make_client(name) for name in ("Roya", "Babak", "Nima")]
    body = {"seed": 7, "humans": 3, "verifiable": True, "turn_seconds": None}
    view = clients[0].post("/api/v1/matches", body, format="json").json()
    invite = {"invite": view["invite"]}
    for guest in clients[1:]:
        view = _post(guest, f"/api/v1/matches/{view['id']}/join", invite)
    url, quitter, rng = f"/api/v1/matches/{view['id']}", clients[QUIT], random.Random(7)
    stream = live.follow(f"{url}/stream", bearer(quitter.token))
    live.wait_listening()
    view = play_deal(clients, view, rng, on_move=lambda: None)  # deal 1, played by all three
    view = _post(clients[0], f"{url}/next-deal")

    left = _post(quitter, f"{url}/leave")
    left_at = next(event["seq"] for event in left["events"] if event["type"] == "player_left")
    check_view(left, left_at)
    assert left["your_seat"] == QUIT and left["seats"][QUIT]["away"]

    looked = []

    def quitter_reads() -> None:
        """The quitter's view and events after each move: nothing of the AI's cards."""
        mine = quitter.get(url).json()
        check_view(mine, left_at)
        looked.append(mine["status"] == "in_deal" and mine["seats"][QUIT]["looked"])
        for event in quitter.get(f"{url}/events").json()["events"]:
            check_event(event, view["id"], eyes(QUIT, left_at, event["seq"]))

    present = [clients[0], None, clients[2]]
    view = play_deal(present, view, rng, on_move=quitter_reads)  # deal 2: the AI at seat 1
    quitter_reads()  # the deal is over: every hand it may show is in its result
    view = _post(clients[0], f"{url}/next-deal")
    poll = live.poll(f"{url}/events?after={view['version']}&wait=5", bearer(quitter.token))
    view = play_deal(present, view, rng, on_move=quitter_reads)  # deal 3
    status, page = poll.result(timeout=30)
    assert status == 200 and page["events"]
    for event in page["events"]:
        check_event(event, view["id"], None)
    assert any(looked), "the AI never looked at seat 1's cards"

    for client in (clients[2], clients[0]):  # the last human out abandons the match
        _post(client, f"{url}/leave")
    final = quitter.get(url).json()
    check_view(final, left_at)
    # The series ended: its seed is revealed to the quitter too, and every hand with it.
    record = quitter.get(f"{url}/record").json()
    assert final["fairness"]["server_seed"] == record["series"][0]["server_seed"] is not None
    assert record["viewer_seat"] == QUIT
    check_record(record, view["id"], QUIT, left_at)
    sent = [message["json"] for message in stream.result(timeout=30) if "json" in message]
    assert sent[-1]["abandoned"]  # the stream they had open went on to the end
    for event in sent:
        check_event(event, view["id"], eyes(QUIT, left_at, event["seq"]))
