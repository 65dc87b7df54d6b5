"""The service behind PgBouncer in transaction mode (ASNAS_DB_POOLER=transaction), where each
transaction may run on another server connection: a real `serve` plays, reads and replays an
idempotent retry through it, and each transaction carries its own timeouts."""

import json
import os
import subprocess
import sys
import uuid

import httpx
import psycopg
import pytest
from django.db import connection, transaction

from asnas_api.pooler import set_local_timeouts
from tests.servers import BASE_DIR, migrated_database, pgbouncer, served

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bouncer(tmp_path_factory):
    with pgbouncer(tmp_path_factory.mktemp("pgbouncer")) as through:
        yield through


def test_startup_options_do_not_pass_pgbouncer(bouncer):
    # Why the pooler setting drops them: the default settings cannot connect through it.
    url = bouncer(os.environ["DATABASE_URL"])
    with pytest.raises(psycopg.OperationalError, match="unsupported startup parameter"):
        psycopg.connect(url, options="-c statement_timeout=4000").close()


def test_serve_plays_through_pgbouncer_in_transaction_mode(bouncer, tmp_path):
    with migrated_database("pgbouncer") as database_url:
        env = {
            **os.environ,
            "DATABASE_URL": bouncer(database_url),
            "ASNAS_DB_POOLER": "transaction",
        }
        with (
            served(tmp_path / "serve.log", env, workers=2) as (url, _),
            httpx.Client(base_url=f"{url}/api/v1", timeout=30) as api,
        ):
            token = api.post("/players", json={"name": "Roya"}).json()["token"]
            api.headers["Authorization"] = f"Bearer {token}"
            match = api.post("/matches", json={"seed": 7}).json()
            path = f"/matches/{match['id']}"
            key = {"Idempotency-Key": uuid.uuid4().hex}
            played = 0
            while played < 20:  # actions and next deals, over many transactions
                match = api.get(path).json()
                if match["status"] == "deal_over":
                    response = api.post(f"{path}/next-deal", json={})
                else:
                    body = {"action": match["legal_actions"][-1]}
                    response = api.post(f"{path}/actions", json=body, headers=key)
                    retry = api.post(f"{path}/actions", json=body, headers=key)
                    assert retry.headers["Idempotent-Replayed"] == "true"
                    assert retry.json() == response.json()
                    key = {"Idempotency-Key": uuid.uuid4().hex}
                assert response.status_code in (200, 201), response.text
                played += 1
            history = api.get(f"{path}/events").json()
            seqs = [event["seq"] for event in history["events"]]
            assert seqs == list(range(1, history["version"] + 1))
            assert history["version"] == api.get(path).json()["version"] > played


@pytest.mark.django_db(transaction=True)
def test_each_transaction_sets_its_own_timeouts(settings):
    settings.ASNAS_DB_STATEMENT_TIMEOUT_MS, settings.ASNAS_DB_LOCK_TIMEOUT_MS = 1234, 567
    with connection.execute_wrapper(set_local_timeouts):
        for _ in range(2):  # the second transaction gets them again: SET LOCAL ends with each
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('statement_timeout')")
                assert cursor.fetchone() == ("1234ms",)
                cursor.execute("SELECT current_setting('lock_timeout')")
                assert cursor.fetchone() == ("567ms",)
            with connection.cursor() as cursor:  # and they end with it
                cursor.execute("SELECT current_setting('lock_timeout')")
                assert cursor.fetchone() != ("567ms",)


def _settings_with(pooler: str) -> subprocess.CompletedProcess:
    code = (
        "import django, json; django.setup(); from django.conf import settings; "
        "db = settings.DATABASES['default']; "
        "print(json.dumps([db['OPTIONS'].get('options'), db['OPTIONS'].get('prepare_threshold', 5),"
        " db.get('DISABLE_SERVER_SIDE_CURSORS', False)]))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "asnas_api.settings", "ASNAS_DB_POOLER": pooler}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )


def test_the_pooler_setting_drops_what_cannot_outlive_a_transaction():
    options, prepare_threshold, no_server_cursors = json.loads(_settings_with("transaction").stdout)
    assert (options, prepare_threshold, no_server_cursors) == (None, None, True)
    options, prepare_threshold, no_server_cursors = json.loads(_settings_with("").stdout)
    assert "statement_timeout" in options and no_server_cursors is False


def test_an_unknown_pooler_is_refused():
    refused = _settings_with("session")
    assert refused.returncode != 0 and "ASNAS_DB_POOLER" in refused.stderr
