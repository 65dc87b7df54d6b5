"""The schema's descriptions say nothing that the API's behaviour contradicts, where the
behaviour can be checked: every value an enum field takes is described, seat numbers are
the ones a table hands out, and the clock acts as its field says."""

import re

import pytest
from django.core.management import call_command

from tests.schema_file import read_schema

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    call_command("spectacular", "--file", str(path))
    return read_schema(path)


@pytest.fixture(scope="module")
def schemas(schema):
    return schema["components"]["schemas"]


def test_every_request_body_allows_no_field_the_server_refuses(schema, schemas):
    """The server refuses a body field it does not know (400 unknown_field): the schema of
    every body says so, so that a client checking its bodies against it agrees."""
    bodies = {
        f"{method.upper()} {path}": operation["requestBody"]["content"]["application/json"]
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    }
    assert len(bodies) >= 10, sorted(bodies)
    open_bodies = [
        name
        for name, content in bodies.items()
        if schemas[content["schema"]["$ref"].rsplit("/", 1)[1]].get("additionalProperties")
        is not False
    ]
    assert open_bodies == []


def _enum_of(field: dict, schemas: dict) -> list[str]:
    for ref in [field.get("$ref"), *[part.get("$ref") for part in field.get("allOf", [])]]:
        if ref:
            return schemas[ref.rsplit("/", 1)[1]].get("enum", [])
    return field.get("enum", [])


@pytest.mark.parametrize(
    ("component", "name"), [("MatchView", "status"), ("MatchView", "ai_level")]
)
def test_a_field_that_names_its_values_names_them_all(schemas, component, name):
    field = schemas[component]["properties"][name]
    described = set(re.findall(r"`(\w+)`", field["description"]))
    assert set(_enum_of(field, schemas)) <= described, field["description"]


def test_your_seat_is_what_a_table_hands_out(schemas, client, make_client):
    field = schemas["MatchView"]["properties"]["your_seat"]
    assert "always" not in field["description"]
    table = client.post("/api/v1/matches", {"humans": 3}, format="json").json()
    seats = [table["your_seat"]]
    for name in ("Babak", "Nima"):
        guest = make_client(name)
        url = f"/api/v1/matches/{table['id']}/join"
        seats.append(
            guest.post(url, {"invite": table["invite"]}, format="json").json()["your_seat"]
        )
    assert seats == [0, 1, 2]
    assert all(field["minimum"] <= seat <= field["maximum"] for seat in seats)
    seat_field = schemas["MatchSeat"]["properties"]["seat"]
    assert "you are seat 0" not in seat_field["description"]


def test_the_clock_does_what_turn_seconds_says(schemas, client):
    described = schemas["MatchCreateRequest"]["properties"]["turn_seconds"]["description"]
    assert "acts for them" in described and "later release" not in described
    for seed in range(1, 20):
        body = {"turn_seconds": 30, "seed": seed}
        view = client.post("/api/v1/matches", body, format="json").json()
        if view["status"] == "in_deal":  # not a deal already over at creation
            break
    assert view["turn"] == view["your_seat"] and view["turn_deadline"] is not None
