"""`manage.py bench --baseline REV`: its options, what it finds each side supports, how it
alternates the sides and sums up their rounds, and one short run end to end."""

import dataclasses
import json
import math
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rich.console import Console

from bench import baseline, compare
from bench.checkout import Baseline, Side
from bench.management.commands.bench import Command, baseline_load
from bench.served import ServedSide, cpu_spent, named, other_name, process_name

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def _options(*args: str) -> dict:
    return vars(Command().create_parser("manage.py", "bench").parse_args(["--baseline", *args]))


def test_the_options_make_the_load():
    load = baseline_load(
        _options(
            "ae85099", "--seconds", "4", "--get-seconds", "2", "--hints", "7", "--players", "3"
        )
    )
    assert load == baseline.Load(
        workers=2,  # serve's own default, which the memory targets are about
        players=3,
        seconds=4,
        get_seconds=2,
        hints=7,
        settle_seconds=30,
        ai_level=load.ai_level,
        seed=1,
    )
    assert baseline_load(_options("HEAD", "--workers", "3")).workers == 3
    assert _options("HEAD")["rounds"] == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed-matches", "5"], "--seed-matches does not go with --baseline"),
        (["--hint-burst"], "--hint-burst does not go with --baseline"),
        (["--streams", "3"], "--streams does not go with --baseline"),
        (["--server", "gunicorn-sync"], "--server does not go with --baseline"),
        (["--rounds", "0"], "--rounds must be at least 1"),
        (["--players", "0"], "--players must be at least 1"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--seconds", "0"], "--seconds must be more than 0"),
        (["--get-seconds", "-1"], "--get-seconds must be more than 0"),
        (["--hints", "-1"], "--hints must not be negative"),
    ],
)
def test_bad_options_are_refused_before_anything_runs(args, message):
    with pytest.raises(CommandError, match=message):
        baseline_load(_options("HEAD", *args))


def test_a_revision_that_names_no_commit_is_refused():
    with pytest.raises(CommandError, match="names no commit"):
        call_command("bench", "--baseline", "no-such-revision-anywhere")
    with pytest.raises(ValueError):
        Baseline("0" * 40)


def test_what_a_side_supports_comes_from_its_schema_whatever_its_parameters_are_named():
    first_wave = {
        "/api/v1/players": {"post"},
        "/api/v1/players/me": {"get"},
        "/api/v1/matches": {"get", "post"},
        "/api/v1/matches/{match_id}": {"get"},
        "/api/v1/matches/{match_id}/actions": {"post"},
        "/api/v1/matches/{match_id}/next-deal": {"post"},
    }
    assert baseline.supports(first_wave) == {"play": True, "hints": False}
    today = {
        **{path.replace("{match_id}", "{id}"): methods for path, methods in first_wave.items()},
        "/api/v1/matches/{id}/hint": {"get"},
    }
    assert baseline.supports(today) == {"play": True, "hints": True}
    without_next_deal = {k: v for k, v in first_wave.items() if not k.endswith("next-deal")}
    assert baseline.supports(without_next_deal)["play"] is False


def test_the_sides_alternate_round_by_round(monkeypatch):
    order = []
    monkeypatch.setattr(baseline, "measure", lambda side, load, say: order.append(side.name) or {})
    old = Side("baseline", "abc", Path("/old"), Path("/old/python"))
    new = Side("working tree", "def", Path("/new"), Path("/new/python"))
    results = baseline.run(old, new, load=None, rounds=3)
    assert order == ["baseline", "working tree"] * 3
    assert [len(rounds) for rounds in results.values()] == [3, 3]


def _round(write_ms, get_ms, hint=None, startup=5.0, pss=None, finished_ms=None):
    pss = pss or {"serve": 100 * 1024, "worker 1": 200 * 1024}
    finished_ms = finished_ms or get_ms * 2
    return {
        "startup_s": startup,
        "writes": {
            "server_cpu_ms_per_request": write_ms,
            "postgres_cpu_ms_per_request": write_ms / 4,
            "ends_no_deal_cpu_ms_per_request": write_ms * 0.9,
            "ends_a_deal_cpu_ms_per_request": write_ms * 2,
            "ends_no_deal_own_cpu_ms_per_request": write_ms * 0.7,
            "ends_a_deal_own_cpu_ms_per_request": write_ms * 1.8,
            "p50_ms": 10.0,
            "p99_ms": 40.0,
        },
        "gets": {
            "server_cpu_ms_per_request": get_ms,
            "postgres_cpu_ms_per_request": get_ms / 4,
            "p50_ms": 3.0,
            "p99_ms": 9.0,
        },
        "gets_finished": {
            "server_cpu_ms_per_request": finished_ms,
            "postgres_cpu_ms_per_request": finished_ms / 4,
            "p50_ms": 4.0,
            "p99_ms": 12.0,
        },
        "hints": hint and {"cpu_p50_ms": hint, "cpu_p99_ms": hint * 4},
        "pss_kib_after_warm_up": pss,
        "pss_kib_after_load": {name: kib + 1024 for name, kib in pss.items()},
    }


