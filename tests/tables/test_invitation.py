"""An invite shows its table before joining (POST /matches/{id}/invitation): what the lobby
shows of an open table, `verifiable` as its owner chose; nothing else of the match, and
nothing changes. Refused as the join would be."""

import uuid

import pytest
from rest_framework.test import APIClient

from games.engine import MatchState
from games.http.shapes import OpenTableSerializer
from games.models import EventBatch, Match
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def post(client, url: str, body: dict | None = None):
    return client.post(url, body or {}, format="json")


def table(client, **body) -> dict:
    created = post(client, "/api/v1/matches", {"humans": 3, **body})
    assert created.status_code == 201, created.json()
    return created.json()


def invitation(client, view: dict, invite: str | None = None):
    body = {"invite": view["invite"] if invite is None else invite}
    return post(client, f"/api/v1/matches/{view['id']}/invitation", body)


def stored(match_id: str) -> tuple[int, int, object]:
    """What a look must not change: the match's version, its event batches, its last write."""
    row = Match.objects.get(pk=match_id)
    return row.version, EventBatch.objects.filter(match_id=match_id).count(), row.updated_at


@pytest.mark.parametrize("verifiable", [True, False])
def test_an_invite_shows_the_table_as_the_lobby_would_and_changes_nothing(make_client, verifiable):
    roya, babak = make_client("Roya"), make_client("Babak")
    view = table(
        roya,
        verifiable=verifiable,
        turn_seconds=45,
        ai_level="easy",
        spectators="delayed",
        fill_after=300,
    )
    before = stored(view["id"])
    answer = invitation(babak, view)
    assert answer.status_code == 200, answer.json()
    shown = answer.json()
    assert OpenTableSerializer(data=shown).is_valid()
    assert set(shown) == set(OpenTableSerializer().fields)
    assert shown["id"] == view["id"] and shown["owner"] == "Roya"
    assert shown["verifiable"] is verifiable
    assert (shown["turn_seconds"], shown["ai_level"], shown["spectators"]) == (
        45,
        "easy",
        "delayed",
    )
    assert (shown["humans"], shown["seats_free"], shown["fill_at"]) == (3, 2, view["fill_at"])
    assert [(seat["name"], seat["free"]) for seat in shown["seats"]] == [
        ("Roya", False),
        (None, True),
        (None, True),
        ("Kaveh", False),
    ]
    # Nothing of the match beyond the table: not the invite, not its watch code, not the
    # server seed it committed to.
    seeds = MatchState.from_dict(Match.objects.get(pk=view["id"]).state).seeds
    text = answer.content.decode()
    secrets = [view["invite"], seeds.server_seed, seeds.next_server_seed]
    assert not [secret for secret in secrets if secret in text]
    assert view["watch_code"] and view["watch_code"] not in text
    assert stored(view["id"]) == before
    assert_problem(babak.get(f"/api/v1/matches/{view['id']}"), 404, "not_found")  # not seated


def test_a_wrong_invite_is_as_unknown_as_a_match_that_does_not_exist(make_client):
    roya, babak = make_client("Roya"), make_client("Babak")
    view = table(roya)
    before = stored(view["id"])
    wrong = assert_problem(invitation(babak, view, "x" * 32), 404, "not_found")
    missing = assert_problem(
        invitation(babak, {"id": str(uuid.uuid4()), "invite": view["invite"]}), 404, "not_found"
    )
    assert {**wrong, "request_id": ""} == {**missing, "request_id": ""}
    # No invite: an open table needs none, so for a table that is not open it is as wrong.
    url = f"/api/v1/matches/{view['id']}/invitation"
    assert_problem(post(babak, url), 404, "not_found")
    single = table(roya, humans=1)
    assert_problem(invitation(babak, single, "x"), 404, "not_found")
    assert stored(view["id"]) == before
    assert invitation(babak, view).status_code == 200  # the 404s were the invite's, not the route's


def test_a_table_no_longer_to_join_is_refused_as_its_join_would_be(make_client):
    roya, babak, nima = make_client("Roya"), make_client("Babak"), make_client("Nima")
    view = table(roya, humans=2)
    assert_problem(invitation(roya, view), 409, "already_seated")
    assert (
        post(babak, f"/api/v1/matches/{view['id']}/join", {"invite": view["invite"]}).status_code
        == 200
    )
    assert_problem(invitation(babak, view), 409, "already_seated")
    started = assert_problem(invitation(nima, view), 409, "match_full")
    assert set(started) <= {"type", "title", "status", "code", "detail", "request_id"}
    left = table(roya, humans=2)
    assert post(roya, f"/api/v1/matches/{left['id']}/leave", {}).status_code == 200
    assert_problem(invitation(nima, left), 409, "match_abandoned")


def test_an_open_table_shows_without_an_invite(make_client):
    roya, babak = make_client("Roya"), make_client("Babak")
    view = table(roya, open=True)
    answer = post(babak, f"/api/v1/matches/{view['id']}/invitation")
    assert answer.status_code == 200, answer.json()
    assert answer.json() == babak.get("/api/v1/tables").json()["tables"][0]


def test_an_invitation_needs_a_player_and_a_well_formed_body(make_client):
    view = table(make_client("Roya"))
    assert_problem(invitation(APIClient(), view), 401, "not_authenticated")
    babak = make_client("Babak")
    url = f"/api/v1/matches/{view['id']}/invitation"
    # A client seed belongs to the join: here it is a field the look does not know.
    extra = {"invite": view["invite"], "client_seed": "x"}
    assert_problem(post(babak, url, extra), 400, "unknown_field")
    assert_problem(post(babak, url, {"invite": "x" * 129}), 400, "validation_error")
