"""The property of issue #25, part 2: over many random tables, every role (each seat, a human
who left the table, a live spectator, a delayed spectator, the operator) and every transport
(the view, an events page, a long-poll, the SSE stream, a write's answer, the record, the
skill figures, the review (refused before the match is over, then each seat's own and, once
a verifiable series revealed its seed, the other humans'), a refusal's problem body, the
player's stream of notices, the admin's pages, the log lines), no message shows a card
before its viewer may see it, no message holds a server seed before its series ended (and
never where the table is not verifiable), no message but the operator's holds a player id
(the events name who sits where, #32), and a delayed spectator gets nothing of a deal still
being played. A human who left sees the match as a live spectator from the event after their
player_left (#31): at each table one leaves during a random deal before the last, and the AI
plays the seat on. The card checks are those of tests/http/secrecy.py; the counts are
printed (pytest -s) for the issues' closing notes."""

import json
import logging
import queue
import random
import time

import pytest
from rest_framework.test import APIClient

from games.models import Deal, Match
from tests.http.play import _post
from tests.http.secrecy import (
    check_event,
    check_record,
    check_result,
    check_review,
    check_view,
    eyes,
    hands_in,
)
from tests.live_client import LiveClient, bearer

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Four tables in the default run, one of each kind (live or delayed spectators, each with and
# without the reveal); sixteen with -m simulation, for a closing note's figures.
DEFAULT_MATCHES, SIMULATED_MATCHES = 4, 16
DEALS_PER_MATCH = 3
STREAMS_PER_SEAT, SPECTATOR_STREAMS = 2, 3
NAMES = ("Roya", "Babak", "Nima", "Sara")


@pytest.fixture
def live():
    live = LiveClient()
    yield live
    live.close()


class Scan:
    """What was scanned: messages by (role, transport)."""

    def __init__(self) -> None:
        self.messages: dict[tuple[str, str], int] = {}
        self.matches = 0
        self.verifiable = 0
        self.reviews_shown = 0

    def count(self, role: str, transport: str, number: int = 1) -> None:
        self.messages[role, transport] = self.messages.get((role, transport), 0) + number


def in_play_from(match_id) -> int | None:
    return (
        Deal.objects.filter(match_id=match_id, outcome="")
        .values_list("started_seq", flat=True)
        .first()
    )


def check_watch_view(view: dict, mode: str) -> None:
    """A spectator's view: no hand but a showdown's shown ones in the last deal's result."""
    allowed = {("last_deal", "seats", index, "hand") for index in range(4)}
    for path, _ in hands_in(view):
        assert path in allowed, path
    if view["last_deal"]:
        check_result(view["last_deal"], view["id"], None)
    start = in_play_from(view["id"])
    if mode == "delayed" and start is not None:
        assert view["version"] < start and view["turn_deadline"] is None


def check_watch_events(events: list[dict], match_id, mode: str) -> None:
    start = in_play_from(match_id)
    for event in events:
        check_event(event, match_id, None)
        if mode == "delayed" and start is not None:
            assert event["seq"] < start, (event, start)


class LogLines(logging.Handler):
    """Every log line the process writes, the access log's included."""

    LOGGERS = ("", "asnas_api.access", "django.security")

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def __enter__(self) -> "LogLines":
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self)


def table(seed: int, make_client, mode: str, verifiable: bool):
    clients = [make_client(name) for name in NAMES]
    body = {"seed": seed, "humans": 4, "turn_seconds": None, "spectators": mode}
    body["verifiable"] = verifiable
    if seed % 2:
        # A bot at seat 3 (docs/bots.md), at a table that allows bots: it sees, on every
        # transport, only what a human in its seat would, and nobody sees more of it.
        body["bots"] = True
        declared = clients[3].post("/api/v1/players/me/bot", format="json")
        assert declared.status_code == 200, declared.json()
    view = _post_created(clients[0], body)
    code, invite = view["watch_code"], view["invite"]
    for guest in clients[1:]:
        view = _post(guest, f"/api/v1/matches/{view['id']}/join", {"invite": invite})
    assert [seat["kind"] for seat in view["seats"]][3] == ("bot" if seed % 2 else "human")
    return clients, view, code


