"""`manage.py serve`: a supervisor that imports no Django, so that the process that lives as
long as the service holds only what supervising needs (docs/deployment.md).

It starts the embedded Postgres (or attaches to it) and its guardian, then at once both the
short-lived child that prepares the database (asnas_api.preparation: the settings'
safety, migrations) and granian, whose workers answer 503 with Retry-After until that child
succeeded (ASNAS_PREPARED_FILE): the workers' imports and the migrations' check overlap,
which is most of the start-up. The turn clock and the purge of expired rows run in the
workers (asnas_api.clock), one worker at a time. Then it watches: a dead embedded Postgres
is restarted, and a stop signal stops everything within 3 s.
"""

import argparse
import functools
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from asnas_api import embedded_db
from asnas_api.datadir import BASE_DIR
from asnas_api.worker import CLOCK_IN_WORKERS, PREPARED_FILE

logger = logging.getLogger(__name__)
# How often serve checks that its embedded Postgres still runs, and how soon it notices a
# stop signal (whose handler already passed it on to its children).
SUPERVISE_EVERY = 0.5
NOTICE_STOP_EVERY = 0.05
# A Postgres found down is restarted only if it is still down this much later and no stop
# signal came meanwhile: a stop sent to every process may reach Postgres before serve.
RESTART_AFTER = 0.5
# On SIGTERM or SIGINT, granian has this long to stop before it is killed, so that with the
# embedded Postgres's own stop every process is gone within 3 s.
STOP_SECONDS = 1.5
STOP_RESEND = 0.25


class ServeFailed(Exception):
    """serve cannot go on; the message says why."""


def granian_command(host: str, port: int, workers: int) -> list[str]:
    """The HTTP server. granian reads each request's headers in Rust and its body on the
    event loop, so a slow client holds no Django thread (docs/deployment.md). asginl: ASGI
    without lifespan events, which the app does not use."""
    return (
        [sys.executable, "-m", "granian", "--interface", "asginl", "asnas_api.asgi:application"]
        + ["--host", host, "--port", str(port), "--workers", str(workers), "--no-ws"]
        + ["--respawn-failed-workers", "--access-log", "--log-level", "warning"]
        # A worker that has not stopped 1 s after SIGTERM is killed: its streams end at once
        # (asnas_api.worker), a request takes milliseconds, and a stop is always bounded.
        + ["--workers-kill-timeout", "1"]
    )


def prepare_command(dev: bool, embedded: bool, verbosity: int) -> list[str]:
    return (
        [sys.executable, "-m", "asnas_api.preparation"]
        + (["--dev"] if dev else [])
        + (["--embedded"] if embedded else [])
        + ["--verbosity", str(verbosity)]
    )


def stop_children(server: subprocess.Popen, others: list[subprocess.Popen]) -> None:
    """Stop granian (and the preparing child, if it still runs) within STOP_SECONDS: SIGTERM
    (sent already by serve's signal handler, if it was signalled), again every STOP_RESEND
    seconds to granian, whose master loses one that comes while it replaces a worker that a
    signal sent to every process stopped, then SIGKILL for what is left: granian's whole
    process group, the workers with their master."""
    deadline = time.monotonic() + STOP_SECONDS
    for child in (server, *others):
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    while server.poll() is None and time.monotonic() < deadline:
        try:
            server.wait(timeout=STOP_RESEND)
        except subprocess.TimeoutExpired:
            server.send_signal(signal.SIGTERM)
    if server.poll() is None:
        logger.warning("granian did not stop within %s s; killed it", STOP_SECONDS)
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    for child in others:
        try:
            child.wait(timeout=max(deadline - time.monotonic(), 0))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="manage.py serve",
        description="Apply migrations, then serve the API with granian until Ctrl-C or SIGTERM.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--dev",
        action="store_true",
        help="Allow DEBUG and a weak SECRET_KEY: for development on your own machine only.",
    )
    parser.add_argument("-v", "--verbosity", type=int, default=1, choices=[0, 1, 2, 3])
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    logging.basicConfig(format="%(message)s", level=logging.WARNING)
    options = arguments(argv)
    try:
        serve(options)
    except ServeFailed as error:
        if str(error):
            print(f"serve: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # A stop signal before granian ran: the database handle was released on the way out.
        return 0
    return 0


def serve(options: argparse.Namespace) -> None:
    # Until granian runs, SIGTERM unwinds like Ctrl-C so the database handle is released.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    database_url, pgdata = database()
    try:
        supervise(options, database_url, pgdata)
    finally:
        embedded_db.stop()


def database() -> tuple[str, Path | None]:
    """The database's URL, and the embedded Postgres's data directory if it is one: this
    installation's own when DATABASE_URL is unset; with DATABASE_URL naming the embedded
    Postgres of another serve on this machine (docs/scaling.md), that one, of which this
    serve becomes one more user, so that it outlives the other serve."""
    database_url = os.environ.get("DATABASE_URL")
    if not database_url:
        database_url = embedded_db.attach_default()
    else:
        pgdata = embedded_db.embedded_data_directory(database_url)
        if pgdata is not None:
            embedded_db.start(pgdata)
    return database_url, embedded_db.pgdata()


def supervise(options: argparse.Namespace, database_url: str, pgdata: Path | None) -> None:
    """Prepare and serve until a stop signal, granian's exit or a failed preparation,
    restarting the embedded database if it dies; then stop every child."""
    restarts = pgdata is not None and _guard_database(pgdata)
    prepared_file = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]) / "prepared"
    env = {**os.environ, "DATABASE_URL": database_url}
    stopping: list[int] = []  # the stop signal, once one came
    children: list[subprocess.Popen] = []
    # Set before the children start, so that no signal can come between.
    _stop_on_signals(stopping, children)
    preparing = subprocess.Popen(
        prepare_command(options.dev, pgdata is not None, options.verbosity),
        cwd=BASE_DIR,
        env=env,
        process_group=0,
        preexec_fn=embedded_db.die_with_parent,
    )
    children.append(preparing)
    server = subprocess.Popen(
        granian_command(options.host, options.port, options.workers),
        # The workers use the database this process started instead of starting their own.
        env={**env, CLOCK_IN_WORKERS: "1", PREPARED_FILE: str(prepared_file)},
        # Its own process group: Ctrl-C reaches only this process, which forwards it once,
        # and the group is what is killed if granian outlives its time to stop.
        process_group=0,
        # A kill -9 of serve takes granian (and so its workers) down too.
        preexec_fn=embedded_db.die_with_parent,
    )
    children.insert(0, server)
    _watch(server, preparing, prepared_file, pgdata, restarts, stopping)
    # granian exited by itself, not because a stop signal came (it may have died of that
    # signal's default action as it came, which is no crash).
    crashed = None if stopping else server.poll()
    failed_preparing = not stopping and preparing.poll() not in (None, 0)
    stop_children(server, [preparing])
    if failed_preparing:
        raise ServeFailed("")
    if crashed:
        raise ServeFailed(f"granian exited with status {crashed}")


