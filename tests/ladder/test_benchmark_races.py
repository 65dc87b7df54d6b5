"""Reads and requests of one bot at the same moment, in real threads on real Postgres: the
benchmark's lock makes an ended match count once and the next be dealt once, and two first
benchmarks asked for at once leave one running."""

import random
import threading

import pytest
from django.db import connections

from games.engine import BenchmarkStatus
from games.ladder import commands
from games.models import Benchmark, BenchmarkMatch
from tests.ladder.support import BOTS, new_bot, play_match

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def at_once(call, times: int = 4) -> list:
    """`call()` in `times` threads released together; what each returned or raised."""
    barrier = threading.Barrier(times)
    answers = []

    def run():
        barrier.wait()
        try:
            answers.append(call())
        except Exception as error:  # noqa: BLE001 (the test reports what each thread met)
            answers.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_reads_at_once_count_an_ended_match_once_and_deal_the_next_once():
    bot = new_bot()
    benchmark = commands.benchmark_start(player=bot, deals=120)
    play_match(bot, benchmark.current_match, BOTS["always-call"], random.Random(2))
    answers = at_once(lambda: commands.benchmark_read_answer(player=bot))
    assert {(a["deals_counted"], a["matches_dealt"]) for a in answers} == {(12, 2)}, answers
    assert BenchmarkMatch.objects.count() == 2
    assert Benchmark.objects.get().sums["deals"] == 12


def test_first_benchmarks_asked_for_at_once_leave_one_running():
    bot = new_bot()
    answers = at_once(lambda: commands.benchmark_start(player=bot, deals=120).pk)
    assert not [a for a in answers if isinstance(a, Exception)], answers
    statuses = sorted(Benchmark.objects.values_list("status", flat=True))
    assert statuses == [BenchmarkStatus.ABANDONED] * 3 + [BenchmarkStatus.RUNNING]
