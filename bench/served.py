"""One side's `manage.py serve` as an operator runs it, for `manage.py bench --baseline`: its
own interpreter and code, its own data directory, and the embedded Postgres that serve starts
there itself. What it costs: the CPU time of every server process (serve and all it started:
the HTTP server's master and workers, the clock, the database's guardian) and of its
Postgres, and the proportional set size of each server process."""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil

from bench.checkout import Side
from bench.server import UNLIMITED, free_port

RATE_SCOPES = ("TOKEN", "IP", "PLAYER_CREATE", "MATCH_CREATE", "HINT", "HINT_ADDRESS")


def process_name(process: psutil.Process, serve_pid: int) -> str:
    """What a process of serve's tree is, by its command line: serve, the HTTP server's
    master, a worker (numbered later), the clock, the guardian."""
    if process.pid == serve_pid:
        return "serve"
    command = " ".join(process.cmdline())
    for server in ("granian", "gunicorn"):
        if server in command:
            parent = process.parent()
            is_worker = parent is not None and server in " ".join(parent.cmdline())
            return "worker" if is_worker else f"{server} master"
    if "run_clock" in command:
        return "clock"
    if "asnas_api.embedded_db" in command:
        return "guardian"
    return other_name(process.cmdline()) or process.name()


def other_name(cmdline: list[str]) -> str | None:
    """A process that is none of the known ones: named by its management command, its
    module, or its program."""
    for flag in ("manage.py", "-m"):
        for index, arg in enumerate(cmdline[:-1]):
            if arg == flag or (flag == "manage.py" and arg.endswith("/manage.py")):
                return cmdline[index + 1]
    return Path(cmdline[0]).name if cmdline else None


def named(names: list[str]) -> list[str]:
    """Workers numbered in order: worker 1, worker 2..."""
    count, out = 0, []
    for name in names:
        if name == "worker":
            count += 1
            name = f"worker {count}"
        out.append(name)
    return out


def pss_kib(pid: int) -> int:
    """The proportional set size of a process: its private pages and its share of those it
    shares with others."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    raise ValueError(f"no Pss in /proc/{pid}/smaps_rollup")


def _threads_ns(pid: int) -> int:
    """The run time of a process's live threads, in ns (schedstat: exact, not in ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError):
            pass  # the thread exited meanwhile
    return total