def _guard_database(pgdata: Path) -> bool:
    """Start the guardian of the embedded database, and say whether this serve restarts
    it (the first serve of the database does)."""
    restarts = embedded_db.claim_restarts(pgdata)
    # If this process is killed outright, the guardian drops its handle and stops the
    # database unless another process still uses it.
    subprocess.Popen(
        [sys.executable, "-m", "asnas_api.embedded_db", str(pgdata), str(os.getpid())],
        preexec_fn=embedded_db.die_with_parent,
        process_group=0,
    )
    return restarts


def _stop_on_signals(stopping: list[int], children: list[subprocess.Popen]) -> None:
    """On SIGINT, SIGTERM or SIGHUP, note the signal in `stopping` and pass SIGTERM to each
    child still running."""

    def stop(signum, frame):
        # Whatever was signalled (serve alone, its group, every process at once), the
        # stop starts here at once; a closed terminal (SIGHUP) stops it too. (No lock
        # may be taken in a signal handler: the main thread may hold it.)
        stopping.append(signum)
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)


def _watch(
    server: subprocess.Popen,
    preparing: subprocess.Popen,
    prepared_file: Path,
    pgdata: Path | None,
    restarts: bool,
    stopping: list[int],
) -> None:
    """Until a stop signal or granian's exit: mark the preparation done when it is (or stop
    at once if it failed), and restart the embedded database once it has been down a while,
    taking the restarts over if the serve that had them is gone."""
    checked = time.monotonic()
    database_down_since = None
    while not stopping and server.poll() is None:
        time.sleep(NOTICE_STOP_EVERY)
        if preparing.returncode is None and preparing.poll() is not None:
            if preparing.returncode != 0:
                break  # it said why on stderr
            prepared_file.touch()
        if time.monotonic() - checked < SUPERVISE_EVERY:
            continue
        checked = time.monotonic()
        # Nothing is restarted once the stop began.
        if pgdata is not None and not restarts and embedded_db.claim_restarts(pgdata):
            restarts = True
            logger.warning("took over the restarts of the embedded Postgres in %s", pgdata)
        if pgdata is not None and restarts:
            if embedded_db.is_running():
                database_down_since = None
            elif database_down_since is None:
                database_down_since = time.monotonic()
            elif time.monotonic() - database_down_since >= RESTART_AFTER:
                restart_dead_database(lambda: bool(stopping))
                database_down_since = None


@functools.cache
def postgres_restarts():
    """Made at the first restart: prometheus_client is a third of this process's memory. The
    workers' /metrics sums every process's count (PROMETHEUS_MULTIPROC_DIR)."""
    from prometheus_client import Counter

    return Counter(
        "asnas_embedded_postgres_restarts", "Times serve restarted its dead embedded Postgres."
    )


def restart_dead_database(stopping: Callable[[], bool]) -> None:
    started = time.monotonic()
    try:
        restarted = embedded_db.ensure_running(unless=stopping)
    except Exception as error:  # tried again at the next tick
        logger.error("the embedded Postgres is down and did not restart: %s", error)
        return
    if restarted:
        # Logged first: the counter's first use imports prometheus_client, a moment on a busy
        # machine, and whoever reads the log once requests succeed again must find the line.
        logger.error(
            "the embedded Postgres had died; restarted it in %.1f s", time.monotonic() - started
        )
        postgres_restarts().inc()
