"""TypeScript types generated from openapi.yaml by openapi-typescript type a script that
compiles under `tsc --strict` and plays a whole match against the real server."""

import json
import re
import shutil

import pytest

from tests.clients.npm import SCHEMA_FILE, TS_DIR, run

pytestmark = pytest.mark.slow


def test_typescript_client_compiles_strict_and_plays_a_whole_match(
    node_modules, server_url, tmp_path
):
    # Build in a temporary folder, so the generated types never land in the repo.
    for name in ("play.ts", "tsconfig.json"):
        shutil.copy(TS_DIR / name, tmp_path)
    (tmp_path / "node_modules").symlink_to(node_modules)
    bin_dir = node_modules / ".bin"
    run(bin_dir / "openapi-typescript", SCHEMA_FILE, "-o", tmp_path / "schema.ts", cwd=tmp_path)
    run(bin_dir / "tsc", "--strict", "-p", tmp_path, cwd=tmp_path)

    summary = json.loads(run("node", tmp_path / "build" / "play.js", server_url, "5", cwd=tmp_path))
    assert (summary["status"], summary["deal_number"], summary["deals"]) == ("finished", 12, 12)
    assert summary["winners"]
    assert len(summary["events"]) == summary["version"]
    assert summary["events"][0] == "created"
    assert summary["events"][-1] == f"finished, totals {' '.join(summary['totals'])}"
    assert summary["replies_are_the_events"]
    hint = summary["hint"]
    assert hint["exact"] is True and 1 <= hint["hand_rank"] <= 121
    assert re.fullmatch(r"\d+/\d+|0|1", hint["showdown_win"])
    for advice in hint["actions"]:
        assert re.fullmatch(r"\w+ (\d+/\d+|0|1) -?\d+\.\d{6}", advice), advice
    assert summary["resigned"][0] == "seat 0 resigned"
    assert summary["resigned"][1].startswith("finished, totals 0 0 0 0")
