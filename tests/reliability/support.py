"""Helpers shared by the reliability tests."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.api.test_errors import assert_problem
from tests.servers import free_port, wait_until_ready

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
        try:
            wait_until_ready(f"{self.base_url}/healthz", self.process, log)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


async def asgi_get(app, path: str) -> tuple[int, dict[str, str], bytes]:
    """One GET straight into an ASGI app, with no server: (status, headers, body)."""
    sent = []
    requests = iter([{"type": "http.request", "body": b"", "more_body": False}])

    async def receive():
        # The request once; then the client stays connected until the app is done.
        return next(requests, None) or await asyncio.Future()

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"localhost")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    await app(scope, receive, send)
    start, *bodies = sent
    headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    return start["status"], headers, b"".join(body.get("body", b"") for body in bodies)
