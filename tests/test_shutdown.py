"""How `serve` stops, whatever receives SIGTERM or SIGINT: every process of serve (granian,
its workers with the turn clock in them, the guardian, the embedded Postgres) is gone within
3 s, open streams and long-polls end with a clean end of body, and Postgres is not restarted.

The matrix, in representative cases rather than the whole product (each case starts a serve
with two workers: a few seconds): the signal goes to serve alone, to its process group (what
Ctrl-C in a terminal does; serve's children have groups of their own, so this reaches serve
alone too, or with the shell's own job), or to every process at once (systemd's default
KillMode=control-group), serve first or Postgres's backends first; SIGTERM and SIGINT each
with both targets that matter; while the workers warm up (0.3 s after the first is forked)
and once /readyz answers, with two match streams, a watch stream and a long-poll open. Each
case prints the time until every process was gone, and whether the streams ended cleanly."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import psutil
import pytest

from tests.servers import free_port
from tests.test_serve import embedded_env, postmasters

BASE_DIR = Path(__file__).resolve().parent.parent
BOUND = 3.0
OBSERVE = 15.0
"""How long a case watches before it gives up: long enough to tell how long a stop takes."""

pytestmark = [pytest.mark.slow, pytest.mark.alone]

CASES = [
    # target, signal, when
    ("serve", signal.SIGTERM, "warm-up"),
    ("serve", signal.SIGINT, "serving"),
    ("group", signal.SIGTERM, "serving"),
    ("group", signal.SIGINT, "warm-up"),
    ("every process, serve first", signal.SIGTERM, "serving"),
    ("every process, serve first", signal.SIGINT, "warm-up"),
    ("every process, Postgres first", signal.SIGTERM, "warm-up"),
    ("every process, Postgres first", signal.SIGINT, "serving"),
]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """One embedded cluster for every case, made and migrated once."""
    data = tmp_path_factory.mktemp("shutdown") / "data"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=BASE_DIR,
        env=embedded_env(data),
        check=True,
        timeout=120,
    )
    return data


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def descendants(pid: int) -> list[int]:
    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def postgres_processes(pgdata: Path) -> list[int]:
    found = []
    for postmaster in postmasters(pgdata):
        found += [postmaster, *descendants(postmaster)]
    return found


def stop_postgres(pgdata: Path) -> None:
    """Stopped, not killed: the next case's Postgres starts without recovery."""
    for postmaster in postmasters(pgdata):
        os.kill(postmaster, signal.SIGINT)
    deadline = time.monotonic() + 30
    while postmasters(pgdata):
        assert time.monotonic() < deadline
        time.sleep(0.05)


def granian_workers(serve: int) -> list[int]:
    found = []
    for pid in descendants(serve):
        try:
            process = psutil.Process(pid)
            if "granian" in process.cmdline() and process.ppid() != serve:
                found.append(pid)
        except psutil.NoSuchProcess:
            continue
    return found


def process_name(pid: int, serve: int, pgdata: Path) -> str:
    """What the process is to serve: its kind, not its pid."""
    if pid == serve:
        return "serve"
    try:
        process = psutil.Process(pid)
        command = " ".join(process.cmdline())
    except psutil.NoSuchProcess:
        return "?"
    if "asnas_api.embedded_db" in command:
        return "guardian"
    if "run_clock" in command:
        return "clock"
    if "granian" in command:
        return "granian master" if process.ppid() == serve else "granian worker"
    return "postgres"


def last_ended(ended: dict[int, float], names: dict[int, str]) -> dict[str, float]:
    """When the last process of each kind was gone."""
    last: dict[str, float] = {}
    for pid, at in ended.items():
        last[names.get(pid, "?")] = max(at, last.get(names.get(pid, "?"), 0))
    return last


class Follower(threading.Thread):
    """Reads one streamed answer to its end: `ended` says how ("clean", or the error)."""

    def __init__(self, client: httpx.Client, path: str):
        super().__init__(daemon=True)
        self.client, self.path = client, path
        self.ended: str | None = None
        self.started_answering = threading.Event()

    def run(self) -> None:
        try:
            with self.client.stream("GET", self.path, timeout=60) as response:
                self.started_answering.set()
                for _ in response.iter_raw():
                    pass
            # A whole answer: a long-poll still on its way in when the database was the first
            # to stop gets a whole 503, which is as clean an end.
            self.ended = "clean" if response.status_code == 200 else f"clean {response.status_code}"
        except Exception as error:  # what the case reports
            self.ended = f"{type(error).__name__}: {error}"
        finally:
            self.started_answering.set()


