#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import atexit
import fcntl
import os
import shutil
import sys
import tempfile
from pathlib import Path

# serve's fresh directory for the metrics of all its processes (asnas_api/metrics.py).
METRICS_DIR_PREFIX = "asnas-metrics-"
# Held locked (flock) while the serve that made the directory, or any child of it, lives: the
# kernel drops the lock when they die, even by kill -9, which skips every exit handler.
METRICS_DIR_LOCK = ".serve.lock"


def remove_dead_metrics_dirs() -> None:
    """The directories of serves that were killed: no process holds their lock any more."""
    for directory in Path(tempfile.gettempdir()).glob(f"{METRICS_DIR_PREFIX}*"):
        try:
            with (directory / METRICS_DIR_LOCK).open() as lock:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # a serve still uses it
        except FileNotFoundError:
            pass  # an older serve's, made before directories had locks
        shutil.rmtree(directory, ignore_errors=True)


def fresh_metrics_dir() -> str:
    remove_dead_metrics_dirs()
    # Made under another name and renamed once locked, so that no other serve ever sees it
    # unlocked.
    making = Path(tempfile.mkdtemp(prefix="asnas-making-metrics-"))
    lock = (making / METRICS_DIR_LOCK).open("w")  # noqa: SIM115 (held until exit)
    fcntl.flock(lock, fcntl.LOCK_EX)
    metrics_dir = making.with_name(making.name.replace("asnas-making-metrics-", METRICS_DIR_PREFIX))
    making.rename(metrics_dir)
    atexit.register(shutil.rmtree, metrics_dir, ignore_errors=True)
    atexit.register(lock.close)  # also keeps the lock's file open, hence locked, until then
    return str(metrics_dir)


def is_http_client_only(argv: list[str]) -> bool:
    """`play --url` talks to a running server over HTTP and needs no database of its own."""
    return argv[1:2] == ["play"] and any(arg.split("=")[0] == "--url" for arg in argv[2:])


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")
    if is_http_client_only(sys.argv):
        os.environ["ASNAS_NO_DATABASE"] = "1"
    if sys.argv[1:2] == ["serve"]:
        # Before anything imports prometheus_client, which reads it once at import.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = fresh_metrics_dir()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
    if sys.argv[1:2] == ["serve"]:
        # serve has stopped every process it ran and released its database: the interpreter's
        # own teardown of everything Django loaded (a second or two on a busy machine) would
        # only hold the stop up, past the 3 s it has in all.
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
