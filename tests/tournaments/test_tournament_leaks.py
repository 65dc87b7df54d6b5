"""The leak property for tournaments (#37 item 5): over every transport (the tournament's
bodies, a match's view, a write's answer, an events page, a long-poll, the SSE stream, the
record, a refusal's problem body), before the close no entrant gets the seed, another
entrant's match, results or progress, or a card they may not see; a non-entrant gets no
match of the tournament at all, before or after; after the close the seed and the standings
are everyone's, and each entrant's record shows every hand of their own match, dealt
again from the seed. The card checks are those of tests/http/secrecy.py."""

import json
import random

import pytest
from rest_framework.test import APIClient

from games.engine import fairness
from games.models import Tournament
from players.services import player_create
from tests.http.secrecy import check_event, check_record, check_view
from tests.live_client import LiveClient, bearer, next_event
from tests.tournaments.support import BASE, past_deadline, terms

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def live():
    live = LiveClient()
    yield live
    live.close()


class Person:
    """A player's API client that keeps every body it receives, by transport."""

    def __init__(self, name: str, bot: bool = False):
        player, self.token = player_create(name=name, bot=bot)
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.token}")
        self.bodies: list[tuple[str, dict]] = []

    def get(self, url: str, transport: str = "view"):
        response = self.client.get(url)
        self.bodies.append((transport, response.json()))
        return response

    def post(self, url: str, body: dict | None = None, transport: str = "write"):
        response = self.client.post(url, body or {}, format="json")
        self.bodies.append((transport, response.json()))
        return response


def play_some(person: Person, view: dict, rng: random.Random, deals: int) -> dict:
    """Random legal actions until `deals` deals have ended (or the match did), every
    answer checked for cards as its seat may see them."""
    while view["status"] != "finished" and (view["deal_number"], view["status"]) < (
        deals,
        "deal_over",
    ):
        if view["status"] == "deal_over":
            view = person.post(f"/api/v1/matches/{view['id']}/next-deal").json()
        else:
            action = rng.choice(view["legal_actions"])
            view = person.post(f"/api/v1/matches/{view['id']}/actions", {"action": action}).json()
        check_view(view)
    return view


def text_of(bodies) -> str:
    return json.dumps([body for _, body in bodies])


def test_no_transport_shows_the_seed_or_another_entrant_before_the_close(live):
    # Roya is a bot (docs/bots.md): she gets on every transport only what a human would.
    owner, babak, nima = (Person(n) for n in ("Owner", "Babak", "Nima"))
    roya = Person("Roya", bot=True)
    tournament = owner.post(BASE, terms(ai_level="hard", pools=2, bots=True), "tournament")
    tournament = tournament.json()
    tid = tournament["id"]
    seed = Tournament.objects.get(pk=tid).server_seed
    # The tournament's seed and both pools' seeds it derives: none may show before the close.
    secrets = [seed, *(fairness.pool_seed(bytes.fromhex(seed), p).hex() for p in range(2))]
    entries = {p: p.post(f"{BASE}/{tid}/entries", {}).json() for p in (roya, babak)}
    matches = {p: view["id"] for p, view in entries.items()}
    stream = live.open(f"/api/v1/matches/{matches[roya]}/stream", bearer(roya.token))
    # Babak plays his whole match, Roya four deals: each reads everything there is to read.
    rng = random.Random(37)
    play_some(babak, entries[babak], rng, deals=12)
    play_some(roya, entries[roya], rng, deals=4)
    for person in (roya, babak):
        url = f"/api/v1/matches/{matches[person]}"
        check_view(person.get(url).json())
        events = person.get(f"{url}/events", "events").json()["events"]
        assert all(check_event(event, matches[person]) >= 0 for event in events)
        status, polled = live.poll(f"{url}/events?after=0&wait=1", bearer(person.token)).result(30)
        person.bodies.append(("long-poll", polled))
        check_record(person.get(f"{url}/record", "record").json(), matches[person], 0)
        person.get(f"{BASE}/{tid}", "tournament")
        person.get(BASE, "tournament")
        refused = person.get(f"{BASE}/{tid}/standings", "error")
        assert refused.json()["code"] == "tournament_not_closed"
        refused = person.get(f"{url}/hint", "error")
        assert refused.json()["code"] == ("not_for_bots" if person is roya else "hints_not_allowed")
    streamed = []
    while (message := next_event(stream, timeout=5)) is not None and "id" in message:
        streamed.append(("stream", message))
        if len(streamed) >= 3:
            break
    roya.bodies.extend(streamed)
    assert streamed, "the stream said nothing"
    # A non-entrant opens no match of the tournament on any transport.
    for match_id in matches.values():
        url = f"/api/v1/matches/{match_id}"
        for response in (
            nima.get(url),
            nima.get(f"{url}/events", "events"),
            nima.get(f"{url}/record", "record"),
            nima.post(f"{url}/actions", {"action": "look"}),
        ):
            assert response.status_code == 404
        status, body = live.poll(f"{url}/events?after=0&wait=1", bearer(nima.token)).result(30)
        assert status == 404
        assert live.get(f"{url}/stream", bearer(nima.token)).status_code == 404
    nima.get(f"{BASE}/{tid}", "tournament")
    nima.get(BASE, "tournament")
    # Nobody's bodies hold the seed; no entrant's hold the other's match; the tournament's
    # bodies say how many entered and nothing of anyone's progress.
    for person in (owner, roya, babak, nima):
        assert not any(secret in text_of(person.bodies) for secret in secrets)
    assert matches[babak] not in text_of(roya.bodies)
    assert matches[roya] not in text_of(babak.bodies)
    assert not {matches[roya], matches[babak]} & set(text_of(nima.bodies + owner.bodies).split('"'))
    seen_by_nima = nima.get(f"{BASE}/{tid}", "tournament").json()
    assert seen_by_nima["entrants"] == 2 and seen_by_nima["your_entry"] is None
    scanned = sum(len(p.bodies) for p in (roya, babak, nima, owner))

    # The close: the seed is everyone's, the standings too; the matches stay their owners'.
    past_deadline(tournament)
    after = nima.get(f"{BASE}/{tid}/standings", "standings").json()
    assert {row["match"] for row in after["standings"]} == set(matches.values())
    assert {row["name"]: row["bot"] for row in after["standings"]} == {"Roya": True, "Babak": False}
    assert nima.get(f"{BASE}/{tid}", "tournament").json()["server_seed"] == seed
    for person, match_id in matches.items():
        url = f"/api/v1/matches/{match_id}"
        assert nima.get(url).status_code == 404
        record = person.get(f"{url}/record", "record").json()
        assert record["series"][0]["server_seed"] in secrets[1:]
        check_record(record, match_id, 0)  # every hand, each the one dealt
    print(f"\ntournament leaks: {scanned} bodies and {len(streamed)} stream messages, 0 leaks")
