"""Simulated players: each thread plays whole matches over one HTTP connection, in a closed
loop with no think time, recording every request it makes."""

import http.client
import itertools
import json
import random
import threading
import time
from dataclasses import dataclass, field
from ipaddress import IPv4Address
from urllib.parse import urlsplit

FIRST_PLAYER_ADDRESS = IPv4Address("127.1.0.1")
DEAL_ENDED = ("deal_over", "finished")


class BenchError(Exception):
    pass


@dataclass(slots=True)
class Sample:
    """One request: what it was, how long the client waited, and what the server spent."""

    kind: str  # create, action, next_deal, view, healthz
    deal: int  # the deal number it was made in (0 when none)
    seconds: float
    queries: int
    app_ns: int
    db_ns: int
    ends_deal: bool = False
    """A write whose answer shows its deal over: the write that stores the deal's figures."""


class Client:
    """One keep-alive connection. gunicorn's sync workers close it after every response, and
    http.client then opens a new one for the next request."""

    def __init__(self, base_url: str, source: str = ""):
        self.base_url = base_url
        parts = urlsplit(base_url)
        self.connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=60, source_address=(source, 0)
        )
        self.headers = {"Content-Type": "application/json"}

    def send(
        self, method: str, path: str, body: dict | None = None
    ) -> tuple[http.client.HTTPResponse, bytes, float]:
        """The response (read), its body and the seconds it took, whatever its status."""
        data = None if body is None else json.dumps(body)
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=data, headers=self.headers)
        except (BrokenPipeError, ConnectionResetError):
            # The server closed the kept-alive connection while it was idle (a busy machine can
            # hold a client past the keep-alive): the request never reached it, so send it
            # once more on a new connection.
            self.connection.close()
            self.connection.request(method, path, body=data, headers=self.headers)
        response = self.connection.getresponse()
        raw = response.read()
        return response, raw, time.perf_counter() - started

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[dict, Sample]:
        response, raw, seconds = self.send(method, path, body)
        if response.status >= 300:
            raise BenchError(f"{method} {path} answered {response.status}: {raw[:500]!r}")
        sample = Sample(
            kind="",
            deal=0,
            seconds=seconds,
            queries=int(response.getheader("X-Bench-Queries", "0")),
            app_ns=int(response.getheader("X-Bench-App-Cpu-Ns", "0")),
            db_ns=int(response.getheader("X-Bench-Db-Cpu-Ns", "0")),
        )
        return json.loads(raw), sample

    def close(self) -> None:
        self.connection.close()


def read_for(base_url: str, source: str, headers: dict, path: str, seconds: float, sender) -> None:
    """GET `path` in a closed loop for `seconds` and send the latencies through `sender` (a
    Pipe's end), or the error's text. Run in a process of its own, so that what it measures
    is the server's answer alone, not a wait for other client threads' share of the GIL."""
    try:
        client = Client(base_url, source)
        client.headers.update(headers)
        latencies = []
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            _, sample = client.call("GET", path)
            latencies.append(sample.seconds)
        sender.send(latencies)
    except Exception as error:  # sent to the parent, which raises it
        sender.send(f"{type(error).__name__}: {error}")
    finally:
        sender.close()


@dataclass
class Player:
    """A simulated person: registers, then creates and plays matches with random legal
    actions, and reloads the match once per deal, as a client would between deals."""

    number: int
    base_url: str
    seed: int
    ai_level: str
    samples: list[Sample] = field(default_factory=list)
    deals_done: int = 0
    finished_match_ids: list[str] = field(default_factory=list)
    current_match_id: str | None = None

    def __post_init__(self):
        # Each player calls from its own loopback address, as people do from their own, so the
        # per-address rate limit counts one player's requests, not everybody's.
        self.client = Client(self.base_url, str(FIRST_PLAYER_ADDRESS + self.number))
        self.rng = random.Random(f"{self.seed}:player:{self.number}")

    def register(self) -> None:
        body, _ = self.client.call("POST", "/api/v1/players", {"name": f"bench-{self.number}"})
        self.client.headers["Authorization"] = f"Bearer {body['token']}"

    def _record(self, kind: str, deal: int, sample: Sample, answer: dict | None = None) -> None:
        """Keep `sample`; `answer` is a write's, which says whether it ended a deal."""
        sample.kind, sample.deal = kind, deal
        sample.ends_deal = answer is not None and answer["status"] in DEAL_ENDED
        self.samples.append(sample)

    def play_match(self) -> None:
        request = {"ai_level": self.ai_level, "seed": self.rng.getrandbits(63)}
        view, sample = self.client.call("POST", "/api/v1/matches", request)
        self._record("create", 1, sample, view)
        path = f"/api/v1/matches/{view['id']}"
        while view["status"] != "finished":
            deal = view["deal_number"]
            if view["status"] == "deal_over":
                _, sample = self.client.call("GET", path)
                self._record("view", deal, sample)
                self.deals_done += 1
                view, sample = self.client.call("POST", f"{path}/next-deal", {})
                self._record("next_deal", deal + 1, sample, view)
            else:
                action = self.rng.choice(view["legal_actions"])
                view, sample = self.client.call("POST", f"{path}/actions", {"action": action})
                self._record("action", deal, sample, view)
        self.deals_done += 1
        self.finished_match_ids.append(view["id"])

    def play_writes(self, stop: threading.Event) -> None:
        """Writes only, until `stop`: create, actions and next-deals, each answer being the
        view the next write needs, with no reload between deals; so that a phase's server CPU
        over its requests is what a write costs (`bench --baseline`). Each write's sample
        says whether it ended a deal."""
        while not stop.is_set():
            request = {"ai_level": self.ai_level, "seed": self.rng.getrandbits(63)}
            view, sample = self.client.call("POST", "/api/v1/matches", request)
            self._record("create", 1, sample, view)
            self.current_match_id = view["id"]
            path = f"/api/v1/matches/{view['id']}"
            while view["status"] != "finished" and not stop.is_set():
                deal = view["deal_number"]
                if view["status"] == "deal_over":
                    view, sample = self.client.call("POST", f"{path}/next-deal", {})
                    self._record("next_deal", deal + 1, sample, view)
                else:
                    action = self.rng.choice(view["legal_actions"])
                    view, sample = self.client.call("POST", f"{path}/actions", {"action": action})
                    self._record("action", deal, sample, view)
            if view["status"] == "finished":
                self.finished_match_ids.append(view["id"])
                self.current_match_id = None

    def read_in_play(self, stop: threading.Event) -> None:
        """GET its match still in play in a closed loop until `stop` (none if the write phase
        stopped as it finished one)."""
        if self.current_match_id is not None:
            self._read_until(stop, [self.current_match_id])

    def read_finished(self, stop: threading.Event) -> None:
        """GET the matches it finished, each in turn, in a closed loop until `stop`: the first
        read of each as well as the later ones."""
        self._read_until(stop, self.finished_match_ids)

    def _read_until(self, stop: threading.Event, match_ids: list[str]) -> None:
        for match_id in itertools.cycle(match_ids):
            if stop.is_set():
                return
            _, sample = self.client.call("GET", f"/api/v1/matches/{match_id}")
            self._record("view", 0, sample)


def hit(base_url: str, method: str, path: str, requests: int, samples: list[Sample]) -> None:
    """`requests` bare requests in a closed loop: /healthz, the yardstick for everything else,
    and the floors (asnas_api/bench_metrics.py)."""
    client = Client(base_url)
    for _ in range(requests):
        _, sample = client.call(method, path, {} if method == "POST" else None)
        sample.kind = path
        samples.append(sample)
    client.close()
