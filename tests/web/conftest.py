"""Browser tests of the table: the page from one origin (python -m http.server), the API from
another (gunicorn, with CORS for the page's origin), driven by the system's headless Chromium."""

import asyncio
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.playwright_loop import database_beside
from tests.servers import (
    ARTIFACTS_DIR,
    BASE_DIR,
    free_port,
    migrated_database,
    served,
    wait_until_ready,
)
from tests.web.play import fresh_turn, new_match, sit_down

# Debian's chromium-headless-shell (the same Chromium, built without the desktop browser around
# it; Playwright's own default for headless runs) when it is there, else the full browser in
# headless mode. The shell cost about a sixth less of Chromium's CPU for the same tests
# (68-71 CPU-s against 81-85 for test_table_care.py and test_table_view.py, #34).
BROWSERS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = next((path for path in map(Path, BROWSERS) if path.exists()), Path(BROWSERS[-1]))
ARTIFACTS = ARTIFACTS_DIR / "table"
# Never a download, an update or a sync: the browser talks only to loopback.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def serve(command: list[str], env: dict, ready_url: str, log: Path) -> subprocess.Popen:
    with log.open("w") as output:
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    wait_until_ready(ready_url, process, log)
    return process


@pytest.fixture(scope="session")
def page_origin(tmp_path_factory):
    """The table's files, served as plain files from an origin of their own."""
    port = free_port()
    log = tmp_path_factory.mktemp("page") / "http.log"
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    command += ["--directory", str(BASE_DIR / "table")]
    origin = f"http://127.0.0.1:{port}"
    server = serve(command, os.environ, f"{origin}/index.html", log)
    yield origin
    server.terminate()
    server.wait(timeout=30)


@pytest.fixture(scope="session")
def api_server(page_origin, tmp_path_factory):
    """The API on another origin (another port), allowing the page's origin by CORS, served as
    in production (`serve`: granian, which holds event streams, and the turn clock): its
    origin and its database's URL."""
    log = tmp_path_factory.mktemp("api") / "serve.log"
    with migrated_database("web") as url:
        env = {**os.environ, "DATABASE_URL": url, "ASNAS_CORS_ORIGINS": page_origin}
        # Tests fix their deals with a seed (tests/web/play.py: seeded).
        env["ASNAS_ALLOW_CLIENT_SEED"] = "1"
        with served(log, env) as (origin, _):
            yield origin, url


@pytest.fixture(scope="session")
def api_origin(api_server):
    return api_server[0]


@pytest.fixture(scope="session")
def api_database(api_server):
    """The URL of the API's database, for the tests that move a time the server keeps
    (a tournament's deadline) rather than wait minutes for it."""
    return api_server[1]


def unavailable(reason: str) -> None:
    """Skips a browser test on a machine without the browser, but fails it in CI (.ci/run sets
    ASNAS_CI): there the browser tests must run, and a skip would pass unseen."""
    if os.environ.get("ASNAS_CI"):
        pytest.fail(f"{reason}: CI must run the browser tests", pytrace=False)
    pytest.skip(reason)


@contextlib.contextmanager
def chromium():
    """Headless Chromium under Playwright, both stopped at the end."""
    try:
        from playwright import sync_api
    except ImportError:
        unavailable("Playwright is not installed (uv sync installs it)")
    if not CHROMIUM.exists():
        unavailable(f"no Chromium at {' or '.join(BROWSERS)} (.ci/run installs it with apt)")
    with sync_api.sync_playwright() as playwright, database_beside(playwright._loop):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        # The loop marked again: the teardown of a worker's last test, if it used no browser,
        # took the mark off (tests/playwright_loop.py), and Playwright's calls need it.
        asyncio._set_running_loop(playwright._loop)
        browser.close()


