"""CORS: browsers on the origins in ASNAS_CORS_ORIGINS may call the API, and no others."""

import json
import os
import subprocess
import sys

import pytest
from django.test import Client

from tests.servers import BASE_DIR

TABLE = "https://table.example"


def preflight(client: Client, origin: str, headers: str = "authorization,content-type"):
    return client.options(
        "/api/v1/players",
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS=headers,
    )


@pytest.fixture
def table_allowed(settings):
    settings.CORS_ALLOWED_ORIGINS = [TABLE]


def test_no_origin_is_allowed_by_default(db):
    response = preflight(Client(), TABLE)
    assert "access-control-allow-origin" not in response.headers


def test_preflight_from_an_allowed_origin_allows_the_api_headers(db, table_allowed):
    response = preflight(Client(), TABLE, "authorization,content-type,idempotency-key")
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == TABLE
    allowed = response.headers["access-control-allow-headers"].split(", ")
    assert {"authorization", "content-type", "idempotency-key"} <= set(allowed)
    assert "POST" in response.headers["access-control-allow-methods"]
    assert "access-control-allow-credentials" not in response.headers


def test_preflight_from_another_origin_is_not_allowed(db, table_allowed):
    response = preflight(Client(), "https://evil.example")
    assert "access-control-allow-origin" not in response.headers


def test_answers_expose_the_headers_a_client_reads(db, table_allowed):
    response = Client().post(
        "/api/v1/players", {"name": "Roya"}, content_type="application/json", HTTP_ORIGIN=TABLE
    )
    assert response.status_code == 201
    assert response.headers["access-control-allow-origin"] == TABLE
    exposed = {
        name.strip().lower()
        for name in response.headers["access-control-expose-headers"].split(",")
    }
    assert exposed == {
        "ratelimit",
        "ratelimit-policy",
        "retry-after",
        "x-request-id",
        "idempotent-replayed",
        "date",
    }


def test_problem_answers_carry_cors_too(db, table_allowed):
    # A browser shows the page nothing of a 4xx without it, so no readable message.
    response = Client().get("/api/v1/players/me", HTTP_ORIGIN=TABLE)
    assert response.status_code == 401
    assert response.headers["access-control-allow-origin"] == TABLE


def cors_settings(origins: str) -> dict:
    """The CORS settings as a server started with ASNAS_CORS_ORIGINS=origins reads them."""
    code = (
        "import json; from django.conf import settings as s;"
        "print(json.dumps([s.CORS_ALLOW_ALL_ORIGINS, s.CORS_ALLOWED_ORIGINS,"
        " s.CORS_ALLOW_CREDENTIALS]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=BASE_DIR,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "asnas_api.settings",
            "ASNAS_CORS_ORIGINS": origins,
        },
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


@pytest.mark.slow
def test_the_setting_lists_origins_and_star_means_any_without_credentials():
    assert cors_settings("") == [False, [], False]
    assert cors_settings(f"{TABLE}, http://127.0.0.1:5173") == [
        False,
        [TABLE, "http://127.0.0.1:5173"],
        False,
    ]
    assert cors_settings("*") == [True, [], False]