class ServedSide:
    """`with ServedSide(side, workers) as served:` serve started on a fresh data directory,
    stopped once it settled, and started again on that directory: `startup_s` is how long
    the second start took to answer /readyz."""

    def __init__(
        self,
        side: Side,
        workers: int,
        settle_seconds: float,
        timeout: float = 180,
        *,
        environment: dict[str, str] | None = None,
        postgres_settings: dict[str, str] | None = None,
    ):
        """`environment`: more settings of serve's; `postgres_settings`: lines of the
        cluster's postgresql.conf, written after the first start made it (so the second
        start has them, shared_preload_libraries included)."""
        self.settle_seconds = settle_seconds
        self.environment = environment or {}
        self.postgres_settings = postgres_settings or {}
        self.side = side
        self.workers = workers
        self.timeout = timeout
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.root = Path(tempfile.mkdtemp(prefix="asnas-bench-side-"))
        # The embedded Postgres runs as a user of its own when the bench runs as root.
        self.root.chmod(0o755)
        self.log = self.root / "serve.log"
        self.serve: subprocess.Popen | None = None
        self.startup_s: float | None = None

    def __enter__(self) -> "ServedSide":
        try:
            # The data directory as a serve before left it: its Postgres initialised and
            # migrated, and whatever serve keeps there built once the memory has settled.
            self._start()
            self.settled_pss(self.settle_seconds)
            self._stop()
            self._configure_postgres()
            self.startup_s = self._start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def _configure_postgres(self) -> None:
        if not self.postgres_settings:
            return
        (conf,) = (self.root / "data").rglob("postgresql.conf")
        lines = "".join(f"{name} = '{value}'\n" for name, value in self.postgres_settings.items())
        with conf.open("a") as written:
            written.write(lines)

    def database_uri(self) -> str:
        """The side's Postgres, as its superuser, through its unix socket."""
        (pidfile,) = (self.root / "data").rglob("postmaster.pid")
        socket_dir = pidfile.read_text().splitlines()[4].strip()
        return f"postgresql://postgres:@/postgres?host={socket_dir}"

    def _environment(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            # The bench's own database, key and virtual environment are not this side's.
            if key not in ("DATABASE_URL", "SECRET_KEY", "VIRTUAL_ENV")
        }
        env.update(
            ASNAS_DATA_DIR=str(self.root / "data"),
            DEBUG="0",
            ASNAS_ALLOW_CLIENT_SEED="1",
            ASNAS_BENCH_METRICS="1",
            **{f"ASNAS_RATE_{scope}": UNLIMITED for scope in RATE_SCOPES},
        )
        env.update(self.environment)
        if self.side.ai_cache is not None:
            env["ASNAS_AI_CACHE_DIR"] = str(self.side.ai_cache)
        return env

    def _start(self) -> float:
        started = time.perf_counter()
        with self.log.open("a") as log:
            self.serve = subprocess.Popen(
                [str(self.side.python), "manage.py", "serve", "--port", str(self.port)]
                + ["--workers", str(self.workers)],
                cwd=self.side.source,
                env=self._environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.serve.poll() is not None:
                raise RuntimeError(f"{self.side.name}: serve exited early:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/readyz", timeout=2) as response:
                    if response.status == 200:
                        return time.perf_counter() - started
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.side.name}: not ready after {self.timeout} s")

    def _stop(self) -> None:
        if self.serve is not None and self.serve.poll() is None:
            # Ctrl-C: gunicorn (an older serve's) stops at once on it, and waits out its
            # graceful timeout on SIGTERM; the stop is not what is measured.
            self.serve.send_signal(signal.SIGINT)
            try:
                self.serve.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.serve.kill()
                self.serve.wait()
        # serve stops its embedded Postgres as it exits; make sure nothing outlives the run.
        postmaster = self._postmaster()
        if postmaster is not None:
            postmaster.send_signal(signal.SIGINT)
            psutil.wait_procs([postmaster], timeout=30)

    def _postmaster(self) -> psutil.Process | None:
        for pidfile in (self.root / "data").rglob("postmaster.pid"):
            try:
                process = psutil.Process(int(pidfile.read_text().split()[0]))
                # A pid file left by a Postgres that died may name another process by now.
                command = " ".join(process.cmdline())
                if str(pidfile.parent.resolve()) in command or str(pidfile.parent) in command:
                    return process
            except (OSError, ValueError, psutil.Error):
                continue
        return None

    def schema_paths(self) -> dict[str, set[str]]:
        """The API's operations by path, as its own OpenAPI schema tells them."""
        with urllib.request.urlopen(f"{self.url}/api/schema/?format=json", timeout=30) as response:
            schema = json.load(response)
        return {path: set(item) for path, item in schema["paths"].items()}

    def server_processes(self) -> list[tuple[str, psutil.Process]]:
        """serve and every process it started, named, Postgres not among them."""
        postmaster = self._postmaster()
        postgres = set()
        if postmaster is not None:
            postgres = {p.pid for p in [postmaster, *postmaster.children(recursive=True)]}
        root = psutil.Process(self.serve.pid)
        processes = [p for p in [root, *root.children(recursive=True)] if p.pid not in postgres]
        processes.sort(key=lambda p: p.pid)
        names = []
        for process in processes:
            try:
                names.append(process_name(process, self.serve.pid))
            except psutil.Error:
                names.append("exited")
        return list(zip(named(names), processes, strict=True))

    def _postgres_processes(self) -> list[psutil.Process]:
        postmaster = self._postmaster()
        return [] if postmaster is None else [postmaster, *postmaster.children(recursive=True)]

    def _all_processes(self) -> list[psutil.Process]:
        return [process for _, process in self.server_processes()] + self._postgres_processes()

    def cpu_ns(self) -> dict[str, dict[int, int]]:
        """CPU time so far of serve's processes and of Postgres's, each by pid, and under -1
        what their exited children used (a Postgres backend that ended, a worker replaced)."""
        groups = {
            "serve": [process for _, process in self.server_processes()],
            "postgres": self._postgres_processes(),
        }
        samples = {}
        for group, processes in groups.items():
            sample = samples[group] = {-1: 0}
            for process in processes:
                try:
                    times = process.cpu_times()
                except psutil.Error:
                    continue  # exited meanwhile: its parent's children times hold it
                sample[process.pid] = round((times.user + times.system) * 1e9)
                sample[-1] += round((times.children_user + times.children_system) * 1e9)
        return samples

    def precise_cpu_ns(self) -> int:
        """The run time of every live thread of every server and Postgres process, in ns: for
        one request at a time, where clock ticks (10 ms) are too coarse."""
        total = 0
        for process in self._all_processes():
            try:
                total += _threads_ns(process.pid)
            except OSError:
                pass
        return total

    def pss(self) -> dict[str, int]:
        """PSS in KiB of each server process, by name."""
        sizes = {}
        for name, process in self.server_processes():
            try:
                sizes[name] = pss_kib(process.pid)
            except (OSError, ValueError):
                pass
        return sizes

    def settled_pss(self, timeout: float) -> dict[str, int]:
        """PSS once it stopped growing (a worker may build tables in the background as it
        starts), or as it is after `timeout` seconds."""
        last, deadline = self.pss(), time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(1)
            now = self.pss()
            if abs(sum(now.values()) - sum(last.values())) < 1024:
                return now
            last = now
        return last


def cpu_spent(before: dict[str, dict[int, int]], after: dict[str, dict[int, int]]) -> dict:
    """CPU ns between two `cpu_ns` samples, of serve's processes and of Postgres's."""
    return {group: _spent(before[group], after[group]) for group in after}


def _spent(before: dict[int, int], after: dict[int, int]) -> int:
    live = sum(ns - before.get(pid, 0) for pid, ns in after.items() if pid != -1)
    # A process gone since `before` was reaped: all of its time is in its parent's children
    # times now, of which `before` already counted this much.
    gone = sum(ns for pid, ns in before.items() if pid != -1 and pid not in after)
    return live - gone + after[-1] - before[-1]
