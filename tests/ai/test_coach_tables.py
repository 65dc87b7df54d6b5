"""The coach's tables: one file per set of inputs, mapped read-only instead of built in every
process; the AI tables kept as 16-bit integers."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.ai import coach_tables
from games.ai.coach import coach, warm
from games.ai.tables import engine_legal, view_at
from games.ai.tree import TREE

ROOT = Path(__file__).resolve().parents[2]

# Memory in MB of one process: after loading what games.apps loads at start-up, then after
# the coach's warm-up and a deal's first hint at every level.
MEASURE = r"""
import json

def anon():
    for line in open("/proc/self/smaps_rollup"):
        if line.startswith("Pss_Anon:"):
            return int(line.split()[1]) / 1024

from games.ai import AI_LEVELS, load_expert, load_strategy
from games.ai.coach import coach, warm
from games.ai.expert import _model_columns
from games.ai.tables import engine_legal, view_at
from games.ai.tree import TREE
imported = anon()
load_strategy(); load_expert(); _model_columns()
loaded = anon()
warm()
legal = tuple(a for a in engine_legal(TREE, 0, looked=True) if a != "look")
for level in AI_LEVELS:
    coach(view_at(TREE, 0, 60), legal, level)
maps = open("/proc/self/maps").read()
print(json.dumps({"ai_tables": loaded - imported, "coach": anon() - loaded,
                  "mapped": "coach-" in maps}))
"""


@pytest.mark.slow
@pytest.mark.usefixtures("coach_tables_built")
def test_the_tables_cost_a_process_little_memory_of_its_own():
    """The coach's tables were built in every process (about 85 MB of its own memory), the
    AI tables kept as Python integers (about 60 MB): now the first are a mapped file whose
    pages every process shares, the second 16-bit integers."""
    result = subprocess.run(
        [sys.executable, "-c", MEASURE],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    measured = json.loads(result.stdout)
    assert measured["mapped"]
    assert measured["coach"] < 15, measured
    assert measured["ai_tables"] < 25, measured


def test_a_file_built_from_other_inputs_is_refused(tmp_path):
    header = {"inputs": "another", "tables": list(coach_tables.TABLES), "chunks": []}
    path = tmp_path / "coach-another.bin"
    path.write_bytes(coach_tables.MAGIC + json.dumps(header).encode() + b"\n")
    with pytest.raises(ValueError, match="other inputs"):
        coach_tables.open_tables(path)
    path.write_bytes(b"not the tables\n")
    with pytest.raises(ValueError, match="not a coach tables file"):
        coach_tables.open_tables(path)


def test_the_file_is_named_by_its_inputs(tmp_path, monkeypatch):
    """Another AI asset names another file: a stale one is never read."""
    before = coach_tables.table_path()
    changed = tmp_path / "hard_strategy.json"
    changed.write_bytes(coach_tables.STRATEGY_ASSET_PATH.read_bytes() + b"\n")
    # The changed asset is undone before the hash is cached again: a hash of it left in the
    # cache made every later test of this process (the review's shipped blind values, named
    # by the same inputs) read its files as stale.
    with monkeypatch.context() as patched:
        patched.setattr(coach_tables, "STRATEGY_ASSET_PATH", changed)
        coach_tables.inputs_hash.cache_clear()
        try:
            assert coach_tables.table_path() != before
        finally:
            coach_tables.inputs_hash.cache_clear()
    assert coach_tables.table_path() == before
    monkeypatch.setenv("ASNAS_AI_CACHE_DIR", str(tmp_path))
    assert coach_tables.table_path().parent == tmp_path


def test_a_failed_warm_up_leaves_hints_summing_over_deals(tmp_path, monkeypatch, caplog):
    """A cache directory that cannot be made: the warm-up logs it and returns, and hints are
    still answered, from the deals."""
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("ASNAS_AI_CACHE_DIR", str(blocker / "ai-cache"))
    monkeypatch.setattr(coach_tables, "_mapped", None)
    warm()
    assert coach_tables.mapped() is None
    assert "could not be built or mapped" in caplog.text
    node = TREE.index[("call", "call", "raise")]
    legal = tuple(a for a in engine_legal(TREE, node, looked=True) if a != "look")
    hint = coach(view_at(TREE, node, 7), legal, "hard")
    assert all(a.expected_value is not None for a in hint.actions)
