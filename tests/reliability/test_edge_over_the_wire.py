"""The request edge against the real server (`manage.py serve`, granian): bodies sent chunked
are read, not taken as empty, and every error under /api/ is a problem body with its
request id."""

import os
import socket
import time
import uuid

import httpx
import pytest

from tests.reliability.support import assert_edge_problem
from tests.servers import migrated_database, served

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def served_edge(tmp_path_factory):
    """The server's base URL and its log (stdout and stderr)."""
    log = tmp_path_factory.mktemp("edge") / "serve.log"
    with migrated_database("edge") as database_url:
        env = {**os.environ, "DATABASE_URL": database_url}
        with served(log, env) as (url, _):
            yield url, log


@pytest.fixture(scope="module")
def server(served_edge):
    return served_edge[0]


@pytest.fixture
def api(server):
    with httpx.Client(base_url=f"{server}/api/v1", timeout=30) as client:
        token = client.post("/players", json={"name": "Roya"}).json()["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        yield client


def chunked(text: str):
    """httpx sends a body given as an iterator with Transfer-Encoding: chunked."""
    data = text.encode()
    return iter([data[:5], data[5:]])


def test_a_chunked_body_is_validated(api):
    response = api.post(
        "/matches",
        content=chunked('{"ai_level": "bogus"}'),
        headers={"Content-Type": "application/json"},
    )
    assert response.request.headers["Transfer-Encoding"] == "chunked"
    assert_edge_problem(response, 400, "validation_error")
    assert api.get("/matches").json()["count"] == 0


def test_a_chunked_restart_with_a_stale_version_is_refused(api):
    match = api.post("/matches", json={}).json()
    response = api.post(
        f"/matches/{match['id']}/restart",
        content=chunked('{"expected_version": 0}'),
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 409, response.text
    assert api.get(f"/matches/{match['id']}").json()["version"] == match["version"]


@pytest.mark.parametrize("path", ["/api/v1/players/me/tokens/rotate", "/api/v1/matches"])
def test_a_malformed_chunked_body_is_a_problem_not_a_500(api, path):
    """granian tells the app a body it cannot decode (a chunk size that is not hex) as the
    client's going away, though the client still waits: it gets a 400 problem, not the bare
    500 a server sends for an app that answered nothing, and nothing changes."""
    token = api.headers["Authorization"].encode()
    request = (
        b"POST "
        + path.encode()
        + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
        + token
        + b"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
        b"Connection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
    )
    address = httpx.URL(str(api.base_url))
    with socket.create_connection((address.host, address.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in header_lines)
    response = httpx.Response(int(status_line.split()[1]), headers=headers, content=body)
    assert response.status_code == 400, answer
    assert_edge_problem(response, 400, "bad_request")
    # The token was not rotated, no match was made.
    assert api.get("/players/me").status_code == 200
    assert api.get("/matches").json()["count"] == 0


def test_a_chunked_body_over_the_limit_is_413(api):
    response = api.post(
        "/matches",
        content=chunked('{"ai_level": "easy", "pad": "' + "x" * 100_000 + '"}'),
        headers={"Content-Type": "application/json"},
    )
    assert_edge_problem(response, 413, "request_too_large")


def test_a_body_over_a_mebibyte_is_413(api):
    response = api.post("/matches", json={"pad": "x" * 2 * 1024 * 1024})
    assert_edge_problem(response, 413, "request_too_large")


def test_a_bad_host_is_a_problem(server):
    response = httpx.get(f"{server}/api/v1/players/me", headers={"Host": "evil.example"})
    assert_edge_problem(response, 400, "invalid_host")


def test_a_bad_host_is_logged_in_one_line_without_a_traceback(served_edge):
    """Anyone can send a bad Host: each is one line in the log (besides the access log's JSON
    line, which every request gets), naming the host and the request id, not a traceback."""
    url, log = served_edge
    host = f"evil-{uuid.uuid4().hex}.example"
    start = log.stat().st_size
    request_ids = [
        assert_edge_problem(
            httpx.get(f"{url}/api/v1/players/me", headers={"Host": host}), 400, "invalid_host"
        )["request_id"]
        for _ in range(3)
    ]
    deadline = time.monotonic() + 5
    while True:
        with log.open() as output:
            output.seek(start)
            written = output.read()
        lines = [line for line in written.splitlines() if host in line]
        if len(lines) >= 3:
            break
        assert time.monotonic() < deadline, written
        time.sleep(0.1)
    assert "Traceback" not in written, written
    assert len(lines) == 3, written
    for line, request_id in zip(lines, request_ids, strict=True):
        assert request_id in line, line


def test_options_with_a_body_answers_in_json(api):
    response = api.request("OPTIONS", "/matches", json={"ai_level": "easy"})
    assert response.status_code == 200, response.text
    assert response.json()["parses"] == ["application/json"]
    assert "POST" in response.headers["Allow"]


def test_options_with_a_bad_host_is_a_problem(api):
    response = api.request("OPTIONS", "/matches", json={}, headers={"Host": "evil.example"})
    assert_edge_problem(response, 400, "invalid_host")


def test_a_405_is_a_problem(api):
    response = api.delete("/matches")
    assert_edge_problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_an_unknown_api_path_is_a_problem(server):
    assert_edge_problem(httpx.get(f"{server}/api/v1/nowhere"), 404, "not_found")
