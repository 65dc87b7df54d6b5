"""Bots under concurrent requests, real threads on real Postgres (docs/bots.md): a bot and a
human racing for a table's last seat (exactly one sits, and a bot only where bots are
allowed), and a bot declaration racing the player's first seat at a table without bots
(exactly one of them wins: nobody becomes a bot while seated as a human)."""

import pytest

from games.models import Seat
from players.models import Player
from tests.tables.test_open_table_races import client_of, open_table, race, tokens

pytestmark = pytest.mark.django_db(transaction=True)


def bot_token(name: str) -> str:
    (token,) = tokens(name)
    assert client_of(token).post("/api/v1/players/me/bot").status_code == 200
    return token


def test_a_bot_and_a_human_race_for_the_last_seat_of_a_table_allowing_bots():
    for round_number in range(4):
        owner, human = tokens(f"Roya{round_number}", f"Babak{round_number}")
        bot = bot_token(f"Shirbot{round_number}")
        created = client_of(owner).post(
            "/api/v1/matches", {"humans": 2, "open": True, "bots": True}, format="json"
        )
        table = created.json()
        join = f"/api/v1/matches/{table['id']}/join"
        answers = race([(bot, join, {}), (human, join, {})])
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [200, 409], [answer.json() for answer in answers]
        (lost,) = [answer.json() for answer in answers if answer.status_code == 409]
        assert lost["code"] == "match_full"
        (seated,) = Seat.objects.filter(match_id=table["id"], number=1)
        assert seated.player.kind in (Player.Kind.BOT, Player.Kind.HUMAN)


def test_a_bot_and_a_human_race_for_the_last_seat_of_a_table_without_bots():
    owner, human = tokens("Roya", "Babak")
    bot = bot_token("Shirbot")
    table = open_table(owner, humans=2)
    join = f"/api/v1/matches/{table['id']}/join"
    bot_answer, human_answer = race([(bot, join, {}), (human, join, {})])
    assert bot_answer.status_code == 409 and bot_answer.json()["code"] == "bots_not_allowed"
    assert human_answer.status_code == 200, human_answer.json()
    (seated,) = Seat.objects.filter(match_id=table["id"], number=1)
    assert seated.player.kind == Player.Kind.HUMAN


def test_a_bot_declaration_and_a_first_seat_at_a_table_without_bots_never_both_win():
    for round_number in range(6):
        owner, newcomer = tokens(f"Roya{round_number}", f"Nima{round_number}")
        table = open_table(owner, humans=2)
        declare, join = race(
            [
                (newcomer, "/api/v1/players/me/bot", {}),
                (newcomer, f"/api/v1/matches/{table['id']}/join", {}),
            ]
        )
        newcomer_row = Player.objects.get(name=f"Nima{round_number}")
        seated = Seat.objects.filter(match_id=table["id"], player=newcomer_row).exists()
        if declare.status_code == 200:
            assert join.status_code == 409 and join.json()["code"] == "bots_not_allowed"
            assert newcomer_row.kind == Player.Kind.BOT and not seated
        else:
            assert declare.status_code == 409 and declare.json()["code"] == "bot_after_matches"
            assert join.status_code == 200, join.json()
            assert newcomer_row.kind == Player.Kind.HUMAN and seated
