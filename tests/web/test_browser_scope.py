"""One browser for a worker's run (tests/playwright_loop.py): Playwright's sync API leaves its
event loop marked running in the thread between its calls, and Django's database calls and
`asyncio.run` both refuse to work where a loop runs. The tests that follow a browser test on
its worker, in a parallel run other modules' tests, must work as if no browser were open."""

import asyncio
import contextlib

import pytest
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connection

from players.models import Player
from tests import conftest
from tests.web.conftest import chromium


def test_the_database_answers_beside_an_open_browser_but_not_from_a_coroutine(db):
    with chromium() as browser:
        assert browser.is_connected()
        assert asyncio._get_running_loop() is not None  # Playwright's, marked running
        assert Player.objects.count() == 0

    async def from_a_coroutine():
        return Player.objects.count()

    with pytest.raises(SynchronousOnlyOperation):
        asyncio.run(from_a_coroutine())


def test_a_browser_test_leaves_the_browser_open(browser):
    context = browser.new_context()
    assert context.new_page().evaluate("1 + 1") == 2
    context.close()
    assert asyncio._get_running_loop() is not None


def test_the_next_test_runs_coroutines():
    """Follows the browser test above on its worker, with the browser still open."""

    async def ticks():
        await asyncio.sleep(0)
        return "ran"

    assert asyncio.run(ticks()) == "ran"


def test_the_last_test_of_a_worker_tears_down_on_the_connection_it_used(db, request):
    """A worker's last test, one without the browser, after a browser module: its teardown
    (`tests/conftest.py`, with no next test) ends the session, closing the browser too. It must
    roll back the test's transaction on the connection the test used (run 90 failed there:
    "The rollback flag doesn't work outside of an 'atomic' block"), then close the browser."""
    browser_session = contextlib.ExitStack()
    browser = browser_session.enter_context(chromium())  # as the worker's browser fixture
    teardown = conftest.pytest_runtest_teardown(request.node, None)
    next(teardown)  # the hook's wrapper, up to the fixtures' teardown
    assert connection.in_atomic_block  # pytest-django's transaction, around the test
    browser_session.close()
    assert not browser.is_connected()
    with pytest.raises(StopIteration):
        teardown.send(None)
    assert asyncio._get_running_loop() is None
