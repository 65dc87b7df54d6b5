"""The real server is SIGKILLed under load and nothing is lost or half-applied.

gunicorn serves a database of its own on the test cluster. Client threads play matches with
an Idempotency-Key and the expected version on every POST, retrying on connection errors
with the same key and body; now and then a client stops waiting for an answer and retries
at once. Meanwhile the workers are killed with SIGKILL several times, and once the master
too (then a new gunicorn starts). Afterwards every match is finished,
`check_matches` finds no mismatch, every match's events are 1..version, and every key that
was answered has exactly one stored outcome.
"""

import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.servers import free_port, migrated_database

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 3
# Matches in all: one a client in the default run, two under -m simulation (as the default
# run had until it was cut to stay near ten minutes). A match brings about 32 answers.
MATCHES = {"default": 3, "simulation": 6}
# When the clients have had this many answers, kill every worker, or ("master") the whole
# server, master first and then its orphaned workers, and start a new one: every `every`
# answers, so that all five kills fall while the clients still play.
KILLS = ["workers", "workers", "master", "workers", "workers"]
KILL_EVERY = {3: 15, 6: 25}
# One POST in this many loses its answer: the client gives up waiting and retries.
DROP_EVERY = 8
# Only a safety net against a hang; no assertion depends on timing.
GIVE_UP_SECONDS = 240

# Not alone: it kills only its own gunicorn, a client of the run's cluster, and times nothing.
pytestmark = pytest.mark.slow


@pytest.fixture
def crash_database():
    with migrated_database("crash") as url:
        yield url


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name may hold spaces; the fields after its closing ")" do not.
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class Server:
    """gunicorn on `database_url`, started and killed like a crashing machine would be."""

    def __init__(self, database_url: str, log: Path):
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": database_url, "ASNAS_ALLOW_CLIENT_SEED": "1"}
        self.log = log
        self.master: subprocess.Popen | None = None
        self.killed = Counter()

    def start(self) -> None:
        with self.log.open("a") as output:
            self.master = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "asnas_api.wsgi"]
                + ["--workers", "2", "--bind", f"127.0.0.1:{self.port}", "--no-control-socket"]
                # Workers forked from a loaded app come back at once after a kill, instead of
                # importing Django anew each time; the requests they serve are the same.
                + ["--preload"],
                cwd=ROOT,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
                process_group=0,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.master.poll() is None, f"gunicorn exited:\n{self.log.read_text()}"
            try:
                if httpx.get(f"{self.base_url}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        pytest.fail(f"gunicorn did not get ready:\n{self.log.read_text()}")

    def kill_workers(self) -> None:
        workers = children(self.master.pid)
        assert workers, "gunicorn has no workers to kill"
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        self.killed["worker"] += len(workers)

    def kill_master(self) -> None:
        workers = children(self.master.pid)
        self.master.send_signal(signal.SIGKILL)
        self.master.wait()
        self.killed["master"] += 1
        # The orphans would serve on from the inherited socket until they noticed; a crashed
        # machine takes them down too.
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            self.killed["worker"] += 1
        while any(alive(pid) for pid in workers):
            time.sleep(0.05)

    def stop(self) -> None:
        if self.master and self.master.poll() is None:
            self.master.send_signal(signal.SIGTERM)
            try:
                self.master.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.master.pid, signal.SIGKILL)
                self.master.wait()


class Player:
    """One client thread's player: plays its matches with a key on every POST and retries
    on connection errors with the same key and body, as a mobile client would."""

    def __init__(self, base_url: str, token: str, seed: int, stats: Counter, lock, stopping):
        self.http = httpx.Client(
            base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=60
        )
        self.rng = random.Random(seed)
        self.stats, self.lock, self.stopping = stats, lock, stopping
        self.answered_keys: set[str] = set()
        self.views: dict[str, list[dict]] = {}

    def count(self, name: str) -> None:
        with self.lock:
            self.stats[name] += 1

    def post(self, path: str, body: dict) -> dict:
        key = uuid.uuid4().hex
        # One request in DROP_EVERY loses its answer on the way back (the client stops
        # waiting at once), while the server goes on with it: the retry must not apply twice.
        drop = self.rng.randrange(DROP_EVERY) == 0
        while not self.stopping.is_set():
            self.count("requests")
            try:
                response = self.http.post(
                    path,
                    json=body,
                    headers={"Idempotency-Key": key},
                    timeout=httpx.Timeout(60, read=0.001) if drop else httpx.USE_CLIENT_DEFAULT,
                )
            except httpx.ConnectError:
                self.count("refused")  # no server listening: it is being restarted
                time.sleep(0.1)
                continue
            except httpx.TransportError:
                self.count("dropped answers" if drop else "cut off")
                drop = False
                continue
            if response.status_code == 409 and response.json()["code"] == "idempotency_in_progress":
                # The first attempt still runs (or its killed worker's transaction has not
                # rolled back yet): retry shortly, as Retry-After says.
                self.count("in progress")
                time.sleep(min(float(response.headers["Retry-After"]), 0.25))
                continue
            # Every request here is legal at the version it names, so a refusal means the
            # first attempt was applied but its outcome was not stored (or the reverse).
            assert response.status_code in (200, 201), (path, body, response.text)
            if response.headers.get("Idempotent-Replayed") == "true":
                self.count("replayed")
            self.count("answered")
            self.answered_keys.add(key)
            view = response.json()
            self.views.setdefault(view["id"], []).append(view)
            return view
        raise RuntimeError("the test stopped")

    def step(self, view: dict, restart: bool) -> dict:
        match = f"/api/v1/matches/{view['id']}"
        version = {"expected_version": view["version"]}
        if restart:
            return self.post(f"{match}/restart", version)
        if view["status"] == "deal_over":
            return self.post(f"{match}/next-deal", version)
        action = self.rng.choice(view["legal_actions"])
        return self.post(f"{match}/actions", {"action": action, **version})

    def play(self, seeds: list[int]) -> None:
        """Play the matches turn about until all are finished; restart the first one once."""
        views = [
            self.post("/api/v1/matches", {"seed": seed, "ai_level": ("easy", "normal")[seed % 2]})
            for seed in seeds
        ]
        restarted = False
        while any(view["status"] != "finished" for view in views):
            for index, view in enumerate(views):
                if view["status"] != "finished":
                    restart = index == 0 and not restarted and view["deal_number"] == 2
                    restarted = restarted or restart
                    views[index] = self.step(view, restart)


