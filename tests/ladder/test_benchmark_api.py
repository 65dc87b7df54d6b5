"""The bot ladder over HTTP (#39 item 6, docs/bots.md): asking for a benchmark and following
it, its refusals (each a problem with a stable code, nothing changed), its matches that
cannot be restarted or given up, and the bots' leaderboard."""

import random
from datetime import timedelta
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.ai import coach_tables
from games.ai.benchmark import Sums
from games.engine import BenchmarkStatus
from games.ladder import commands as ladder_commands
from games.models import Benchmark, BenchmarkMatch, Match
from players.services import player_create
from tests.http.problems import assert_problem
from tests.ladder.support import always_call, play_match

pytestmark = pytest.mark.django_db

URL = "/api/v1/bots/me/benchmark"
BOARD = "/api/v1/bots/leaderboard"


def client_of(name: str, bot: bool = True) -> APIClient:
    player, token = player_create(name=name, bot=bot)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.player = player
    return client


def counts() -> tuple[int, int, int]:
    return Benchmark.objects.count(), BenchmarkMatch.objects.count(), Match.objects.count()


def test_a_bot_asks_for_a_benchmark_and_plays_its_first_match_at_once():
    bot = client_of("Shirbot")
    created = bot.post(URL, {"deals": 120}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert (body["status"], body["deals"], body["deals_counted"], body["matches_dealt"]) == (
        "running",
        120,
        0,
        1,
    )
    assert body["play"] is None and body["result"] is None and body["ranked"] is False
    match = bot.get(f"/api/v1/matches/{body['current_match']}").json()
    assert [seat["kind"] for seat in match["seats"]] == ["bot", "ai", "ai", "ai"]
    assert (match["ai_level"], match["turn_seconds"]) == ("hard", 10)
    # Deal 1 waits for the bot, unless the three AI seats all folded before its turn. Its
    # turn runs on the clock: if it stops answering, the clock plays for it.
    row = Match.objects.get(pk=body["current_match"])
    if match["status"] == "in_deal":
        assert match["legal_actions"] and row.turn_deadline is not None
    else:
        assert match["status"] == "deal_over" and row.turn_seconds == 10
    # Reading it while the match is in play deals nothing new and counts nothing.
    again = bot.get(URL).json()
    assert (again["matches_dealt"], again["current_match"]) == (1, body["current_match"])


@pytest.mark.parametrize("deals", [0, 108, 121, 1206, 12_012])
def test_a_size_that_is_not_whole_matches_from_120_to_12000_is_refused(deals):
    bot = client_of("Shirbot")
    assert_problem(bot.post(URL, {"deals": deals}, format="json"), 422, "invalid_benchmark_size")
    assert counts() == (0, 0, 0)


def test_a_human_is_not_benchmarked_and_a_bot_without_one_is_told_so():
    human = client_of("Roya", bot=False)
    assert_problem(human.post(URL, {"deals": 120}, format="json"), 403, "only_for_bots")
    assert_problem(human.get(URL), 403, "only_for_bots")
    assert_problem(client_of("Shirbot").get(URL), 404, "not_found")
    assert counts() == (0, 0, 0)


def test_a_benchmark_match_is_neither_restarted_nor_given_up():
    bot = client_of("Shirbot")
    match_id = bot.post(URL, {"deals": 120}, format="json").json()["current_match"]
    before = Match.objects.get(pk=match_id).version
    url = f"/api/v1/matches/{match_id}"
    assert_problem(bot.post(f"{url}/restart", {}, format="json"), 409, "restart_not_allowed")
    assert_problem(bot.post(f"{url}/resign", {}, format="json"), 409, "give_up_not_allowed")
    assert_problem(bot.post(f"{url}/leave", {}, format="json"), 409, "give_up_not_allowed")
    assert Match.objects.get(pk=match_id).version == before


def test_a_bot_alone_outside_a_benchmark_still_resigns():
    bot = client_of("Shirbot")
    match_id = bot.post("/api/v1/matches", {"ai_level": "hard"}, format="json").json()["id"]
    resigned = bot.post(f"/api/v1/matches/{match_id}/resign", {}, format="json")
    assert resigned.status_code == 200, resigned.json()


def test_a_new_benchmark_abandons_the_one_running():
    bot = client_of("Shirbot")
    first = bot.post(URL, {"deals": 120}, format="json").json()
    second = bot.post(URL, {"deals": 240}, format="json").json()
    assert second["id"] != first["id"] and second["deals"] == 240
    old = Benchmark.objects.get(pk=first["id"])
    assert old.status == BenchmarkStatus.ABANDONED and old.finished_at is not None
    assert bot.get(URL).json()["id"] == second["id"]


def finished(name: str, values: list[tuple[Fraction, Fraction]], days_ago: int = 0) -> None:
    """A bot whose benchmark finished with these (play, result) per deal."""
    sums = Sums()
    for play, result in values:
        sums = sums.add(play=play, result=result)
    Benchmark.objects.create(
        player=player_create(name=name, bot=True)[0],
        deals=len(values),
        server_seed="00" * 32,
        status=BenchmarkStatus.FINISHED,
        sums=sums.to_dict(),
        finished_at=timezone.now() - timedelta(days=days_ago),
    )


def spread(mean: Fraction, step: Fraction, deals: int = 1200) -> list[tuple[Fraction, Fraction]]:
    """`deals` plays alternating mean ± step (so a half-width of about 1.96 step / sqrt(deals)),
    and results ten times as spread."""
    return [(mean + step * (-1) ** k, mean + 10 * step * (-1) ** k) for k in range(deals)]


def test_the_leaderboard_ranks_bots_by_mean_play_among_narrow_enough_intervals():
    finished("Steady", spread(Fraction(-1, 100), Fraction(1, 2)))
    finished("Better", spread(Fraction(1, 50), Fraction(1, 2)))
    finished("Lucky", spread(Fraction(1, 2), Fraction(3), deals=120))  # ±0.54: too wide
    watcher = client_of("Roya", bot=False)
    board = watcher.get(BOARD)
    assert board.status_code == 200, board.json()
    body = board.json()
    assert body["width"] == "0.2"
    assert [(row["rank"], row["name"]) for row in body["bots"]] == [(1, "Better"), (2, "Steady")]
    best = body["bots"][0]
    assert (best["play"]["mean"], best["deals"]) == ("1/50", 1200)
    assert best["play"]["half_width"] == "0.0284"  # 1.96 * 0.5 / sqrt(1199), rounded up
    assert best["width_ratio"] < 0.11
    # Humans' leaderboard has none of them.
    names = {row["name"] for row in watcher.get("/api/v1/leaderboard").json()["results"]}
    assert not names & {"Steady", "Better", "Lucky"}


def test_a_bots_latest_finished_benchmark_is_the_one_on_the_board():
    finished("Shirbot", spread(Fraction(1, 10), Fraction(1, 2)), days_ago=2)
    bot = Benchmark.objects.get().player
    Benchmark.objects.create(
        player=bot,
        deals=1200,
        server_seed="00" * 32,
        status=BenchmarkStatus.FINISHED,
        sums=Sums()
        .add(play=Fraction(-1), result=Fraction(-1))
        .add(play=Fraction(-1), result=Fraction(1))
        .to_dict(),
        finished_at=timezone.now(),
    )
    rows = client_of("Roya", bot=False).get(BOARD).json()["bots"]
    assert [(row["name"], row["play"]["mean"]) for row in rows] == [("Shirbot", "-1")]


def test_a_read_while_the_match_is_in_play_writes_nothing_and_runs_a_few_statements():
    bot = client_of("Shirbot")
    bot.post(URL, {"deals": 120}, format="json")
    bot.get(URL)  # the connection's first read prepares what it prepares
    with CaptureQueriesContext(connection) as queries:
        assert bot.get(URL).status_code == 200
    statements = [query["sql"].split()[0].upper() for query in queries.captured_queries]
    print(f"benchmark read while in play: {len(statements)} statements: {statements}")
    assert not {"INSERT", "UPDATE", "DELETE"} & set(statements)
    assert len(statements) <= 8


def test_a_match_that_ended_before_the_tables_were_mapped_is_counted_at_a_read_after(
    monkeypatch,
):
    """Just after a server starts on new AI assets its tables are not mapped yet, and valuing
    a match's deals without them would outlast the request's deadline: the read answers 503
    with Retry-After and changes nothing, and asks for the tables; the next read counts."""
    bot = client_of("Shirbot")
    started = bot.post(URL, {"deals": 120}, format="json").json()
    play_match(bot.player, started["current_match"], always_call, random.Random(7))
    before = counts()
    warmed = []
    monkeypatch.setattr(coach_tables, "mapped", lambda: None)
    monkeypatch.setattr(ladder_commands, "_warm_soon", lambda: warmed.append(True))
    pending = bot.get(URL)
    assert_problem(pending, 503, "benchmark_pending")
    assert pending.headers["Retry-After"] == "5" and warmed == [True]
    assert counts() == before
    assert Benchmark.objects.get().sums == Sums().to_dict()
    monkeypatch.undo()
    counted = bot.get(URL).json()
    assert (counted["deals_counted"], counted["matches_dealt"]) == (12, 2)
    assert counted["current_match"] != started["current_match"]
