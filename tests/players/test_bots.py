"""Bot accounts over HTTP (#39 item 1, docs/bots.md): declared at registration or before the
first match, for good; labelled in every seat, standing and profile; seated with humans only
where they allowed bots, each refusal a problem with a stable code and nothing changed; no
hints for a bot, none where another seat is a bot's; no rating moves in a match with a bot."""

import pytest
from rest_framework.test import APIClient

from games.models import Match, Seat
from players.models import Player, Rating, RatingChange
from tests.http.problems import assert_problem
from tests.tournaments import support

pytestmark = pytest.mark.django_db


def register(name: str, **body) -> APIClient:
    response = APIClient().post("/api/v1/players", {"name": name, **body}, format="json")
    assert response.status_code == 201, response.json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['token']}")
    client.player_id = response.json()["id"]
    client.created = response.json()
    return client


def post(client, url: str, body: dict | None = None):
    return client.post(url, body or {}, format="json")


def counts() -> tuple[int, int]:
    return Match.objects.count(), Seat.objects.exclude(player=None).count()


def test_a_bot_registers_as_one_and_its_profile_says_so():
    bot, human = register("Shirbot", bot=True), register("Roya")
    assert bot.created["bot"] is True and human.created["bot"] is False
    assert Player.objects.get(pk=bot.player_id).kind == Player.Kind.BOT
    assert bot.get("/api/v1/players/me").json()["bot"] is True
    assert human.get("/api/v1/players/me").json()["bot"] is False


def test_a_player_declares_itself_a_bot_before_its_first_match_for_good():
    client = register("Later")
    declared = post(client, "/api/v1/players/me/bot")
    assert declared.status_code == 200, declared.json()
    assert declared.json()["bot"] is True
    # Again: the same answer; there is no way back.
    assert post(client, "/api/v1/players/me/bot").json()["bot"] is True
    assert Player.objects.get(pk=client.player_id).kind == Player.Kind.BOT


def test_a_player_who_has_sat_at_a_match_stays_a_human():
    client = register("Roya")
    assert post(client, "/api/v1/matches", {"ai_level": "easy"}).status_code == 201
    assert_problem(post(client, "/api/v1/players/me/bot"), 409, "bot_after_matches")
    assert Player.objects.get(pk=client.player_id).kind == Player.Kind.HUMAN


def test_a_bot_plays_alone_against_the_ai_and_its_seat_says_bot():
    bot = register("Shirbot", bot=True)
    created = post(bot, "/api/v1/matches", {"ai_level": "hard"})
    assert created.status_code == 201, created.json()
    kinds = [seat["kind"] for seat in created.json()["seats"]]
    assert kinds == ["bot", "ai", "ai", "ai"]
    seen = bot.get(f"/api/v1/matches/{created.json()['id']}").json()
    assert seen["seats"][0]["kind"] == "bot"


def test_a_bot_opens_no_table_for_humans():
    bot = register("Shirbot", bot=True)
    before = counts()
    for body in ({"humans": 2}, {"humans": 3, "open": True, "bots": True}):
        assert_problem(post(bot, "/api/v1/matches", body), 403, "not_for_bots")
    assert counts() == before


def test_bots_alone_is_not_a_table():
    client = register("Roya")
    assert_problem(post(client, "/api/v1/matches", {"bots": True}), 422, "not_a_table")


def test_a_bot_joins_a_table_only_where_the_owner_allowed_bots():
    owner, bot = register("Roya"), register("Shirbot", bot=True)
    closed = post(owner, "/api/v1/matches", {"humans": 2, "open": True}).json()
    allowing = post(owner, "/api/v1/matches", {"humans": 2, "open": True, "bots": True}).json()
    assert closed["bots"] is False and allowing["bots"] is True
    # With the invite too: the owner's setting is the table's, whoever passes the invite on.
    invited = post(owner, "/api/v1/matches", {"humans": 2}).json()
    before = counts()
    assert_problem(post(bot, f"/api/v1/matches/{closed['id']}/join"), 409, "bots_not_allowed")
    join = post(bot, f"/api/v1/matches/{invited['id']}/join", {"invite": invited["invite"]})
    assert_problem(join, 409, "bots_not_allowed")
    assert counts() == before
    joined = post(bot, f"/api/v1/matches/{allowing['id']}/join")
    assert joined.status_code == 200, joined.json()
    assert [seat["kind"] for seat in joined.json()["seats"]] == ["human", "bot", "ai", "ai"]


def test_the_lobby_and_the_invitation_show_whether_bots_are_allowed():
    owner, guest = register("Roya"), register("Babak")
    allowing = post(owner, "/api/v1/matches", {"humans": 2, "open": True, "bots": True}).json()
    post(owner, "/api/v1/matches", {"humans": 2, "open": True})
    lobby = guest.get("/api/v1/tables").json()["tables"]
    assert sorted(table["bots"] for table in lobby) == [False, True]
    assert [t["id"] for t in guest.get("/api/v1/tables?bots=true").json()["tables"]] == [
        allowing["id"]
    ]
    invitation = post(guest, f"/api/v1/matches/{allowing['id']}/invitation")
    assert invitation.status_code == 200, invitation.json()
    assert invitation.json()["bots"] is True


