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


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")
    if sys.argv[1:2] == ["serve"]:
        # serve's supervisor imports no Django: it holds only what supervising needs.
        # PROMETHEUS_MULTIPROC_DIR first: prometheus_client reads it once at import.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = fresh_metrics_dir()
        from asnas_api.supervisor import main as serve

        status = serve(sys.argv[2:])
        # serve has stopped every process it ran and released its database: skip the
        # interpreter's own teardown, which would only hold the stop up.
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
