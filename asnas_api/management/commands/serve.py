import logging
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections

from asnas_api import embedded_db, metrics
from games.clock import clock_process, clocks_stop

logger = logging.getLogger(__name__)
# How often serve checks that its embedded Postgres still runs.
SUPERVISE_EVERY = 0.5


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
        # A worker that has not stopped 10 s after SIGTERM is killed: a stop is always bounded
        # (one in three stops under load once hung past 30 s without it).
        + ["--workers-kill-timeout", "10"]
    )


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
        pgdata = embedded_db.pgdata()
        if pgdata is not None:
            try:
                embedded_db.claim_serving(pgdata)
            except RuntimeError as error:
                raise CommandError(str(error)) from None
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

        server = subprocess.Popen(
            granian_command(host, port, workers),
            # The workers use the database this process started instead of starting their own.
            env={**os.environ, "DATABASE_URL": settings.DATABASE_URL},
            # Its own process group: Ctrl-C reaches only this process, which forwards it once.
            process_group=0,
            # A kill -9 of serve takes granian (and so its workers) down too.
            preexec_fn=embedded_db.die_with_parent,
        )

        clock = clock_process()

        def forward(signum, frame):
            # A closed terminal (SIGHUP) stops the server, as SIGTERM does.
            server.send_signal(signal.SIGTERM if signum == signal.SIGHUP else signum)
            clock.terminate()

        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, forward)

        while True:
            try:
                returncode = server.wait(timeout=SUPERVISE_EVERY)
                break
            except subprocess.TimeoutExpired:
                if pgdata is not None:
                    self._restart_dead_database()
                if clock.poll() is not None:
                    logger.error(
                        "the turn clock exited with status %s; restarted it", clock.returncode
                    )
                    clock = clock_process()
        clocks_stop([clock])
        embedded_db.stop()
        if returncode:
            raise CommandError(f"granian exited with status {returncode}")

    def _restart_dead_database(self) -> None:
        started = time.monotonic()
        try:
            restarted = embedded_db.ensure_running()
        except Exception as error:  # tried again at the next tick
            logger.error("the embedded Postgres is down and did not restart: %s", error)
            return
        if restarted:
            metrics.POSTGRES_RESTARTS.inc()
            logger.error(
                "the embedded Postgres had died; restarted it in %.1f s",
                time.monotonic() - started,
            )
