"""The database can fail and the real server still answers: while its Postgres is stopped
(SIGSTOP: hung, the kernel still accepting), API requests get 503 database_unavailable within
the request deadline, /readyz gets 503 within about a second, /healthz answers at once even
while the workers wait on the database, and everything recovers by itself afterwards."""

import os
import signal
import threading
import time
from pathlib import Path

import httpx
import psutil
import pytest

from asnas_api.health import READY_CACHE_SECONDS
from asnas_api.pytest_plugin import RUN_TIMEOUTS
from tests.reliability.support import assert_edge_problem
from tests.servers import served

pytestmark = [pytest.mark.slow, pytest.mark.alone]

DEADLINE = 2.0  # ASNAS_REQUEST_DEADLINE of the server under test


def postgres_processes(pgdata: Path) -> list[psutil.Process]:
    """The postmaster running on pgdata and every process it started."""
    for process in psutil.process_iter(["cmdline"]):
        if str(pgdata) in (process.info["cmdline"] or []) and process.name() == "postgres":
            return [process, *process.children(recursive=True)]
    raise AssertionError(f"no Postgres runs on {pgdata}")


def timed(call):
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


@pytest.fixture
def embedded_server(tmp_path):
    # The production timeouts, which this test is about, not the run's longer ones.
    env = {name: value for name, value in os.environ.items() if name not in RUN_TIMEOUTS}
    env |= {"ASNAS_DATA_DIR": str(tmp_path), "ASNAS_REQUEST_DEADLINE": str(DEADLINE)}
    env.pop("DATABASE_URL")
    with served(tmp_path / "serve.log", env) as (url, server):
        yield url, tmp_path / "postgres"


def test_a_hung_database_gets_503_in_time_and_the_service_recovers(embedded_server):
    url, pgdata = embedded_server
    client = httpx.Client(base_url=url, timeout=30)
    token = client.post("/api/v1/players", json={"name": "Roya"}).json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    match = client.post("/api/v1/matches", json={}).json()
    match_url = f"/api/v1/matches/{match['id']}"

    stopped = postgres_processes(pgdata)
    for process in stopped:
        process.send_signal(signal.SIGSTOP)
    try:
        # Every worker busy on the hung database at once...
        waiting = [
            threading.Thread(target=httpx.get, args=(f"{url}{match_url}",), daemon=True)
            for _ in range(4)
        ]
        for thread in waiting:
            thread.start()
        time.sleep(0.2)
        # ...and the probe of life still answers at once.
        health, seconds = timed(lambda: client.get("/healthz"))
        assert (health.status_code, seconds < 0.5) == (200, True), seconds

        time.sleep(READY_CACHE_SECONDS)  # each worker's last /readyz answer runs out
        ready, seconds = timed(lambda: client.get("/readyz"))
        assert ready.status_code == 503
        assert seconds < 1.5, seconds

        response, seconds = timed(lambda: client.get(match_url))
        assert_edge_problem(response, 503, "database_unavailable")
        assert int(response.headers["Retry-After"]) > 0
        # The four requests ahead of it had their deadline too; some slack for a slow machine.
        assert seconds < 4 * DEADLINE, seconds
    finally:
        for process in stopped:
            process.send_signal(signal.SIGCONT)

    # No restart: the next requests find the database again.
    deadline = time.monotonic() + 10
    while client.get(match_url).status_code != 200:
        assert time.monotonic() < deadline, "the service did not recover within 10 s"
        time.sleep(0.2)
    time.sleep(READY_CACHE_SECONDS)
    assert client.get("/readyz").status_code == 200
    assert client.post(f"{match_url}/restart", json={}).status_code == 200