def db_rows(database_url: str, query: str) -> list[tuple]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(query).fetchall()


@pytest.mark.parametrize(
    "matches",
    [MATCHES["default"], pytest.param(MATCHES["simulation"], marks=pytest.mark.simulation)],
)
def test_sigkilled_workers_and_master_lose_and_half_apply_nothing(
    crash_database, tmp_path, record_property, matches
):
    server = Server(crash_database, tmp_path / "gunicorn.log")
    stats, lock, stopping = Counter(), threading.Lock(), threading.Event()
    errors: list[BaseException] = []
    server.start()
    try:
        tokens = [
            httpx.post(f"{server.base_url}/api/v1/players", json={"name": f"Crash {n}"}).json()
            for n in range(CLIENTS)
        ]
        players = [
            Player(server.base_url, body["token"], n, stats, lock, stopping)
            for n, body in enumerate(tokens)
        ]

        def run(player: Player, seeds: list[int]) -> None:
            try:
                player.play(seeds)
            except BaseException as error:  # raised by the main thread
                errors.append(error)
                stopping.set()

        threads = [
            threading.Thread(
                target=run, args=(player, list(range(n, matches, CLIENTS))), daemon=True
            )
            for n, player in enumerate(players)
        ]
        for thread in threads:
            thread.start()
        give_up = time.monotonic() + GIVE_UP_SECONDS
        kills_made = 0
        kills = [(kind, KILL_EVERY[matches] * (1 + n)) for n, kind in enumerate(KILLS)]
        for kind, after in kills:
            while stats["answered"] < after and not errors and any(t.is_alive() for t in threads):
                assert time.monotonic() < give_up, f"stuck: {stats}\n{server.log.read_text()}"
                time.sleep(0.02)
            if errors or not any(t.is_alive() for t in threads):
                break
            if kind == "workers":
                server.kill_workers()
            else:
                server.kill_master()
                server.start()
            kills_made += 1
        for thread in threads:
            thread.join(max(give_up - time.monotonic(), 1))
            assert not thread.is_alive(), f"a client is stuck: {stats}"
    finally:
        stopping.set()
        server.stop()
    if errors:
        raise errors[0]
    # Every planned kill happened while the clients were still playing.
    assert kills_made == len(KILLS), stats
    assert server.killed["master"] == 1, stats
    assert server.killed["worker"] >= len(KILLS), stats

    # Every match finished, and what the clients last saw is what the database holds.
    last_seen = {mid: views[-1] for p in players for mid, views in p.views.items()}
    assert len(last_seen) == matches
    assert {view["status"] for view in last_seen.values()} == {"finished"}
    stored = db_rows(
        crash_database,
        "SELECT m.id::text, m.version, m.status, count(e.seq), "
        "coalesce(array_agg(e.seq ORDER BY e.seq) FILTER (WHERE e.seq IS NOT NULL), '{}') "
        "FROM games_match m LEFT JOIN LATERAL ("
        # A batch ending at seq b with n lines holds events b - n + 1 to b.
        "  SELECT generate_series(b.seq - array_length(string_to_array(b.events, E'\\n'), 1) + 1,"
        "    b.seq) AS seq FROM games_eventbatch b WHERE b.match_id = m.id"
        ") e ON true GROUP BY m.id",
    )
    assert len(stored) == matches
    for match_id, version, status, events, seqs in stored:
        assert seqs == list(range(1, version + 1)), match_id
        assert events == version == last_seen[match_id]["version"]
        assert status == "finished"

    # Exactly one stored outcome per answered key: none lost, none without its request.
    keys = db_rows(crash_database, "SELECT key, status_code FROM games_idempotencyrecord")
    answered = set().union(*(p.answered_keys for p in players))
    assert sorted(key for key, _ in keys) == sorted(answered)
    assert {code for _, code in keys} <= {200, 201}

    check = subprocess.run(
        [sys.executable, "manage.py", "check_matches"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": crash_database},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.strip().splitlines()[-1] == f"{matches} matches checked, 0 mismatches"

    # Kills cut requests off, and answers were replayed, so the retries were exercised.
    assert stats["cut off"] > 0
    assert stats["replayed"] > 0
    figures = {
        "matches checked": matches,
        "requests sent": stats["requests"] - stats["refused"],
        "requests answered": stats["answered"],
        "replayed": stats["replayed"],
        "cut off by a kill": stats["cut off"],
        "refused while down": stats["refused"],
        "dropped answers": stats["dropped answers"],
        "in progress (409)": stats["in progress"],
        "workers killed": server.killed["worker"],
        "masters killed": server.killed["master"],
        "mismatches": 0,
    }
    for name, value in figures.items():
        record_property(name, value)
    print("\ncrash test:", ", ".join(f"{name} {value}" for name, value in figures.items()))
