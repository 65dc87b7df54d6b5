"""The embedded database's life cycle, seen from real processes as a person would run them."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import free_port, wait_until_ready

BASE_DIR = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def embedded_env(data_dir: Path) -> dict[str, str]:
    """The environment of a fresh checkout: no DATABASE_URL, data in data_dir."""
    env = {**os.environ, "ASNAS_DATA_DIR": str(data_dir)}
    env.pop("DATABASE_URL", None)
    return env


def postmasters(pgdata: Path) -> list[int]:
    """Pids of the Postgres servers running on pgdata."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if argv[0].endswith(b"/postgres") and str(pgdata).encode() in argv:
            pids.append(int(proc.name))
    return pids


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
