"""Helpers shared by the reliability tests."""

import asyncio

from tests.http.test_errors import assert_problem


def assert_edge_problem(response, status: int, code: str) -> dict:
    """A problem body as every error under /api/ must be: application/problem+json, with the
    request id of its X-Request-ID header."""
    assert response.headers["Content-Type"] == "application/problem+json", response.content
    body = assert_problem(response, status, code)
    assert body["request_id"] == response.headers["X-Request-ID"]
    assert "Traceback" not in response.content.decode()
    return body


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
