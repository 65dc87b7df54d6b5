"""One real server for the client tests: `manage.py serve` on a database of its own.

The generated clients and `manage.py play` speak HTTP only, so they need a server in another
process, as a person would run it. It runs on a fresh database on the tests' Postgres cluster
(not pytest-django's `test_` database, whose transactions a server could not see).
"""

import importlib
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.clients.npm import install_node_modules
from tests.schema_file import SCHEMA_FILE
from tests.servers import ARTIFACTS_DIR, migrated_database, served


@pytest.fixture(scope="session")
def server_env() -> dict[str, str]:
    """The environment of a server process on a fresh, migrated database, dropped at the end."""
    with migrated_database("clients") as url:
        # The coach's exact hint takes seconds of CPU on a loaded machine (4.6 s seen with 8
        # engineers' tests on 2 cores), close to the 5 s request deadline.
        yield {
            **os.environ,
            "DATABASE_URL": url,
            "ASNAS_ALLOW_CLIENT_SEED": "1",
            "ASNAS_REQUEST_DEADLINE": "30",
        }


@pytest.fixture(scope="session")
def server_url(server_env, tmp_path_factory) -> str:
    """The base URL of the API as `manage.py serve` serves it: granian's ASGI workers, which
    hold the long-polls and streams of the clients that follow a table."""
    with served(tmp_path_factory.mktemp("server") / "serve.log", server_env) as (url, _):
        yield url


@pytest.fixture(scope="session")
def node_modules():
    """The locked npm packages of tests/clients/ts (skips where npm cannot install them)."""
    return install_node_modules()


class Terminal:
    """A real terminal: a tmux server of its own running one command in a pane of a given
    size, with the server's DATABASE_URL and none of the tests' COLUMNS or LINES."""

    def __init__(self, name: str):
        self.tmux = ["tmux", "-L", name]
        self.name = name

    def start(self, command: list[str], env: dict[str, str], cwd: Path, size=(80, 24)) -> None:
        command = ["env", "-u", "COLUMNS", "-u", "LINES", *command]
        database = [f"-e{key}={value}" for key, value in env.items() if key == "DATABASE_URL"]
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", self.name, "-x", str(size[0])]
            + ["-y", str(size[1]), *database, "-c", str(cwd), shlex.join(command) + "; sleep 60"],
            check=True,
        )

    def keys(self, keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, keys], check=True)

    def pane(self, showing: str, timeout: float = 60) -> str:
        """The screen, once it shows `showing`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pane = self._tmux("capture-pane", "-p")
            if showing in pane:
                return pane
            time.sleep(0.2)
        pytest.fail(f"{showing!r} never showed; the pane:\n{pane}")

    def screen(self) -> str:
        """The screen as it is now."""
        return self._tmux("capture-pane", "-p")

    def scrolled(self) -> int:
        """How many lines went off the top of the screen."""
        return int(self._tmux("display-message", "-p", "-t", self.name, "#{history_size}"))

    def _tmux(self, *command: str) -> str:
        return subprocess.run(
            [*self.tmux, *command], check=True, capture_output=True, text=True
        ).stdout

    def stop(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False)


@pytest.fixture
def terminal(request):
    """A Terminal for this test, its tmux server stopped at the end."""
    terminal = Terminal(f"{request.node.name[:40]}-{os.getpid()}")
    yield terminal
    terminal.stop()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """ARTIFACTS_DIR, made if need be."""
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    return ARTIFACTS_DIR


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
