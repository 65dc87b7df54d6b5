"""`manage.py bench --watchers`: its options, how it alternates the sides and sizes, how it
sums up the rounds (the streams' share beside the writes' own), and its table. The run itself
is minutes of real servers (docs/performance.md gives one)."""

import contextlib
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rich.console import Console

from bench import report, watchers
from bench.checkout import Side


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--watcher-sizes", "1,ten"], "--watcher-sizes is a list of numbers"),
        (["--watcher-sizes", "0,10"], "must be at least 1"),
        (["--watcher-writes", "0"], "must be at least 1"),
        (["--rounds", "0"], "must be at least 1"),
    ],
)
def test_bad_options_are_refused_before_anything_runs(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("bench", "--watchers", *args)


def test_each_side_measures_every_size_round_by_round_on_one_worker(monkeypatch):
    made = []

    @contextlib.contextmanager
    def served(side, workers, settle, **kwargs):
        made.append((side.name, workers, kwargs))
        yield type("Served", (), {"database_uri": lambda self: "uri"})()

    class Counting:
        def __init__(self, uri): ...

        def close(self): ...

    measured = []

    def measure(served_side, statements, size, writes):
        measured.append((made[-1][0], size))
        return {"watchers": size, "statements_per_write": 1.0}

    monkeypatch.setattr(watchers, "ServedSide", served)
    monkeypatch.setattr(watchers, "Statements", Counting)
    monkeypatch.setattr(watchers, "measure", measure)
    old = Side("baseline", "abc", Path("/old"), Path("/old/python"))
    new = Side("working tree", "def", Path("/new"), Path("/new/python"))
    load = watchers.WatcherLoad(sizes=(0, 1, 1000), writes=3, rounds=2)
    results = watchers.run([old, new], load, say=lambda text: None)
    assert [name for name, _, _ in made] == ["baseline", "working tree"] * 2
    assert {workers for _, workers, _ in made} == {1}
    settings = made[0][2]
    assert settings["environment"]["ASNAS_WATCH_STREAMS_PER_PROCESS"] == watchers.CAP
    assert settings["environment"]["ASNAS_WATCH_STREAMS_PER_MATCH"] == watchers.CAP
    assert settings["environment"]["ASNAS_WATCH_STREAMS_PER_ADDRESS"] == watchers.CAP
    assert settings["postgres_settings"] == {"shared_preload_libraries": "pg_stat_statements"}
    assert (
        measured
        == [(side, size) for side in ("baseline", "working tree") for size in (0, 1, 1000)] * 2
    )
    assert [r["round"] for r in results] == [1] * 6 + [2] * 6


def _result(side, size, statements, cpu_per_write, messages, round_number=1):
    return {
        "round": round_number,
        "side": side,
        "watchers": size,
        "writes": 5,
        "events": 20,
        "statements_per_write": statements,
        "messages": messages,
        "serve_cpu_ms": cpu_per_write * 5,
        "postgres_cpu_ms": 1.0,
        "serve_cpu_ms_per_write": cpu_per_write,
        "write_p50_ms": 10.0,
        "write_max_ms": 20.0,
        "fan_out_p50_ms": None if size == 0 else 5.0,
        "fan_out_max_ms": None if size == 0 else 9.0,
        "quiet": True,
    }


def test_the_summary_takes_the_writes_own_cost_out_of_the_streams_share():
    results = [
        _result("baseline", 0, 20.0, 10.0, 0),
        _result("baseline", 100, 420.0, 110.0, 2000),
        _result("baseline", 100, 440.0, 130.0, 2000, round_number=2),
        _result("working tree", 0, 21.0, 10.0, 0),
        _result("working tree", 100, 22.0, 14.0, 2000),
    ]
    rows = {(row["side"], row["watchers"]): row for row in watchers.summarize(results)}
    old, new = rows["baseline", 100], rows["working tree", 100]
    assert old["rounds"] == 2
    assert old["statements_per_write"] == 420.0  # the nearest-rank median of two: the lower
    assert old["stream_statements_per_write"] == 400.0
    assert new["stream_statements_per_write"] == 1.0
    # (110 - 10) ms a write, 5 writes, 2,000 messages: 0.25 ms a message.
    assert old["stream_cpu_ms_per_message"] == pytest.approx(0.25)
    assert new["stream_cpu_ms_per_message"] == pytest.approx(0.01)
    assert "stream_cpu_ms_per_message" not in rows["baseline", 0]
    assert old["quiet"] and new["quiet"]
    results[2]["quiet"] = False  # one round of the two was never quiet: the size is flagged
    flagged = {(row["side"], row["watchers"]): row for row in watchers.summarize(results)}
    assert not flagged["baseline", 100]["quiet"] and flagged["working tree", 100]["quiet"]


def test_the_table_gives_both_sides_at_each_size():
    results = [
        _result(side, size, statements, 10.0 + size / 10, size * 20)
        for side, statements in (("baseline", 4.0), ("working tree", 1.0))
        for size in (0, 10)
    ]
    config = {
        "sides": {"baseline": "abc", "working tree": "def"},
        "writes": 5,
        "rounds": 1,
        "cpus": 2,
        "load_before": (1.0, 1.0, 1.0),
        "load_after": (2.0, 2.0, 2.0),
    }
    out = StringIO()
    summary = watchers.summarize(results)
    report.show_watchers(Console(file=out, width=200), {"config": config, "summary": summary})
    text = out.getvalue()
    assert "baseline abc, working tree def" in text
    lines = [line for line in text.splitlines() if "baseline" in line or "working" in line][1:]
    assert [line.split("│")[1:3] for line in lines] == [
        [" baseline     ", "        0 "],
        [" baseline     ", "       10 "],
        [" working tree ", "        0 "],
        [" working tree ", "       10 "],
    ]
