import os
import time
from types import SimpleNamespace

import pytest
from django.conf import settings

from asnas_api import gate, health
from games.match.commands import match_create
from games.models import Match
from players.services import player_create
from tests.matches import play
from tests.playwright_loop import hidden_from
from tests.servers import copy_database, migrated_template


@pytest.fixture
def make_match(db):
    """A seeded match of a new player, with `deals` deals played: make_match(deals=2)."""

    def make(*, seed: int = 1, deals: int = 0, name: str = "Roya") -> Match:
        player, _ = player_create(name=name)
        match = match_create(owner=player, ai_level="normal", seed=seed)
        return play(match, deals=deals, seed=seed)

    return make


@pytest.fixture
def still_gate_clock(monkeypatch):
    """The rate limits' clock stands still for the test: their windows (a minute for most of
    the tests' limits) would otherwise roll over between two of its requests now and then,
    more often on a busy machine, and a limit counted in two windows lets through a request
    the test expects refused. Returns the instant it stands at."""
    now = time.time()
    monkeypatch.setattr(gate, "time", SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture(autouse=True)
def fresh_readiness(monkeypatch):
    """/readyz keeps its answer for a second per process; each test starts without one."""
    monkeypatch.setattr(health, "readiness", health.Readiness())


@pytest.fixture(scope="session")
def coach_tables_built():
    """The coach's tables' file, which the run builds once in the background at its start
    (about a minute of CPU, niced, longer on a loaded machine). A server works out no review
    before it maps them, so a test that waits for a review against a deadline waits for the
    file first: its deadline then counts the review's work alone."""
    from games.ai import coach_tables

    return coach_tables.ensure_built()


@pytest.fixture(scope="session")
def coach_tables_mapped(coach_tables_built):
    """The coach's tables mapped in this test process, as a server worker maps them as it
    starts: what an in-process request that values decisions (a benchmark's read) needs."""
    from games.ai import coach_tables

    return coach_tables.load()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with hidden_from(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with hidden_from(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    with hidden_from(item):
        return (yield)


def pytest_configure(config):
    """The tests' users (pytest-django's admin_user, made for each admin test) get a fast
    password hash: PBKDF2 at Django's strength takes 0.6 s of CPU a user, which the operator's
    eighty-odd tests paid one after another. No test checks a password a server must read."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


if os.environ.get("ASNAS_TESTS_CITUS"):

    @pytest.fixture(scope="session")
    def django_db_setup(django_db_blocker):
        """On the Citus cluster (asnas_api.pytest_plugin) the tests use the coordinator's
        database as the plugin left it, migrated and distributed: a test database made the
        usual way would have no Citus in it."""
        yield

else:

    @pytest.fixture(scope="session")
    def django_db_setup(
        request, django_test_environment, django_db_blocker, django_db_modify_db_settings
    ):
        """pytest-django's test database, but a copy of the run's migrated one rather than
        migrated here (Django then finds it made, and its `migrate` has nothing to apply):
        every worker migrated a database of its own, seconds of CPU each. Dropped at the end,
        as pytest-django does."""
        from django.db import connection
        from django.test.utils import setup_databases, teardown_databases
        from pytest_django.fixtures import _get_databases_for_setup

        aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
        verbosity = request.config.option.verbose
        with django_db_blocker.unblock():
            copy_database(migrated_template(), connection.creation._get_test_db_name())
            databases = setup_databases(
                verbosity=verbosity,
                interactive=False,
                aliases=aliases,
                serialized_aliases=serialized_aliases,
                keepdb=True,
            )
        yield
        with django_db_blocker.unblock():
            end_other_sessions(connection)
            teardown_databases(databases, verbosity=verbosity)


def end_other_sessions(connection) -> None:
    """Ends the sessions other than this thread's on the test database, so that it can be
    dropped: a daemon thread of the worker (a review worker busy with a match a test's write
    ended, a stream's listener) may still hold one as the run ends, and CI once failed its
    last test's teardown on "database ... is being accessed by other users"."""
    with connection._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [connection.settings_dict["NAME"]],
        )
