"""`manage.py bench --hint-burst`: what players who ask for hints as fast as their limits let
them do to another player's reads (issue #22, item 3).

One player reads its match (GET) in a closed loop, first alone ("quiet"), then while
`players` others ask for hints: each looks at its cards, asks for a hint, and after
`repeats` answered hints at one spot plays a random legal action and asks again at the next
spot, through deals and matches, for `seconds`. A refused hint (429 or 503) waits its
Retry-After, as a client should. The hint players come from `addresses` addresses (one: ten
players made from one address, as in the issue). The server CPU of the burst over the hints
answered is what one cost."""

import multiprocessing
import random
import threading
import time
from dataclasses import dataclass, field
from ipaddress import IPv4Address

from bench.players import BenchError, Client, read_for
from bench.report import percentile
from bench.server import Server, cpu_between

READER_ADDRESS = IPv4Address("127.2.0.1")
FIRST_HINT_ADDRESS = IPv4Address("127.3.0.1")


@dataclass
class HintPlayer:
    number: int
    base_url: str
    address: str
    repeats: int
    rng: random.Random
    answered: int = 0
    refused: dict[int, int] = field(default_factory=dict)
    hint_seconds: list[float] = field(default_factory=list)

    def __post_init__(self):
        self.client = Client(self.base_url, self.address)
        body, _ = self.client.call("POST", "/api/v1/players", {"name": f"hinter-{self.number}"})
        self.client.headers["Authorization"] = f"Bearer {body['token']}"
        self._new_match()

    def _new_match(self) -> None:
        self.view, _ = self.client.call(
            "POST", "/api/v1/matches", {"seed": self.rng.getrandbits(63)}
        )
        self.at_spot = 0

    def act(self, action: str) -> None:
        path = f"/api/v1/matches/{self.view['id']}"
        self.view, _ = self.client.call("POST", f"{path}/actions", {"action": action})
        self.at_spot = 0

    def to_a_decision(self) -> None:
        """On to a turn of this player's where its cards are seen: the next deal, or a new
        match, and a look."""
        while True:
            path = f"/api/v1/matches/{self.view['id']}"
            if self.view["status"] == "finished":
                self._new_match()
            elif self.view["status"] == "deal_over":
                self.view, _ = self.client.call("POST", f"{path}/next-deal", {})
            elif "look" in self.view["legal_actions"]:
                self.act("look")
            else:
                return

    def run(self, stop: threading.Event) -> None:
        self.client.close()  # idle through the quiet phase, past the keep-alive: connect anew
        while not stop.is_set():
            self.to_a_decision()
            response, raw, seconds = self.client.send(
                "GET", f"/api/v1/matches/{self.view['id']}/hint"
            )
            if response.status == 200:
                self.answered += 1
                self.hint_seconds.append(seconds)
                self.at_spot += 1
                if self.at_spot >= self.repeats:
                    self.act(self.rng.choice(self.view["legal_actions"]))
            elif response.status in (429, 503):
                self.refused[response.status] = self.refused.get(response.status, 0) + 1
                stop.wait(int(response.getheader("Retry-After", "1")))
                # The wait may outlast the server's keep-alive: the next request connects anew.
                self.client.close()
            else:
                raise BenchError(f"a hint answered {response.status}: {raw[:500]!r}")


