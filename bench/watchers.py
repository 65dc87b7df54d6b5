"""`manage.py bench --watchers`: what an event costs a worker when 1, 10, 100 and 1,000
spectators watch one match (issue #41, docs/performance.md), on each side of `--baseline
REV` alternately, round by round, or on the working tree alone.

A round of one side: serve with one worker on a fresh data directory, the watch-stream caps
(per process, per match, per address) raised above the largest size, and Postgres counting
its statements (pg_stat_statements). For each size, first with no watcher: a player's match
against three AI seats with live spectators, that many watch streams opened on it
(/watch/stream, over HTTP, each read on one event loop of the bench), and once the server is
quiet, `writes` writes by the player, one at a time, each waited for until every stream has
its last event. Measured over the writes: the statements Postgres ran, the server's CPU
(serve's processes: its worker, its master, the clock) and Postgres's, the messages the
streams got, and each write's latency as the player sees it (the answer), and until the last
stream had its event (the fan-out). The streams' share of the statements and of the CPU is
what a write costs beyond the same side's writes with no watcher."""

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import psycopg

from bench.checkout import Side
from bench.report import percentile
from bench.served import ServedSide, cpu_spent

SIZES = (0, 1, 10, 100, 1000)
"""Watchers of the match; 0 measures what the writes cost by themselves."""
CAP = "100000"
"""The watch-stream caps, for the bench: above any size it opens."""
OPENING_AT_ONCE = 10
RETRY_SECONDS = 0.5
COUNTED = (
    "SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements"
    " WHERE query NOT LIKE '%pg_stat_statements%'"
)


@dataclass(frozen=True)
class WatcherLoad:
    sizes: tuple[int, ...]
    writes: int
    rounds: int
    settle_seconds: float = 10


class Statements:
    """The statements the side's Postgres has run, from pg_stat_statements."""

    def __init__(self, uri: str) -> None:
        self.connection = psycopg.connect(uri, autocommit=True)
        self.connection.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")

    def count(self) -> int:
        return self.connection.execute(COUNTED).fetchone()[0]

    def quiet(self, period: float = 0.5, timeout: float = 120) -> tuple[int, bool]:
        """The count once no statement ran for `period` seconds, and True; or the count after
        `timeout`, and False (the figures of a size measured so are flagged)."""
        last, deadline = self.count(), time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(period)
            now = self.count()
            if now == last:
                return now, True
            last = now
        return last, False

    def close(self) -> None:
        self.connection.close()


class Watchers:
    """`count` watch streams of one match, read on an event loop in a thread of their own:
    for each, the seq of the last event it got, and the messages all of them got."""

    def __init__(self, url: str, code: str, count: int) -> None:
        self.url, self.code, self.count = url, code, count
        self.last: list[int] = [0] * count
        self.messages = 0
        self.refused = 0
        """Openings answered 503 and tried again."""
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.tasks: list[asyncio.Task] = []

    def __enter__(self) -> "Watchers":
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(timeout=900)
        return self

    async def _open(self) -> None:
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        self.client = httpx.AsyncClient(base_url=self.url, limits=limits, timeout=None)
        opened = asyncio.Semaphore(0)
        opening = asyncio.Semaphore(OPENING_AT_ONCE)
        for number in range(self.count):
            await asyncio.wait_for(opening.acquire(), 120)
            self.tasks.append(asyncio.create_task(self._hold(number, opened, opening)))
        for _ in range(self.count):
            await asyncio.wait_for(opened.acquire(), 120)

    async def _hold(self, number: int, opened: asyncio.Semaphore, opening: asyncio.Semaphore):
        headers = {"Watch-Code": self.code}
        while True:
            async with self.client.stream("GET", "/api/v1/watch/stream", headers=headers) as answer:
                if answer.status_code == 503:
                    # The server's pool had no connection in time (the old side opening many
                    # at once): a client tries again, as a browser's EventSource does.
                    self.refused += 1
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                answer.raise_for_status()
                first = True
                async for line in answer.aiter_lines():
                    if first:  # the server's first comment: the stream is open
                        opened.release()
                        opening.release()
                        first = False
                    if line.startswith("id: "):
                        self.last[number] = int(line[4:])
                        self.messages += 1
                return

    def wait_all_at(self, seq: int, timeout: float = 300) -> float:
        """Until every stream has the event `seq`; returns the moment it came to the last."""
        deadline = time.monotonic() + timeout
        while min(self.last, default=seq) < seq:
            if time.monotonic() > deadline:
                behind = sum(1 for last in self.last if last < seq)
                raise TimeoutError(f"{behind} of {self.count} streams never had event {seq}")
            time.sleep(0.001)
        return time.monotonic()

    def __exit__(self, *exc_info) -> None:
        async def close() -> None:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            await self.client.aclose()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=120)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def _write(player: httpx.Client, match: dict) -> tuple[dict, float]:
    """The player's next write (a call, hold or first legal action; the next deal once one
    is over) and its latency in seconds."""
    url = f"/api/v1/matches/{match['id']}"
    started = time.perf_counter()
    if match["status"] == "deal_over":
        answer = player.post(f"{url}/next-deal", json={})
    else:
        legal = match["legal_actions"]
        action = next((a for a in ("call", "hold") if a in legal), legal[0])
        answer = player.post(f"{url}/actions", json={"action": action})
    return answer.raise_for_status().json(), time.perf_counter() - started


