"""The embedded database's life cycle, seen from real processes as a person would run them."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import psycopg
import pytest

from tests.servers import empty_database, free_port, migrated_database, served, wait_until_ready

BASE_DIR = Path(__file__).resolve().parent.parent

# Alone (tests marked so below): the tests that kill a Postgres, or a serve using the run's
# cluster, against bounds of seconds. The others use a cluster of their own, or time nothing.
pytestmark = pytest.mark.slow


def embedded_env(data_dir: Path) -> dict[str, str]:
    """The environment of a fresh checkout: no DATABASE_URL, data in data_dir."""
    env = {**os.environ, "ASNAS_DATA_DIR": str(data_dir)}
    env.pop("DATABASE_URL", None)
    return env


def postmasters(pgdata: Path) -> list[int]:
    """Pids of the Postgres servers running on pgdata. A backend the postmaster has just
    forked (to serve a connection, or to refuse one while it shuts down) bears its command
    line until it sets its own title: it is told apart by its parent, that postmaster."""
    parents = {}
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            # /proc/PID/stat: "pid (comm) state ppid ...", comm may hold spaces.
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if argv[0].endswith(b"/postgres") and str(pgdata).encode() in argv:
            parents[int(proc.name)] = ppid
    return [pid for pid, ppid in parents.items() if ppid not in parents]


def test_serve_runs_on_the_embedded_database_and_stops_it_on_sigterm(tmp_path):
    data_dir = tmp_path / "data"
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--workers", "1"],
            cwd=BASE_DIR,
            env=embedded_env(data_dir),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_ready(f"http://127.0.0.1:{port}/readyz", server, log)
        assert postmasters(data_dir / "postgres"), "the embedded server runs in ASNAS_DATA_DIR"
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0, log.read_text()
    finally:
        if server.poll() is None:
            server.kill()
    assert not postmasters(data_dir / "postgres"), log.read_text()

    # The data survives: the next command finds the migrations applied, and stops the server.
    check = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--check"],
        cwd=BASE_DIR,
        env=embedded_env(data_dir),
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert not postmasters(data_dir / "postgres")


def test_a_killed_process_does_not_keep_the_server_alive(tmp_path):
    pgdata = tmp_path / "postgres"

    def run(code: str) -> subprocess.CompletedProcess:
        script = f"from pathlib import Path\nfrom asnas_api import embedded_db\n{code}"
        return subprocess.run([sys.executable, "-c", script], cwd=BASE_DIR, capture_output=True)

    # SIGKILL skips the exit handler that would release the handle and stop the server.
    killed = run(f"import os\nembedded_db.start(Path({str(pgdata)!r}))\nos.kill(os.getpid(), 9)")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert postmasters(pgdata)

    attached = run(f"embedded_db.start(Path({str(pgdata)!r}))")
    assert attached.returncode == 0, attached.stderr
    assert not postmasters(pgdata)


@pytest.mark.parametrize(
    "env, complaint",
    [
        ({"DEBUG": "1"}, "DEBUG is on"),
        ({"SECRET_KEY": "django-insecure-" + "k" * 60}, "SECRET_KEY is weak"),
        ({"SECRET_KEY": "short"}, "SECRET_KEY is weak"),
    ],
)
def test_serve_refuses_unsafe_settings_without_dev(env, complaint):
    result = subprocess.run(
        [sys.executable, "manage.py", "serve", "--port", str(free_port())],
        cwd=BASE_DIR,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert complaint in result.stderr


def serve_processes(serve_pid: int) -> list[psutil.Process]:
    return psutil.Process(serve_pid).children(recursive=True)


@pytest.mark.alone
def test_serve_owns_its_embedded_database(tmp_path):
    """Restarts a killed Postgres with the committed writes, shares it with a second serve
    on the same data, and leaves nothing running when it is killed itself."""
    data_dir = tmp_path / "data"
    pgdata = data_dir / "postgres"
    with served(tmp_path / "serve.log", embedded_env(data_dir)) as (url, server):
        client = httpx.Client(base_url=url, timeout=10)
        token = client.post("/api/v1/players", json={"name": "Roya"}).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        match_url = f"/api/v1/matches/{client.post('/api/v1/matches', json={}).json()['id']}"

        # A second serve on the same data attaches to it, and leaves it running when it stops.
        with served(tmp_path / "second.log", embedded_env(data_dir), workers=1) as (second, _):
            headers = {"Authorization": client.headers["Authorization"]}
            assert httpx.get(f"{second}{match_url}", headers=headers).status_code == 200
        assert client.get(match_url).status_code == 200, "the first serve's database is intact"

        [postmaster] = postmasters(pgdata)
        os.kill(postmaster, signal.SIGKILL)
        killed = time.monotonic()
        while (status := client.get(match_url).status_code) == 200:
            assert time.monotonic() - killed < 5
        assert status == 503
        while client.get(match_url).status_code != 200:
            assert time.monotonic() - killed < 10, "serve did not bring Postgres back"
            time.sleep(0.1)
        recovered = time.monotonic() - killed
        # Requests may succeed a moment before serve has logged the restart.
        while "restarted it" not in (tmp_path / "serve.log").read_text():
            assert time.monotonic() - killed < 10, (tmp_path / "serve.log").read_text()
            time.sleep(0.1)
        assert recovered < 10

        children = serve_processes(server.pid)
        server.kill()
        server.wait()
        _, alive = psutil.wait_procs(children, timeout=15)
        assert not alive, f"left running after kill -9 of serve: {alive}"
        deadline = time.monotonic() + 15
        while postmasters(pgdata):
            assert time.monotonic() < deadline, "Postgres outlived a killed serve"
            time.sleep(0.2)


def test_a_damaged_handle_file_is_repaired_with_a_warning(tmp_path):
    pgdata = tmp_path / "postgres"

    def migrate_check() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", "migrate", "--check"],
            cwd=BASE_DIR,
            env=embedded_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
        )

    migrate_check()  # makes the cluster
    # What a process killed mid-write used to leave behind, and worse.
    for damage in ["", "[12", "{}"]:
        (pgdata / ".handle_pids.json").write_text(damage)
        result = migrate_check()
        assert "Traceback" not in result.stderr, result.stderr
        assert "damaged" in result.stderr
        assert json.loads((pgdata / ".handle_pids.json").read_text()) == []
        assert not postmasters(pgdata), "the last user out still stops the server"


def test_play_with_a_url_never_opens_the_local_database(tmp_path):
    subprocess.run(
        [sys.executable, "manage.py", "play", "--url", f"http://127.0.0.1:{free_port()}"],
        cwd=BASE_DIR,
        env=embedded_env(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    assert not (tmp_path / "postgres").exists()


@pytest.mark.alone
def test_the_next_serve_removes_the_metrics_directory_of_a_killed_one(tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    with migrated_database("metrics_dir") as database_url:
        env = {**os.environ, "DATABASE_URL": database_url, "TMPDIR": str(temp)}
        with served(tmp_path / "first.log", env) as (_, first):
            (killed,) = temp.glob("asnas-metrics-*")
            children = serve_processes(first.pid)
            first.kill()  # skips every exit handler
            first.wait()
            psutil.wait_procs(children, timeout=10)
        assert killed.exists()

        with served(tmp_path / "second.log", env) as (_, second):
            assert not killed.exists()
            (live,) = temp.glob("asnas-metrics-*")
            # Another serve starting now leaves the living one's directory alone.
            sweep = "import manage; manage.remove_dead_metrics_dirs()"
            subprocess.run([sys.executable, "-c", sweep], cwd=BASE_DIR, env=env, check=True)
            assert live.exists()
        assert second.returncode == 0, (tmp_path / "second.log").read_text()
        assert not list(temp.glob("asnas-metrics-*"))


def sessions(watcher: psycopg.Connection, holder: psycopg.Connection) -> list[tuple]:
    """The client sessions on the watcher's database but its own and the holder's: what each
    waits on first. Postgres's own processes are left out: an autovacuum worker visits every
    database now and then and shows as (None, '', None, ''), as a session did here once in
    four fresh-clone runs; a client's session, even one still starting, is counted."""
    return watcher.execute(
        "SELECT wait_event_type, application_name, state, query FROM pg_stat_activity"
        " WHERE datname = current_database() AND backend_type = 'client backend'"
        " AND pid NOT IN (pg_backend_pid(), %s)",
        [holder.info.backend_pid],
    ).fetchall()


