"""The turn clock in real processes on one real database: it acts on deadlines that passed
while no clock ran, two clocks act once per expired turn, never twice, and under serve one
worker's clock leads, another taking over when that worker dies."""

import os
import signal
import threading
import time
from datetime import UTC, datetime, timedelta

import httpx
import psutil
import psycopg
import pytest
from django.db import connections, transaction

from asnas_api.clock import LEADER_LOCK, ClockLeadership, clock_run
from games.engine import ActionTaken, DealStarted, SeatsFilled, Status
from games.match import log as match_log
from games.match import store as match_store
from games.match.commands import match_create, match_join
from games.match.integrity import check_matches, replay_stored
from players.services import player_create
from tests.matches import seated
from tests.servers import clocks_running, committed_database_url, migrated_database, served

# Alone (tests marked so below): the tests that time the clock against bounds of seconds, or
# kill a worker. The others only wait, with a deadline, for what the clocks do.
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TURN = 1  # seconds: the services take any clock; the API's floor of 10 s is for people


@pytest.fixture
def clock_env():
    return {
        **os.environ,
        "DATABASE_URL": committed_database_url(),
        "ASNAS_CLOCK_POLL_SECONDS": "0.05",
        "ASNAS_CLOCK_GRACE_SECONDS": "0",
        "ASNAS_NEXT_DEAL_SECONDS": "0.5",
    }


def tables(count: int, seed: int):
    people = [player_create(name=f"P{seed}-{n}")[0] for n in range(2)]
    return [seated(people, 2, seed=seed + n, turn_seconds=TURN) for n in range(count)]


def replayed(match_id):
    with transaction.atomic():
        stored = match_log.match_stored(match_id=match_id)
    problems: list[str] = []
    result = replay_stored(stored, problems)
    assert problems == []
    return result


def clock_actions(match_id) -> list[ActionTaken]:
    events = match_log.match_events(match_id=match_id)
    return [e for _, e in events if isinstance(e, ActionTaken) and e.by == "clock"]


def wait_for(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)


def test_a_deadline_that_passed_while_no_clock_ran_is_acted_on_when_one_starts(tmp_path, clock_env):
    (match,) = tables(1, seed=20)
    deadline = match.row.turn_deadline
    time.sleep(TURN + 0.5)  # the server is down: the turn runs out unseen
    assert clock_actions(match.row.id) == []
    with clocks_running(1, tmp_path, clock_env):
        wait_for(lambda: clock_actions(match.row.id), timeout=30)
    lateness = replayed(match.row.id).clock_lateness[0]
    assert lateness >= timedelta(seconds=0.5)  # it waited for the clock, not the other way
    assert clock_actions(match.row.id)[0].seat == match.state.deal.turn
    assert deadline < match_store.match_load(match_id=match.row.id, player=None).row.updated_at


def test_two_clocks_on_one_database_act_once_per_expired_turn(tmp_path, clock_env):
    matches = tables(8, seed=30)
    with clocks_running(2, tmp_path, clock_env) as clocks:
        # Each match gets through a few deals: dozens of turns and next deals per match.
        wait_for(
            lambda: all(
                match_store.match_load(match_id=m.row.id, player=None).state.deal_number >= 3
                for m in matches
            ),
            timeout=120,
        )
        assert [clock.poll() for clock in clocks] == [None, None]  # both ran all along
    turns = 0
    for match in matches:
        # Nobody but the clocks wrote to these matches: every write after the seating acted
        # on a turn past its deadline (a second move on one turn would come before the
        # deadline the first one set), and the stored projection agrees with the events.
        late = replayed(match.row.id).clock_lateness
        assert late and min(late) >= timedelta(0), late
        turns += len(late)
    assert turns >= 8 * 3
    assert all(problems == [] for _, problems in check_matches([m.row.id for m in matches]))
    assert {
        match_store.match_load(match_id=m.row.id, player=None).state.status for m in matches
    } <= {Status.IN_DEAL, Status.DEAL_OVER}


