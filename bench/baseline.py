"""`manage.py bench --baseline REV`: the same load against REV and against the working tree,
alternated round by round (baseline, working tree, baseline, working tree...), each round on
a fresh data directory (docs/performance.md).

A round of one side: serve starts on a fresh data directory, stops once its memory has
settled, and starts again (how long that start takes to answer /readyz is the start-up time
on an existing data directory);
every player registers and plays one whole match (warm-up), and the PSS of each server
process is read once it settles; then the players write for `seconds` (creates, actions,
next-deals, no reads; the writes that end a deal, which store its skill figures, are also
measured apart), and the PSS is read again; then they read their match still in play for
`get_seconds`, and then the matches they finished, each in turn, for as long; then, where
the side's API has hints, one player asks for `hints` hints, each at a new spot of a new
random deal, one at a time."""

import dataclasses
import os
import random
import re
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from ipaddress import IPv4Address
from pathlib import Path

from bench.checkout import Side
from bench.hint_burst import HintPlayer
from bench.players import BenchError, Player, Sample
from bench.report import percentile
from bench.served import ServedSide, cpu_spent

# What the load needs of an API, as (path, method) in its OpenAPI schema, path parameters
# unnamed: both sides must have all of it.
PLAY = {
    ("/api/v1/players", "post"),
    ("/api/v1/matches", "post"),
    ("/api/v1/matches/{}", "get"),
    ("/api/v1/matches/{}/actions", "post"),
    ("/api/v1/matches/{}/next-deal", "post"),
}
# Measured on a side whose API has it, "n/a" on the other.
HINT = ("/api/v1/matches/{}/hint", "get")
WRITES = ("create", "action", "next_deal")
HINTER_ADDRESS = IPv4Address("127.4.0.1")


def operations(paths: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(path, method) of each operation of a schema's paths, path parameters unnamed."""
    return {
        (re.sub(r"\{[^}]*\}", "{}", path), method)
        for path, methods in paths.items()
        for method in methods
    }


def supports(paths: dict[str, set[str]]) -> dict[str, bool]:
    found = operations(paths)
    return {"play": PLAY <= found, "hints": HINT in found}


@dataclass(frozen=True)
class Load:
    workers: int
    players: int
    seconds: float
    get_seconds: float
    hints: int
    settle_seconds: float
    ai_level: str
    seed: int


def _in_threads(tasks: list[Callable[[], None]]) -> None:
    errors: list[BaseException] = []

    def guarded(task):
        try:
            task()
        except BaseException as error:  # re-raised below, in the main thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(task,), daemon=True) for task in tasks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def _timed_phase(served: ServedSide, tasks: list[Callable[[threading.Event], None]], seconds):
    """Run each task in a thread until `seconds` have passed; the server CPU ns and wall
    seconds they took."""
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)
    before, started = served.cpu_ns(), time.perf_counter()
    timer.start()
    try:
        _in_threads([lambda task=task: task(stop) for task in tasks])
    finally:
        stop.set()
        timer.cancel()
    return cpu_spent(before, served.cpu_ns()), time.perf_counter() - started


def _requests(samples: list[Sample], server_ns: dict[str, int], seconds: float) -> dict:
    ms = [sample.seconds * 1000 for sample in samples]
    return {
        "requests": len(samples),
        "seconds": seconds,
        # All of it: serve's processes and Postgres's.
        "server_cpu_ms_per_request": sum(server_ns.values()) / len(samples) / 1e6,
        "postgres_cpu_ms_per_request": server_ns["postgres"] / len(samples) / 1e6,
        "p50_ms": percentile(ms, 50),
        "p99_ms": percentile(ms, 99),
    }


def _reads(served: ServedSide, players: list[Player], read, seconds: float) -> dict:
    """The figures of every player's `read` (a Player method) for `seconds`."""
    tasks = [lambda stop, player=player: read(player, stop) for player in players]
    server_ns, spent_s = _timed_phase(served, tasks, seconds)
    samples = [sample for player in players for sample in player.samples]
    for player in players:
        player.samples.clear()
    if not samples:
        raise BenchError(f"{read.__name__} made no GET")
    return _requests(samples, server_ns, spent_s)


def _by_deal_end(writes: list[Sample], server_ns: dict[str, int]) -> dict:
    """Server CPU of a write that ends a deal (and stores its figures) and of one that ends
    none, apart: what each request's worker and Postgres backend spent on it (the bench's
    headers), plus an equal share of what the phase spent besides (bench/report.py)."""
    attributed = [sample.app_ns + sample.db_ns for sample in writes]
    overhead_ns = (sum(server_ns.values()) - sum(attributed)) / len(writes)
    split = {}
    for key, ends_deal in (("ends_no_deal", False), ("ends_a_deal", True)):
        spent = [ns for ns, s in zip(attributed, writes, strict=True) if s.ends_deal is ends_deal]
        own = statistics.fmean(spent) / 1e6 if spent else None
        split[f"{key}_own_cpu_ms_per_request"] = own
        split[f"{key}_cpu_ms_per_request"] = None if own is None else own + overhead_ns / 1e6
        split[f"{key}_requests"] = len(spent)
    return split


