"""Playwright's sync API, one browser for a worker's whole run beside every other test.

Between its calls the sync API leaves its event loop marked running in the thread (it sets it
again after each call), though nothing runs on it then. Two things refuse to work where a
loop runs: Django's database calls (SynchronousOnlyOperation) and `asyncio.run`, as asgiref's
`async_to_sync` and the tests' own stream clients use. A browser kept open for the run, so
opened once a worker rather than once a module (#34), would otherwise stop the tests that
follow its first module on that worker."""

import asyncio
import contextlib

from django.utils import asyncio as django_asyncio


@contextlib.contextmanager
def database_beside(loop: asyncio.AbstractEventLoop):
    """While open, Django's check for a running loop passes over `loop`, Playwright's, and only
    it: a database call between two of Playwright's calls blocks nothing, while one made from
    a coroutine on any other loop is still refused."""
    real = django_asyncio.get_running_loop

    def running_loop_other_than_playwrights() -> asyncio.AbstractEventLoop:
        running = real()
        if running is loop:
            raise RuntimeError("Playwright's sync API's loop runs nothing between its calls")
        return running

    django_asyncio.get_running_loop = running_loop_other_than_playwrights
    try:
        yield
    finally:
        django_asyncio.get_running_loop = real


@contextlib.contextmanager
def hidden_from(item):
    """The loop's mark taken off for a phase of a test that uses no browser, and put back after
    it for the browser's next call, unless the phase closed the browser.

    Also the teardown of a worker's last test, which ends the session and closes the browser
    with it (`tests/web/conftest.py: chromium` marks the loop again to close it): with the
    mark on, Django's connections are another set (asgiref's `Local` keeps one per running
    loop), and pytest-django's rollback of the test's transaction, looked for on a connection
    that never opened one, failed (run 90: a database test after a browser module)."""
    if "browser" in item.fixturenames:
        yield
        return
    marked = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        if marked is not None and not marked.is_closed():
            asyncio._set_running_loop(marked)