def test_nothing_touches_the_database_before_the_migrations_end(tmp_path):
    """On a fresh database the workers' turn clock and purge ran while serve still migrated
    (UndefinedTable tracebacks, 2 fresh starts of 4). Here the migrations wait behind a lock
    on their own table while the worker is up, its clock polling every 50 ms: no session of
    the worker may open meanwhile; once they end the server is ready, and it printed no
    traceback."""
    log = tmp_path / "serve.log"
    with (
        empty_database("fresh") as url,
        psycopg.connect(url) as holder,
        psycopg.connect(url, autocommit=True) as watcher,
    ):
        holder.execute(
            "CREATE TABLE django_migrations (id bigserial PRIMARY KEY, app varchar(255) NOT"
            " NULL, name varchar(255) NOT NULL, applied timestamptz NOT NULL)"
        )
        holder.commit()
        holder.execute("LOCK TABLE django_migrations IN ACCESS EXCLUSIVE MODE")
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "ASNAS_CLOCK_POLL_SECONDS": "0.05",
            "ASNAS_DB_LOCK_TIMEOUT_MS": "0",  # no limit: the migrations wait for the test
            "ASNAS_DB_STATEMENT_TIMEOUT_MS": "0",
        }
        with served(log, env, workers=1, ready=False) as (base, server):
            wait_until_ready(f"{base}/healthz", server, log)  # the worker and its clock run
            deadline = time.monotonic() + 60
            # The preparation reads which migrations were applied, and waits for the lock.
            while "Lock" not in [session[0] for session in sessions(watcher, holder)]:
                assert server.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            for _ in range(40):  # the clock's polls, for 2 s
                others = [session for session in sessions(watcher, holder) if session[0] != "Lock"]
                assert others == [], log.read_text()
                time.sleep(0.05)
            assert httpx.get(f"{base}/readyz").status_code == 503
            holder.commit()  # the lock goes: the migrations run, then the server serves
            wait_until_ready(f"{base}/readyz", server, log, timeout=120)
    assert "Traceback" not in log.read_text(), log.read_text()