def test_the_summary_gives_each_side_its_median_and_the_ratio():
    results = {
        "baseline": [_round(6.0, 3.0), _round(7.0, 4.0, startup=7.0)],
        "working tree": [
            _round(3.0, 1.0, hint=20.0, pss={"serve": 30 * 1024, "worker 1": 90 * 1024}),
            _round(4.0, 2.0, hint=30.0, pss={"serve": 30 * 1024, "worker 1": 90 * 1024}),
        ],
    }
    summary = compare.summarize(results, players=8)
    figures = summary["figures"]
    write = figures["write_cpu_ms"]
    assert (write["baseline"], write["working tree"]) == (6.5, 3.5)
    assert write["ratio"] == 3.5 / 6.5
    assert write["baseline rounds"] == [6.0, 7.0]
    assert figures["write_postgres_cpu_ms"]["working tree"] == 3.5 / 4
    assert figures["get_cpu_ms"]["ratio"] == 1.5 / 3.5
    # A finished match's GET and the write that ends a deal are figures of their own.
    assert figures["get_finished_cpu_ms"]["baseline"] == 7.0
    assert figures["write_ends_a_deal_cpu_ms"]["working tree"] == 7.0
    assert figures["write_ends_no_deal_cpu_ms"]["baseline"] == pytest.approx(6.5 * 0.9)
    assert figures["startup_s"]["baseline"] == 6.0
    assert "8 players" in figures["write_p50_ms"]["label"]
    # The baseline has no hints: its side and the ratio are n/a, the working tree's stand.
    hint = figures["hint_cpu_p50_ms"]
    assert (hint["baseline"], hint["working tree"], hint["ratio"]) == (None, 25.0, None)
    assert figures["hint_cpu_p99_ms"]["working tree"] == 100.0
    assert figures["pss_warm_mib"]["baseline"] == 300.0
    assert figures["pss_load_mib"]["working tree"] == 122.0
    assert summary["pss_kib"]["working tree"]["worker 1"] == {
        "warm_up": 90 * 1024,
        "load": 91 * 1024,
    }


def test_the_table_shows_both_sides_their_ratio_and_n_a():
    results = {
        "baseline": [_round(6.0, 3.0, pss={"serve": 1024, "gunicorn master": 2048})],
        "working tree": [_round(3.0, 1.5, hint=20.0, pss={"serve": 1024, "clock": 4096})],
    }
    report = {
        "config": {
            "baseline": "ae85099",
            "working_tree": "1234567",
            "rounds": 1,
            "players": 8,
            "workers": 2,
            "seconds": 15,
            "get_seconds": 5,
            "hints": 100,
            "load_before": (1.0, 1.0, 1.0),
            "load_after": (2.0, 2.0, 2.0),
        },
        "summary": compare.summarize(results, players=8),
    }
    out = StringIO()
    compare.show(Console(file=out, width=200), report)
    text = out.getvalue()
    assert "baseline ae85099" in text and "working tree 1234567" in text
    lines = text.splitlines()
    labels = [line.split("│")[1].strip() for line in lines if line.count("│") > 2]
    # Each share of Postgres follows its own total.
    write, get = (
        labels.index("server CPU per write, ms (serve and Postgres)"),
        labels.index("server CPU per GET of a match in play, ms (serve and Postgres)"),
    )
    finished = labels.index("server CPU per GET of a finished match, ms (serve and Postgres)")
    assert labels[write + 1] == labels[get + 1] == labels[finished + 1] == "of which Postgres, ms"
    write_row = next(line for line in text.splitlines() if "server CPU per write" in line)
    assert "6.00" in write_row and "3.00" in write_row and "x0.50" in write_row
    hint_row = next(line for line in text.splitlines() if "hint server CPU p50" in line)
    assert hint_row.count("n/a") == 2 and "20.00" in hint_row
    clock_row = next(line for line in text.splitlines() if "clock" in line)
    assert clock_row.count("n/a") == 2 and "4.0" in clock_row and "5.0" in clock_row


def test_workers_are_numbered_in_order():
    assert named(["serve", "granian master", "worker", "worker", "clock"]) == [
        "serve",
        "granian master",
        "worker 1",
        "worker 2",
        "clock",
    ]


class FakeProcess:
    def __init__(self, pid, *cmdline, parent=None):
        self.pid, self._cmdline, self._parent = pid, list(cmdline), parent

    def cmdline(self):
        return self._cmdline

    def parent(self):
        return self._parent


