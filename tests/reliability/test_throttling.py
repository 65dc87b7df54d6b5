"""Rate limits: per token, per address, stricter for creating players and matches."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient, APIRequestFactory

from asnas_api.gate import RateLimits, _count, counter_key
from asnas_api.models import RateCounter
from games.models import IdempotencyRecord
from players.api import PlayerViewSet
from players.services import player_create
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def test_player_creation_is_limited_per_address(rates):
    rates(player_create="2/hour")
    client = APIClient()
    for name in ("a", "b"):
        assert client.post("/api/v1/players", {"name": name}, format="json").status_code == 201
    response = client.post("/api/v1/players", {"name": "c"}, format="json")
    assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    other = APIClient(REMOTE_ADDR="10.0.0.9")
    assert other.post("/api/v1/players", {"name": "d"}, format="json").status_code == 201


def test_match_creation_is_limited_per_token(rates, make_client):
    rates(match_create="1/hour")
    roya, babak = make_client("Roya"), make_client("Babak")
    assert roya.post("/api/v1/matches", {}, format="json").status_code == 201
    assert_problem(roya.post("/api/v1/matches", {}, format="json"), 429, "throttled")
    # Reading the list is not creating.
    assert roya.get("/api/v1/matches").status_code == 200
    assert babak.post("/api/v1/matches", {}, format="json").status_code == 201


def test_requests_are_limited_per_token(rates, make_client):
    rates(token="3/min")
    roya, babak = make_client("Roya"), make_client("Babak")
    for _ in range(3):
        assert roya.get("/api/v1/players/me").status_code == 200
    response = roya.get("/api/v1/players/me")
    assert_problem(response, 429, "throttled")
    assert response["Retry-After"]
    assert babak.get("/api/v1/players/me").status_code == 200


def test_requests_are_limited_per_address_across_tokens(rates, make_client):
    rates(ip="3/min")
    roya, babak = make_client("Roya"), make_client("Babak")
    for client in (roya, babak, roya):
        assert client.get("/api/v1/players/me").status_code == 200
    assert_problem(babak.get("/api/v1/players/me"), 429, "throttled")


def test_every_request_counts_in_one_window_per_scope(rates, make_client):
    rates()
    roya = make_client("Roya")
    for _ in range(3):
        roya.get("/api/v1/players/me")
    roya.post("/api/v1/matches", {}, format="json")
    counts = dict(RateCounter.objects.values_list("key", "hits"))
    assert counts == {
        counter_key("ip", "127.0.0.1"): 4,
        counter_key("token", roya.player.pk): 4,
        counter_key("match_create", roya.player.pk): 1,
    }


def test_purge_expired_deletes_only_what_has_expired(rates, make_client):
    rates()
    roya = make_client("Roya")
    roya.post("/api/v1/matches", {}, format="json", HTTP_IDEMPOTENCY_KEY="fresh")
    current_counters = set(RateCounter.objects.values_list("key", flat=True))
    RateCounter.objects.create(key="ip:10.0.0.1", window_start=0, hits=5)
    IdempotencyRecord.objects.create(
        player=roya.player,
        key="stale",
        fingerprint="0" * 64,
        status_code=201,
        response={},
        created_at=timezone.now() - timedelta(hours=25),
    )
    call_command("purge_expired")
    assert set(RateCounter.objects.values_list("key", flat=True)) == current_counters
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["fresh"]


def parse_list(header: str) -> dict[str, dict[str, int]]:
    """A structured-field list of named policies: '"ip";q=5;w=60, ...' -> {ip: {q: 5, w: 60}}."""
    items = {}
    for item in header.split(", "):
        name, *params = item.split(";")
        items[name.strip('"')] = {key: int(value) for key, value in (p.split("=") for p in params)}
    return items


def test_every_limited_response_tells_the_policies_and_what_is_left(rates, make_client):
    rates(token="3/min", match_create="5/hour")
    roya = make_client("Roya")
    response = roya.post("/api/v1/matches", {}, format="json")
    policy = parse_list(response["RateLimit-Policy"])
    assert policy["token"] == {"q": 3, "w": 60}
    assert policy["match_create"] == {"q": 5, "w": 3600}
    assert policy["ip"] == {"q": 1000, "w": 60}
    left = parse_list(response["RateLimit"])
    assert left["token"]["r"] == 2 and left["match_create"]["r"] == 4
    assert 0 < left["token"]["t"] <= 60 and 0 < left["match_create"]["t"] <= 3600
    assert parse_list(roya.get("/api/v1/players/me")["RateLimit"])["token"]["r"] == 1
    # Errors are counted too, and say so.
    missing = roya.get("/api/v1/matches/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404
    assert parse_list(missing["RateLimit"])["token"]["r"] == 0


def test_a_429_names_the_limit_and_when_it_frees_up(rates, make_client):
    rates(token="1/min")
    roya = make_client("Roya")
    roya.get("/api/v1/players/me")
    response = roya.get("/api/v1/players/me")
    body = assert_problem(response, 429, "throttled")
    wait = int(response["Retry-After"])
    assert 0 < wait <= 60
    unit = "second" if wait == 1 else "seconds"  # DRF's plural: at a minute's end, 1 second
    assert body["detail"] == (
        f"Rate limit 'token' (1/min) reached. Expected available in {wait} {unit}."
    )
    assert parse_list(response["RateLimit"])["token"] == {"r": 0, "t": wait}


def test_hints_have_a_limit_of_their_own(rates, client, new_match):
    rates(hint="2/min")
    match_id = new_match(seed=1)["id"]
    for left in (1, 0):
        response = client.get(f"/api/v1/matches/{match_id}/hint")
        assert response.status_code == 200
        assert parse_list(response["RateLimit"])["hint"]["r"] == left
    assert_problem(client.get(f"/api/v1/matches/{match_id}/hint"), 429, "throttled")
    # Other reads of the match are not held back.
    assert client.get(f"/api/v1/matches/{match_id}").status_code == 200


def test_hints_are_limited_per_address_across_players(rates, make_client):
    # Each player keeps a budget of its own, but players made from one address share one.
    # Windows of a day: the four hints never straddle two (a minute's might).
    rates(hint="5/day", hint_address="3/day")
    players = [make_client(name) for name in ("Roya", "Babak", "Nima", "Sara")]
    # A seed that deals seat 0 the first turn: a hint is always there to be asked for.
    matches = [
        player.post("/api/v1/matches", {"seed": 5}, format="json").json() for player in players
    ]
    for player, match in zip(players[:3], matches[:3], strict=True):
        assert player.get(f"/api/v1/matches/{match['id']}/hint").status_code == 200
    refused = players[3].get(f"/api/v1/matches/{matches[3]['id']}/hint")
    body = assert_problem(refused, 429, "throttled")
    assert "'hint_address' (3/day)" in body["detail"]
    assert 0 < int(refused["Retry-After"]) <= 86400
    assert parse_list(refused["RateLimit"])["hint_address"]["r"] == 0
    # Other requests from the address go on, and another address has its own budget.
    assert players[3].get(f"/api/v1/matches/{matches[3]['id']}").status_code == 200
    players[3].defaults["REMOTE_ADDR"] = "10.0.0.9"
    assert players[3].get(f"/api/v1/matches/{matches[3]['id']}/hint").status_code == 200


@pytest.mark.parametrize(
    "headers",
    [{}, {"HTTP_AUTHORIZATION": "Bearer not-a-token"}, {"HTTP_AUTHORIZATION": "Basic eA=="}],
    ids=["no_token", "unknown_token", "other_scheme"],
)
def test_a_request_refused_for_its_credentials_counts_once_against_its_address(rates, headers):
    rates(ip="5/min")
    response = APIClient().get("/api/v1/players/me", **headers)
    assert response.status_code == 401
    assert dict(RateCounter.objects.values_list("key", "hits")) == {
        counter_key("ip", "127.0.0.1"): 1
    }
    left = parse_list(response["RateLimit"])
    assert set(left) == {"ip"} and left["ip"]["r"] == 4


def test_a_bad_stream_ticket_counts_once_against_its_address_and_is_429_over_the_limit(
    rates, client, new_match
):
    rates(ip="1/min")
    path = f"/api/v1/matches/{new_match()['id']}/stream?ticket=spent"
    RateCounter.objects.all().delete()  # only the stream's requests below
    assert_problem(APIClient().get(path), 401, "invalid_ticket")
    assert RateCounter.objects.get().hits == 1
    assert_problem(APIClient().get(path), 429, "throttled")


def test_a_view_called_without_the_middleware_still_counts_its_request_once(rates):
    # The gate's record comes from RateLimitMiddleware; a view called directly (a test, a
    # view reused elsewhere) must not be counted by its authentication and its throttle both.
    rates()
    player, token = player_create(name="Roya")
    view = PlayerViewSet.as_view({"get": "me"})
    request = APIRequestFactory().get("/api/v1/players/me", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert view(request).status_code == 200
    assert dict(RateCounter.objects.values_list("key", "hits")) == {
        counter_key("ip", "127.0.0.1"): 1,
        counter_key("token", player.pk): 1,
    }


def test_a_bot_counts_in_its_own_scopes_and_nobody_elses_limit_moves(rates, make_client):
    """docs/bots.md: a bot's requests count in bot_token and bot_match_create in place of
    token and match_create, so a bot may play more matches, quicker, and a human's limits
    stay as they were."""
    rates(token="3/min", match_create="1/hour", bot_token="6/min", bot_match_create="2/hour")
    roya = make_client("Roya")
    bot, bot_token = player_create(name="Shirbot", bot=True)
    shirbot = APIClient()
    shirbot.credentials(HTTP_AUTHORIZATION=f"Bearer {bot_token}")
    for client in (roya, shirbot):
        assert client.post("/api/v1/matches", {}, format="json").status_code == 201
    assert_problem(roya.post("/api/v1/matches", {}, format="json"), 429, "throttled")
    answer = shirbot.post("/api/v1/matches", {}, format="json")
    assert answer.status_code == 201, answer.json()
    assert '"bot_token";q=6;w=60' in answer["RateLimit-Policy"]
    assert '"bot_match_create";q=2;w=3600' in answer["RateLimit-Policy"]
    assert '"token"' not in answer["RateLimit-Policy"]
    refused = shirbot.post("/api/v1/matches", {}, format="json")
    assert_problem(refused, 429, "throttled")
    assert "bot_match_create" in refused.json()["detail"]
    # Roya's token budget (3) runs out at her fourth request, the bot's (6) at its seventh.
    assert roya.get("/api/v1/players/me").status_code == 200
    assert_problem(roya.get("/api/v1/players/me"), 429, "throttled")
    for _ in range(3):
        assert shirbot.get("/api/v1/players/me").status_code == 200
    assert_problem(shirbot.get("/api/v1/players/me"), 429, "throttled")
    counts = dict(RateCounter.objects.values_list("key", "hits"))
    assert counts[counter_key("bot_token", bot.pk)] == 6 + 1
    assert counts[counter_key("bot_match_create", bot.pk)] == 3
    assert counter_key("token", bot.pk) not in counts
    assert counter_key("match_create", bot.pk) not in counts
    assert counts[counter_key("token", roya.player.pk)] == 3 + 1


def test_a_bot_counted_after_authentication_counts_in_its_own_scopes(rates, db):
    """The throttle step counts a request its authentication did not (a stream ticket's) for
    the player it found: a bot's in the bot's scopes there too."""
    rates()
    bot, _ = player_create(name="Shirbot", bot=True)
    human, _ = player_create(name="Roya")
    request = APIRequestFactory().post("/api/v1/matches")
    scopes = ["ip", "token", "match_create"]
    for player, expected in ((bot, ["ip", "bot_token", "bot_match_create"]), (human, scopes)):
        record = RateLimits()
        _count(request, record, scopes, player=player)
        assert [state.scope for state in record.states] == expected