def open_streams(url: str) -> list[Follower]:
    client = httpx.Client(base_url=url, timeout=30)
    token = client.post("/api/v1/players", json={"name": "Roya"}).json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    matches = [client.post("/api/v1/matches", json={}).json() for _ in range(2)]
    followers = [Follower(client, f"/api/v1/matches/{match['id']}/stream") for match in matches]
    watched = client.post("/api/v1/matches", json={"spectators": "live"}).json()["watch_code"]
    ticket = client.post("/api/v1/watch/tickets", json={"watch_code": watched}).json()["ticket"]
    followers.append(Follower(client, f"/api/v1/watch/stream?ticket={ticket}"))
    after = matches[0]["version"]
    followers.append(
        Follower(client, f"/api/v1/matches/{matches[0]['id']}/events?after={after}&wait=30")
    )
    for follower in followers:
        follower.start()
    for stream in followers[:3]:
        assert stream.started_answering.wait(30)
    # The long-poll's headers come with its answer: it is waiting once this has passed.
    time.sleep(0.5)
    return followers


def start_serve(data: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    with log.open("w") as output:
        serve = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--dev", "--port", str(port)],
            cwd=BASE_DIR,
            env={**embedded_env(data), "ASNAS_ACCESS_LOG": "0"},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a group of its own, as a shell's job
        )
    return serve, f"http://127.0.0.1:{port}"


def wait_until(condition, timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.02)


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def send(target: str, signum: int, serve: int, pgdata: Path) -> None:
    if target == "serve":
        os.kill(serve, signum)
    elif target == "group":
        os.killpg(serve, signum)
    else:
        ours = [serve, *descendants(serve)]
        theirs = postgres_processes(pgdata)
        order = ours + theirs if target.endswith("serve first") else theirs[::-1] + ours[::-1]
        for pid in order:
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                continue


@pytest.mark.parametrize(
    "target, signum, when", CASES, ids=[f"{t}-{s.name}-{w}" for t, s, w in CASES]
)
def test_every_process_of_serve_is_gone_within_3_s(data_dir, tmp_path, target, signum, when):
    pgdata = data_dir / "postgres"
    log = tmp_path / "serve.log"
    serve, url = start_serve(data_dir, log)
    followers = []
    seen = set()
    try:
        if when == "warm-up":
            wait_until(lambda: granian_workers(serve.pid), 120, log)
            time.sleep(0.3)
        else:
            wait_until(lambda: ready(url), 120, log)
            followers = open_streams(url)
        seen = {serve.pid, *descendants(serve.pid), *postgres_processes(pgdata)}
        postmasters_before = set(postmasters(pgdata))
        names = {pid: process_name(pid, serve.pid, pgdata) for pid in seen}
        sent = time.monotonic()
        send(target, signum, serve.pid, pgdata)
        gone_after = None
        restarted = set()
        ended = {}  # pid: seconds after the signal
        while time.monotonic() - sent < OBSERVE:
            # Whatever serve starts after the signal counts too (a respawned worker, a new
            # Postgres).
            seen |= {*descendants(serve.pid), *postgres_processes(pgdata)}
            restarted |= set(postmasters(pgdata)) - postmasters_before
            for pid in seen - set(names):
                names[pid] = process_name(pid, serve.pid, pgdata)
            for pid in seen - set(ended):
                if not alive(pid):
                    ended[pid] = time.monotonic() - sent
            if len(ended) == len(seen):
                gone_after = max(ended.values())
                break
            time.sleep(0.02)
        for follower in followers:
            follower.join(max(OBSERVE - (time.monotonic() - sent), 0.1))
        left = [pid for pid in seen if alive(pid)]
        streams = [follower.ended for follower in followers]
        print(
            f"\n{target}, {signal.Signals(signum).name}, {when}: every process gone after "
            + (f"{gone_after:.2f} s" if gone_after is not None else f"more than {OBSERVE} s")
            + (f"; streams ended: {streams}" if followers else "")
            + "; last gone: "
            + ", ".join(
                f"{name} {at:.2f} s"
                for name, at in sorted(last_ended(ended, names).items(), key=lambda i: i[1])
            )
        )
        assert not left, f"still running {OBSERVE} s after the signal: {left}\n{log.read_text()}"
        assert gone_after < BOUND, log.read_text()
        assert all((how or "").startswith("clean") for how in streams), streams
        assert not restarted, f"Postgres was restarted:\n{log.read_text()}"
        assert "restarted it" not in log.read_text()
    finally:
        for pid in {serve.pid, *seen, *descendants(serve.pid)} - set(postmasters(pgdata)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
        serve.wait()
        stop_postgres(pgdata)
