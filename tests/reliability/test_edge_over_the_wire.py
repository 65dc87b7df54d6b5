"""The request edge against the real server (`manage.py serve`, granian): bodies sent chunked
are read, not taken as empty, and every error under /api/ is a problem body with its
request id."""

import os

import httpx
import pytest

from tests.reliability.support import assert_edge_problem
from tests.servers import migrated_database, served

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with migrated_database("edge") as database_url:
        env = {**os.environ, "DATABASE_URL": database_url}
        with served(tmp_path_factory.mktemp("edge") / "serve.log", env) as (url, _):
            yield url


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


def test_a_405_is_a_problem(api):
    response = api.delete("/matches")
    assert_edge_problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_an_unknown_api_path_is_a_problem(server):
    assert_edge_problem(httpx.get(f"{server}/api/v1/nowhere"), 404, "not_found")
