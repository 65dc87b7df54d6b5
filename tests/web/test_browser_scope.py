"""Playwright's sync API marks its event loop as running in the thread between its calls, and
Django then refuses database calls there (SynchronousOnlyOperation). The browser fixture is
module-scoped so that it stops before the tests of another module, which in a parallel run
may follow on the same worker; stopped, Playwright must leave the database usable."""

import pytest
from django.core.exceptions import SynchronousOnlyOperation

from players.models import Player
from tests.web.conftest import chromium


def test_the_database_answers_again_once_the_browser_stopped(db):
    with chromium() as browser:
        assert browser.is_connected()
        with pytest.raises(SynchronousOnlyOperation):
            Player.objects.count()
    assert Player.objects.count() == 0