def measure(served: ServedSide, statements: Statements, watchers: int, writes: int) -> dict:
    """One size on a running side: a new match, `watchers` streams on it, `writes` writes."""
    with httpx.Client(base_url=served.url, timeout=60) as player:
        token = player.post("/api/v1/players", json={"name": "Writer"}).raise_for_status()
        player.headers["Authorization"] = f"Bearer {token.json()['token']}"
        body = {"seed": 7, "turn_seconds": None, "spectators": "live"}
        match = player.post("/api/v1/matches", json=body).raise_for_status().json()
        code = match["watch_code"]
        with Watchers(served.url, code, watchers) as streams:
            streams.wait_all_at(0)
            before_statements, quiet_before = statements.quiet()
            before_cpu = served.cpu_ns()
            messages_before = streams.messages
            latencies, fan_outs, events = [], [], 0
            for _ in range(writes):
                version = match["version"]
                match, latency = _write(player, match)
                answered = time.monotonic()
                latencies.append(latency * 1000)
                events += match["version"] - version
                if watchers:
                    fan_outs.append((streams.wait_all_at(match["version"]) - answered) * 1000)
            spent = cpu_spent(before_cpu, served.cpu_ns())
            delivered = streams.messages - messages_before
            after_statements, quiet_after = statements.quiet()
            refused = streams.refused
    return {
        "watchers": watchers,
        "writes": writes,
        "events": events,
        "statements_per_write": (after_statements - before_statements) / writes,
        "messages": delivered,
        "openings_refused": refused,
        # False: the statements of the streams' opening, or of the writes' last reads, may
        # not have ended when counted (Postgres was never quiet for half a second in 2 min).
        "quiet": quiet_before and quiet_after,
        "serve_cpu_ms": spent["serve"] / 1e6,
        "postgres_cpu_ms": spent["postgres"] / 1e6,
        "serve_cpu_ms_per_write": spent["serve"] / 1e6 / writes,
        "write_p50_ms": percentile(latencies, 50),
        "write_max_ms": max(latencies),
        "fan_out_p50_ms": percentile(fan_outs, 50) if fan_outs else None,
        "fan_out_max_ms": max(fan_outs) if fan_outs else None,
    }


def run(sides: list[Side], load: WatcherLoad, say: Callable[[str], None]) -> list[dict]:
    """Every size on each side, the sides alternated round by round."""
    caps = ("PROCESS", "MATCH", "ADDRESS")
    environment = {
        **{f"ASNAS_WATCH_STREAMS_PER_{cap}": CAP for cap in caps},
        # No beat, so no renewal, and no clock's poll while a size is measured: the
        # statements counted are the writes' and the streams' reads (the renewals' are
        # counted in tests/live/test_shared.py). The match has no turn clock.
        "ASNAS_STREAM_HEARTBEAT_SECONDS": "600",
        "ASNAS_CLOCK_POLL_SECONDS": "600",
    }
    results = []
    for round_number in range(1, load.rounds + 1):
        for side in sides:
            say(f"round {round_number}: {side.name} ({side.commit})")
            with ServedSide(
                side,
                1,
                load.settle_seconds,
                environment=environment,
                postgres_settings={"shared_preload_libraries": "pg_stat_statements"},
            ) as served:
                statements = Statements(served.database_uri())
                try:
                    for size in load.sizes:
                        found = measure(served, statements, size, load.writes)
                        say(
                            f"  {size} watchers: "
                            f"{found['statements_per_write']:.1f} statements a write"
                        )
                        results.append({"round": round_number, "side": side.name, **found})
                finally:
                    statements.close()
    return results


def summarize(results: list[dict]) -> list[dict]:
    """By side and size, the median over rounds of each figure, and the statements of the
    streams alone: each write's beyond what the same side's writes cost with no watcher."""
    rows = []
    for side in dict.fromkeys(result["side"] for result in results):
        alone = [
            r["statements_per_write"] for r in results if r["side"] == side and r["watchers"] == 0
        ]
        for size in dict.fromkeys(result["watchers"] for result in results):
            found = [r for r in results if r["side"] == side and r["watchers"] == size]
            row = {"side": side, "watchers": size, "rounds": len(found)}
            for figure in found[0]:
                if figure in ("round", "side", "watchers"):
                    continue
                if figure == "quiet":
                    row[figure] = all(r[figure] for r in found)
                    continue
                values = [r[figure] for r in found if r[figure] is not None]
                row[figure] = percentile(values, 50) if values else None
            if alone:
                row["stream_statements_per_write"] = row["statements_per_write"] - percentile(
                    alone, 50
                )
            cpu_alone = [
                r["serve_cpu_ms_per_write"]
                for r in results
                if r["side"] == side and r["watchers"] == 0
            ]
            if cpu_alone and row["messages"]:
                # The streams' share: the writes' own CPU (with no watcher) taken out.
                streams_ms = row["serve_cpu_ms_per_write"] - percentile(cpu_alone, 50)
                row["stream_cpu_ms_per_message"] = streams_ms * row["writes"] / row["messages"]
            rows.append(row)
    return rows
