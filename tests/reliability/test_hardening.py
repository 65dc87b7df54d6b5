"""Hostile input gets a clear 4xx and changes nothing; production settings are strict."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Match
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_an_oversized_body_is_413(client, new_match):
    view = new_match()
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions",
        '{"action": "look", "pad": "' + "x" * 100_000 + '"}',
        content_type="application/json",
    )
    assert_problem(response, 413, "request_too_large")
    assert Match.objects.get(id=view["id"]).version == view["version"]


def test_a_huge_name_is_a_validation_error(client):
    response = client.post("/api/v1/players", {"name": "x" * 10_000}, format="json")
    assert_problem(response, 400, "validation_error")


def test_a_non_json_content_type_is_415(client):
    response = client.post("/api/v1/matches", "ai_level=hard", content_type="text/plain")
    assert_problem(response, 415, "unsupported_media_type")
    assert not Match.objects.exists()


def test_an_unknown_method_is_405(client):
    assert_problem(client.delete("/api/v1/matches"), 405, "method_not_allowed")


@pytest.mark.parametrize("value", ["1e400", "NaN", "null", "[]", "{}", '"9"'])
def test_odd_json_values_for_expected_version_are_rejected(client, new_match, value):
    view = new_match()
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions",
        '{"action": "look", "expected_version": ' + value + "}",
        content_type="application/json",
    )
    if value == "null" or value == '"9"':
        # null is "not sent"; "9" is a valid integer string but not the current version.
        assert response.status_code in (200, 400, 409)
    else:
        assert_problem(response, 400, response.json()["code"])
        assert response.json()["code"] in ("validation_error", "parse_error")
    assert response.status_code < 500


@pytest.mark.parametrize(
    "path", ["/api/v1/matches/not-a-uuid", "/api/v1/matches/not-a-uuid/actions", "/api/v1/nothing"]
)
def test_a_url_that_matches_no_route_is_a_json_404(client, path):
    response = client.post(path, {"action": "look"}, format="json")
    assert response["Content-Type"] == "application/problem+json"
    assert_problem(response, 404, "not_found")


def test_outside_the_api_a_404_stays_a_page(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def production_env(**extra) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DEBUG", "SECRET_KEY", "ASNAS_HTTPS"))
    }
    return {**env, "SECRET_KEY": "x" * 64 + "-production-key-for-the-deploy-check", **extra}


def test_check_deploy_is_clean_in_production_mode():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(ASNAS_HTTPS="1"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_security_headers_are_set(client):
    response = client.get("/healthz")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
