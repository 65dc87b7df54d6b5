"""Over real HTTP (Django's live server): no response body and no event shows a card its
viewer may not see, and no token opens another player's match, its events or its stored
idempotent replies. The card checks are those of tests/http/secrecy.py."""

import random
import re
import subprocess
import sys
import time
import uuid

import httpx
import pytest

from games.ai import AI_LEVELS
from games.engine import RANKS
from tests.http.play import play_match
from tests.http.secrecy import check_result, check_review, check_view, hands_in, true_hands
from tests.servers import BASE_DIR

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# A match at each AI level in the default run; three times as many with -m simulation.
DEFAULT_MATCHES, SIMULATED_MATCHES = 4, 12
REPLAYS_PER_MATCH = 4
SECRET_KEYS = {"deck", "seed", "token", "token_hash"}


def keys_in(value):
    """Every dict key anywhere in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in(item)


class Wire:
    """A player's HTTP client that keeps every JSON body it receives and sends every POST
    with an Idempotency-Key of its own. Its post() takes the test client's arguments, so
    tests.http.play can drive it."""

    def __init__(self, base_url: str, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.token = token
        self.http = httpx.Client(base_url=base_url, headers=headers, timeout=60)
        self.bodies: list[dict] = []
        self.posts: list[tuple[str, dict, str, dict]] = []  # url, body, key, answer

    def _keep(self, response: httpx.Response) -> httpx.Response:
        expected = "application/problem+json" if response.is_error else "application/json"
        assert response.headers["Content-Type"] == expected, response.text
        self.bodies.append(response.json())
        return response

    def get(self, url: str, **params) -> httpx.Response:
        return self._keep(self.http.get(url, params=params))

    def post(self, url: str, body: dict | None = None, format=None, key=None) -> httpx.Response:
        key = key or uuid.uuid4().hex
        response = self._keep(
            self.http.post(url, json=body or {}, headers={"Idempotency-Key": key})
        )
        self.posts.append((url, body or {}, key, response.json()))
        return response


@pytest.fixture
def connect(live_server):
    """connect("Roya") registers a player and returns its client; connect(token=...) a client
    with that token, or none. Every connection is closed at the end: the live server's
    threads hold a database connection each while theirs is open."""
    opened: list[Wire] = []

    def open_wire(name: str | None = None, *, token: str | None = None, bot=False) -> Wire:
        if name is not None:
            body = {"name": name, "bot": bot}
            response = httpx.post(f"{live_server.url}/api/v1/players", json=body)
            assert response.status_code == 201, response.text
            assert set(response.json()) == {"id", "name", "token", "bot"}
            assert response.json()["bot"] is bot
            token = response.json()["token"]
        opened.append(Wire(live_server.url, token))
        return opened[-1]

    yield open_wire
    for wire in opened:
        wire.http.close()


def check_events(events: list[dict], match_id) -> int:
    """As test_secrecy: hands only in deal_ended events' seats, and only those the viewer
    may see. Returns how many other seats' hands were shown."""
    shown = 0
    for event in events:
        for path, _ in hands_in(event):
            assert event["type"] == "deal_ended" and path[0] == "seats" and path[2] == "hand"
        if event["type"] == "deal_ended":
            shown += check_result(event, match_id)
    return shown


def test_no_body_or_event_over_the_wire_shows_a_hidden_card(connect):
    scan_matches(DEFAULT_MATCHES, connect("Roya"))


def test_a_bot_sees_over_the_wire_only_what_a_human_in_its_seat_would(connect):
    """A bot plays through the same endpoints, and every body and event it gets is checked
    as a human's (docs/bots.md)."""
    bot = connect("Shirbot", bot=True)
    scan_matches(DEFAULT_MATCHES, bot)
    kinds = {body["seats"][0]["kind"] for body in bot.bodies if "your_cards" in body}
    assert kinds == {"bot"}


