"""Every error under /api/ is a problem body with a request id, whatever made it; every
request is written in the JSON access log under that id."""

import json
import logging

import pytest
from django.test import Client
from rest_framework.test import APIClient

from asnas_api.gate import RateLimit
from tests.reliability.support import assert_edge_problem

pytestmark = pytest.mark.django_db


def test_a_bad_host_is_a_problem():
    response = Client(HTTP_HOST="evil.example").get("/api/v1/players/me")
    assert_edge_problem(response, 400, "invalid_host")


def test_outside_the_api_a_bad_host_stays_a_page():
    response = Client(HTTP_HOST="evil.example").get("/admin/")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


def test_a_405_is_a_problem_with_allow(client):
    response = client.delete("/api/v1/matches")
    assert_edge_problem(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]


@pytest.mark.parametrize("debug", [False, True])
def test_a_500_is_a_problem_without_a_traceback(monkeypatch, settings, debug):
    settings.DEBUG = debug

    def fail(self, request, view):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(RateLimit, "allow_request", fail)
    response = Client(raise_request_exception=False).post(
        "/api/v1/players", {"name": "Roya"}, content_type="application/json"
    )
    body = assert_edge_problem(response, 500, "server_error")
    assert "secret internals" not in response.content.decode()
    assert set(body) == {"type", "title", "status", "code", "detail", "request_id"}


def test_a_sane_incoming_request_id_is_kept(client):
    response = client.get("/api/v1/matches/not-a-uuid", HTTP_X_REQUEST_ID="proxy-42.a:b")
    assert response["X-Request-ID"] == "proxy-42.a:b"
    assert assert_edge_problem(response, 404, "not_found")["request_id"] == "proxy-42.a:b"


@pytest.mark.parametrize("incoming", ["x" * 129, "two words", "<script>", ""])
def test_an_odd_incoming_request_id_is_replaced(client, incoming):
    response = client.get("/api/v1/players/me", HTTP_X_REQUEST_ID=incoming)
    assert response.status_code == 200
    assert response["X-Request-ID"] != incoming
    assert len(response["X-Request-ID"]) == 32


def test_every_request_is_logged_as_one_json_line(client, caplog):
    with caplog.at_level(logging.INFO, logger="asnas_api.access"):
        ok = client.get("/api/v1/players/me")
        refused = APIClient().get("/api/v1/players/me", REMOTE_ADDR="10.1.2.3")
    lines = [
        json.loads(record.getMessage())
        for record in caplog.records
        if record.name == "asnas_api.access"
    ]
    assert lines == [
        {
            "method": "GET",
            "path": "/api/v1/players/me",
            "route": "api/v1/players/me",
            "status": 200,
            "duration_ms": lines[0]["duration_ms"],
            "request_id": ok["X-Request-ID"],
            "client": "127.0.0.1",
        },
        {
            "method": "GET",
            "path": "/api/v1/players/me",
            "route": "api/v1/players/me",
            "status": 401,
            "duration_ms": lines[1]["duration_ms"],
            "request_id": refused["X-Request-ID"],
            "client": "10.1.2.3",
        },
    ]
    assert all(line["duration_ms"] >= 0 for line in lines)


def test_a_problem_keeps_the_headers_of_its_error():
    response = APIClient().get("/api/v1/players/me")
    assert_edge_problem(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert int(response["Content-Length"]) == len(response.content)