def test_each_process_of_serve_is_named_by_what_it_is():
    serve = FakeProcess(1, "python", "manage.py", "serve", "--port", "1")
    granian = FakeProcess(2, "python", "-m", "granian", "--interface", "asginl", parent=serve)
    gunicorn = FakeProcess(3, "python", "-m", "gunicorn", "asnas_api.wsgi", parent=serve)
    assert process_name(serve, serve_pid=1) == "serve"
    assert process_name(granian, serve_pid=1) == "granian master"
    assert process_name(FakeProcess(4, *granian.cmdline(), parent=granian), 1) == "worker"
    assert process_name(gunicorn, serve_pid=1) == "gunicorn master"
    assert process_name(FakeProcess(5, *gunicorn.cmdline(), parent=gunicorn), 1) == "worker"
    clock = FakeProcess(6, "python", "/src/manage.py", "run_clock", parent=serve)
    assert process_name(clock, serve_pid=1) == "clock"
    guardian = FakeProcess(7, "python", "-m", "asnas_api.embedded_db", "/d", "1", parent=serve)
    assert process_name(guardian, serve_pid=1) == "guardian"


def test_a_process_of_an_unknown_kind_is_named_by_what_it_runs():
    assert (
        other_name(["/v/bin/python", "/src/manage.py", "warm_tables", "-v", "0"]) == "warm_tables"
    )
    assert other_name(["python", "manage.py", "serve"]) == "serve"
    assert other_name(["/v/bin/python", "-m", "asnas_api.supervisor"]) == "asnas_api.supervisor"
    assert other_name(["/usr/bin/pgbouncer", "x.ini"]) == "pgbouncer"


def test_cpu_counts_a_process_that_ended_between_two_samples_once():
    before = {"serve": {-1: 0, 5: 9_000}, "postgres": {-1: 1_000, 10: 5_000, 11: 2_000}}
    # 11 ended after 3,000 ns in all and was reaped: its parent's children times grew by it.
    after = {"serve": {-1: 0, 5: 9_500}, "postgres": {-1: 1_000 + 3_000, 10: 6_000, 12: 500}}
    assert cpu_spent(before, after) == {"serve": 500, "postgres": 1_000 + 1_000 + 500}


@pytest.mark.long  # two to four minutes: four serve start-ups
def test_bench_baseline_compares_two_runs_end_to_end(tmp_path):
    """The working tree against its own HEAD: the same code on both sides, so both have
    every figure, hints too."""
    out = tmp_path / "baseline.json"
    result = subprocess.run(
        [sys.executable, "manage.py", "bench", "--baseline", "HEAD", "--rounds", "1"]
        + ["--players", "2", "--workers", "1", "--seconds", "2", "--get-seconds", "1"]
        + ["--hints", "3", "--settle-seconds", "2", "--json", str(out)],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PSS per process" in result.stdout
    report = json.loads(out.read_text())
    for key, figure in report["summary"]["figures"].items():
        for side in ("baseline", "working tree"):
            assert figure[side] is not None and figure[side] > 0, (key, side, figure)
        assert math.isfinite(figure["ratio"]) and figure["ratio"] > 0, (key, figure)
    for side in ("baseline", "working tree"):
        (round_,) = report["rounds"][side]
        assert round_["writes"]["requests"] > 10
        assert round_["hints"]["hints"] == 3
        assert {"serve", "granian master", "worker 1", "clock"} <= set(round_["pss_kib_after_load"])


def test_each_side_keeps_one_ai_cache_across_its_fresh_data_directories(monkeypatch, tmp_path):
    """The coach's tables are built once per side, before the rounds, and every round's serve
    finds them: a round must not measure a minute of table building under its load."""
    seen = []
    monkeypatch.setattr(
        baseline, "measure", lambda side, load, say: seen.append(side.ai_cache) or {}
    )
    built = []
    monkeypatch.setattr(baseline, "build_ai_tables", lambda side, say: built.append(side))
    old = Side("baseline", "abc", Path("/old"), Path("/old/python"))
    new = Side("working tree", "def", Path("/new"), Path("/new/python"))
    baseline.run(old, new, load=None, rounds=2)
    assert [side.name for side in built] == ["baseline", "working tree"]
    assert seen[0] == seen[2] != seen[1] == seen[3] and None not in seen
    served = ServedSide(dataclasses.replace(new, ai_cache=tmp_path), workers=1, settle_seconds=0)
    assert served._environment()["ASNAS_AI_CACHE_DIR"] == str(tmp_path)


def test_a_side_without_coach_tables_builds_none(tmp_path):
    old = Side("baseline", "abc", tmp_path, tmp_path / "python", ai_cache=tmp_path / "ai")
    baseline.build_ai_tables(old, say=lambda text: None)  # would fail to run tmp_path/python
    assert not (tmp_path / "ai").exists()
