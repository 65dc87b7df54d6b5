"""TypeScript types generated from openapi.yaml by openapi-typescript type a script that
compiles under `tsc --strict` and plays a whole match against the real server."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILE = REPO / "openapi.yaml"
TS_DIR = REPO / "tests" / "clients" / "ts"
NETWORK_ERRORS = re.compile(r"E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH)")


def run(*command, cwd=TS_DIR, timeout=120) -> str:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(map(str, command))}:\n{result.stdout}{result.stderr}"
    return result.stdout


def installed() -> bool:
    """node_modules holds exactly what package-lock.json pins (npm's own record says so)."""
    try:
        have = json.loads((TS_DIR / "node_modules" / ".package-lock.json").read_text())
    except FileNotFoundError:
        return False
    pinned = json.loads((TS_DIR / "package-lock.json").read_text())
    return have["packages"] == {path: v for path, v in pinned["packages"].items() if path}


@pytest.fixture(scope="module")
def node_modules():
    """The locked npm packages, installed into the git-ignored tests/clients/ts/node_modules."""
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("node and npm are needed for the TypeScript client")
    if not installed():
        # npm ci takes seconds even from its cache, so it runs only when the lock changed.
        result = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=TS_DIR,
            capture_output=True,
            text=True,
            timeout=300,
        )
        output = result.stdout + result.stderr
        if result.returncode and NETWORK_ERRORS.search(output):
            pytest.skip(f"npm cannot reach its registry, so nothing to compile with:\n{output}")
        assert result.returncode == 0, output
    return TS_DIR / "node_modules"


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
    assert summary["resigned"][0] == "seat 0 resigned"
    assert summary["resigned"][1].startswith("finished, totals 0 0 0 0")