def _read(client: Client, path: str, seconds: float) -> list[float]:
    """The reader's latencies over `seconds`, measured from a process of its own: in this one
    it would wait for the hint players' threads to hand over the GIL, and count that wait as
    the server's."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    source = client.connection.source_address[0]
    process = context.Process(
        target=read_for,
        args=(client.base_url, source, client.headers, path, seconds, sender),
        daemon=True,
    )
    process.start()
    sender.close()
    try:
        latencies = receiver.recv()
    except EOFError:
        latencies = f"the reader's process ended with code {process.exitcode}"
    process.join()
    if isinstance(latencies, str):
        raise BenchError(f"the reader failed: {latencies}")
    return latencies


def _latency(seconds: list[float]) -> dict:
    ms = [s * 1000 for s in seconds]
    return {"count": len(ms), "p50_ms": percentile(ms, 50), "p99_ms": percentile(ms, 99)}


def run(
    server: Server,
    *,
    players: int,
    addresses: int,
    repeats: int,
    quiet_seconds: float,
    seconds: float,
    seed: int,
) -> dict:
    """A reader's latency and the server's CPU while nobody asks for hints, then while
    `players` ask from `addresses` addresses, `repeats` times each."""
    reader, path = _reader(server, random.Random(f"{seed}:hint-burst"))
    hinters = [
        HintPlayer(
            number,
            server.url,
            str(FIRST_HINT_ADDRESS + number % addresses),
            repeats,
            random.Random(f"{seed}:hinter:{number}"),
        )
        for number in range(players)
    ]
    # The coach's tables are built as each worker starts: let them be, so that the quiet
    # phase is quiet.
    server.settled_rss_bytes()

    cpu_before = server.cpu_sample()
    quiet = _read(reader, path, quiet_seconds)
    quiet_ns = sum(cpu_between(cpu_before, server.cpu_sample()).values())
    burst, elapsed, server_ns = _burst(server, reader, path, hinters, seconds)
    # The reads' share of the burst's CPU, at what one cost in the quiet phase, is not the
    # hints'.
    hints_ns = server_ns - len(burst) * quiet_ns / len(quiet)

    answered = sum(h.answered for h in hinters)
    refused = {str(status): sum(h.refused.get(status, 0) for h in hinters) for status in (429, 503)}
    hint_seconds = [s for h in hinters for s in h.hint_seconds]
    quiet_latency, burst_latency = _latency(quiet), _latency(burst)
    return {
        "players": players,
        "addresses": addresses,
        "repeats": repeats,
        "seconds": elapsed,
        "quiet": quiet_latency,
        "burst": burst_latency,
        "p50_ratio": burst_latency["p50_ms"] / quiet_latency["p50_ms"],
        "p99_ratio": burst_latency["p99_ms"] / quiet_latency["p99_ms"],
        "hints_answered": answered,
        "hints_refused": refused,
        "hint_latency": _latency(hint_seconds) if hint_seconds else None,
        "server_cpu_s": server_ns / 1e9,
        "server_cpu_ms_per_get": quiet_ns / 1e6 / len(quiet),
        # Unknown (None) when the quiet phase's reads cost more than the burst leaves them:
        # something else ran on the machine then, and the difference says nothing.
        "server_cpu_ms_per_hint": hints_ns / 1e6 / answered if answered and hints_ns > 0 else None,
    }


def _reader(server: Server, rng: random.Random) -> tuple[Client, str]:
    """The reader, a player of its own, and the path of the match it reads."""
    reader = Client(server.url, str(READER_ADDRESS))
    body, _ = reader.call("POST", "/api/v1/players", {"name": "reader"})
    reader.headers["Authorization"] = f"Bearer {body['token']}"
    match, _ = reader.call("POST", "/api/v1/matches", {"seed": rng.getrandbits(63)})
    return reader, f"/api/v1/matches/{match['id']}"


def _burst(
    server: Server, reader: Client, path: str, hinters: list[HintPlayer], seconds: float
) -> tuple[list[float], float, float]:
    """The reader's latencies while every hinter asks, how long that took, and the server's
    CPU (ns) meanwhile. A hinter's failure stops them all and is raised here."""
    stop = threading.Event()
    errors: list[BaseException] = []

    def guarded(task, *args):
        try:
            task(*args)
        except BaseException as error:  # re-raised below, in the main thread
            errors.append(error)
            stop.set()

    threads = [threading.Thread(target=guarded, args=(h.run, stop)) for h in hinters]
    cpu_before = server.cpu_sample()
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    try:
        burst = _read(reader, path, seconds)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    elapsed = time.perf_counter() - started
    server_ns = sum(cpu_between(cpu_before, server.cpu_sample()).values())
    if errors:
        raise errors[0]
    return burst, elapsed, server_ns
