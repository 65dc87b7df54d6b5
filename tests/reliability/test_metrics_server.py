"""/metrics: Prometheus text, counts summed over the worker processes, only for localhost."""

import os

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.servers import migrated_database, served


def samples(text: str) -> dict[tuple, float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


@pytest.mark.slow
def test_metrics_add_up_across_workers(tmp_path):
    with (
        migrated_database("metrics") as database_url,
        served(tmp_path / "serve.log", {**os.environ, "DATABASE_URL": database_url}, workers=2) as (
            url,
            _,
        ),
    ):
        token = httpx.post(f"{url}/api/v1/players", json={"name": "Roya"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        httpx.post(f"{url}/api/v1/matches", json={}, headers=auth).raise_for_status()
        requests = 40
        for _ in range(requests):  # new connections, spread over both workers
            assert httpx.get(f"{url}/api/v1/matches", headers=auth).status_code == 200
        response = httpx.get(f"{url}/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    found = samples(response.text)
    route = "api/v1/matches"
    key = ("asnas_http_requests_total", (("method", "GET"), ("route", route), ("status", "200")))
    assert found[key] == requests
    latency = ("asnas_http_request_duration_seconds_count", (("route", route),))
    assert found[latency] == requests + 1  # and the POST
    assert found[("asnas_matches_in_play", ())] == 1
    assert ("asnas_database_errors_total", ()) in found
    assert ("asnas_embedded_postgres_restarts_total", ()) in found


@pytest.mark.django_db
def test_metrics_are_hidden_from_other_addresses_whatever_they_forward(client):
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 200
    forged = client.get("/metrics", REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert forged.status_code == 404


@pytest.mark.django_db
def test_a_setting_opens_metrics_to_everyone(client, settings):
    settings.ASNAS_METRICS_PUBLIC = True
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.7").status_code == 200
