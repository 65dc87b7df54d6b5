"""The admin pages on real Postgres: who may see them, what they show, and how many queries
they cost."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import evaluate
from games.engine.state import hands_from_deck
from games.match.commands import match_create, match_move
from games.models import Deal, Match
from players.services import player_create
from tests.matches import stored_deck, stored_events

pytestmark = pytest.mark.django_db


def pages(match: Match) -> list[str]:
    return [
        "/admin/",
        "/admin/games/match/",
        f"/admin/games/match/{match.id}/change/",
        f"/admin/games/match/{match.id}/deals/1/1/",
        "/admin/players/player/",
        f"/admin/players/player/{match.owner_id}/change/",
    ]


def test_staff_see_every_page(admin_client, make_match):
    match = make_match(deals=1)
    for url in pages(match):
        assert admin_client.get(url).status_code == 200, url


@pytest.mark.parametrize("who", ["anonymous", "not staff"])
def test_everyone_else_is_sent_to_login(client, django_user_model, make_match, who):
    match = make_match(deals=1)
    if who == "not staff":
        client.force_login(django_user_model.objects.create_user("visitor", password="pw"))
    for url in pages(match)[1:]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/admin/login/?next={url}"
    response = client.post(
        "/admin/games/match/", {"action": "check_integrity", "_selected_action": [match.id]}
    )
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_match_list_shows_the_exact_totals_and_searches_ids_and_names(admin_client, make_match):
    match = make_match(deals=1)
    other = make_match(name="Bahram", seed=2)
    Match.objects.filter(id=match.id).update(totals=["7/3", "-7/3", "0", "0"])
    content = admin_client.get("/admin/games/match/").content.decode()
    assert '<td class="field-total">7/3</td>' in content
    assert '<td class="field-total">-7/3</td>' in content

    def found(query: str) -> set:
        response = admin_client.get("/admin/games/match/", {"q": query})
        return {row.id for row in response.context["cl"].result_list}

    assert found(str(match.id)) == {match.id}
    assert found(str(match.id)[:8].upper()) == {match.id}
    assert found("bahr") == {other.id}
    assert found("no such thing") == set()


def test_match_page_shows_the_timeline_in_seq_order(admin_client, make_match):
    match = make_match(deals=2)
    response = admin_client.get(f"/admin/games/match/{match.id}/change/")
    timeline = response.context["timeline"]
    assert [row["seq"] for row in timeline] == list(range(1, match.version + 1))
    texts = [row["text"] for row in timeline]
    assert texts[0] == "match created · dealt by hmac-sha256/1"
    assert texts[1].startswith("deal 1 starts · dealer seat ")
    assert any(text.startswith("deal 2 · seat ") and " · pot " in text for text in texts)
    assert any(text.startswith("deal 1 · showdown · seat ") for text in texts) or any(
        text.startswith("deal 1 · uncontested · seat ") for text in texts
    )
    content = response.content.decode()
    assert texts[-1] in content
    assert f"/admin/games/match/{match.id}/deals/2/1/" not in content
    assert f"/admin/games/match/{match.id}/deals/1/2/" in content


def test_match_page_shows_every_dealt_hand_with_its_category(admin_client, make_match):
    match = make_match(deals=2)
    content = admin_client.get(f"/admin/games/match/{match.id}/change/").content.decode()
    names = dict(match.seats.values_list("number", "player__name"))
    for deal in Deal.objects.filter(match=match):
        deck = stored_deck(match.id, deal.series, deal.deal_number)
        for seat, hand in enumerate(hands_from_deck(deck, deal.dealer)):
            category = evaluate(hand).category.replace("_", " ")
            assert f"seat {seat} ({names[seat]}): {' '.join(hand)} · {category}" in content


def test_deal_replay_steps_through_the_deal_as_the_events_record_it(admin_client, make_match):
    match = make_match(deals=2)
    response = admin_client.get(f"/admin/games/match/{match.id}/deals/1/2/")
    assert response.status_code == 200
    events = list(enumerate(stored_events(match.id), start=1))
    starts = [seq for seq, payload in events if payload["type"] == "deal_started"]
    deal_events = [payload for seq, payload in events if starts[1] <= seq]
    steps = response.context["steps"]
    assert [step["seq"] for step in steps] == list(range(starts[1], starts[1] + len(steps)))
    assert len(steps) == len(deal_events)
    for step, payload in zip(steps, deal_events, strict=True):
        if payload["type"] == "action":
            assert step["pot"] == payload["pot"]
            assert step["high_stake"] == payload["high_stake"]
            assert step["seats"][payload["seat"]]["stake"] == payload["stake"]
            assert step["seats"][payload["seat"]]["acting"]
    ended = deal_events[-1]
    assert ended["type"] == "deal_ended"
    assert steps[-1]["turn"] is None
    assert [seat["stake"] for seat in steps[-1]["seats"]] == [s["stake"] for s in ended["seats"]]
    hands = response.context["hands"]
    assert [(row["hand"].split(), row["category"]) for row in hands] == [
        (seat["hand"], seat["category"].replace("_", " ")) for seat in ended["seats"]
    ]
    assert response.context["outcome"] == ended["outcome"]


def test_deal_replay_of_a_deal_in_play_or_abandoned(admin_client, make_match):
    match = make_match(deals=0)
    response = admin_client.get(f"/admin/games/match/{match.id}/deals/1/1/")
    assert response.context["outcome"] == "in play"
    match_move(move="restart", match_id=match.id, player=match.owner)
    response = admin_client.get(f"/admin/games/match/{match.id}/deals/1/1/")
    assert response.context["outcome"] == "abandoned (restart)"
    assert "restart" not in response.context["steps"][-1]["text"]
    assert admin_client.get(f"/admin/games/match/{match.id}/deals/2/1/").status_code == 200
    assert admin_client.get(f"/admin/games/match/{match.id}/deals/1/2/").status_code == 404


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_list_queries_do_not_grow_with_rows(admin_client, make_match):
    for seed in range(2):
        make_match(seed=seed, name=f"player {seed}")
    matches, players = (
        count_queries(admin_client, "/admin/games/match/"),
        count_queries(admin_client, "/admin/players/player/"),
    )
    for seed in range(2, 10):
        make_match(seed=seed, name=f"player {seed}")
    response = admin_client.get("/admin/games/match/")
    assert response.context["cl"].result_count == 10
    assert count_queries(admin_client, "/admin/games/match/") == matches
    assert count_queries(admin_client, "/admin/players/player/") == players


def test_match_and_replay_queries_do_not_grow_with_events(admin_client, make_match):
    short, long = make_match(deals=1, seed=4), make_match(deals=5, seed=4, name="Bahram")
    assert long.version > 2 * short.version
    for url in ("/admin/games/match/{}/change/", "/admin/games/match/{}/deals/1/1/"):
        assert count_queries(admin_client, url.format(short.id)) == count_queries(
            admin_client, url.format(long.id)
        )
    assert count_queries(admin_client, f"/admin/games/match/{long.id}/deals/1/1/") == count_queries(
        admin_client, f"/admin/games/match/{long.id}/deals/1/5/"
    )


def test_a_waiting_table_with_open_seats_shows(admin_client):
    table = match_create(owner=player_create(name="Roya")[0], ai_level="easy", humans=3)
    response = admin_client.get(f"/admin/games/match/{table.row.id}/change/")
    assert response.status_code == 200
    assert response.content.decode().count("Human (open seat)") == 2


def test_no_admin_page_shows_a_server_seed_before_its_reveal(admin_client, make_match):
    match = make_match(deals=2)
    seeds = match.state["seeds"]
    secrets = (seeds["server_seed"], seeds["next_server_seed"])
    for url in pages(match):
        page = admin_client.get(url).content.decode()
        assert page and not any(secret in page for secret in secrets), url
