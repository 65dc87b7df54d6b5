"""Helpers shared by the reliability tests."""

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.api.test_errors import assert_problem
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]


def assert_edge_problem(response, status: int, code: str) -> dict:
    """A problem body as every error under /api/ must be: application/problem+json, with the
    request id of its X-Request-ID header."""
    assert response.headers["Content-Type"] == "application/problem+json", response.content
    body = assert_problem(response, status, code)
    assert body["request_id"] == response.headers["X-Request-ID"]
    assert "Traceback" not in response.content.decode()
    return body


class Gunicorn:
    """The app under gunicorn's sync workers, as `serve` runs it today."""

    def __init__(self, database_url: str, log: Path, **env):
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("a") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "asnas_api.wsgi", "--workers", "2"]
                + ["--bind", f"127.0.0.1:{self.port}", "--no-control-socket"],
                cwd=ROOT,
                env={**os.environ, "DATABASE_URL": database_url, **env},
                stdout=output,
                stderr=subprocess.STDOUT,
                process_group=0,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"gunicorn exited:\n{log.read_text()}"
            try:
                if httpx.get(f"{self.base_url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        self.stop()
        pytest.fail(f"gunicorn did not get ready:\n{log.read_text()}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
