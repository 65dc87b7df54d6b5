"""A person at the API over plain HTTP, for the client tests that need a second player beside
the client under test."""

import json
import urllib.request


def call(base_url: str, method: str, path: str, token: str | None = None, body=None) -> dict:
    """The JSON answer of one request to the API at `base_url`; raises on an error status."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body or {}).encode() if method == "POST" else None
    request = urllib.request.Request(f"{base_url}/api/v1{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def register(base_url: str, name: str) -> str:
    """A new player's token."""
    return call(base_url, "POST", "/players", body={"name": name})["token"]
