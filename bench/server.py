"""The server under test: a fresh embedded Postgres and `manage.py serve` on it, and the CPU
time of their processes."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import dj_database_url
import psutil
from django.conf import settings
from django.core.management import call_command
from django.db import connection, connections

from asnas_api import embedded_db

# Limits that a benchmark's own traffic never meets; the real ones would stop it in seconds.
# The counting itself (one upsert per request, asnas_api/gate.py) still runs and is
# measured.
UNLIMITED = "1000000/s"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run_ns(pid: int) -> int:
    """CPU time of a live process so far, in ns, over all its threads, those that exited too
    (granian runs Django in a thread of its worker; /proc/PID/schedstat would count only the
    main thread)."""
    times = psutil.Process(pid).cpu_times()
    return round((times.user + times.system) * 1e9)


def _reaped_ns(process: psutil.Process) -> int:
    """CPU time of the process's children that have exited and been waited for."""
    times = process.cpu_times()
    return round((times.children_user + times.children_system) * 1e9)


@dataclass
class CpuSample:
    http: dict[int, int]
    postgres: dict[int, int]
    reaped: dict[str, int]


# What `serve` runs, and for comparison the sync workers it ran before (docs/deployment.md).
SERVERS = ("granian", "gunicorn-sync")


class Server:
    """Start with `with Server(workers) as server:`; everything it made is gone afterwards."""

    def __init__(self, workers: int, kind: str = "granian"):
        self.workers = workers
        self.kind = kind
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.root = Path(tempfile.mkdtemp(prefix="asnas-bench-"))
        self.log = self.root / "serve.log"
        self.serve: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        try:
            self._start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _start(self) -> None:
        # A fresh cluster, deleted with the server; this process reaches it through Django's
        # default connection, repointed, to migrate and to seed.
        database_url = embedded_db.start(
            Path(tempfile.mkdtemp(prefix="asnas-bench-pg-")), cleanup_mode="delete"
        )
        connections.close_all()
        connection.settings_dict.update(dj_database_url.parse(database_url))
        call_command("migrate", interactive=False, verbosity=0)
        self.postmaster = psutil.Process(embedded_db._server.get_pid())
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "ASNAS_DATA_DIR": str(self.root),
            "ASNAS_ALLOW_CLIENT_SEED": "1",
            "ASNAS_BENCH_METRICS": "1",
            **{
                f"ASNAS_RATE_{scope}": UNLIMITED
                for scope in ("TOKEN", "IP", "PLAYER_CREATE", "MATCH_CREATE")
            },
        }
        env.pop("SECRET_KEY", None)  # serve makes a strong key of its own in ASNAS_DATA_DIR
        if self.kind == "granian":
            command = ["manage.py", "serve", "--port", str(self.port)]
        else:
            command = ["-m", "gunicorn", "asnas_api.wsgi", "--bind", f"127.0.0.1:{self.port}"]
            command += ["--no-control-socket"]
        with self.log.open("w") as log:
            self.serve = subprocess.Popen(
                [sys.executable, *command, "--workers", str(self.workers)],
                cwd=settings.BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._wait_until_ready()
        # granian's main process is one of serve's children (beside the preparation and the
        # database's guardian); gunicorn's master is the process itself.
        self.http = (
            next(
                child
                for child in psutil.Process(self.serve.pid).children()
                if "granian" in " ".join(child.cmdline())
            )
            if self.kind == "granian"
            else psutil.Process(self.serve.pid)
        )

    def _wait_until_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.serve.poll() is not None:
                raise RuntimeError(f"the server exited early:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/readyz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server was not ready after {timeout}s:\n{self.log.read_text()}")

    def __exit__(self, *exc_info) -> None:
        if self.serve is not None and self.serve.poll() is None:
            self.serve.send_signal(signal.SIGTERM)
            try:
                self.serve.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.serve.kill()
                self.serve.wait()
        connections.close_all()
        embedded_db.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def _summed(self, measure: Callable[[psutil.Process], int]) -> int:
        """`measure` summed over the HTTP server's processes."""
        total = 0
        for process in [self.http, *self.http.children(recursive=True)]:
            try:
                total += measure(process)
            except psutil.Error:
                pass  # exited meanwhile
        return total

    def rss_bytes(self) -> int:
        """The resident memory of the HTTP server: all its processes."""
        return self._summed(lambda process: process.memory_info().rss)

    def settled_rss_bytes(self, timeout: float = 30) -> int:
        """The resident memory once it stopped growing: a worker builds the coach's tables
        (about 110 MB) in the background as it starts, which would otherwise count as
        whatever is measured next."""
        last, deadline = self.rss_bytes(), time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(1)
            now = self.rss_bytes()
            if abs(now - last) < 2**20:
                return now
            last = now
        return last

    def threads(self) -> int:
        """The threads of the HTTP server: all its processes."""
        return self._summed(psutil.Process.num_threads)

    def cpu_sample(self) -> CpuSample:
        def tree(root: psutil.Process) -> dict[int, int]:
            sample = {}
            for process in [root, *root.children(recursive=True)]:
                try:
                    sample[process.pid] = _run_ns(process.pid)
                except psutil.Error:
                    pass  # exited meanwhile: its time shows up in `reaped`
            return sample

        return CpuSample(
            http=tree(self.http),
            postgres=tree(self.postmaster),
            reaped={
                "http": _reaped_ns(self.http),
                "postgres": _reaped_ns(self.postmaster),
            },
        )


def cpu_between(before: CpuSample, after: CpuSample) -> dict[str, int]:
    """Server CPU ns spent between two samples: the HTTP server (all its processes) and
    Postgres."""

    def spent(start: dict[int, int], end: dict[int, int]) -> int:
        return sum(ns - start.get(pid, 0) for pid, ns in end.items())

    return {
        "http": spent(before.http, after.http) + after.reaped["http"] - before.reaped["http"],
        "postgres": spent(before.postgres, after.postgres)
        + after.reaped["postgres"]
        - before.reaped["postgres"],
    }
