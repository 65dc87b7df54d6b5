"""Every body is read in full or refused: nesting, lone surrogates, bodies over the limit."""

import pytest
from django.test import Client

from asnas_api.parsers import MAX_JSON_DEPTH
from games.models import Match
from tests.reliability.support import assert_edge_problem

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    return '{"action": "look", "x": ' + "[" * depth + "]" * depth + "}"


def test_nesting_up_to_the_limit_is_parsed(client, new_match):
    view = new_match()
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions",
        nested(MAX_JSON_DEPTH - 1),
        content_type="application/json",
    )
    # Parsed whole: the strict input then refuses the extra field, which only a parsed body
    # can name.
    assert_edge_problem(response, 400, "unknown_field")
    assert response.json()["errors"][0]["field"] == "x"


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH, 1_000, 5_000])
def test_nesting_deeper_than_the_limit_is_400(client, new_match, depth):
    view = new_match()
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions", nested(depth), content_type="application/json"
    )
    assert_edge_problem(response, 400, "parse_error")
    assert Match.objects.get(id=view["id"]).version == view["version"]


def test_brackets_inside_strings_do_not_nest(client):
    response = client.post(
        "/api/v1/matches", '{"ai_level": "' + "[" * 500 + '"}', content_type="application/json"
    )
    assert_edge_problem(response, 400, "validation_error")


@pytest.mark.parametrize(
    "body",
    [
        '{"action": "\\udfff"}',
        '{"action": "look", "\\ud800": 1}',
        '{"action": "look", "x": [{"y": "ok \\udbff"}]}',
    ],
)
def test_a_lone_surrogate_in_an_action_is_400(client, new_match, body):
    view = new_match()
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions", body, content_type="application/json"
    )
    assert_edge_problem(response, 400, "parse_error")
    assert Match.objects.get(id=view["id"]).version == view["version"]


def test_a_lone_surrogate_ai_level_is_400(client):
    response = client.post(
        "/api/v1/matches", '{"ai_level": "\\ud800"}', content_type="application/json"
    )
    assert_edge_problem(response, 400, "parse_error")
    assert not Match.objects.exists()


def test_a_surrogate_pair_is_text(client):
    response = client.post(
        "/api/v1/players", '{"name": "\\ud83c\\udccf"}', content_type="application/json"
    )
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("size", [20_000, 2 * 1024 * 1024])
def test_a_body_over_the_limit_at_any_size_is_the_413_problem(client, new_match, size):
    view = new_match()
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions",
        '{"action": "look", "pad": "' + "x" * size + '"}',
        content_type="application/json",
    )
    assert_edge_problem(response, 413, "request_too_large")
    assert Match.objects.get(id=view["id"]).version == view["version"]


def test_a_body_over_the_limit_to_a_view_without_auth_is_413():
    response = Client().post(
        "/api/v1/players",
        '{"name": "' + "x" * 2 * 1024 * 1024 + '"}',
        content_type="application/json",
    )
    assert_edge_problem(response, 413, "request_too_large")