@pytest.fixture(scope="session")
def browser():
    """One browser for the worker's run: Playwright's driver and a browser cost seconds of CPU
    to start. The tests that follow on the worker, other modules', work beside it
    (tests/playwright_loop.py, test_browser_scope.py)."""
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="session")
def spare_tabs(browser):
    """Tabs that earlier tests were done with, each alone in its context. A
    tab's first page costs its new renderer about a CPU-second, a page opened again in a tab
    about a fifth of that (measured while working on #34), and the browser tests open
    hundreds; so a tab is kept for the next test, wiped (see `wipe`), rather than closed."""
    return []


@pytest.fixture
def open_table(browser, spare_tabs, page_origin, api_origin):
    """open_table(lang="en", width=1000, height=900, reduced_motion=True, url=None, before=None)
    -> a fresh page at the table (by default from its own origin), in a context of its own
    (its own localStorage, so its own player): a spare tab, wiped, or a new context's.
    `before(page)` runs before the page opens (routes, init scripts, the clock); a page with
    one always gets a new context, and is never kept, as an init script or a clock cannot be
    taken off. page.requests lists every request the page made."""
    opened = []

    def open_page(lang="en", width=1000, height=900, reduced_motion=True, url=None, before=None):
        motion = "reduce" if reduced_motion else "no-preference"
        if spare_tabs and before is None:
            page = spare_tabs.pop()
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(reduced_motion=motion)
        else:
            context = browser.new_context(
                viewport={"width": width, "height": height},
                reduced_motion=motion,
                permissions=["clipboard-read", "clipboard-write"],
            )
            page = context.new_page()
        page.errors = []
        page.requests = []
        listeners = {
            "pageerror": lambda error: page.errors.append(str(error)),
            "request": lambda request: page.requests.append(request),
        }
        for event, listener in listeners.items():
            page.on(event, listener)
        opened.append((page, listeners, before is None))
        if before:
            before(page)
        page.goto(url or f"{page_origin}/index.html?api={api_origin}&lang={lang}")
        return page

    yield open_page
    for page, listeners, keepable in opened:
        if keepable and kept_alone(page, page_origin):
            for event, listener in listeners.items():
                page.remove_listener(event, listener)
            wipe(page, page_origin)
            spare_tabs.append(page)
        else:
            page.context.close()


def kept_alone(page, page_origin: str) -> bool:
    """Whether the test left the tab open, alone in its context, at the table's origin."""
    return (
        not page.is_closed()
        and page.context.pages == [page]
        and page.url.startswith(f"{page_origin}/")
    )


def wipe(page, page_origin: str) -> None:
    """Leaves a tab as a new context's would be for the table: the routes a test added taken
    off, its page gone, and nothing kept for the table's origin (localStorage, this tab's
    sessionStorage, cookies). The cache stays, as a returning browser's would."""
    page.unroute_all(behavior="ignoreErrors")
    # A tab's sessionStorage can be reached only from a page of its origin.
    page.evaluate("() => sessionStorage.clear()")
    page.goto("about:blank")
    devtools = page.context.new_cdp_session(page)
    devtools.send("Storage.clearDataForOrigin", {"origin": page_origin, "storageTypes": "all"})
    devtools.detach()
    page.context.clear_cookies()


@pytest.fixture
def at_a_fresh_turn(open_table):
    """at_a_fresh_turn() -> a page with a new player's new match, at a turn of theirs with the
    cards still face down."""

    def start():
        page = open_table()
        sit_down(page)
        new_match(page)
        fresh_turn(page)
        return page

    return start


# Screenshots are JPEG: a whole page at 1280 px took Chromium about 250 ms as PNG (the felt's
# grain makes a 700 kB file) and 100 ms as JPEG, and the tests take over a hundred (#34).
SHOT = {"type": "jpeg", "quality": 85}


def screenshot(target, name: str, *, full_page: bool = True) -> Path:
    """ARTIFACTS/name.jpg: the whole page, once no animation runs; or, with full_page=False,
    only what `target` shows as it is: a page's window (what a person sees without
    scrolling), or one element (a locator)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.jpg"
    if not full_page:
        target.screenshot(path=path, **SHOT)
        return path
    # A card turning over mid-shot would look squeezed.
    target.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    target.screenshot(path=path, full_page=True, **SHOT)
    return path