@pytest.mark.alone
def test_serve_runs_the_clock_and_stops_it(tmp_path):
    """Over HTTP, as players see it: the clock acts for the late human within 2 s of the
    deadline; it runs in the worker, with no process of its own, and ends with serve."""
    with migrated_database("clock") as url:
        env = {**os.environ, "DATABASE_URL": url, "ASNAS_ALLOW_CLIENT_SEED": "1"}
        with served(tmp_path / "serve.log", env, workers=1) as (base, server):
            clients = []
            for name in ("Roya", "Babak"):
                client = httpx.Client(base_url=base, timeout=10)
                token = client.post("/api/v1/players", json={"name": name}).json()["token"]
                client.headers["Authorization"] = f"Bearer {token}"
                clients.append(client)
            body = {"humans": 2, "turn_seconds": 10, "seed": 7}
            view = clients[0].post("/api/v1/matches", json=body).json()
            join = {"invite": view["invite"]}
            view = clients[1].post(f"/api/v1/matches/{view['id']}/join", json=join).json()
            deadline = datetime.fromisoformat(view["turn_deadline"])
            late = view["turn"]
            events = f"/api/v1/matches/{view['id']}/events"
            wait_for(
                lambda: any(
                    event.get("by") == "clock"
                    for event in clients[0]
                    .get(events, params={"after": view["version"]})
                    .json()["events"]
                ),
                timeout=20,
            )
            acted = datetime.now(UTC)
            assert deadline <= acted < deadline + timedelta(seconds=2)
            # The clock counts a move after committing it: the event can be read a moment
            # before the count (its last figure is the lateness).
            wait_for(
                lambda: "asnas_clock_lateness_seconds_count 1.0" in clients[0].get("/metrics").text,
                timeout=10,
            )
            metrics = clients[0].get("/metrics").text
            assert 'asnas_clock_moves_total{kind="turn"} 1.0' in metrics
            assert "asnas_clock_lateness_seconds_count 1.0" in metrics
            seats = clients[0].get(f"/api/v1/matches/{view['id']}").json()["seats"]
            assert seats[late]["away"] is True
            processes = psutil.Process(server.pid).children(recursive=True)
            assert not [p for p in processes if "run_clock" in p.cmdline()]
            [leader] = clock_leaders(url)
            assert leader in [p.pid for p in processes]
            server.terminate()
            assert server.wait(timeout=30) == 0
            assert not psutil.pid_exists(leader)


