"""The match record (asnas-record/3): what the viewer may see and nothing more, valid against
its JSON Schema, and played again by import_record, which finds a changed total or move."""

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from django.core.management import CommandError, call_command

from games.models import Match
from games.review import commands as review_commands
from tests.fairness.test_fairness import play_to_the_end
from tests.schema_file import committed_schema

pytestmark = pytest.mark.django_db

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "record.schema.json").read_text()
)


def record_of(client, match_id) -> dict:
    response = client.get(f"/api/v1/matches/{match_id}/record")
    assert response.status_code == 200, response.content
    record = response.json()
    jsonschema.validate(record, SCHEMA)
    return record


def test_a_finished_verifiable_match_records_every_deal_and_replays(client, tmp_path):
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    play_to_the_end(client, view, [])
    record = record_of(client, view["id"])
    (series,) = record["series"]
    assert series["end"]["how"] == "finished" and len(series["deals"]) == 12
    assert series["server_seed"] and all(None not in deal["hands"] for deal in series["deals"])
    bys = {move["by"] for deal in series["deals"] for move in deal["moves"]}
    assert bys == {"player", "ai"}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("import_record", path)
    changed = copy.deepcopy(record)
    changed["series"][0]["end"]["totals"][0] = "99"
    path.write_text(json.dumps(changed))
    with pytest.raises(CommandError, match="does not hold"):
        call_command("import_record", path)
    moved = copy.deepcopy(record)
    deal = next(d for d in moved["series"][0]["deals"] if d["result"]["outcome"] == "showdown")
    fold = next(m for m in deal["moves"] if m["action"] != "look")
    fold["action"] = "fold" if fold["action"] != "fold" else "call"
    path.write_text(json.dumps(moved))
    with pytest.raises(CommandError):
        call_command("import_record", path)


def test_a_verifiable_series_record_carries_its_deals_reviews_and_earlier_records_check(
    client, tmp_path
):
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    play_to_the_end(client, view, [])
    (before,) = record_of(client, view["id"])["series"]
    assert all(deal["review"] is None for deal in before["deals"])  # not worked out yet
    review_commands.reviews_compute(match_id=view["id"], budget_seconds=60)
    record = record_of(client, view["id"])
    assert record["format"] == "asnas-record/3"
    (series,) = record["series"]
    reviewed = client.get(f"/api/v1/matches/{view['id']}/review").json()["seats"][0]["deals"]
    assert [deal["review"] for deal in series["deals"]] == [
        [{"seat": 0, **deal}] for deal in reviewed
    ]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("import_record", path)
    tampered = copy.deepcopy(record)
    deal = next(d for d in tampered["series"][0]["deals"] if d["review"][0]["decisions"])
    deal["review"][0]["decisions"][0]["lost"] = "5"
    path.write_text(json.dumps(tampered))
    with pytest.raises(CommandError, match="does not hold"):
        call_command("import_record", path)
    # A record of an earlier version, without reviews, still checks.
    earlier = copy.deepcopy(record)
    earlier["format"] = "asnas-record/2"
    for deal in earlier["series"][0]["deals"]:
        del deal["review"]
    jsonschema.validate(earlier, SCHEMA)
    path.write_text(json.dumps(earlier))
    call_command("import_record", path)


def test_a_record_in_play_shows_no_hidden_hand(client):
    view = client.post("/api/v1/matches", {}, format="json").json()
    record = record_of(client, view["id"])
    deal = record["series"][0]["deals"][0]
    # The others' hands stay hidden; the player's own shows only once its deal is over (a
    # random deal may end before the player's first turn: the AI seats all folded).
    own = None if view["status"] == "in_deal" else deal["hands"][0]
    assert deal["hands"] == [own, None, None, None]
    assert record["series"][0]["server_seed"] is None
    secret = Match.objects.get(pk=view["id"]).state["seeds"]["server_seed"]
    assert secret not in json.dumps(record)
    assert record["viewer_seat"] == 0 and record["seats"][0]["name"] == client.player.name


def test_a_table_that_is_not_verifiable_keeps_folded_hands_out_of_its_record(client, make_client):
    view = client.post("/api/v1/matches", {"humans": 2, "seed": 4}, format="json").json()
    friend = make_client("Babak")
    url = f"/api/v1/matches/{view['id']}"
    view = friend.post(f"{url}/join", {"invite": view["invite"]}, format="json").json()
    humans = [client, friend]
    while view["deal_number"] < 4:
        if view["status"] == "deal_over":
            view = client.post(f"{url}/next-deal", {}, format="json").json()
            continue
        legal = humans[view["turn"]].get(url).json()["legal_actions"]
        action = next(a for a in ("look", "call", "hold") if a in legal)
        view = humans[view["turn"]].post(f"{url}/actions", {"action": action}, format="json")
        view = view.json()
    client.post(f"{url}/leave", {}, format="json")
    friend.post(f"{url}/leave", {}, format="json")
    record = record_of(friend, view["id"])
    (series,) = record["series"]
    assert series["end"]["how"] == "abandoned" and series["server_seed"] is None
    folded = 0
    for deal in series["deals"]:
        for seat, hand in enumerate(deal["hands"]):
            if deal["result"] and deal["result"]["seats"][seat]["folded"] and seat != 1:
                folded += 1
                assert hand is None
    assert folded  # the check met a folded hand


def test_the_record_is_served_in_the_format_the_api_declares(client):
    """The engine moved to asnas-record/3 while the API still declared only /2: every record
    answered broke the API's own schema (found by tests/reliability/test_schemathesis.py)."""
    schemas = committed_schema()["components"]["schemas"]
    (reference,) = schemas["MatchRecord"]["properties"]["format"]["allOf"]
    declared = schemas[reference["$ref"].rsplit("/", 1)[1]]["enum"]
    view = client.post("/api/v1/matches", {"seed": 3}, format="json").json()
    assert [record_of(client, view["id"])["format"]] == declared