def test_the_bridges_decision_lines_show_only_what_the_bots_seat_may_see(connect, tmp_path):
    """The bot bridge's line protocol (examples/bot_bridge.py, docs/bots.md) over the wire: a
    whole match played for the shell bot of tests/clients, each line the bot read checked
    against the deal's true hands. The seat's own five cards, and only once it has looked;
    no other card anywhere in the line; no field the protocol does not name."""
    bot = connect("Shirbot", bot=True)
    log = tmp_path / "lines.txt"
    run = subprocess.run(
        [sys.executable, str(BASE_DIR / "examples" / "bot_bridge.py")]
        + ["--engine", f"sh {BASE_DIR / 'tests' / 'clients' / 'bots' / 'shell_bot.sh'}"]
        + ["--url", str(bot.http.base_url).removesuffix("/"), "--token", bot.token]
        # No stream: the live server would keep its LISTEN connection, and the test database.
        + ["--level", "hard", "--no-stream"],
        env={"PATH": "/usr/bin:/bin", "BOT_LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines, hands_seen = log.read_text().splitlines(), 0
    assert len(lines) >= 12
    for line in lines:
        version, *pairs = line.split(" ")
        fields = dict(pair.split("=", 1) for pair in pairs)
        assert version == "asnas-bot/1" and list(fields) == BRIDGE_FIELDS, line
        seat, deal = int(fields["seat"]), int(fields["deal"])
        looked = f"{seat}:look" in fields["history"].split(",")
        assert fields["looked"].split(",")[seat] == str(int(looked))
        for key, value in fields.items():  # no card but in the hand
            assert key == "hand" or not set(re.split("[,:]", value)) & set(RANKS), line
        if not looked:
            assert fields["hand"] == "-", line
            continue
        hands = true_hands(fields["match"], int(fields["series"]), deal)
        assert sorted(fields["hand"].split(",")) == sorted(hands[seat]), line
        hands_seen += 1
    assert hands_seen > 0


BRIDGE_FIELDS = ["match", "series", "deal", "seat", "dealer", "hand", "looked", "stakes"]
BRIDGE_FIELDS += ["folded", "history", "legal"]


@pytest.mark.simulation
def test_no_body_or_event_over_the_wire_shows_a_hidden_card_in_many_matches(connect):
    scan_matches(SIMULATED_MATCHES, connect("Roya"))


def scan_matches(matches: int, player) -> None:
    """`matches` random matches played over the wire, every body and event checked."""
    shown = events_checked = replays = reviews_shown = 0
    for seed in range(matches):
        level = AI_LEVELS[seed % len(AI_LEVELS)]
        view = player.post("/api/v1/matches", {"seed": seed, "ai_level": level}).json()
        url, first_post = f"/api/v1/matches/{view['id']}", len(player.posts) - 1
        seen = 0

        def poll_events(view, url=url, match_id=view["id"]):
            # Page through the log as a polling client would, at the end of every deal.
            nonlocal seen, shown, events_checked
            if view["status"] != "in_deal":
                events = player.get(f"{url}/events", after=seen).json()["events"]
                shown += check_events(events, match_id)
                events_checked += len(events)
                seen = events[-1]["seq"] if events else seen

        play_match(player, view, random.Random(seed), on_view=poll_events)
        player.get(url)
        # The review, once the worker made it (503 review_pending, a problem body, before).
        waited_until = time.monotonic() + 60
        while (review := player.get(f"{url}/review")).status_code == 503:
            assert review.json()["code"] == "review_pending" and time.monotonic() < waited_until
            time.sleep(0.1)
        assert review.status_code == 200, review.text
        reviews_shown += check_review(review.json(), view["id"], 0)
        events = player.get(f"{url}/events").json()["events"]
        shown += check_events(events, view["id"])
        events_checked += len(events)
        # Repeats of keyed requests answer their stored bodies, checked with the rest below.
        for post_url, body, key, answer in random.Random(seed).sample(
            player.posts[first_post:], REPLAYS_PER_MATCH
        ):
            response = player.http.post(post_url, json=body, headers={"Idempotency-Key": key})
            assert response.headers["Idempotent-Replayed"] == "true"
            assert player._keep(response).json() == answer
            replays += 1
    player.get("/api/v1/matches", page_size=100)
    player.get("/api/v1/players/me")

    views = [body for body in player.bodies if "your_cards" in body]
    shown += sum(check_view(view) for view in views)
    for body in player.bodies:
        assert not SECRET_KEYS & set(keys_in(body)), body
        if "your_cards" not in body and "events" not in body and "your_seat" not in body:
            assert not list(hands_in(body)), body  # (a review's hands: check_review above)
    print(
        f"\nleaks over the wire: {matches} matches, {len(player.bodies)} bodies "
        f"({len(views)} views, {replays} replays), {events_checked} events, "
        f"{shown} other hands shown where allowed, {reviews_shown} of the seat's own in its "
        "reviews' positions, 0 leaks"
    )
    # The checks saw other seats' hands at showdowns, so they are not vacuous.
    assert shown > 0


def test_a_token_never_opens_another_players_match_events_or_replays(connect):
    roya, babak = connect("Roya"), connect("Babak")
    create = {"seed": 5, "ai_level": "easy"}
    mine = roya.post("/api/v1/matches", create, key="create").json()
    url = f"/api/v1/matches/{mine['id']}"
    looked = roya.post(f"{url}/actions", {"action": "look"}, key="look").json()
    assert looked["your_cards"]

    def not_found(response: httpx.Response) -> dict:
        assert response.status_code == 404, response.text
        assert "Idempotent-Replayed" not in response.headers
        body = response.json()
        assert body.pop("request_id") == response.headers["X-Request-ID"]
        return body

    # Babak sees Roya's match exactly as a match that does not exist.
    nothing = not_found(babak.get(f"/api/v1/matches/{uuid.uuid4()}"))
    assert nothing["code"] == "not_found"
    for response in (
        babak.get(url),
        babak.get(f"{url}/events"),
        babak.get(f"{url}/events", after=0),
        babak.post(f"{url}/actions", {"action": "fold"}),
        babak.post(f"{url}/next-deal", {}),
        babak.post(f"{url}/restart", {}),
        # Roya's key with Roya's body on Roya's URL: not her stored answer.
        babak.post(f"{url}/actions", {"action": "look"}, key="look"),
        babak.post(f"{url}/actions", {"action": "look"}, key="look"),
    ):
        assert not_found(response) == nothing

    # Babak's keys are his own: Roya's create key makes him a new match, then replays his.
    his = babak.post("/api/v1/matches", create, key="create")
    assert his.status_code == 201 and "Idempotent-Replayed" not in his.headers
    assert his.json()["id"] != mine["id"]
    again = babak.post("/api/v1/matches", create, key="create")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == his.json()["id"]
    # And his "look" key is free on his own match.
    his_look = babak.post(
        f"/api/v1/matches/{his.json()['id']}/actions", {"action": "look"}, key="look"
    )
    assert his_look.status_code == 200 and "Idempotent-Replayed" not in his_look.headers

    # Roya's match did not move, and her key still answers her own first outcome.
    assert roya.get(url).json()["version"] == looked["version"]
    replay = roya.post(f"{url}/actions", {"action": "look"}, key="look")
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.json() == looked
    assert [m["id"] for m in roya.get("/api/v1/matches").json()["results"]] == [mine["id"]]
    assert [m["id"] for m in babak.get("/api/v1/matches").json()["results"]] == [his.json()["id"]]

    # Without a token, or with a made-up one, nothing opens at all.
    for token in (None, "made-up-token"):
        stranger = connect(token=token)
        assert stranger.get(url).status_code == 401
        assert stranger.get(f"{url}/events").status_code == 401
        assert stranger.post(f"{url}/actions", {"action": "look"}, key="look").status_code == 401
    # Babak never received a hand of Roya's match, nor anyone's secrets.
    for body in babak.bodies:
        assert not SECRET_KEYS & set(keys_in(body)), body
    assert not any(body.get("id") == mine["id"] for body in babak.bodies)
