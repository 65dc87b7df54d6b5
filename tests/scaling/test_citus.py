"""The service on a three-node Citus cluster (ASNAS_TESTS_CITUS=1, .ci/run's Citus step): the
tables are placed as asnas_api/citus_placement.py declares, `citus_distribute` is idempotent,
and while whole matches, a table with its clock, spectators, streams and quick play are
played, every query that names a match runs on one shard. Citus logs each query it splits
into several shards' tasks (citus.multi_task_query_log_level, with its statement, in the
coordinator's log: asnas_api.pytest_plugin); each one seen must be on MULTI_SHARD, the
documented list of queries that ask every shard, each with its reason."""

import random
import re
import threading
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from asnas_api import citus_placement
from asnas_api.clock import clock_run
from asnas_api.housekeeping import close_due_tournaments
from asnas_api.pytest_plugin import CITUS_DIR, TESTS_CITUS
from games.match import store as match_store
from games.match.commands import match_clock_tick
from games.models import Match
from games.puzzles import commands as puzzle_commands
from games.review import commands as review_commands
from tests.http.play import play_match, play_table
from tests.live_client import bearer
from tests.tournaments import support as tournaments

pytestmark = [
    pytest.mark.citus,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not __import__("os").environ.get(TESTS_CITUS), reason="needs ASNAS_TESTS_CITUS=1"
    ),
]

LOG = CITUS_DIR / "coordinator" / "server.log"
MULTI_TASK = "multi-task query about to be executed"

# The queries that ask every shard, by a pattern of their statement, and why each may.
MULTI_SHARD = {
    r"FROM \"games_match\" INNER JOIN \"games_seat\"": (
        "a player's match list (GET /matches) and unfinished matches: by player, not by match"
    ),
    r"FROM games_match m WHERE m\.open AND m\.status = 'waiting'": (
        "the lobby (GET /tables) and quick play's search for the oldest fitting table: across"
        " matches by nature; the table chosen is then locked on its own shard"
    ),
    r"SELECT \"games_match\"\.\"id\" AS \"id\", \"games_match\"\.\"version\" AS \"version\""
    r" FROM \"games_match\" WHERE .* ORDER BY"
    r" \"games_match\"\.\"(turn_deadline|fill_at|updated_at)\"": (
        "the turn clock's search for due matches: across matches by nature, without a lock;"
        " the match chosen is then locked and moved on its own shard"
    ),
    r"^DELETE FROM \"(games_commitment|games_idempotencyrecord|players_streamticket|"
    r"games_watchticket|games_watchstream)\" WHERE \"\w+\"\.\"(expires_at|created_at)\" <=? \$1$": (
        "the clock's purge of expired rows, every ASNAS_PURGE_INTERVAL_SECONDS: by age,"
        " across every match and player"
    ),
    r"SELECT \(SELECT min\(turn_deadline\) FROM games_match": (
        "the turn clock's look at when its queues next fall due, after a search that found"
        " nothing: what lets it search again then, rather than every half second"
    ),
    r"^UPDATE \"games_watchstream\" SET \"expires_at\" = \$1 WHERE \"games_watchstream\"\.\"id\""
    r" IN ": (
        "the watch streams' renewal: a server process renews all its open watch streams together,"
        " one statement a heartbeat period, whichever matches they watch"
    ),
    r"^INSERT INTO games_dealreview \(match_id, series, deal_number, due_at\) SELECT": (
        "the clock's sweep makes due the reviews of ended deals that have none, every"
        " ASNAS_PURGE_INTERVAL_SECONDS: across matches by nature"
    ),
    r"FROM \"games_dealreview\" WHERE \(\"games_dealreview\"\.\"body\" IS NULL AND": (
        "the clock's sweep reads the reviews left due, oldest first, every"
        " ASNAS_PURGE_INTERVAL_SECONDS: across matches by nature"
    ),
    r"^SELECT \"games_match\"\.\"id\" AS \"id\" FROM \"games_match\""
    r" WHERE \(\"games_match\"\.\"id\" IN \(SELECT U0\.\"match_id\" AS \"match_id\"": (
        "the clock's search for benchmark matches a week old to purge (docs/bots.md), every"
        " ASNAS_PURGE_INTERVAL_SECONDS: by age, across every match, a few hundred at a time"
    ),
    r"^SELECT m\.id FROM games_match m LEFT JOIN games_tournament t": (
        "the clock's sweep looks for ended matches to mine for puzzles, every"
        " ASNAS_PURGE_INTERVAL_SECONDS: across matches by nature"
    ),
    r"^SELECT .* FROM \"games_match\"( INNER JOIN .*)? WHERE \(?"
    r"(\"games_match\"\.\"owner_id\" = \$\d+ AND )?\"games_match\"\.\"tournament_id\" = \$\d+": (
        "a tournament's entries (the entry check and the cap, under the tournament's lock, and"
        " the close): its matches are spread over every shard; once an entry and once a close"
    ),
    r"FROM \"games_seat\" WHERE \"games_seat\"\.\"player_id\" = \$\d+ LIMIT 1$": (
        "a player's declaration as a bot: whether they ever sat, across the matches; once a"
        " player (for good after)"
    ),
    r"FROM \"games_seat\" INNER JOIN \"games_match\" ON .* WHERE \(\"games_seat\"\.\"player_id\""
    r"|FROM \"players_ratingchange\" WHERE \"players_ratingchange\"\.\"player_id\" = ": (
        "a player's own profile (GET /players/me, and the answer to a bot's declaration): their"
        " seats' results and their rating history, by player, not by match"
    ),
    r"FROM games_watchstream WHERE expires_at > now\(\) AND \(match_id = \$\d+ OR address": (
        "a watch stream's opening: its address's and its server process's caps count their"
        " streams across matches (the match's own count is one shard's, but asked in the"
        " same statement); once a stream, not a move"
    ),
}