def _hints(served: ServedSide, load: Load) -> dict:
    """CPU of every server and Postgres process over each hint, asked one at a time, each at
    a new spot: cold, unless two random deals met at the same spot."""
    rng = random.Random(f"{load.seed}:baseline-hints")
    hinter = HintPlayer(0, served.url, str(HINTER_ADDRESS), 1, rng)
    cpu_ms, latency_ms = [], []
    for _ in range(load.hints):
        hinter.to_a_decision()
        path = f"/api/v1/matches/{hinter.view['id']}/hint"
        before = served.precise_cpu_ns()
        response, raw, seconds = hinter.client.send("GET", path)
        after = served.precise_cpu_ns()
        if response.status != 200:
            raise BenchError(f"a hint answered {response.status}: {raw[:500]!r}")
        cpu_ms.append((after - before) / 1e6)
        latency_ms.append(seconds * 1000)
        hinter.act(rng.choice(hinter.view["legal_actions"]))
    hinter.client.close()
    return {
        "hints": len(cpu_ms),
        "cpu_p50_ms": percentile(cpu_ms, 50),
        "cpu_p99_ms": percentile(cpu_ms, 99),
        "latency_p50_ms": percentile(latency_ms, 50),
    }


def measure(side: Side, load: Load, say: Callable[[str], None] = lambda text: None) -> dict:
    """One round of one side; `say` hears what it is doing."""
    say("serve started on a fresh data directory, stopped, started again")
    with ServedSide(side, load.workers, load.settle_seconds) as served:
        say(f"ready in {served.startup_s:.1f} s; warm-up")
        support = supports(served.schema_paths())
        if not support["play"]:
            raise BenchError(f"{side.name} ({side.commit}) lacks part of {sorted(PLAY)}")
        players = [Player(n, served.url, load.seed, load.ai_level) for n in range(load.players)]

        def warm_up(player: Player) -> None:
            player.register()
            player.play_match()

        _in_threads([lambda player=player: warm_up(player) for player in players])
        pss_warm = served.settled_pss(load.settle_seconds)
        say(f"writes for {load.seconds:g} s")
        for player in players:
            player.samples.clear()

        write_ns, write_s = _timed_phase(served, [p.play_writes for p in players], load.seconds)
        writes = [s for p in players for s in p.samples]
        if not writes or any(sample.kind not in WRITES for sample in writes):
            raise BenchError(f"the write phase made {len(writes)} writes (or a read)")
        pss_load = served.pss()
        for player in players:
            player.samples.clear()

        say(f"GETs of matches in play for {load.get_seconds:g} s")
        gets = _reads(served, players, Player.read_in_play, load.get_seconds)
        say(f"GETs of finished matches for {load.get_seconds:g} s")
        gets_finished = _reads(served, players, Player.read_finished, load.get_seconds)
        for player in players:
            player.client.close()

        hints = None
        if support["hints"] and load.hints:
            say(f"{load.hints} hints")
            hints = _hints(served, load)
        say("stopping")
        return {
            "supports": support,
            "startup_s": served.startup_s,
            "pss_kib_after_warm_up": pss_warm,
            "pss_kib_after_load": pss_load,
            "writes": {**_requests(writes, write_ns, write_s), **_by_deal_end(writes, write_ns)},
            "gets": gets,
            "gets_finished": gets_finished,
            "hints": hints,
        }


def run(
    baseline: Side,
    working: Side,
    load: Load,
    rounds: int,
    say: Callable[[str], None] = lambda text: None,
) -> dict:
    """`rounds` rounds of each side, alternated; every round's figures, by side name."""
    results = {baseline.name: [], working.name: []}
    with tempfile.TemporaryDirectory(prefix="asnas-bench-ai-") as caches:
        sides = [
            dataclasses.replace(side, ai_cache=Path(caches) / str(number))
            for number, side in enumerate((baseline, working))
        ]
        for side in sides:
            build_ai_tables(side, say)
        _rounds(sides, load, rounds, results, say)
    return results


def build_ai_tables(side: Side, say: Callable[[str], None]) -> None:
    """Build a side's coach tables once, before its rounds, as an image's build or a first
    start leaves them: each round's fresh data directory measures the service, not a
    minute of table building in the background of its load. A side without them (older
    code) has nothing to build."""
    if not (side.source / "games" / "ai" / "coach_tables.py").exists():
        return
    say(f"{side.name} ({side.commit}): building the coach's tables once")
    side.ai_cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [str(side.python), "-m", "games.ai.coach_tables"],
        cwd=side.source,
        env={**os.environ, "ASNAS_AI_CACHE_DIR": str(side.ai_cache)},
        check=True,
        capture_output=True,
    )


def _rounds(
    sides: list[Side], load: Load, rounds: int, results: dict, say: Callable[[str], None]
) -> None:
    for number in range(1, rounds + 1):
        for side in sides:
            started = time.monotonic()

            def said(text: str, number=number, side=side, started=started) -> None:
                at = time.monotonic() - started
                say(f"round {number}, {side.name} ({side.commit}), {at:5.1f} s: {text}")

            results[side.name].append(measure(side, load, said))
            said("stopped")