def clock_leaders(database_url: str) -> list[int]:
    """The pids of the processes whose clock leads on this database (from their clock
    connection's application_name), and of those that hold its lock in no other way."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT activity.application_name FROM pg_locks AS lock"
            " JOIN pg_stat_activity AS activity ON activity.pid = lock.pid"
            " JOIN pg_database AS db ON db.oid = lock.database"
            " WHERE lock.locktype = 'advisory' AND lock.granted"
            " AND db.datname = current_database()"
            " AND lock.classid = %s AND lock.objid = %s",
            [LEADER_LOCK >> 32, LEADER_LOCK & 0xFFFFFFFF],
        ).fetchall()
    return [int(name.removeprefix("asnas clock ")) for (name,) in rows]


def clock_sessions(database_url: str) -> int:
    with psycopg.connect(database_url, autocommit=True) as connection:
        (count,) = connection.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name LIKE 'asnas clock %%'"
        ).fetchone()
    return count


@pytest.mark.alone
def test_one_worker_leads_the_clock_and_another_takes_over_when_it_dies(tmp_path):
    """serve --workers 2: both workers run the clock, one leads (holds the lock); kill -9 it,
    and the other worker (or the one granian starts instead) leads within a few polls."""
    with migrated_database("clock_lead") as url:
        env = {**os.environ, "DATABASE_URL": url, "ASNAS_CLOCK_POLL_SECONDS": "0.1"}
        with served(tmp_path / "serve.log", env, workers=2) as (_, server):
            wait_for(lambda: clock_sessions(url) == 2, timeout=30)
            wait_for(lambda: len(clock_leaders(url)) == 1, timeout=10)
            [leader] = clock_leaders(url)
            workers = {p.pid for p in psutil.Process(server.pid).children(recursive=True)}
            assert leader in workers, "a worker of this serve leads"
            os.kill(leader, signal.SIGKILL)
            killed = time.monotonic()
            seen = []
            while not (seen and seen[-1] and seen[-1] != [leader]):
                seen.append(clock_leaders(url))
                assert len(seen[-1]) <= 1, "never two leaders at once"
                assert time.monotonic() - killed < 10, f"nobody took over: {seen}"
                time.sleep(0.05)
            [successor] = seen[-1]
            assert successor != leader
            assert successor in {p.pid for p in psutil.Process(server.pid).children(recursive=True)}


def test_a_clock_that_does_not_lead_makes_no_move(settings):
    settings.ASNAS_CLOCK_POLL_SECONDS = 0.05
    settings.ASNAS_CLOCK_GRACE_SECONDS = 0
    (match,) = tables(1, seed=50)
    leads = threading.Event()
    stop = threading.Event()

    def run() -> None:
        try:
            clock_run(stop=stop, leading=leads.is_set)
        finally:
            connections.close_all()

    clock = threading.Thread(target=run)
    clock.start()
    try:
        time.sleep(TURN + 1)  # the turn ran out a while ago
        assert clock_actions(match.row.id) == []
        leads.set()
        wait_for(lambda: clock_actions(match.row.id), timeout=30)
    finally:
        stop.set()
        clock.join(timeout=30)


def test_one_leadership_at_a_time_and_the_next_when_it_is_released():
    first, second = ClockLeadership(), ClockLeadership()
    try:
        assert first() is True
        assert second() is False
        assert first() is True, "the leader keeps its lead"
        first.release()  # as its process's death would
        wait_for(second, timeout=5)  # at a later poll: Postgres ends the session a moment later
        assert first() is False
    finally:
        first.release()
        second.release()


def test_a_match_the_clock_cannot_move_in_does_not_hold_up_the_others(
    settings, monkeypatch, caplog
):
    settings.ASNAS_CLOCK_POLL_SECONDS = 0.05
    settings.ASNAS_CLOCK_GRACE_SECONDS = 0
    broken, working = tables(2, seed=40)
    append = match_store.match_append

    def append_or_fail(*, match, **written):
        if match.row.id == broken.row.id:
            raise ValueError("a bug that only this match meets")
        append(match=match, **written)

    monkeypatch.setattr(match_store, "match_append", append_or_fail)
    # The broken match's turn runs out first, so it is first in the queue at every poll.
    assert broken.row.turn_deadline < working.row.turn_deadline
    stop = threading.Event()

    def run() -> None:
        try:
            clock_run(stop=stop)
        finally:
            connections.close_all()

    clock = threading.Thread(target=run)
    clock.start()
    try:
        wait_for(lambda: clock_actions(working.row.id), timeout=30)
    finally:
        stop.set()
        clock.join(timeout=30)
    assert clock_actions(broken.row.id) == []
    assert f"could not move in match {broken.row.id}" in caplog.text


def test_two_clocks_fill_each_open_table_once_when_its_fill_after_runs_out(tmp_path, clock_env):
    people = [player_create(name=f"Fill-{n}")[0] for n in range(6)]
    # The services take any wait; the API's floor of 10 s is for people.
    tables = [
        match_create(owner=owner, ai_level="easy", humans=3, open=True, fill_after=1)
        for owner in people
    ]
    match_join(match_id=tables[0].row.id, player=people[1], invite="")
    with clocks_running(2, tmp_path, clock_env):
        wait_for(
            lambda: all(
                match_store.match_load(match_id=t.row.id, player=None).state.status
                is not Status.WAITING
                for t in tables
            ),
            timeout=120,  # a guard against a hang, as above; it took 32 s on a loaded machine
        )
    for table in tables:
        events = [event for _, event in match_log.match_events(match_id=table.row.id)]
        filled = [event for event in events if isinstance(event, SeatsFilled)]
        assert len(filled) == 1, events
        assert filled[0].seats == ((2,) if table is tables[0] else (1, 2))
        assert sum(isinstance(event, DealStarted) for event in events) >= 1
    assert all(problems == [] for _, problems in check_matches([t.row.id for t in tables]))
