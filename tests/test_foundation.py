"""The service's frame: settings, health probes, the OpenAPI schema and the offline docs."""

import asyncio
import importlib.util
import json
import multiprocessing
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import OperationalError
from drf_spectacular.validation import validate_schema

import asnas_api.settings
from asnas_api import asgi
from asnas_api.pytest_plugin import RUN_TIMEOUTS
from tests.reliability.support import asgi_get

SETTINGS_FILE = Path(asnas_api.settings.__file__)
ENV_SETTINGS = ("SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "ASNAS_ALLOW_CLIENT_SEED", "ASNAS_DATA_DIR")
# The test run sets these for its own processes; the settings' own defaults are under test.
RUN_SETTINGS = tuple(RUN_TIMEOUTS)


def load_settings(monkeypatch, **env):
    """Execute settings.py afresh under exactly the given environment."""
    for name in ENV_SETTINGS + RUN_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", "postgres://asnas:secret@db.example:5433/asnas")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_under_test", SETTINGS_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_settings_defaults_are_safe(monkeypatch):
    loaded = load_settings(monkeypatch)
    assert loaded.DEBUG is False
    assert loaded.ASNAS_ALLOW_CLIENT_SEED is False
    assert loaded.ALLOWED_HOSTS == ["127.0.0.1", "localhost", "testserver"]
    assert loaded.DATA_DIR == SETTINGS_FILE.parent.parent / ".data"


def test_without_secret_key_the_installation_generates_and_keeps_its_own(monkeypatch, tmp_path):
    first = load_settings(monkeypatch, ASNAS_DATA_DIR=str(tmp_path))
    again = load_settings(monkeypatch, ASNAS_DATA_DIR=str(tmp_path))
    other = load_settings(monkeypatch, ASNAS_DATA_DIR=str(tmp_path / "other"))
    assert len(first.SECRET_KEY) >= 50
    assert again.SECRET_KEY == first.SECRET_KEY != other.SECRET_KEY
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def make_the_key(path: Path, start, keys) -> None:
    start.wait()
    keys.put(asnas_api.settings.install_secret_key(path))


@pytest.mark.slow
def test_processes_starting_together_on_a_fresh_installation_read_one_whole_key(tmp_path):
    """serve's processes start together on a fresh data directory, and each may make the key:
    none may read it half written, and all must sign with the same key. A bench run's serve
    once read an empty key, refused it as weak and did not start. Made empty and then
    written, the key file failed 8 of 40 rounds of 8 processes."""
    forks = multiprocessing.get_context("fork")  # no import of Django again in each process
    for round_number in range(40):
        path = tmp_path / str(round_number) / "secret_key"
        start, keys = forks.Barrier(8), forks.Queue()
        processes = [forks.Process(target=make_the_key, args=(path, start, keys)) for _ in range(8)]
        for process in processes:
            process.start()
        read = [keys.get(timeout=30) for _ in processes]
        for process in processes:
            process.join(timeout=30)
        assert len(set(read)) == 1 and len(read[0]) >= 50, (round_number, read)
        assert [entry.name for entry in path.parent.iterdir()] == ["secret_key"]  # no drafts


def test_settings_read_the_environment(monkeypatch, tmp_path):
    loaded = load_settings(
        monkeypatch,
        SECRET_KEY="from-env",
        DEBUG="true",
        ALLOWED_HOSTS="api.example, localhost,",
        ASNAS_DATA_DIR=str(tmp_path),
    )
    assert loaded.SECRET_KEY == "from-env"
    assert loaded.DEBUG is True
    assert loaded.ASNAS_ALLOW_CLIENT_SEED is True, "on by default under DEBUG"
    assert loaded.ALLOWED_HOSTS == ["api.example", "localhost"]
    assert loaded.DATA_DIR == tmp_path
    database = loaded.DATABASES["default"]
    assert (database["HOST"], database["PORT"], database["NAME"]) == ("db.example", 5433, "asnas")
    assert database["CONN_MAX_AGE"] == 0, "pooled, as Django advises under ASGI"
    options = database["OPTIONS"]
    assert options["connect_timeout"] == 3
    assert "statement_timeout=" in options["options"] and "lock_timeout=" in options["options"]
    assert options["pool"]["timeout"] <= 3


@pytest.mark.parametrize(
    ("debug", "allow", "expected"),
    [("1", "0", False), ("0", "yes", True), ("no", "", False), ("on", "", True)],
)
def test_client_seed_flag_follows_debug_unless_set(monkeypatch, debug, allow, expected):
    loaded = load_settings(monkeypatch, DEBUG=debug, ASNAS_ALLOW_CLIENT_SEED=allow)
    assert loaded.ASNAS_ALLOW_CLIENT_SEED is expected


def test_settings_accept_the_embedded_servers_socket_uri(monkeypatch):
    loaded = load_settings(
        monkeypatch, DATABASE_URL="postgresql://postgres:@/postgres?host=/run/pg"
    )
    database = loaded.DATABASES["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["OPTIONS"]["host"] == "/run/pg"


def test_importing_the_settings_starts_no_database(tmp_path):
    """Without DATABASE_URL the settings name the embedded Postgres of DATA_DIR, and leave
    starting it to the first connection (a command that never connects never starts it)."""
    env = {**os.environ, "ASNAS_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL")
    script = "import json, asnas_api.settings as s; print(json.dumps(s.DATABASES['default']))"
    loaded = subprocess.run(
        [sys.executable, "-c", script],
        cwd=SETTINGS_FILE.parent.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert not (tmp_path / "postgres").exists(), "no cluster made, none started"
    assert json.loads(loaded.stdout)["ENGINE"] == "asnas_api.embedded_backend"


def test_until_serve_prepared_the_database_only_healthz_answers(tmp_path, monkeypatch):
    """serve starts granian while its migrations run: until they are done, every request but
    /healthz gets a 503 problem with Retry-After, and none reaches Django."""
    prepared = tmp_path / "prepared"
    monkeypatch.setattr(asgi, "prepared", asgi.Preparation(str(prepared)))
    for path in ("/readyz", "/api/v1/", "/"):
        status, headers, body = asyncio.run(asgi_get(asgi.application, path))
        assert (status, headers["retry-after"]) == (503, "1"), path
        assert headers["content-type"] == "application/problem+json"
        assert json.loads(body)["code"] == "database_unavailable"
    assert asyncio.run(asgi_get(asgi.application, "/healthz"))[0] == 200
    prepared.touch()
    # The schema counts no rate (a counter's row, committed by the app's own thread, would
    # outlive this test).
    assert asyncio.run(asgi_get(asgi.application, "/api/schema/"))[0] == 200


def test_tests_may_fix_the_seed():
    assert settings.ASNAS_ALLOW_CLIENT_SEED is True


def test_healthz_answers_without_the_database(client):
    # No django_db mark: any query here would fail the test.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_answers_while_the_database_does(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready"}


def test_readyz_is_unavailable_when_the_database_is_not(client):
    with mock.patch("asnas_api.health.connection") as connection:
        connection.cursor.side_effect = OperationalError("connection refused")
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}


def test_schema_is_valid_openapi(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    validate_schema(schema)
    assert (schema["info"]["title"], schema["info"]["version"]) == ("asnas-api", "1.0.0")


def test_schema_generates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_load_nothing_from_other_hosts(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert "://" not in html, "an absolute URL would leave localhost"
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets
    assert all(asset.startswith("/static/") for asset in assets), assets


@pytest.mark.parametrize(
    "path",
    [
        "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
        "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css",
        "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js",
        "admin/css/base.css",
    ],
)
def test_static_files_are_served_by_the_app(client, path):
    # DEBUG is off and no URL pattern serves /static/: only WhiteNoise can answer.
    response = client.get(f"/static/{path}")
    assert response.status_code == 200
    assert b"".join(response.streaming_content)


def test_the_tests_cluster_takes_the_clients_of_every_worker_and_their_servers(db):
    """The cluster the tests share is made with room for every worker's servers: Postgres's
    default of 100 clients ran out in a parallel run."""
    from django.db import connection

    from asnas_api.pytest_plugin import TESTS_MAX_CONNECTIONS, TESTS_PGDATA

    if not os.environ.get(TESTS_PGDATA):
        pytest.skip("the tests run on a cluster DATABASE_URL names, not one they made")
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        assert int(cursor.fetchone()[0]) == TESTS_MAX_CONNECTIONS
