"""Event streams under measurement: many held open while the bench plays (what each costs
the server), and the latency from a write on one server to the event on another's stream."""

import asyncio
import threading
import time

import httpx
from httpx_sse import aconnect_sse

from bench.report import percentile

TABLE_SEATS = 4
"""The streams follow waiting tables of this many humans, never filled: idle streams that
only send their heartbeats, as most open streams do between two moves."""
STREAMS_PER_TABLE = 50


class HeldStreams:
    """`with HeldStreams(url, n) as held:` n SSE streams open on the server, each read (and
    dropped) on an event loop in a thread of its own, until the block ends. `opening`: how
    many may be opening at once (all of them by default, as after a restart when every
    client reconnects; 1 opens each after the one before has answered)."""

    def __init__(self, url: str, count: int, opening: int | None = None) -> None:
        self.url = url
        self.count = count
        self.opening = opening or count
        self.opened = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._tasks: list[asyncio.Task] = []

    def __enter__(self) -> "HeldStreams":
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(timeout=300)
        return self

    async def _open(self) -> None:
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        self.client = httpx.AsyncClient(base_url=self.url, limits=limits, timeout=None)
        answer = await self.client.post("/api/v1/players", json={"name": "Watcher"})
        headers = {"Authorization": f"Bearer {answer.raise_for_status().json()['token']}"}
        opened = asyncio.Semaphore(0)
        opening = asyncio.Semaphore(self.opening)
        for number in range(self.count):
            await asyncio.wait_for(opening.acquire(), 60)
            if number % STREAMS_PER_TABLE == 0:
                table = await self.client.post(
                    "/api/v1/matches", json={"humans": TABLE_SEATS}, headers=headers
                )
                match_id = table.raise_for_status().json()["id"]
            url = f"/api/v1/matches/{match_id}/stream"
            self._tasks.append(asyncio.create_task(self._hold(url, headers, opened, opening)))
        for _ in range(self.count):
            await asyncio.wait_for(opened.acquire(), 60)

    async def _hold(
        self, url: str, headers: dict, opened: asyncio.Semaphore, opening: asyncio.Semaphore
    ) -> None:
        async with self.client.stream("GET", url, headers=headers) as response:
            response.raise_for_status()
            first = True
            async for _ in response.aiter_raw():
                if first:  # the server's first comment: the stream is open
                    self.opened += 1
                    opened.release()
                    opening.release()
                    first = False

    def __exit__(self, *exc_info) -> None:
        async def close() -> None:
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            await self.client.aclose()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def stream_latency(stream_url: str, act_url: str, *, seed: int = 1) -> dict:
    """Two humans at a table: the owner follows its stream from `stream_url` while the
    guest plays every turn through `act_url` (another server) and the owner answers through
    it too, a whole match. For each write, the seconds from its answer (committed) to its
    last event on the stream. Returns the latencies and the events streamed and listed."""
    return asyncio.run(_latency(stream_url, act_url, seed))


async def _latency(stream_url: str, act_url: str, seed: int) -> dict:
    async with (
        httpx.AsyncClient(base_url=act_url, timeout=30) as acting,
        httpx.AsyncClient(base_url=stream_url, timeout=None) as streaming,
    ):
        tokens = []
        for name in ("Roya", "Babak"):
            answer = await acting.post("/api/v1/players", json={"name": name})
            tokens.append({"Authorization": f"Bearer {answer.raise_for_status().json()['token']}"})
        body = {"humans": 2, "seed": seed, "turn_seconds": None}
        table = (await acting.post("/api/v1/matches", json=body, headers=tokens[0])).json()
        match_id = table["id"]
        arrived: dict[int, float] = {}
        streamed: list[dict] = []
        open_ = asyncio.Event()

        async def follow() -> None:
            url = f"/api/v1/matches/{match_id}/stream"
            # A copy: aconnect_sse adds its Accept header to the dict it is given.
            headers = dict(tokens[0])
            async with aconnect_sse(streaming, "GET", url, headers=headers) as source:
                open_.set()
                async for message in source.aiter_sse():
                    arrived[int(message.id)] = time.monotonic()
                    streamed.append(message.json())

        follower = asyncio.create_task(follow())
        await asyncio.wait_for(open_.wait(), 30)
        latencies = []

        async def write(path: str, token: dict, json: dict) -> dict:
            answer = await acting.post(
                f"/api/v1/matches/{match_id}/{path}", json=json, headers=token
            )
            done = time.monotonic()
            view = answer.raise_for_status().json()
            last = view["version"]
            while last not in arrived:
                await asyncio.sleep(0.001)
                if time.monotonic() - done > 10:
                    raise TimeoutError(f"event {last} never reached the stream")
            latencies.append(arrived[last] - done)
            return view

        view = await write("join", tokens[1], {"invite": table["invite"]})
        while view["status"] != "finished":
            if view["status"] == "deal_over":
                view = await write("next-deal", tokens[0], {})
                continue
            seat = view["turn"]
            mine = (await acting.get(f"/api/v1/matches/{match_id}", headers=tokens[seat])).json()
            # The first legal action that ends the turn: call or hold, else what there is.
            action = next(
                (a for a in ("call", "hold") if a in mine["legal_actions"]),
                mine["legal_actions"][0],
            )
            view = await write("actions", tokens[seat], {"action": action})
        await asyncio.wait_for(follower, 30)  # the stream ends after match_finished
        listed = await acting.get(f"/api/v1/matches/{match_id}/events", headers=tokens[0])
        ms = [seconds * 1000 for seconds in latencies]
        return {
            "writes": len(ms),
            "p50_ms": percentile(ms, 50),
            "p99_ms": percentile(ms, 99),
            "max_ms": max(ms),
            "streamed": streamed,
            "listed": listed.json()["events"],
        }
