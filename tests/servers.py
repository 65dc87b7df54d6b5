"""Helpers for tests that run the service in another process, as a person would."""

import contextlib
import fcntl
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from django.db import connection
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from asnas_api.clock import clocks_stop
from asnas_api.pytest_plugin import MIGRATED_TEMPLATE, RUN_DIR

BASE_DIR = Path(__file__).resolve().parent.parent
# The one git-ignored folder for what tests leave to look at: screenshots, captures.
ARTIFACTS_DIR = BASE_DIR / ".artifacts"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_ready(url: str, server: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the server exited early:\n{log.read_text()}"
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    pytest.fail(f"{url} not ready after {timeout}s:\n{log.read_text()}")


@contextlib.contextmanager
def empty_database(prefix: str, template: str = "template1"):
    """A database of its own on the tests' cluster, empty (a copy of `template`), dropped at
    the end; yields its URL."""
    cluster_url = os.environ["DATABASE_URL"]
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    url = urlsplit(cluster_url)._replace(path=f"/{name}").geturl()
    # CREATE and DROP DATABASE cannot run inside a transaction.
    with psycopg.connect(cluster_url, autocommit=True) as connection:
        connection.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )
    try:
        yield url
    finally:
        with psycopg.connect(cluster_url, autocommit=True) as connection:
            connection.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


_TEMPLATE_MADE: list[bool] = []


def migrated_template() -> str:
    """The run's migrated database, which the tests' database (tests/conftest.py) and every
    server's (`migrated_database`) are copies of: a copy takes a fraction of a second, a
    `migrate` seconds of CPU, which each worker paid twice (its test database, then the
    template of its servers). The first process of the run that needs it migrates it while
    the others wait on the lock; the run's controller drops it at the end
    (asnas_api.pytest_plugin). A database being copied must have no session, and after its
    `migrate` none opens one."""
    name = MIGRATED_TEMPLATE
    if _TEMPLATE_MADE:
        return name
    with (RUN_DIR / "migrated-template.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = RUN_DIR / "migrated-template.made"
        if not made.exists():
            cluster_url = os.environ["DATABASE_URL"]
            with psycopg.connect(cluster_url, autocommit=True) as connection:
                # A process that failed to migrate it may have left it half made.
                connection.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
                cwd=BASE_DIR,
                env={**os.environ, "DATABASE_URL": database_url(name)},
                check=True,
                timeout=300,
            )
            made.touch()
    _TEMPLATE_MADE.append(True)
    return name


def copy_database(template: str, name: str) -> None:
    """Database `name` on the tests' cluster, made anew as a copy of `template`."""
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        # One that a killed run left on a cluster of the developer's own.
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        connection.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )


def database_url(name: str) -> str:
    """The URL of database `name` on the tests' cluster."""
    return urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}").geturl()


@contextlib.contextmanager
def migrated_database(prefix: str):
    """A database of its own on the tests' cluster, migrated, dropped at the end; yields its
    URL. A server process cannot see pytest-django's `test_` database inside its transactions.
    It is a copy of the run's `migrated_template`."""
    with empty_database(prefix, template=migrated_template()) as url:
        yield url


@contextlib.contextmanager
def served(log: Path, env: dict[str, str], workers: int = 2, ready: bool = True):
    """`manage.py serve --dev` with `env` (DATABASE_URL for a database of its own, or
    ASNAS_DATA_DIR for an embedded one); yields (base URL, process), stopped at the end."""
    port = free_port()
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--dev", "--port", str(port)]
            + ["--workers", str(workers)],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        if ready:
            wait_until_ready(f"{url}/readyz", server, log, timeout=120)
        yield url, server
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def committed_database_url() -> str:
    """The URL of pytest-django's test database, for processes that read what a test with
    `transactional_db` committed."""
    name = connection.settings_dict["NAME"]
    return urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}").geturl()


@contextlib.contextmanager
def clocks_running(count: int, log_dir: Path, env: dict[str, str]):
    """`count` turn clocks (`manage.py run_clock`) with `env`; yields their processes and
    stops them at the end, as serve does (SIGTERM)."""
    clocks = []
    try:
        for number in range(count):
            with (log_dir / f"clock-{number}.log").open("w") as output:
                clocks.append(
                    subprocess.Popen(
                        [sys.executable, "manage.py", "run_clock"],
                        cwd=BASE_DIR,
                        env=env,
                        stdout=output,
                        stderr=subprocess.STDOUT,
                    )
                )
        yield clocks
    finally:
        clocks_stop(clocks)


@contextlib.contextmanager
def pgbouncer(directory: Path, pool_mode: str = "transaction"):
    """PgBouncer in front of the tests' cluster, on a port of its own; yields a function that
    turns a database URL of the cluster into the same database through PgBouncer. Skips the
    test where no `pgbouncer` is installed (`.ci/run` installs it)."""
    binary = shutil.which("pgbouncer") or shutil.which("/usr/sbin/pgbouncer")
    if binary is None:
        pytest.skip("pgbouncer is not installed (apt-get install pgbouncer)")
    cluster = conninfo_to_dict(os.environ["DATABASE_URL"])
    user = cluster.get("user") or "postgres"
    port = free_port()
    target = f"host={cluster.get('host', '127.0.0.1')} port={cluster.get('port', 5432)}"
    # PgBouncer refuses to run as root: it runs as the owner of the cluster's socket directory
    # (or nobody), and must read its files as that user.
    directory.chmod(0o755)
    socket_dir = Path(cluster.get("host", ""))
    owner = socket_dir.owner() if socket_dir.is_absolute() else "nobody"
    (directory / "users.txt").write_text(f'"{user}" "{cluster.get("password", "")}"\n')
    (directory / "pgbouncer.ini").write_text(
        f"[databases]\n* = {target}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {directory / 'users.txt'}\n"
        f"pool_mode = {pool_mode}\ndefault_pool_size = 4\nmax_client_conn = 200\n"
    )
    log = directory / "pgbouncer.log"
    as_user = ["-u", owner] if os.geteuid() == 0 else []
    with log.open("w") as output:
        bouncer = subprocess.Popen(
            [binary, *as_user, str(directory / "pgbouncer.ini")],
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 20
        while not _accepts(port):
            assert bouncer.poll() is None, f"pgbouncer exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"pgbouncer not listening:\n{log.read_text()}"
            time.sleep(0.1)

        def through(database_url: str) -> str:
            name = urlsplit(database_url).path.lstrip("/")
            return f"postgresql://{user}@127.0.0.1:{port}/{name}"

        yield through
    finally:
        bouncer.terminate()
        bouncer.wait(timeout=10)


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0
