"""The coach's sums against opponents of different tables, kept for the machine in the cache
directory: worked out once, read by every process after."""

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.ai import coach_tables, kept_sums

ROOT = Path(__file__).resolve().parents[2]

MIXED = (None, "easy", "hard", "easy")


def counted_sums(calls: list, wait: float = 0):
    """A stand-in for `position_sums` (3 s of CPU) that counts its calls and gives integers as
    large as the real ones."""

    def position_sums(rows, q):
        calls.append(q)
        time.sleep(wait)
        return [[2**230 * (slot + 1) - hand for hand in range(3)] for slot in range(4)]

    return position_sums


def test_mixed_sums_are_worked_out_once_then_read_by_another_process(tmp_path, monkeypatch):
    monkeypatch.setenv("ASNAS_AI_CACHE_DIR", str(tmp_path))
    calls: list = []
    monkeypatch.setattr(coach_tables, "position_sums", counted_sums(calls))
    first = kept_sums.kept_position_sums(MIXED, 0, rows=None)
    again = kept_sums.kept_position_sums(MIXED, 0, rows=None)
    assert again == first and calls == [0]
    path = kept_sums.mixed_path(MIXED, 0)
    assert path.name == f"mixed-{coach_tables.inputs_hash()}-own-easy-hard-easy-0.bin"
    # Another process, whose own working out would fail, reads the kept file.
    reader = (
        "import json; from games.ai import coach_tables, kept_sums\n"
        "def refused(rows, q): raise AssertionError('worked out again')\n"
        "coach_tables.position_sums = refused\n"
        f"print(json.dumps(kept_sums.kept_position_sums({MIXED!r}, 0, None)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", reader], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == first


def test_two_at_once_work_the_sums_out_once(tmp_path, monkeypatch):
    """Two threads (each opens the lock file itself, as two processes would): the second
    waits for the first's file rather than spend the seconds again."""
    monkeypatch.setenv("ASNAS_AI_CACHE_DIR", str(tmp_path))
    calls: list = []
    monkeypatch.setattr(coach_tables, "position_sums", counted_sums(calls, wait=0.5))
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: kept_sums.kept_position_sums(MIXED, 2, None), "ab"))
    assert results[0] == results[1] and calls == [2]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-9],  # cut short
        lambda data: data.replace(b'"position": 1', b'"position": 3'),  # another's header
        lambda data: b"garbage",
    ],
)
def test_a_damaged_or_foreign_file_is_worked_out_again_and_replaced(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("ASNAS_AI_CACHE_DIR", str(tmp_path))
    calls: list = []
    monkeypatch.setattr(coach_tables, "position_sums", counted_sums(calls))
    kept = kept_sums.kept_position_sums(MIXED, 1, None)
    path = kept_sums.mixed_path(MIXED, 1)
    whole = path.read_bytes()
    path.write_bytes(damage(whole))
    assert kept_sums.kept_position_sums(MIXED, 1, None) == kept
    assert calls == [1, 1] and path.read_bytes() == whole


def test_sums_of_changed_inputs_are_removed_as_new_ones_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("ASNAS_AI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(coach_tables, "position_sums", counted_sums([]))
    stale = tmp_path / "mixed-0123456789abcdef0123-own-easy-hard-easy-0.bin"
    stale.write_bytes(b"old")
    tables = tmp_path / "coach-0123456789abcdef0123.bin"  # not this function's to remove
    tables.write_bytes(b"old")
    kept_sums.kept_position_sums(MIXED, 0, None)
    assert not stale.exists() and tables.exists()
    assert kept_sums.mixed_path(MIXED, 0).exists()


def test_a_cache_directory_that_cannot_be_made_leaves_the_sums_in_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("ASNAS_AI_CACHE_DIR", str(blocker / "ai-cache"))
    calls: list = []
    monkeypatch.setattr(coach_tables, "position_sums", counted_sums(calls))
    first = kept_sums.kept_position_sums(MIXED, 0, None)
    assert kept_sums.kept_position_sums(MIXED, 0, None) == first and calls == [0, 0]
