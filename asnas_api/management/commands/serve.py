import os
import signal
import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from asnas_api import embedded_db


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
        # Until granian runs, SIGTERM unwinds like Ctrl-C so the database handle is released.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        call_command("migrate", interactive=False, verbosity=verbosity)
        call_command("purge_expired", verbosity=verbosity)
        connections.close_all()

        server = subprocess.Popen(
            granian_command(host, port, workers),
            # The workers use the database this process started instead of starting their own.
            env={**os.environ, "DATABASE_URL": settings.DATABASE_URL},
            # Its own process group: Ctrl-C reaches only this process, which forwards it once.
            process_group=0,
        )

        def forward(signum, frame):
            # A closed terminal (SIGHUP) stops the server, as SIGTERM does.
            server.send_signal(signal.SIGTERM if signum == signal.SIGHUP else signum)

        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, forward)

        returncode = server.wait()
        embedded_db.stop()
        if returncode:
            raise CommandError(f"granian exited with status {returncode}")
