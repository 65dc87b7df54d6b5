"""Pytest plugin (loaded with `-p` from pyproject.toml): the tests' database.

Unless DATABASE_URL is set, the tests run on a throwaway embedded Postgres cluster in a fresh
temporary directory, deleted with the server when the run ends.
"""

import os
import secrets
import tempfile
from pathlib import Path

import pytest

from asnas_api import embedded_db


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # tryfirst: pytest-django sets Django up in this same hook, and the settings must already
    # see DATABASE_URL, or they would start the development database in .data/.
    os.environ.setdefault("ASNAS_ALLOW_CLIENT_SEED", "1")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    # Rate limits that the suite's own traffic never meets; the throttling tests set their own.
    for scope in ("TOKEN", "IP", "PLAYER_CREATE", "MATCH_CREATE"):
        os.environ.setdefault(f"ASNAS_RATE_{scope}", "1000000/min")
    if not os.environ.get("DATABASE_URL"):
        pgdata = Path(tempfile.mkdtemp(prefix="asnas-test-pg-"))
        os.environ["DATABASE_URL"] = embedded_db.start(pgdata, cleanup_mode="delete")


def pytest_unconfigure(config):
    embedded_db.stop()
