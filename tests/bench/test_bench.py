"""A small run of `manage.py bench`, end to end: a real server on its own fresh Postgres."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent.parent

pytestmark = pytest.mark.slow


def test_bench_plays_over_http_and_reports(tmp_path):
    out = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, "manage.py", "bench", "--players", "1", "--matches-per-player", "1"]
        + ["--workers", "1", "--healthz-requests", "1000", "--seed-matches", "3"]
        + ["--ai-level", "normal", "--streams", "40", "--no-progress", "--json", str(out)],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Actions by deal number" in result.stdout
    report = json.loads(out.read_text())
    assert report["config"]["seed_matches"] == 3
    assert report["streams"]["open"] == 40  # held through the run: each got its first line
    assert report["streams"]["kib_per_stream"] > 0
    assert report["healthz"]["requests"] == 1000
    assert report["healthz"]["server_cpu_ms_per_request"] > 0
    # The floors cost more than /healthz, which never reaches Django.
    for floor in ("floor_read", "floor_write"):
        assert report["floors"][floor]["requests"] == 1000
        assert report["floors"][floor]["cpu_over_healthz_ms"] > 0
    assert report["play"]["server_cpu_ms_per_write"] > report["play"]["server_cpu_ms_per_request"]
    endpoints = report["endpoints"]
    assert endpoints["create"]["count"] == 1
    assert endpoints["view"]["count"] == endpoints["next_deal"]["count"] == 11
    assert 1 <= endpoints["action"]["queries_max"] <= 8
    assert endpoints["action"]["cpu_ms"] > endpoints["action"]["app_cpu_ms"] > 0
    # A deal the player never acted in (every other seat folded to them as dealer) has no
    # row of its own; the others do.
    deals = set(report["by_deal"])
    assert deals <= {str(deal) for deal in range(1, 13)} and len(deals) >= 9, deals
    # CPU is counted in clock ticks of 10 ms; 1,000 requests of /healthz span several.
    assert report["action_vs_healthz"]["cpu_over_ms"] > 0


def test_hint_burst_reports_both_phases_and_their_ratio(tmp_path):
    out = tmp_path / "hint-burst.json"
    result = subprocess.run(
        [sys.executable, "manage.py", "bench", "--hint-burst", "--hint-players", "2"]
        + ["--workers", "1", "--quiet-seconds", "1", "--burst-seconds", "2"]
        + ["--no-progress", "--json", str(out)],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Another player's GET of its match" in result.stdout
    report = json.loads(out.read_text())
    assert (report["players"], report["addresses"]) == (2, 1)
    for phase in ("quiet", "burst"):
        assert report[phase]["count"] > 0
        assert 0 < report[phase]["p50_ms"] <= report[phase]["p99_ms"]
    assert report["p99_ratio"] == report["burst"]["p99_ms"] / report["quiet"]["p99_ms"]
    assert report["hints_answered"] + sum(report["hints_refused"].values()) > 0
    assert set(report["hints_refused"]) == {"429", "503"}
    assert report["server_cpu_ms_per_get"] > 0
