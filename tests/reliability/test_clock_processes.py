"""The turn clock in real processes on one real database: it acts on deadlines that passed
while no clock ran, and two clocks act once per expired turn, never twice."""

import os
import time
from datetime import timedelta

import pytest
from django.db import transaction

from games import repository
from games.engine import ActionTaken, Status
from games.integrity import check_matches, replay_stored
from players.services import player_create
from tests.matches import seated
from tests.servers import clocks_running, committed_database_url

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
        stored = repository.match_stored(match_id=match_id)
    problems: list[str] = []
    result = replay_stored(stored, problems)
    assert problems == []
    return result


def clock_actions(match_id) -> list[ActionTaken]:
    events = repository.match_events(match_id=match_id)
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
    assert deadline < repository.match_load(match_id=match.row.id, player=None).row.updated_at


def test_two_clocks_on_one_database_act_once_per_expired_turn(tmp_path, clock_env):
    matches = tables(8, seed=30)
    with clocks_running(2, tmp_path, clock_env) as clocks:
        # Each match gets through a few deals: dozens of turns and next deals per match.
        wait_for(
            lambda: all(
                repository.match_load(match_id=m.row.id, player=None).state.deal_number >= 3
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
        repository.match_load(match_id=m.row.id, player=None).state.status for m in matches
    } <= {Status.IN_DEAL, Status.DEAL_OVER}
