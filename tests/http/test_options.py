"""OPTIONS on every route of the URL conf, with and without a token and a body: never a 5xx;
under /api/ the route's media types and its methods in Allow, or a problem body; and a CORS
preflight still gets its answer from the CORS middleware."""

import re
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from players.services import player_create
from tests.reliability.support import assert_edge_problem

pytestmark = pytest.mark.django_db

TABLE = "https://table.example"
# A sample value per path converter; a match id names no match, as OPTIONS reads none.
SAMPLES = {"uuid": str(uuid.UUID(int=7)), "int": "1"}
_CONVERTER = re.compile(r"<(?:(\w+):)?\w+>")
_REGEX_GROUP = re.compile(r"\(\?P<\w+>([^)]*)\)")
BODIES = {
    "none": {},
    "json": {"data": '{"action": "look", "pad": [1, 2, 3]}', "content_type": "application/json"},
    "not json": {"data": "{not json", "content_type": "application/json"},
}


def _sample_of_regex(regex: str) -> str:
    """A path that the regex matches: a group of plain alternatives (`auth|games`) becomes its
    first one, any other group `x`."""

    def group(found: re.Match) -> str:
        first = found.group(1).split("|")[0]
        return first if re.fullmatch(r"[\w-]+", first) else "x"

    return _REGEX_GROUP.sub(group, regex).removeprefix("^").removesuffix("$")


def _sample_path(pattern) -> str:
    if hasattr(pattern, "_route"):  # a RoutePattern, path()
        return _CONVERTER.sub(lambda found: SAMPLES.get(found.group(1) or "str", "1"), str(pattern))
    return _sample_of_regex(str(pattern))  # a RegexPattern, re_path()


def routes(patterns=None, prefix: str = "/") -> list[tuple[str, URLPattern]]:
    """Every route of the URL conf as (a path it answers, its pattern)."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        path = prefix + _sample_path(entry.pattern)
        if isinstance(entry, URLResolver):
            found += routes(entry.url_patterns, path)
        else:
            found.append((path, entry))
    return found


ROUTES = routes()
API_ROUTES = [path for path, _ in ROUTES if path.startswith("/api/")]


def test_the_routes_are_every_route_and_each_sample_path_reaches_its_own():
    assert len(ROUTES) >= 50
    assert "/api/v1/matches" in API_ROUTES and "/api/v1/players/me/tokens/rotate" in API_ROUTES
    for path, pattern in ROUTES:
        assert resolve(path).func == pattern.callback, path


@pytest.mark.parametrize("body", sorted(BODIES))
@pytest.mark.parametrize("with_token", [True, False], ids=["token", "no token"])
def test_options_on_every_route_answers_without_a_server_error(body, with_token):
    _, token = player_create(name="Roya")
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if with_token else {}
    client = Client(raise_request_exception=False)
    for path, _ in ROUTES:
        response = client.options(path, **BODIES[body], **headers)
        assert response.status_code < 500, (path, response.content)
        if not path.startswith("/api/"):
            continue
        if response.status_code == 401:
            assert not with_token, path
            assert_edge_problem(response, 401, "not_authenticated")
            continue
        assert response.status_code == 200, (path, response.content)
        assert "OPTIONS" in response["Allow"], path
        description = response.json()
        assert description["renders"] and description["parses"], path


def test_options_with_a_body_answers_what_the_route_takes():
    _, token = player_create(name="Roya")
    response = Client().options(
        "/api/v1/matches", **BODIES["json"], HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert response.status_code == 200
    assert set(response["Allow"].split(", ")) == {"GET", "POST", "HEAD", "OPTIONS"}
    assert response.json() == {
        "name": "Match List",
        "renders": ["application/json"],
        "parses": ["application/json"],
    }


def test_options_with_a_bad_host_is_the_bad_host_problem_on_every_api_route():
    _, token = player_create(name="Roya")
    client = Client(HTTP_HOST="evil.example", HTTP_AUTHORIZATION=f"Bearer {token}")
    for path in API_ROUTES:
        assert_edge_problem(client.options(path, **BODIES["json"]), 400, "invalid_host")


@pytest.mark.parametrize("with_token", [True, False], ids=["token", "no token"])
def test_a_preflight_on_every_api_route_is_answered_by_cors(settings, with_token):
    settings.CORS_ALLOWED_ORIGINS = [TABLE]
    _, token = player_create(name="Roya")
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if with_token else {}
    for path in API_ROUTES:
        response = Client().options(
            path,
            HTTP_ORIGIN=TABLE,
            HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
            HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization,content-type",
            **headers,
        )
        assert response.status_code == 200, path
        assert response["Access-Control-Allow-Origin"] == TABLE, path
        assert "POST" in response["Access-Control-Allow-Methods"], path
