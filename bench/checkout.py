"""The two sides of `manage.py bench --baseline REV`: the working tree as it is, and REV
exported into a temporary directory with a virtual environment of its own, built by
`uv sync --locked` from REV's own lockfile, so that each side runs on the code and the
packages it was committed with."""

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings


@dataclass(frozen=True)
class Side:
    name: str  # "baseline" or "working tree"
    commit: str  # what it runs, as people read it: a short hash, "+ changes" if uncommitted
    source: Path  # where its manage.py is
    python: Path  # the interpreter of its virtual environment
    # Where its AI caches live (ASNAS_AI_CACHE_DIR) for the whole run, across its fresh data
    # directories; None: its data directory's default.
    ai_cache: Path | None = None


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=settings.BASE_DIR, check=True, capture_output=True, text=True
    ).stdout.strip()


def working_tree() -> Side:
    commit = _git("rev-parse", "--short", "HEAD")
    if _git("status", "--porcelain", "--untracked-files=no"):
        commit += " + changes"
    return Side("working tree", commit, Path(settings.BASE_DIR), Path(sys.executable))


class Baseline:
    """`with Baseline(rev) as side:` REV exported and synced; the directory is gone after."""

    def __init__(self, rev: str):
        try:
            self.commit = _git("rev-parse", "--verify", "--short", f"{rev}^{{commit}}")
        except subprocess.CalledProcessError as error:
            raise ValueError(f"{rev!r} names no commit: {error.stderr.strip()}") from error
        self.root: Path | None = None

    def __enter__(self) -> Side:
        self.root = Path(tempfile.mkdtemp(prefix=f"asnas-baseline-{self.commit}-"))
        try:
            return self._prepare()
        except BaseException:
            self.__exit__()
            raise

    def _prepare(self) -> Side:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", self.commit],
            cwd=settings.BASE_DIR,
            check=True,
            capture_output=True,
        ).stdout
        archive_path = self.root / "source.tar"
        archive_path.write_bytes(archive)
        source = self.root / "source"
        with tarfile.open(archive_path) as tar:
            tar.extractall(source, filter="data")
        archive_path.unlink()
        # The working tree's environment variables name its own virtual environment.
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
        }
        synced = subprocess.run(
            ["uv", "sync", "--locked", "--quiet"],
            cwd=source,
            env=env,
            capture_output=True,
            text=True,
        )
        if synced.returncode:
            raise RuntimeError(f"uv sync --locked failed in {source}:\n{synced.stderr}")
        # The embedded Postgres runs as a user of its own when the bench runs as root: it
        # must reach its own binaries, in this environment.
        self.root.chmod(0o755)
        return Side("baseline", self.commit, source, source / ".venv" / "bin" / "python")

    def __exit__(self, *exc_info) -> None:
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
