"""Slow clients cannot starve the real server: while 16 sockets trickle a request a byte at a
time, /healthz and a match GET still answer at once, and no worker is killed."""

import os
import socket
import threading
import time

import httpx
import psutil
import pytest

from tests.servers import migrated_database, served

pytestmark = pytest.mark.slow

SLOW_SOCKETS = 16
TRICKLE_EVERY = 2.0  # seconds between two bytes of a slow request
# gunicorn's sync workers took 30 s and more here; the bound tells working from broken. It is
# wall time, which a parallel run beside other work stretches (a request waits for a core), so
# it leaves room for that: 1 s was within reach of a busy machine's one slow answer.
BOUND = 10.0


def trickle(port: int, request: bytes, stop: threading.Event) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        for byte in request:
            if stop.wait(TRICKLE_EVERY):
                return
            sock.sendall(bytes([byte]))


def worker_pids(serve_pid: int) -> set[int]:
    return {process.pid for process in psutil.Process(serve_pid).children(recursive=True)}


def test_slow_sockets_do_not_starve_healthz_or_a_match_get(tmp_path):
    with (
        migrated_database("slow") as database_url,
        served(tmp_path / "serve.log", {**os.environ, "DATABASE_URL": database_url}) as (
            url,
            server,
        ),
    ):
        player = httpx.post(f"{url}/api/v1/players", json={"name": "Roya"}).json()
        auth = {"Authorization": f"Bearer {player['token']}"}
        match = httpx.post(f"{url}/api/v1/matches", json={}, headers=auth).json()
        workers_before = worker_pids(server.pid)

        port = int(url.rsplit(":", 1)[1])
        slow_requests = [
            b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
            # Headers complete, body trickled: the body is read before any worker sees it.
            b"POST /api/v1/matches HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
            b"\r\nContent-Length: 40\r\n\r\n" + b" " * 38 + b"{}",
        ]
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=trickle,
                args=(port, slow_requests[number % 2], stop),
                daemon=True,
            )
            for number in range(SLOW_SOCKETS)
        ]
        for thread in threads:
            thread.start()
        latencies = {"healthz": [], "match": []}
        try:
            time.sleep(1.5 * TRICKLE_EVERY)  # every slow socket is open and has sent bytes
            with httpx.Client(base_url=url, timeout=60) as client:
                for _ in range(10):
                    for kind, path, headers in (
                        ("healthz", "/healthz", {}),
                        ("match", f"/api/v1/matches/{match['id']}", auth),
                    ):
                        started = time.perf_counter()
                        response = client.get(path, headers=headers)
                        latencies[kind].append(time.perf_counter() - started)
                        assert response.status_code == 200, response.text
                    time.sleep(0.3)
            assert all(thread.is_alive() for thread in threads), "the slow sockets were still open"
        finally:
            stop.set()
        assert max(latencies["healthz"]) < BOUND, latencies
        assert max(latencies["match"]) < BOUND, latencies
        assert worker_pids(server.pid) == workers_before, "a worker was killed or replaced"