def multi_shard_statements(since: int) -> list[str]:
    """The statements the coordinator logged as multi-shard after byte `since` of its log."""
    text = LOG.read_bytes()[since:].decode(errors="replace")
    statements = []
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if MULTI_TASK not in line:
            continue
        pid = re.search(r"\[(\d+)\]", line)
        for following in lines[number + 1 : number + 6]:
            if pid and f"[{pid.group(1)}]" in following and "STATEMENT:" in following:
                statements.append(following.split("STATEMENT:", 1)[1].strip())
                break
        else:
            statements.append("(no statement logged)")
    return statements


def undocumented(statements: list[str]) -> list[str]:
    return [s for s in statements if not any(re.search(p, s) for p in MULTI_SHARD)]


def log_position() -> int:
    connection.ensure_connection()
    return LOG.stat().st_size


def test_every_table_is_placed_as_declared_and_placing_again_changes_nothing(capsys):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name::text, citus_table_type, distribution_column,"
            " colocation_id FROM citus_tables"
        )
        placed = {name: (kind, column, group) for name, kind, column, group in cursor.fetchall()}
    for table in citus_placement.reference_tables():
        assert placed[table][0] == "reference", table
    for table in citus_placement.coordinator_tables():
        assert table not in placed, table
    distributed = citus_placement.distributed_tables()
    for table, (column, colocated) in distributed.items():
        assert placed[table][:2] == ("distributed", column), table
        if colocated:
            assert placed[table][2] == placed[colocated][2], table
    call_command("citus_distribute")
    assert "Every table is placed already." in capsys.readouterr().out


