"""Streams on real servers: across two servers on one database, with more open streams than
connections in the pool, and after the LISTEN connection is cut."""

import os
import time

import httpx
import psutil
import psycopg
import pytest
from httpx_sse import connect_sse
from prometheus_client.parser import text_string_to_metric_families

from bench.streams import HeldStreams, stream_latency
from tests.servers import migrated_database, served

pytestmark = pytest.mark.slow

POOL_SIZE = 4


@pytest.fixture(scope="module")
def database_url():
    with migrated_database("streams") as url:
        yield url


@pytest.fixture(scope="module")
def server_env(database_url) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "ASNAS_ALLOW_CLIENT_SEED": "1",
        "ASNAS_DB_POOL_MAX": str(POOL_SIZE),
        "ASNAS_ACCESS_LOG": "0",
        # No comment line within a test's read timeout: a missing event times the read out.
        "ASNAS_STREAM_HEARTBEAT_SECONDS": "60",
    }


@pytest.fixture(scope="module")
def servers(server_env, tmp_path_factory):
    """Two `serve`s, one worker each, on one database."""
    logs = tmp_path_factory.mktemp("streams")
    with (
        served(logs / "first.log", server_env, workers=1) as (first, _),
        served(logs / "second.log", server_env, workers=1) as (second, _),
    ):
        yield first, second


def test_a_stream_on_one_server_sees_every_write_through_another_well_within_a_second(servers):
    first, second = servers
    result = stream_latency(first, second, seed=7)
    print(
        f"\nstream latency across two servers, {result['writes']} writes: "
        f"p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
        f"max {result['max_ms']:.1f} ms"
    )
    assert result["streamed"] == result["listed"]  # every event, in order, none twice
    assert result["listed"][-1]["type"] == "match_finished"
    assert result["p99_ms"] < 1000


def test_more_open_streams_than_pooled_connections_leave_requests_served(servers, database_url):
    first, _ = servers
    with HeldStreams(first, POOL_SIZE * 5) as held:
        assert held.opened == POOL_SIZE * 5
        started = time.monotonic()
        assert httpx.get(f"{first}/api/v1/matches", timeout=10).status_code == 401
        token = httpx.post(f"{first}/api/v1/players", json={"name": "Sara"}).json()["token"]
        answer = httpx.get(
            f"{first}/api/v1/matches", headers={"Authorization": f"Bearer {token}"}, timeout=10
        )
        assert answer.status_code == 200
        # No wait on the pool: a request that waited for a connection would wait out the
        # pool's timeout (30 s in a test run, asnas_api/pytest_plugin.py) past the client's
        # 10 s; the bound leaves a busy machine room for three quick requests.
        assert time.monotonic() - started < 8
        with psycopg.connect(database_url) as connection:
            (count,) = connection.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()"
            ).fetchone()
        # Each server's pool, LISTEN connection, /readyz probe and turn clock, and one more
        # for a moment (a purge or a clock's reconnect): far fewer than the streams held.
        assert count <= 2 * (POOL_SIZE + 4) < held.opened


def test_the_listener_reconnects_after_its_connection_is_cut(servers, database_url):
    first, _ = servers
    token = httpx.post(f"{first}/api/v1/players", json={"name": "Nima"}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    view = httpx.post(f"{first}/api/v1/matches", json={"seed": 3}, headers=auth).json()
    url = f"{first}/api/v1/matches/{view['id']}/stream?after={view['version']}"
    with (
        httpx.Client(timeout=10) as client,
        connect_sse(client, "GET", url, headers=dict(auth)) as source,  # it adds to the dict
    ):
        with psycopg.connect(database_url, autocommit=True) as connection:
            cut = connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query LIKE 'LISTEN %'"
            ).fetchall()
        assert cut  # the servers' LISTEN connections
        time.sleep(0.5)
        look = httpx.post(
            f"{first}/api/v1/matches/{view['id']}/actions", json={"action": "look"}, headers=auth
        )
        assert look.status_code == 200, look.text
        message = next(source.iter_sse())
        assert (int(message.id), message.event) == (view["version"] + 1, "action")


def open_streams(url: str) -> float:
    for family in text_string_to_metric_families(httpx.get(f"{url}/metrics").text):
        if family.name == "asnas_open_streams":
            return sum(sample.value for sample in family.samples)
    raise AssertionError("no asnas_open_streams in /metrics")


def test_a_stream_client_gone_is_forgotten_by_the_server(servers):
    first, _ = servers
    with HeldStreams(first, 10):
        assert open_streams(first) == 10
    deadline = time.monotonic() + 10
    while open_streams(first) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert open_streams(first) == 0


def threads(server) -> int:
    """The threads of a `serve` and of every process under it."""
    processes = [psutil.Process(server.pid), *psutil.Process(server.pid).children(recursive=True)]
    return sum(process.num_threads() for process in processes)


def test_open_streams_hold_no_thread(server_env, tmp_path):
    """A stream gives its request's thread back once its body starts: a worker's threads
    are as many as requests were at once in their views, not as many as streams are open.
    Opened one after another, 40 streams leave the server's threads where one left them."""
    with served(tmp_path / "serve.log", server_env, workers=1) as (url, server):
        with HeldStreams(url, 1, opening=1):
            time.sleep(0.5)
            one = threads(server)
        with HeldStreams(url, 40, opening=1) as held:
            time.sleep(0.5)
            assert held.opened == 40
            assert threads(server) <= one + 2
            # And a plain request still runs, in a thread of the same few.
            assert httpx.get(f"{url}/api/v1/matches", timeout=10).status_code == 401
        deadline = time.monotonic() + 10
        while open_streams(url) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert open_streams(url) == 0  # each closed, on a thread borrowed for that
        assert httpx.get(f"{url}/api/v1/matches", timeout=10).status_code == 401
