#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import atexit
import os
import shutil
import sys
import tempfile

# serve's fresh directory for the metrics of all its processes (asnas_api/metrics.py).
METRICS_DIR_PREFIX = "asnas-metrics-"


def is_http_client_only(argv: list[str]) -> bool:
    """`play --url` talks to a running server over HTTP and needs no database of its own."""
    return argv[1:2] == ["play"] and any(arg.split("=")[0] == "--url" for arg in argv[2:])


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")
    if is_http_client_only(sys.argv):
        os.environ["ASNAS_NO_DATABASE"] = "1"
    if sys.argv[1:2] == ["serve"]:
        # Before anything imports prometheus_client, which reads it once at import.
        metrics_dir = tempfile.mkdtemp(prefix=METRICS_DIR_PREFIX)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        atexit.register(shutil.rmtree, metrics_dir, ignore_errors=True)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
