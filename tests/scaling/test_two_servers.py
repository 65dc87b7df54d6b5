"""Two `serve` processes on one database, as two app hosts behind a load balancer: rate limits
count once for both, an idempotent retry sent to the other server gets the stored answer, and
a match is played on both in turn."""

import datetime
import os
import time
import uuid

import httpx
import pytest

from tests.servers import migrated_database, served

pytestmark = pytest.mark.slow

TOKEN_LIMIT = 30


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    logs = tmp_path_factory.mktemp("two-servers")
    with migrated_database("two_servers") as database_url:
        # A daily window: a test of a few seconds cannot see it start over (but at midnight).
        env = {**os.environ, "DATABASE_URL": database_url, "ASNAS_RATE_TOKEN": f"{TOKEN_LIMIT}/day"}
        with (
            served(logs / "a.log", env, workers=1) as (a, _),
            served(logs / "b.log", env, workers=1) as (b, _),
        ):
            yield a, b


def _player(server: str) -> dict[str, str]:
    token = httpx.post(f"{server}/api/v1/players", json={"name": "Roya"}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _away_from_midnight() -> None:
    now = datetime.datetime.now(datetime.UTC)
    if now.hour == 23 and now.minute == 59:
        time.sleep(61 - now.second)


def test_one_rate_limit_counts_requests_to_both_servers(servers):
    _away_from_midnight()
    auth = _player(servers[0])
    answers = [
        httpx.get(f"{servers[i % 2]}/api/v1/matches", headers=auth).status_code
        for i in range(TOKEN_LIMIT + 2)
    ]
    # Each server alone saw 16 requests, under the limit: only a shared count stops the last two.
    assert answers == [200] * TOKEN_LIMIT + [429, 429]


def test_a_retry_sent_to_the_other_server_gets_the_stored_answer(servers):
    a, b = servers
    auth = _player(a)
    match = httpx.post(f"{a}/api/v1/matches", json={"seed": 3}, headers=auth).json()
    body = {"action": match["legal_actions"][-1], "expected_version": match["version"]}
    headers = {**auth, "Idempotency-Key": uuid.uuid4().hex}
    first = httpx.post(f"{a}/api/v1/matches/{match['id']}/actions", json=body, headers=headers)
    retry = httpx.post(f"{b}/api/v1/matches/{match['id']}/actions", json=body, headers=headers)
    assert first.status_code == 200, first.text
    assert retry.status_code == 200 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    reread = httpx.get(f"{b}/api/v1/matches/{match['id']}", headers=auth).json()
    assert reread["version"] == first.json()["version"]  # applied once


def test_a_match_is_played_on_both_servers_in_turn(servers):
    auth = _player(servers[0])
    match = httpx.post(f"{servers[0]}/api/v1/matches", json={"seed": 5}, headers=auth).json()
    for step in range(8):  # three requests a step: within the token limit
        server = f"{servers[step % 2]}/api/v1/matches/{match['id']}"
        stale = match["version"]
        if match["status"] == "deal_over":
            response = httpx.post(f"{server}/next-deal", json={}, headers=auth)
        else:
            body = {"action": match["legal_actions"][-1], "expected_version": stale}
            response = httpx.post(f"{server}/actions", json=body, headers=auth)
        assert response.status_code in (200, 201), response.text
        match = response.json()
        assert match["version"] > stale
        # The other server sees the move at once, and refuses a move made on the old version.
        other = f"{servers[(step + 1) % 2]}/api/v1/matches/{match['id']}"
        assert httpx.get(other, headers=auth).json()["version"] == match["version"]
        if match["status"] == "in_deal":
            body = {"action": match["legal_actions"][-1], "expected_version": stale}
            refused = httpx.post(f"{other}/actions", json=body, headers=auth)
            assert refused.status_code == 409 and refused.json()["code"] == "stale_version"
