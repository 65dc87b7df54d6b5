"""The response headers the schema declares are the ones the API sends, on success, on a
replayed write and on a 429."""

import pytest

from tests.http.problems import assert_problem
from tests.schema_file import committed_schema

pytestmark = pytest.mark.django_db

SCHEMA = committed_schema()
OURS = {"X-Request-ID", "RateLimit-Policy", "RateLimit", "Retry-After", "Idempotent-Replayed"}


def declared(operation_id: str, status: int) -> set[str]:
    for operations in SCHEMA["paths"].values():
        for operation in operations.values():
            if operation["operationId"] == operation_id:
                return set(operation["responses"][str(status)].get("headers", {}))
    raise LookupError(operation_id)


def assert_headers(response, operation_id: str, *, absent: set[str] = frozenset()) -> None:
    """The response carries every header declared for it but those `absent` by design, and
    none of ours that is not declared."""
    sent = {name for name in OURS if response.has_header(name)}
    expected = declared(operation_id, response.status_code)
    assert sent == expected - absent, (operation_id, response.status_code, sent, expected)


def test_every_api_response_declares_the_request_id_and_the_rate_limits():
    for path, operations in SCHEMA["paths"].items():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                if path.startswith("/api/v1/"):
                    assert {"X-Request-ID", "RateLimit-Policy", "RateLimit"} <= set(
                        response["headers"]
                    ), (operation["operationId"], status)


def test_a_write_declares_and_sends_its_headers(rates, client):
    rates(match_create="2/hour")
    first = client.post("/api/v1/matches", {}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    assert_headers(first, "matches_create", absent={"Idempotent-Replayed"})
    replay = client.post("/api/v1/matches", {}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert replay.json() == first.json()
    assert replay["Idempotent-Replayed"] == "true"
    assert_headers(replay, "matches_create")
    refused = client.post("/api/v1/matches", {}, format="json")
    assert_problem(refused, 429, "throttled")
    assert_headers(refused, "matches_create")
    assert int(refused["Retry-After"]) > 0


def test_a_read_declares_and_sends_its_headers(client, new_match):
    match = new_match()
    assert_headers(client.get(f"/api/v1/matches/{match['id']}"), "matches_retrieve")
    assert_headers(client.get(f"/api/v1/matches/{match['id']}/events"), "matches_events")
    assert_headers(client.get("/api/v1/matches"), "matches_list")
