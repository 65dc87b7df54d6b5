import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections

from asnas_api import embedded_db, metrics
from asnas_api.clock import clock_process

logger = logging.getLogger(__name__)
# How often serve checks that its embedded Postgres and its turn clock still run, and how
# soon it notices a stop signal (whose handler already passed it on to its children).
SUPERVISE_EVERY = 0.5
NOTICE_STOP_EVERY = 0.05
# A Postgres found down is restarted only if it is still down this much later and no stop
# signal came meanwhile: a stop sent to every process may reach Postgres before serve.
RESTART_AFTER = 0.5
# On SIGTERM or SIGINT, granian and the turn clock have this long to stop before they are
# killed, so that with the embedded Postgres's own stop every process is gone within 3 s.
STOP_SECONDS = 1.5
STOP_RESEND = 0.25


def refuse_unsafe_settings() -> None:
    """A production server must not show debug pages or sign with a guessable key."""
    if settings.DEBUG:
        raise CommandError("DEBUG is on. Turn it off, or pass --dev on a development machine.")
    key = settings.SECRET_KEY
    if len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure-"):
        raise CommandError(
            "SECRET_KEY is weak (under 50 characters, or a 'django-insecure-' key). Set a "
            "strong one, leave it unset to use this installation's generated key, or pass --dev."
        )


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


def stop_children(server: subprocess.Popen, clock: subprocess.Popen) -> None:
    """Stop granian and the turn clock within STOP_SECONDS, both at once: SIGTERM (sent
    already by serve's signal handler, if it was signalled), again every STOP_RESEND seconds
    to granian, whose master loses one that comes while it replaces a worker that a signal
    sent to every process stopped, then SIGKILL for what is left: granian's whole process
    group, the workers with their master."""
    deadline = time.monotonic() + STOP_SECONDS
    for child in (server, clock):
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
    try:
        clock.wait(timeout=max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:
        logger.warning("the turn clock did not stop within %s s; killed it", STOP_SECONDS)
        clock.kill()
        clock.wait()


class Command(BaseCommand):
    help = "Apply migrations, then serve the API with granian until Ctrl-C or SIGTERM."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument(
            "--dev",
            action="store_true",
            help="Allow DEBUG and a weak SECRET_KEY: for development on your own machine only.",
        )

    def handle(self, *args, host, port, workers, dev, verbosity, **options):
        if not dev:
            refuse_unsafe_settings()
        pgdata = embedded_db.pgdata() or self._attach_to_embedded_database()
        restarts = False
        if pgdata is not None:
            restarts = embedded_db.claim_restarts(pgdata)
            # If this process is killed outright, the guardian drops its handle and stops the
            # database unless another process still uses it.
            subprocess.Popen(
                [sys.executable, "-m", "asnas_api.embedded_db", str(pgdata), str(os.getpid())],
                preexec_fn=embedded_db.die_with_parent,
                process_group=0,
            )
        # Until granian runs, SIGTERM unwinds like Ctrl-C so the database handle is released.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        call_command("migrate", interactive=False, verbosity=verbosity)
        call_command("purge_expired", verbosity=verbosity)
        if pgdata is not None:
            with connection.cursor() as cursor:
                # After a crash Postgres fsyncs every file of its data directory one by one
                # before recovering (3 s here); one syncfs call does the same in a blink.
                cursor.execute("ALTER SYSTEM SET recovery_init_sync_method = 'syncfs'")
        connections.close_all()
        # serve itself is done with the database: its pool's threads, left open, held its
        # exit for a second or two.
        connection.close_pool()

        stopping: list[int] = []  # the stop signal, once one came
        children: list[subprocess.Popen] = []

        def stop(signum, frame):
            # Whatever was signalled (serve alone, its group, every process at once), the
            # stop starts here at once; a closed terminal (SIGHUP) stops it too. (No lock
            # may be taken in a signal handler: the main thread may hold it.)
            stopping.append(signum)
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)

        # Set before the children start, so that no signal can come between.
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, stop)
        server = subprocess.Popen(
            granian_command(host, port, workers),
            # The workers use the database this process started instead of starting their own.
            env={**os.environ, "DATABASE_URL": settings.DATABASE_URL},
            # Its own process group: Ctrl-C reaches only this process, which forwards it once,
            # and the group is what is killed if granian outlives its time to stop.
            process_group=0,
            # A kill -9 of serve takes granian (and so its workers) down too.
            preexec_fn=embedded_db.die_with_parent,
        )
        children.append(server)
        clock = clock_process()
        children.append(clock)

        checked = time.monotonic()
        database_down_since = None
        while not stopping and server.poll() is None:
            time.sleep(NOTICE_STOP_EVERY)
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
                    self._restart_dead_database(lambda: bool(stopping))
                    database_down_since = None
            if clock.poll() is not None and not stopping:
                logger.error("the turn clock exited with status %s; restarted it", clock.returncode)
                clock = children[1] = clock_process()
        # granian exited by itself, not because a stop signal came (it may have died of that
        # signal's default action as it came, which is no crash).
        crashed = None if stopping else server.poll()
        stop_children(server, clock)
        embedded_db.stop()
        if crashed:
            raise CommandError(f"granian exited with status {crashed}")

    def _attach_to_embedded_database(self) -> Path | None:
        """With DATABASE_URL naming the embedded Postgres of another serve on this machine
        (docs/scaling.md), become one more of its users: it then outlives that serve."""
        pgdata = embedded_db.embedded_data_directory(settings.DATABASE_URL)
        if pgdata is not None:
            embedded_db.start(pgdata)
        return pgdata

    def _restart_dead_database(self, stopping: Callable[[], bool]) -> None:
        started = time.monotonic()
        try:
            restarted = embedded_db.ensure_running(unless=stopping)
        except Exception as error:  # tried again at the next tick
            logger.error("the embedded Postgres is down and did not restart: %s", error)
            return
        if restarted:
            metrics.POSTGRES_RESTARTS.inc()
            logger.error(
                "the embedded Postgres had died; restarted it in %.1f s",
                time.monotonic() - started,
            )