def _post_created(client, body: dict) -> dict:
    response = client.post("/api/v1/matches", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


class Watched:
    """One random table, its four seats' clients (one of whom leaves during a random deal)
    and its spectator, each reading every transport; every message goes through the checks
    and is counted in `scan`."""

    def __init__(self, seed: int, make_client, live, scan: Scan, admin, log: LogLines):
        self.mode = ("live", "delayed")[seed % 2]
        self.verifiable = seed % 4 < 2  # each mode with and without the reveal
        self.rng = random.Random(seed)
        self.live, self.scan, self.admin, self.log = live, scan, admin, log
        self.clients, self.view, code = table(seed, make_client, self.mode, self.verifiable)
        self.match_id = self.view["id"]
        self.player_ids = [str(client.player.pk) for client in self.clients]
        # One human leaves during a random deal before the last: the AI plays the seat on.
        self.leaver, self.leave_in = self.rng.randrange(4), self.rng.randint(1, DEALS_PER_MATCH - 1)
        self.left: dict[int, int] = {}  # the seq of each seat's player_left
        # Listening before the watch stream opens, so that its count is news to it.
        self.notices = live.open(
            "/api/v1/players/me/stream", bearer(self.clients[self.leaver].token)
        )
        assert self.notices.get(timeout=30) == {"comment": "keep-alive"}
        self.watchers = None  # as the last watchers_changed said
        seeds = Match.objects.get(pk=self.match_id).state["seeds"]
        self.server_seed, self.next_server_seed = seeds["server_seed"], seeds["next_server_seed"]
        self.ended = False  # set as the last player leaves: the series ends, abandoned
        self.reviews_shown = 0
        self.logged = len(log.lines)
        self.spectator = APIClient()
        self.code, self.watch_headers = code, {"Watch-Code": code}
        # Many streams of the match on the one loop (#41: they share its reads): two of each
        # seat and three spectators' from the start, more opened later at other cursors
        # (open_late), each filtered for its own viewer from the same read.
        self.streams: dict[str, tuple] = {}
        for _ in range(STREAMS_PER_SEAT):
            for seat, client in enumerate(self.clients):
                self.open_stream(
                    seat, f"/api/v1/matches/{self.match_id}/stream", bearer(client.token)
                )
        for _ in range(SPECTATOR_STREAMS):
            self.open_stream(self.mode, "/api/v1/watch/stream", self.watch_headers)
        self.opened_late = False

    def open_stream(self, role, url: str, headers: dict) -> None:
        self.streams[f"{role} #{len(self.streams)}"] = (role, self.live.open(url, headers))

    def open_late(self) -> None:
        """A stream of each seat still taken and one spectator's, resuming a few events back
        while the others are at the latest: streams at different cursors in one read."""
        self.opened_late = True
        back = max(0, self.view["version"] - 3)
        for seat, client in enumerate(self.clients):
            if seat not in self.left:
                url = f"/api/v1/matches/{self.match_id}/stream?after={back}"
                self.open_stream(seat, url, bearer(client.token))
        horizon = self.watch_view()["version"]
        url = f"/api/v1/watch/stream?after={max(0, horizon - 2)}"
        self.open_stream(self.mode, url, self.watch_headers)

    def seen(self, role, transport: str, body) -> None:
        """Count one message, and check it holds no server seed it may not: the next
        series' never (this one is never restarted), this one's only once the series ended
        and only where the table is verifiable; and no player id, which the events carry
        (who sits where), outside the operator's pages and log lines (which list seats)."""
        text = body if isinstance(body, str) else json.dumps(body)
        if role != "admin":
            assert not [pid for pid in self.player_ids if pid in text], (role, transport)
        assert self.next_server_seed not in text, (role, transport)
        if not (self.ended and self.verifiable):
            assert self.server_seed not in text, (role, transport)
        self.scan.count(str(role), transport)

    def role(self, role, seq: int | None = None):
        """Who reads a message: a seat is `leaver` once its human left, for an event once it
        came after their player_left."""
        left_at = self.left.get(role)
        return "leaver" if left_at is not None and (seq is None or seq > left_at) else role

    def check_log(self) -> None:
        """The log lines written since the last look."""
        for line in self.log.lines[self.logged :]:
            self.seen("admin", "log line", line)  # what the operator reads
        self.logged = len(self.log.lines)

    def check_message(self, role, message: dict) -> None:
        if role == self.mode:
            check_watch_events([message], self.match_id, self.mode)
        else:
            check_event(message, self.match_id, eyes(role, self.left.get(role), message["seq"]))

    def drain_streams(self, timeout: float | None = None) -> None:
        """The stream messages that came so far; with a `timeout`, to each stream's end. A
        seat's message is checked against its seq alone, so one that comes late is checked at
        the next drain as well as now; the spectator's is checked against the deal in play, so
        its streams get a moment to deliver before the next move."""
        waited = False
        for name, (role, messages) in list(self.streams.items()):
            # The spectators' streams share their reads: a moment for the first is theirs all.
            wait = timeout or (0.05 if role == self.mode and not waited else 0)
            waited = waited or role == self.mode
            while True:
                try:
                    message = messages.get(timeout=wait) if wait else messages.get_nowait()
                except queue.Empty:
                    break
                if message is None:  # the stream ended
                    del self.streams[name]
                    break
                if "json" in message:
                    self.seen(self.role(role, message["id"]), "stream", message)
                    self.check_message(role, message["json"])
        self.drain_notices()

    def drain_notices(self, until_unwatched: bool = False) -> None:
        """The leaver's notices that came so far; `until_unwatched`, up to the one saying
        that no watch stream is open (30 s at most). None shows a card, before or after
        they left."""
        deadline = time.monotonic() + 30
        while True:
            try:
                if until_unwatched and self.watchers != 0:
                    message = self.notices.get(timeout=max(0, deadline - time.monotonic()))
                else:
                    message = self.notices.get_nowait()
            except queue.Empty:
                return
            if "json" in message:
                assert not list(hands_in(message["json"])), message
                self.seen(self.role(self.leaver), "notices", message)
                self.watchers = message["json"].get("watchers", self.watchers)

    def watch_view(self) -> dict:
        body = {"watch_code": self.code}
        return self.spectator.post("/api/v1/watch", body, format="json").json()

    def check_everyone(self) -> None:
        for seat, client in enumerate(self.clients):
            left_at, role = self.left.get(seat), self.role(seat)
            view = client.get(f"/api/v1/matches/{self.match_id}").json()
            check_view(view, left_at)
            self.seen(role, "view", view)
            page = client.get(f"/api/v1/matches/{self.match_id}/events").json()
            for event in page["events"]:
                check_event(event, self.match_id, eyes(seat, left_at, event["seq"]))
            self.seen(role, "events", page)
            self.check_review(seat, client)
            record = client.get(f"/api/v1/matches/{self.match_id}/record").json()
            figures = check_record(record, self.match_id, seat, left_at)
            self.seen(role, "record", record)
            last = view["last_deal"]
            if figures or (last and any(each["skill"] for each in last["seats"])):
                self.scan.count(str(role), "skill figures")  # checked with the hands above
        view = self.watch_view()
        check_watch_view(view, self.mode)
        self.seen(self.mode, "view", view)
        page = self.spectator.get("/api/v1/watch/events", headers=self.watch_headers).json()
        check_watch_events(page["events"], self.match_id, self.mode)
        self.seen(self.mode, "events", page)
        # The operator sees every card, and no server seed before its reveal.
        for url in (f"/admin/games/match/{self.match_id}/change/", "/admin/games/match/"):
            page = self.admin.get(url)
            assert page.status_code == 200, url
            self.seen("admin", "admin page", page.content.decode())
        self.drain_streams()
        self.check_log()

    def check_review(self, seat: int, client) -> None:
        """A table of several humans: no review before the match is over (a problem body);
        once it is, as soon as the worker made it, each seat's own decisions, and the other
        seats' only where the series' seed is revealed."""
        url = f"/api/v1/matches/{self.match_id}/review"
        answer = client.get(url)
        if not self.ended:
            assert answer.status_code == 409, answer.content
            self.seen(self.role(seat), "review", answer.json())
            return
        waited_until = time.monotonic() + 60
        while answer.status_code == 503:
            assert answer.json()["code"] == "review_pending", answer.content
            assert time.monotonic() < waited_until, "the review stayed pending"
            time.sleep(0.1)
            answer = client.get(url)
        assert answer.status_code == 200, answer.content
        review = answer.json()
        self.reviews_shown += check_review(review, self.match_id, seat, self.verifiable)
        if self.verifiable:  # every hand may be seen: every human seat's review
            assert len(review["seats"]) > 1
        self.seen(self.role(seat), "review", review)

    def long_polls(self, version: int) -> list:
        """A long-poll for each role, waiting for the next event it may see."""
        url = f"/api/v1/matches/{self.match_id}/events?after={version}&wait=5"
        polls = [
            (seat, self.live.poll(url, bearer(client.token)))
            for seat, client in enumerate(self.clients)
        ]
        after = self.watch_view()["version"]
        url = f"/api/v1/watch/events?after={after}&wait=1"
        return [*polls, (self.mode, self.live.poll(url, self.watch_headers))]

    def check_polls(self, polls: list) -> None:
        for role, future in polls:
            status, page = future.result(timeout=30)
            assert status == 200, page
            for event in page["events"]:
                self.check_message(role, event)
            self.seen(self.role(role), "long-poll", page)

    def write(self, client, url: str, body: dict | None = None) -> None:
        self.view = _post(client, url, body)
        seat = self.view["your_seat"]
        for event in self.view["events"]:
            if event["type"] == "player_left" and event["seat"] == seat:
                self.left[seat] = event["seq"]
        check_view(self.view, self.left.get(seat))  # with the events it appended
        self.seen(self.role(seat), "write", self.view)
        self.check_everyone()

    def refusals(self, turn: int) -> None:
        """Requests the server refuses, from a seat out of turn, with a stale version and an
        action that does not exist, and from a spectator with a wrong code: their problem
        bodies are messages too."""
        url = f"/api/v1/matches/{self.match_id}/actions"
        other = self.clients[(turn + 1) % len(self.clients)]
        mine = self.clients[turn]
        answers = [
            ((turn + 1) % 4, other.post(url, {"action": "call"}, format="json")),
            (turn, mine.post(url, {"action": "call", "expected_version": 1}, format="json")),
            (turn, mine.post(url, {"action": "peek"}, format="json")),
            (self.mode, self.spectator.post("/api/v1/watch", {"watch_code": "x"}, format="json")),
        ]
        if self.leaver in self.left:  # whose seat the AI plays now
            gone = self.clients[self.leaver].post(url, {"action": "fold"}, format="json")
            answers.append((self.leaver, gone))
        for role, answer in answers:
            assert 400 <= answer.status_code < 500, answer.content
            self.seen(self.role(role), "error", answer.json())

    def leaves_now(self) -> bool:
        """Whether the leaver leaves before the next move: at a random one of their deal, at
        its end at the latest."""
        if self.leaver in self.left or self.view["deal_number"] != self.leave_in:
            return False
        return self.view["status"] == "deal_over" or self.rng.random() < 0.25

    def play(self, deals: int) -> None:
        """Random moves through `deals` deals, the leaver leaving during one of them, then
        everyone leaves: the match ends abandoned, and every stream with it."""
        self.check_everyone()
        played = 0
        while True:
            if self.leaves_now():
                self.write(self.clients[self.leaver], f"/api/v1/matches/{self.match_id}/leave")
                continue
            if self.view["status"] == "deal_over":
                played += 1
                if played == deals:
                    break
                present = next(seat for seat in range(4) if seat not in self.left)
                self.write(self.clients[present], f"/api/v1/matches/{self.match_id}/next-deal")
                continue
            if not self.opened_late and self.view["version"] > 12:
                self.open_late()
            if self.rng.random() < 0.2:
                self.refusals(self.view["turn"])
            client = self.clients[self.view["turn"]]
            mine = client.get(f"/api/v1/matches/{self.match_id}").json()
            polls = self.long_polls(mine["version"]) if self.rng.random() < 0.15 else []
            action = self.rng.choice(mine["legal_actions"])
            self.write(client, f"/api/v1/matches/{self.match_id}/actions", {"action": action})
            self.check_polls(polls)
        present = [seat for seat in range(4) if seat not in self.left]
        for seat in present:
            self.ended = seat == present[-1]
            self.write(self.clients[seat], f"/api/v1/matches/{self.match_id}/leave")
        self.drain_streams(timeout=30)
        assert not self.streams, "a stream did not end with the match"
        # The watch stream ended with the match: its count is the leaver's last notice.
        self.drain_notices(until_unwatched=True)
        for seat, client in enumerate(self.clients):
            self.check_review(seat, client)
        self.scan.reviews_shown += self.reviews_shown
        for seat in (present[0], self.leaver):  # the seed is revealed to the leaver too
            revealed = self.clients[seat].get(f"/api/v1/matches/{self.match_id}/record").json()
            assert revealed["series"][0]["server_seed"] == (
                self.server_seed if self.verifiable else None
            )


def test_no_role_and_no_transport_sees_a_card_before_its_reveal(
    make_client, live, admin_client, capsys
):
    scan_tables(DEFAULT_MATCHES, make_client, live, admin_client, capsys)


@pytest.mark.simulation
def test_no_role_and_no_transport_sees_a_card_before_its_reveal_at_many_tables(
    make_client, live, admin_client, capsys
):
    scan_tables(SIMULATED_MATCHES, make_client, live, admin_client, capsys)


def scan_tables(matches: int, make_client, live, admin_client, capsys) -> None:
    """`matches` random tables scanned, the counts printed, every role and transport seen."""
    scan = Scan()
    live.wait_listening()
    with LogLines() as log:
        for seed in range(matches):
            watched = Watched(seed, make_client, live, scan, admin_client, log)
            watched.play(DEALS_PER_MATCH)
            scan.matches += 1
            scan.verifiable += watched.verifiable
    roles = {role for role, _ in scan.messages}
    transports = {transport for _, transport in scan.messages}
    total = sum(scan.messages.values())
    with capsys.disabled():
        print(
            f"\nleak scan: {scan.matches} matches ({scan.verifiable} verifiable, their seeds "
            f"revealed at the end), {len(roles)} roles, {len(transports)} "
            f"transports, {total} messages scanned, {scan.reviews_shown} hands in reviews where "
            "allowed"
        )
        for role, transport in sorted(scan.messages):
            print(f"  {role:>8} {transport:<13} {scan.messages[role, transport]}")
    assert roles == {"0", "1", "2", "3", "leaver", "live", "delayed", "admin"}
    everywhere = {"view", "events", "long-poll", "stream", "write", "record", "error", "review"}
    assert transports == {*everywhere, "skill figures", "notices", "admin page", "log line"}
    assert {transport for role, transport in scan.messages if role == "leaver"} == {
        *everywhere,
        *("skill figures", "notices"),
    }
    assert scan.messages["admin", "log line"] > 0  # the log was read
