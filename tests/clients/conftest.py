"""One real server for the client tests: gunicorn on a database of its own.

The generated clients and `manage.py play` speak HTTP only, so they need a server in another
process, as a person would run it. It runs on a fresh database on the tests' Postgres cluster
(not pytest-django's `test_` database, whose transactions a server could not see).
"""

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import BASE_DIR, free_port, migrated_database, wait_until_ready


@pytest.fixture(scope="session")
def server_env() -> dict[str, str]:
    """The environment of a server process on a fresh, migrated database, dropped at the end."""
    with migrated_database("clients") as url:
        yield {**os.environ, "DATABASE_URL": url, "ASNAS_ALLOW_CLIENT_SEED": "1"}


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


REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILE = REPO / "openapi.yaml"

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="session")
def asnas_client(tmp_path_factory):
    """The generated package, imported from a temporary folder."""
    folder = tmp_path_factory.mktemp("python-client")
    # The generator's post-hooks would run ruff on the output, which need not be on PATH.
    config = folder / "config.yaml"
    config.write_text("post_hooks: []\n")
    result = subprocess.run(
        [GENERATOR, "generate", "--path", SCHEMA_FILE, "--meta", "none"]
        + ["--output-path", folder / "asnas_client", "--config", config],
        capture_output=True,
        text=True,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # It reports schema parts it could not turn into code as warnings and still succeeds.
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("asnas_client")
    finally:
        sys.path.remove(str(folder))
