"""The committed openapi.yaml is the contract: it matches the code, and its shapes are ones
that client generators turn into types."""

import difflib

import pytest
from django.core.management import call_command

from games.engine.events import EVENT_TYPES
from tests.schema_file import SCHEMA_FILE, committed_schema

REGENERATE = "uv run manage.py spectacular --file openapi.yaml"


@pytest.fixture(scope="module")
def schema() -> dict:
    return committed_schema()


def test_committed_schema_matches_the_code(tmp_path):
    fresh = tmp_path / "openapi.yaml"
    call_command("spectacular", "--file", str(fresh))
    committed, generated = SCHEMA_FILE.read_text(), fresh.read_text()
    if committed != generated:
        diff = difflib.unified_diff(
            committed.splitlines(), generated.splitlines(), "openapi.yaml", "the code", lineterm=""
        )
        pytest.fail(
            f"openapi.yaml is out of date; if the change is meant, run: {REGENERATE}\n"
            + "\n".join(list(diff)[:60])
        )


def _bodies(schema: dict):
    """(where, schema) for every request and response body of every operation."""
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            bodies = {"request": operation.get("requestBody", {})}
            bodies.update(operation["responses"])
            for name, body in bodies.items():
                for media_type, content in body.get("content", {}).items():
                    yield f"{method.upper()} {path} {name} {media_type}", content["schema"]


def test_every_body_is_a_named_component(schema):
    # An inline body becomes an anonymous type (or none) in a generated client.
    bodies = list(_bodies(schema))
    assert len(bodies) > 40
    inline = [where for where, body in bodies if set(body) != {"$ref"}]
    assert not inline, f"bodies that are not a $ref to a component: {inline}"


def test_every_error_body_is_a_problem(schema):
    errors = [(where, body) for where, body in _bodies(schema) if where.split()[2][0] in "45"]
    assert errors
    assert {body["$ref"] for _, body in errors} == {"#/components/schemas/Problem"}


def test_events_are_a_union_discriminated_on_type(schema):
    components = schema["components"]["schemas"]
    event = components["MatchEvent"]
    assert event["discriminator"]["propertyName"] == "type"
    mapping = event["discriminator"]["mapping"]
    assert sorted(mapping.values()) == sorted(member["$ref"] for member in event["oneOf"])
    assert set(mapping) == set(EVENT_TYPES)  # every event type the engine has, no other
    # Each member's `type` admits only its own tag, so even a generator that ignores the
    # discriminator and tries the members in turn picks the right one.
    for tag, ref in mapping.items():
        member = components[ref.rsplit("/", 1)[1]]
        assert "type" in member["required"]
        type_enum = components[member["properties"]["type"]["$ref"].rsplit("/", 1)[1]]
        assert type_enum["enum"] == [tag], ref


def test_event_list_is_typed_as_the_union(schema):
    events = schema["components"]["schemas"]["MatchEvents"]["properties"]["events"]
    assert events["items"] == {"$ref": "#/components/schemas/MatchEvent"}


# Codes no HTTP request can get: the API never sends these commands to the engine as such.
ENGINE_ONLY = {
    "match_already_started",
    "invalid_seat",
    "invalid_humans",
    "invalid_actor",
    # The service draws the seeds, and the serializers refuse a bad client seed first.
    "invalid_seed",
    "invalid_client_seed",
    # Only a tournament's close reveals a held seed, once; no request asks for it.
    "seed_not_held",
}
# Answered for a method a path does not have, so no operation can document it.
NO_OPERATION = {"method_not_allowed"}


def _examples(operation: dict) -> dict[str, str]:
    """code -> the status it is documented under, over every example of the operation."""
    found = {}
    for status, answer in operation["responses"].items():
        for content in answer.get("content", {}).values():
            for example in content.get("examples", {}).values():
                value = example["value"]
                if isinstance(value, dict) and "code" in value:
                    assert value["status"] == int(status), (status, value)
                    found[value["code"]] = status
    return found


def _expected_codes(path: str, operation: dict) -> set[str]:
    """Where each code can occur, written from the API's behaviour rather than the hook."""
    codes = {"throttled"}
    if "requestBody" in operation:
        codes |= {"parse_error", "unknown_field", "validation_error", "request_too_large"}
        codes |= {"unsupported_media_type"}
    if operation.get("security") and operation["security"] != [{}]:
        codes |= {"not_authenticated", "invalid_token"}
    if "{match_id}" in path:
        codes.add("not_found")
    if any(p["name"] == "Idempotency-Key" for p in operation.get("parameters", [])):
        codes |= {"invalid_idempotency_key", "idempotency_in_progress", "idempotency_key_reused"}
    return codes


def test_every_error_code_is_an_example_where_it_can_occur(schema):
    from edge.problems import PROBLEMS

    documented = set()
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for method, operation in operations.items():
            examples = _examples(operation)
            missing = _expected_codes(path, operation) - examples.keys()
            assert not missing, f"{method.upper()} {path} lacks examples of {sorted(missing)}"
            for code, status in examples.items():
                assert PROBLEMS[code].status == int(status), code
            documented |= examples.keys()
    assert documented == PROBLEMS.keys() - ENGINE_ONLY - NO_OPERATION


def test_every_operation_and_field_is_described(schema):
    undescribed = [
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if not operation.get("description")
    ]
    assert not undescribed
    components = schema["components"]["schemas"]
    fields = [
        (name, field, spec)
        for name, component in components.items()
        for field, spec in component.get("properties", {}).items()
    ]
    assert len(fields) > 100
    # Each field says what it means there, an enum field too: its component only lists values.
    # An event's `type` stays a bare $ref, which generators need of a discriminator; the
    # MatchEvent union describes it.
    assert "type" in components["MatchEvent"]["description"]
    events = {
        ref.rsplit("/", 1)[1]
        for ref in components["MatchEvent"]["discriminator"]["mapping"].values()
    }
    undescribed = [
        (name, field)
        for name, field, spec in fields
        if not spec.get("description") and not (name in events and field == "type")
    ]
    assert not undescribed
    enums = {name: spec for name, spec in components.items() if "enum" in spec}
    assert "ActionName" in enums
    assert not [name for name, spec in enums.items() if "description" in spec], "values repeated"


def _ref_name(spec: dict) -> str:
    return spec.get("$ref", "").rsplit("/", 1)[-1]


def test_component_names_read_naturally(schema):
    names = schema["components"]["schemas"]
    assert not [name for name in names if name.endswith("RequestRequest")]
    assert {"ActionRequest", "MatchCreateRequest", "MatchWriteView"} <= names.keys()
    summary_level = names["MatchSummary"]["properties"]["ai_level"]
    assert summary_level.get("$ref") == "#/components/schemas/AiLevel" or summary_level[
        "allOf"
    ] == [{"$ref": "#/components/schemas/AiLevel"}]
