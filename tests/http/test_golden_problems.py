"""The error bodies of the common failures, byte for byte as a client gets them: status,
Content-Type, the headers a client acts on, and the whole problem body (without its request
id, which is new each time). A change of the code path that answers them, for speed or
anything else, must leave them alone. `ASNAS_WRITE_GOLDEN=1` rewrites the file, to be
reviewed as a change of the API."""

import json
import os
import re
import uuid
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games.models import Match

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).with_name("golden_problems.json")
MISSING = uuid.UUID(int=7)
# The headers a client acts on; RateLimit's reset time moves with the clock, so only its shape.
HEADERS = ("Content-Type", "WWW-Authenticate", "Allow", "Retry-After", "RateLimit-Policy")


def answer(response, match_id: str | None) -> dict:
    body = json.loads(response.content)
    assert body.pop("request_id") == response["X-Request-ID"]
    text = json.dumps(body, sort_keys=True)
    if match_id:
        text = text.replace(match_id, "<match>")
    text = re.sub(r"available in \d+ seconds?", "available in <n> seconds", text)
    headers = {name: response[name] for name in HEADERS if response.has_header(name)}
    if "Retry-After" in headers:
        headers["Retry-After"] = "<seconds>" if int(headers["Retry-After"]) > 0 else "0?"
    headers["RateLimit"] = re.sub(r"t=\d+", "t=<s>", response.get("RateLimit", ""))
    return {"status": response.status_code, "headers": headers, "body": json.loads(text)}


def failures(client: APIClient, anonymous: APIClient) -> dict:
    """Each common failure, made once, by name."""
    created = client.post("/api/v1/matches", {"seed": 5}, format="json").json()
    match = f"/api/v1/matches/{created['id']}"
    look = {"action": "look"}
    version = client.post(f"{match}/actions", look, format="json").json()["version"]
    made = {
        "no token": anonymous.get(match),
        "bad token": APIClient(HTTP_AUTHORIZATION="Bearer not-a-token").get(match),
        "wrong scheme": APIClient(HTTP_AUTHORIZATION="Basic eDp5").get(match),
        "no such match": client.get(f"/api/v1/matches/{MISSING}"),
        "no such page": client.get("/api/v1/no-such-page"),
        "method not allowed": client.delete(match),
        "unknown action": client.post(f"{match}/actions", {"action": "dance"}, format="json"),
        "missing action": client.post(f"{match}/actions", {}, format="json"),
        "unknown field": client.post(f"{match}/actions", {**look, "actoin": 1}, format="json"),
        "malformed json": client.post(
            f"{match}/actions", "{not json", content_type="application/json"
        ),
        "not json": client.post(f"{match}/actions", "action=look", content_type="text/plain"),
        "too large": client.post(f"{match}/actions", {"action": "x" * 20000}, format="json"),
        "stale version": client.post(
            f"{match}/actions", {**look, "expected_version": 1}, format="json"
        ),
        "already looked": client.post(f"{match}/actions", look, format="json"),
        "deal in progress": client.post(f"{match}/next-deal", {}, format="json"),
    }
    assert Match.objects.get().version == version  # none of them changed the match
    key = {"format": "json", "HTTP_IDEMPOTENCY_KEY": "k1"}
    client.post("/api/v1/matches", {"seed": 6}, **key)
    made["key reused"] = client.post("/api/v1/matches", {"seed": 7}, **key)
    return {name: answer(response, created["id"]) for name, response in made.items()}


def throttled(make_client, rates) -> dict:
    rates(token="1/min")
    client = make_client("Babak")
    client.get("/api/v1/players/me")
    return {"throttled": answer(client.get("/api/v1/players/me"), None)}


@pytest.fixture
def rates(settings, still_gate_clock):
    def set_rates(**limits):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                **limits,
            },
        }

    return set_rates


def test_the_common_failures_answer_exactly_as_before(client, make_client, rates):
    found = {**failures(client, APIClient()), **throttled(make_client, rates)}
    if os.environ.get("ASNAS_WRITE_GOLDEN"):
        GOLDEN.write_text(json.dumps(found, indent=2, sort_keys=True) + "\n")
    golden = json.loads(GOLDEN.read_text())
    assert found.keys() == golden.keys()
    for name, expected in golden.items():
        assert found[name] == expected, name
