"""npm for the tests that compile TypeScript or type-check the table: the packages locked in
tests/clients/ts, installed into its git-ignored node_modules."""

import fcntl
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
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


def install_node_modules() -> Path:
    """Installs the locked packages if need be; skips the test where npm cannot."""
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("node and npm are needed for TypeScript")
    # Workers of a parallel run install one at a time: two npm ci in one node_modules would
    # delete each other's files. The lock file is tracked, so the lock needs no file of its own.
    with (TS_DIR / "package-lock.json").open() as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed():
            _install()
    return TS_DIR / "node_modules"


def _install() -> None:
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
