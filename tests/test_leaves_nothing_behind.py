"""A test run cleans up after itself: nothing in the system temp directory, nothing untracked
in the checkout outside its git-ignored folders."""

import os
import subprocess
import sys

import pytest

from asnas_api.pytest_plugin import RUNS_DIR
from tests.servers import BASE_DIR

# One test on the database (so the run makes and drops its Postgres cluster) and one that
# writes to tmp_path and the temp directory.
CHILD_TEST = """
import tempfile

def test_writes_files(tmp_path, db):
    (tmp_path / "made-by-a-test").write_text("x")
    tempfile.NamedTemporaryFile(delete=False).write(b"x")
"""


def untracked() -> set[str]:
    listing = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {line[3:] for line in listing.splitlines() if line.startswith("??")}


@pytest.mark.slow
def test_a_run_leaves_the_temp_dir_and_the_checkout_clean(tmp_path):
    system_temp = tmp_path / "system-temp"
    system_temp.mkdir(mode=0o755)
    test_dir = BASE_DIR / "tests" / f"_child_{os.getpid()}"
    test_dir.mkdir()
    untracked_before = untracked()
    runs_before = set(RUNS_DIR.glob("run-*"))
    try:
        (test_dir / "test_child.py").write_text(CHILD_TEST)
        env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        result = subprocess.run(
            [sys.executable, "-m", "pytest", str(test_dir), "-q", "-p", "no:cacheprovider"],
            cwd=BASE_DIR,
            env={**env, "TMPDIR": str(system_temp)},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "1 passed" in result.stdout
    finally:
        for path in test_dir.iterdir():
            path.unlink()
        test_dir.rmdir()
    assert list(system_temp.iterdir()) == [], "the system temp directory is left as it was"
    assert set(RUNS_DIR.glob("run-*")) <= runs_before, "the run's own folder is gone"
    assert untracked() == untracked_before
