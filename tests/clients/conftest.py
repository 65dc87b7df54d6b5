"""One real server for the client tests: gunicorn on a database of its own.

The generated clients and `manage.py play` speak HTTP only, so they need a server in another
process, as a person would run it. It runs on a fresh database on the tests' Postgres cluster
(not pytest-django's `test_` database, whose transactions a server could not see).
"""

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

BASE_DIR = Path(__file__).resolve().parents[2]


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


def _admin(sql: str) -> None:
    # CREATE and DROP DATABASE cannot run inside a transaction.
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
        connection.execute(sql)


@pytest.fixture(scope="session")
def server_env() -> dict[str, str]:
    """The environment of a server process on a fresh, migrated database, dropped at the end."""
    name = f"clients_{secrets.token_hex(4)}"
    _admin(f"CREATE DATABASE {name}")
    url = urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}").geturl()
    env = {**os.environ, "DATABASE_URL": url, "ASNAS_ALLOW_CLIENT_SEED": "1"}
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
            cwd=BASE_DIR,
            env=env,
            check=True,
        )
        yield env
    finally:
        _admin(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def server_url(server_env, tmp_path_factory) -> str:
    """The base URL of the API served by gunicorn, as `manage.py serve` runs it."""
    port = free_port()
    log = tmp_path_factory.mktemp("server") / "gunicorn.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "asnas_api.wsgi", "--workers", "2"]
            + ["--bind", f"127.0.0.1:{port}", "--no-control-socket"],
            cwd=BASE_DIR,
            env=server_env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(f"{url}/readyz", server, log)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