def test_quick_play_meets_no_bot_unless_asked():
    human, bot, other = register("Roya"), register("Shirbot", bot=True), register("Babak")
    # A bot's quick play never opens a table.
    before = counts()
    assert_problem(post(bot, "/api/v1/quick-play"), 409, "no_table_for_bots")
    assert counts() == before
    # A human's quick play opens a table without bots by default, which the bot cannot find.
    plain = post(human, "/api/v1/quick-play").json()
    assert plain["bots"] is False
    assert_problem(post(bot, "/api/v1/quick-play", {"bots": True}), 409, "no_table_for_bots")
    # A human who asks for bots opens a table that allows them; the bot sits there.
    asked = post(other, "/api/v1/quick-play", {"bots": True}).json()
    assert asked["bots"] is True and asked["id"] != plain["id"]
    seated = post(bot, "/api/v1/quick-play")
    assert seated.status_code == 200, seated.json()
    assert seated.json()["id"] == asked["id"]
    assert [seat["kind"] for seat in seated.json()["seats"]][:2] == ["human", "bot"]


def test_a_bot_enters_a_tournament_only_where_the_organizer_allowed_bots():
    organizer, bot = register("Roya"), register("Shirbot", bot=True)
    closed = support.create(organizer)
    allowing = support.create(organizer, bots=True)
    assert closed["bots"] is False and allowing["bots"] is True
    before = counts()
    refused = post(bot, f"{support.BASE}/{closed['id']}/entries")
    assert_problem(refused, 409, "bots_not_allowed")
    assert counts() == before
    entered = support.enter(bot, allowing)
    assert entered["seats"][0]["kind"] == "bot"


def test_hints_are_not_for_bots_nor_where_another_seat_is_a_bots():
    bot = register("Shirbot", bot=True)
    alone = post(bot, "/api/v1/matches", {"ai_level": "easy", "seed": 3}).json()
    assert_problem(bot.get(f"/api/v1/matches/{alone['id']}/hint"), 403, "not_for_bots")
    owner = register("Roya")
    table = post(owner, "/api/v1/matches", {"humans": 2, "open": True, "bots": True}).json()
    assert post(bot, f"/api/v1/matches/{table['id']}/join").status_code == 200
    # Refused before whose turn it is is looked at: the other seat is a bot's.
    hint = owner.get(f"/api/v1/matches/{table['id']}/hint")
    assert_problem(hint, 409, "hints_not_allowed")


def test_no_rating_moves_in_a_match_with_a_bot_seat():
    owner, bot, guest = register("Roya"), register("Shirbot", bot=True), register("Babak")

    def both_resign(other) -> str:
        table = post(owner, "/api/v1/matches", {"humans": 2, "open": True, "bots": True}).json()
        assert post(other, f"/api/v1/matches/{table['id']}/join").status_code == 200
        for player in (owner, other):
            assert post(player, f"/api/v1/matches/{table['id']}/resign").status_code == 200
        return table["id"]

    with_bot = both_resign(bot)
    assert not RatingChange.objects.filter(match_id=with_bot).exists()
    assert not Rating.objects.exists()
    assert owner.get("/api/v1/players/me").json()["rating"]["matches"] == 0
    # The same match between two humans is rated: the test would see a rating move.
    between_humans = both_resign(guest)
    assert RatingChange.objects.filter(match_id=between_humans).count() == 2


def test_a_bots_match_alone_has_a_ten_second_turn_clock():
    bot, human = register("Shirbot", bot=True), register("Roya")
    seen = post(bot, "/api/v1/matches", {"ai_level": "easy", "seed": 3}).json()
    assert seen["turn_seconds"] == 10
    if seen["status"] == "in_deal":  # the bot's turn: its deadline runs
        assert seen["turn_deadline"] is not None
    assert post(bot, "/api/v1/matches", {"turn_seconds": 10}).json()["turn_seconds"] == 10
    before = counts()
    for asked in (11, 60):
        body = {"turn_seconds": asked}
        assert_problem(post(bot, "/api/v1/matches", body), 403, "not_for_bots")
    assert counts() == before
    # A human alone still chooses: no clock unless asked.
    assert post(human, "/api/v1/matches", {}).json()["turn_seconds"] is None


def test_a_bots_token_watches_no_match():
    bot, human = register("Shirbot", bot=True), register("Roya")
    shared = post(human, "/api/v1/matches", {"spectators": "live"}).json()["watch_code"]
    body, header = {"watch_code": shared}, {"HTTP_WATCH_CODE": shared}
    asks = [
        lambda client: client.post("/api/v1/watch", body, format="json"),
        lambda client: client.get("/api/v1/watch/events", **header),
        lambda client: client.post("/api/v1/watch/tickets", body, format="json"),
        lambda client: client.get("/api/v1/watch/stream", **header),
    ]
    for ask in asks:
        assert_problem(ask(bot), 403, "not_for_bots")
    # The same with no token, or a human's (which the spectators' endpoints do not read).
    for ask in asks[:3]:
        assert ask(APIClient()).status_code in (200, 201)
        assert ask(human).status_code in (200, 201)