def _client(name: str) -> APIClient:
    from players.services import player_create

    player, token = player_create(name=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    client.player, client.token = player, token
    return client


def _post(client, url: str, body: dict | None = None, status: int = 200) -> dict:
    response = client.post(f"/api/v1/{url}", body or {}, format="json")
    assert response.status_code == status, response.json()
    return response.json()


def test_playing_asks_one_shard_per_query_but_the_documented_ones(live, settings):
    settings.ASNAS_STREAM_HEARTBEAT_SECONDS = 0.2  # the watch stream renews its row often
    since = log_position()
    rng = random.Random(7)
    roya, babak = _client("Roya"), _client("Babak")
    # A whole match against the AI, its reads, its record and a hint on the way.
    view = _post(roya, "matches", {"seed": 3, "spectators": "live"}, status=201)
    match = view["id"]
    code = view["watch_code"]
    assert roya.get(f"/api/v1/matches/{match}/hint").status_code == 200
    # Spectators: the watch code's view, its events, a new code, a ticket.
    assert _post(APIClient(), "watch", {"watch_code": code})["id"] == match
    watched = APIClient().get("/api/v1/watch/events?after=0", headers={"Watch-Code": code})
    assert watched.status_code == 200
    code = _post(roya, f"matches/{match}/spectators", {"spectators": "live", "new_code": True})[
        "watch_code"
    ]
    _post(APIClient(), "watch/tickets", {"watch_code": code}, status=201)
    # Streams: the match's, the player's own, and the spectator's, while a move is made.
    before = view["version"]
    url = f"/api/v1/matches/{match}/stream"
    stream = live.follow(url, bearer(roya.token), until=lambda m: m.get("id", 0) > before)
    watching = live.follow(
        "/api/v1/watch/stream", {"Watch-Code": code}, until=lambda m: m.get("id", 0) > before
    )
    live.wait_waiting(2)
    # The player's own stream opens with the owner's turn, and is followed to that event.
    own = live.follow("/api/v1/players/me/stream", bearer(roya.token), until=lambda m: "event" in m)
    assert own.result(timeout=30)
    view = play_match(roya, view, rng)
    for name, followed in {"match": stream, "watch": watching}.items():
        assert followed.result(timeout=30), name
    time.sleep(1)  # the streams that ended delete their rows
    assert roya.get(f"/api/v1/matches/{match}").status_code == 200
    assert roya.get(f"/api/v1/matches/{match}/events").status_code == 200
    assert roya.get(f"/api/v1/matches/{match}/record").status_code == 200
    assert roya.get("/api/v1/matches").status_code == 200
    # A table of two humans with its clock: the invite, a join, a turn run out, a deal over.
    table = _post(roya, "matches", {"seed": 5, "humans": 2, "turn_seconds": 30}, status=201)
    view = _post(babak, f"matches/{table['id']}/join", {"invite": table["invite"]})
    later = timezone.now() + timedelta(minutes=5)
    assert match_clock_tick(now=later) is not None
    view = roya.get(f"/api/v1/matches/{table['id']}").json()
    play_table([roya, babak], view, rng)
    # Quick play: one opens a table, the next one sits at it; a table the clock fills.
    nima, sara = _client("Nima"), _client("Sara")
    opened = _post(nima, "quick-play", {"humans": 2})
    seated = _post(sara, "quick-play", {"humans": 2})
    assert seated["id"] == opened["id"]
    assert roya.get("/api/v1/tables").status_code == 200
    filled = _post(roya, "matches", {"humans": 3, "open": True, "fill_after": 60}, status=201)
    while match_clock_tick(now=timezone.now() + timedelta(minutes=10)) is not None:
        pass
    assert roya.get(f"/api/v1/matches/{filled['id']}").json()["status"] != "waiting"
    statements = multi_shard_statements(since)
    assert statements, "nothing was logged: the log level is not set"
    assert sorted(set(undocumented(statements))) == []


def test_reviews_puzzles_and_tournaments_ask_one_shard_per_query_but_the_documented_ones():
    """The rooms int brought: a match's reviews worked out and read, the clock sweep's
    review and puzzle duties, a puzzle tried, a bot declared (and a human who sat refused),
    and a tournament entered (twice: the second is
    refused by the check under the tournament's lock, the only one on Citus), closed and
    ranked."""
    since = log_position()
    roya, sima = _client("Roya"), _client("Sima")
    for seed in (31, 32):
        view = _post(roya, "matches", {"seed": seed, "verifiable": True}, status=201)
        view = play_match(roya, view, random.Random(seed))
        review_commands.reviews_compute(match_id=view["id"], budget_seconds=120)
        assert roya.get(f"/api/v1/matches/{view['id']}/review").status_code == 200
    review_commands.reviews_resubmit(older_than_seconds=0)
    assert puzzle_commands.puzzles_mine() > 0
    puzzle = sima.get("/api/v1/puzzles/next")
    assert puzzle.status_code == 200, puzzle.json()
    tried = {"action": puzzle.json()["actions"][0]}
    _post(sima, f"puzzles/{puzzle.json()['id']}/try", tried)
    bot = _client("Bot")
    assert _post(bot, "players/me/bot")["bot"] is True
    _post(bot, "matches", {"seed": 1}, status=201)
    refused = roya.post("/api/v1/players/me/bot", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "bot_after_matches")
    tournament = tournaments.create(_client("Owner"))
    entered = tournaments.enter(roya, tournament)
    twice = roya.post(f"{tournaments.BASE}/{tournament['id']}/entries", {}, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "already_entered")
    tournaments.past_deadline(tournament)
    assert close_due_tournaments() == 1
    standings = sima.get(f"{tournaments.BASE}/{tournament['id']}/standings")
    assert standings.status_code == 200, standings.json()
    assert roya.get(f"/api/v1/matches/{entered['id']}/record").status_code == 200
    statements = multi_shard_statements(since)
    assert statements, "nothing was logged: the log level is not set"
    assert sorted(set(undocumented(statements))) == []


def test_a_per_match_query_that_loses_its_match_is_caught(monkeypatch):
    """The check fails when a subquery of the match's load names the match only through the
    outer row (`m.id`), as it did before: Citus then asks every shard."""
    from games.match.commands import match_create

    match = match_create(owner=_client("Roya").player, ai_level="normal", seed=1)
    # The parameter stays, so that the statement takes the same ones, but names no match.
    lost = match_store._MATCH_WITH_SEATS.replace(
        "s.match_id = %s", "s.match_id = m.id AND %s::uuid IS NOT NULL", 1
    )
    monkeypatch.setattr(match_store, "_MATCH_WITH_SEATS", lost)
    since = log_position()
    assert match_store.match_load(match_id=match.row.id, player=None) is not None
    assert undocumented(multi_shard_statements(since)) != []
    monkeypatch.undo()
    since = log_position()
    assert match_store.match_load(match_id=match.row.id, player=None) is not None
    assert multi_shard_statements(since) == []


def test_the_clock_searches_when_something_can_be_due_not_at_every_poll():
    """On Citus each search for due matches asks every shard: a clock searches again at the
    first moment a stored match falls due, or at the soonest one written since could (5 s
    here), not every ASNAS_CLOCK_POLL_SECONDS (0.5 s). A turn that runs out in between is
    still taken when it does."""
    roya, babak = _client("Roya"), _client("Babak")
    table = _post(roya, "matches", {"seed": 5, "humans": 2, "turn_seconds": 30}, status=201)
    joined = _post(babak, f"matches/{table['id']}/join", {"invite": table["invite"]})
    Match.objects.filter(id=table["id"]).update(turn_deadline=timezone.now() + timedelta(seconds=2))
    since = log_position()
    stop = threading.Event()
    clock = threading.Thread(target=clock_run, kwargs={"stop": stop})
    clock.start()
    time.sleep(6)
    stop.set()
    clock.join(timeout=30)
    moved = Match.objects.get(id=table["id"]).version
    searches = [s for s in multi_shard_statements(since) if '"turn_deadline" ASC LIMIT' in s]
    assert moved > joined["version"]  # the clock played the turn that ran out
    # At 0.5 s a poll, 12 searches; here one at the start, one when the turn ran out (and
    # one after the move), one when the 5 s were up.
    assert 2 <= len(searches) <= 5, searches
    assert sorted(set(undocumented(multi_shard_statements(since)))) == []
