"""The schema's success examples are what the API answers: the same script, played through
the API on a real database, gets the same bodies but for ids and timestamps."""

from django.core.management import call_command

from games.http.examples import EXAMPLE_PLAYER, play_examples, success_examples
from tests.http.api_table import ApiTable
from tests.schema_file import read_schema

# What differs from run to run; everything else must be equal.
RUN_SPECIFIC = {"id", "created_at", "updated_at"}


def _without_run_specific(value):
    if isinstance(value, dict):
        return {
            key: "*" if key in RUN_SPECIFIC else _without_run_specific(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_without_run_specific(item) for item in value]
    return value


def test_the_examples_are_what_the_api_answers(make_client):
    answered = play_examples(ApiTable(make_client(EXAMPLE_PLAYER)))
    assert _without_run_specific(answered) == _without_run_specific(success_examples())


def test_the_examples_show_a_match_in_progress_and_a_finished_one():
    examples = success_examples()
    assert examples["matches_act"]["in progress"]["status"] == "in_deal"
    assert examples["matches_act"]["in progress"]["events"][-1]["seat"] != 0  # an AI reply
    finished = examples["matches_act"]["finished"]
    assert finished["status"] == "finished"
    assert finished["winners"]
    assert finished["events"][-1]["type"] == "match_finished"
    assert examples["matches_resign"]["resigned"]["events"][0]["type"] == "resigned"


def test_every_match_operation_has_its_examples_in_the_schema(tmp_path):
    call_command("spectacular", "--file", str(tmp_path / "schema.yaml"))
    schema = read_schema(tmp_path / "schema.yaml")
    shown = {}
    for operations in schema["paths"].values():
        for operation in operations.values():
            for code, response in operation["responses"].items():
                # The streams answer text/event-stream, whose messages MatchEvent documents.
                if code.startswith("2") and "application/json" in response.get("content", {}):
                    examples = response["content"]["application/json"].get("examples", {})
                    shown[operation["operationId"]] = [e["value"] for e in examples.values()]
    for operation_id, named in success_examples().items():
        assert shown[operation_id] == list(named.values())
