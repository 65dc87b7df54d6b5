"""Open tables and quick play over HTTP: the lobby and what it shows, joining without the
invite, the refusals (a problem with a stable code, nothing stored), Idempotency-Key on
quick play, and the lobby's queries per request, however many tables it lists."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.http.shapes import OpenTableSerializer
from games.models import IdempotencyRecord, Match
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def post(client, url: str, body: dict | None = None, **headers):
    return client.post(url, body or {}, format="json", **headers)


def open_table(client, **body) -> dict:
    created = post(client, "/api/v1/matches", {"humans": 3, "open": True, **body})
    assert created.status_code == 201, created.json()
    return created.json()


def test_an_open_table_is_in_the_lobby_and_anyone_joins_it_without_the_invite(make_client):
    owner, guest = make_client("Roya"), make_client("Babak")
    view = open_table(owner, turn_seconds=45, fill_after=120, spectators="live")
    assert view["open"] is True and view["fill_at"] is not None
    lobby = guest.get("/api/v1/tables")
    assert lobby.status_code == 200
    (table,) = lobby.json()["tables"]
    assert OpenTableSerializer(data=table).is_valid()
    assert table["id"] == view["id"] and table["owner"] == "Roya"
    assert (table["seats_free"], table["turn_seconds"], table["spectators"]) == (2, 45, "live")
    assert table["fill_at"] == view["fill_at"] and table["verifiable"] is False
    assert [seat["name"] for seat in table["seats"]] == ["Roya", None, None, "Kaveh"]
    assert "invite" not in table and "watch_code" not in table
    joined = post(guest, f"/api/v1/matches/{view['id']}/join")
    assert joined.status_code == 200, joined.json()
    assert joined.json()["your_seat"] == 1 and joined.json()["invite"] is None
    assert guest.get("/api/v1/tables").json()["tables"][0]["seats_free"] == 1


def test_the_lobby_filters_and_refuses_bad_filters(make_client):
    client = make_client("Roya")
    open_table(client, humans=2, ai_level="easy")
    open_table(client, humans=4, ai_level="hard", turn_seconds=20)
    assert len(client.get("/api/v1/tables").json()["tables"]) == 2
    assert [t["humans"] for t in client.get("/api/v1/tables?humans=4").json()["tables"]] == [4]
    assert [
        t["ai_level"] for t in client.get("/api/v1/tables?max_turn_seconds=30").json()["tables"]
    ] == ["hard"]
    assert client.get("/api/v1/tables?ai_level=normal").json()["tables"] == []
    for query in ("humans=1", "humans=x", "max_turn_seconds=5", "ai_level=godlike"):
        assert_problem(client.get(f"/api/v1/tables?{query}"), 400, "validation_error")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"humans": 3, "fill_after": 5}, 400, "validation_error"),
        ({"humans": 3, "fill_after": 3601}, 400, "validation_error"),
        ({"humans": 3, "fill_after": "soon"}, 400, "validation_error"),
        ({"humans": 3, "open": "maybe"}, 400, "validation_error"),
        ({"open": True}, 422, "not_a_table"),
        ({"humans": 1, "fill_after": 60}, 422, "not_a_table"),
    ],
)
def test_bad_table_options_are_refused_and_nothing_is_stored(make_client, body, status, code):
    assert_problem(post(make_client("Roya"), "/api/v1/matches", body), status, code)
    assert not Match.objects.exists()


def test_a_table_that_is_not_open_still_needs_its_invite(make_client):
    owner, guest = make_client("Roya"), make_client("Babak")
    view = post(owner, "/api/v1/matches", {"humans": 2}).json()
    assert guest.get("/api/v1/tables").json()["tables"] == []
    version = Match.objects.get(id=view["id"]).version
    assert_problem(post(guest, f"/api/v1/matches/{view['id']}/join"), 404, "not_found")
    assert Match.objects.get(id=view["id"]).version == version


def test_quick_play_answers_the_match_and_refuses_bad_filters(make_client):
    owner, guest = make_client("Roya"), make_client("Babak")
    table = open_table(owner, humans=2)
    seated = post(guest, "/api/v1/quick-play", {})
    assert seated.status_code == 200, seated.json()
    assert seated.json()["id"] == table["id"] and seated.json()["your_seat"] == 1
    assert [event["type"] for event in seated.json()["events"]][:2] == [
        "player_joined",
        "deal_started",
    ]
    for body in ({"humans": 5}, {"max_turn_seconds": 0}, {"ai_level": "x"}, {"humans": 1}):
        assert_problem(post(guest, "/api/v1/quick-play", body), 400, "validation_error")
    assert_problem(post(guest, "/api/v1/quick-play", {"seats": 2}), 400, "unknown_field")
    assert Match.objects.count() == 1


def test_quick_play_seats_nobody_at_a_verifiable_table_unasked(make_client):
    """A verifiable table shows its folded hands to all after each series: quick play sits
    there only when asked to, and opens a verifiable table when asked and none waits."""
    owner, guest, other = make_client("Roya"), make_client("Babak"), make_client("Nima")
    verifiable = open_table(owner, humans=2, verifiable=True)
    plain = post(guest, "/api/v1/quick-play", {})
    assert plain.status_code == 200, plain.json()
    assert plain.json()["id"] != verifiable["id"] and plain.json()["your_seat"] == 0
    assert plain.json()["fairness"]["verifiable"] is False
    asked = post(other, "/api/v1/quick-play", {"verifiable": True})
    assert (asked.json()["id"], asked.json()["your_seat"]) == (verifiable["id"], 1)
    opened = post(other, "/api/v1/quick-play", {"verifiable": True, "humans": 3}).json()
    assert opened["your_seat"] == 0 and opened["fairness"]["verifiable"] is True
    lobby = guest.get("/api/v1/tables")
    assert {t["id"]: t["verifiable"] for t in lobby.json()["tables"]} == {
        plain.json()["id"]: False,
        opened["id"]: True,
    }
    only = guest.get("/api/v1/tables?verifiable=false").json()["tables"]
    assert [t["id"] for t in only] == [plain.json()["id"]]
    assert_problem(guest.get("/api/v1/tables?verifiable=yes"), 400, "validation_error")
    assert_problem(
        post(guest, "/api/v1/quick-play", {"verifiable": "yes"}), 400, "validation_error"
    )


def test_quick_play_with_an_idempotency_key_is_applied_once(make_client):
    client = make_client("Roya")
    key = {"HTTP_IDEMPOTENCY_KEY": "quick-1"}
    first = post(client, "/api/v1/quick-play", {"humans": 3}, **key)
    again = post(client, "/api/v1/quick-play", {"humans": 3}, **key)
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    assert Match.objects.count() == 1 and IdempotencyRecord.objects.count() == 1
    other = post(client, "/api/v1/quick-play", {"humans": 4}, **key)
    assert_problem(other, 422, "idempotency_key_reused")
    assert Match.objects.count() == 1


def lobby_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/tables").status_code == 200
    return len(queries)


def test_the_lobby_s_queries_do_not_grow_with_its_tables(make_client):
    reader = make_client("Omid")
    owners = [make_client(name) for name in ("Roya", "Babak", "Nima", "Sara", "Leila", "Kian")]
    open_table(owners[0])
    lobby_queries(reader)  # the rate limits' first counters
    with_one = lobby_queries(reader)
    for owner in owners[1:]:
        open_table(owner, humans=4)
    assert len(reader.get("/api/v1/tables").json()["tables"]) == 6
    with_six = lobby_queries(reader)
    assert with_six == with_one <= 6, (with_one, with_six)
