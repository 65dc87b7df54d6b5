"""The browser tests' kept tabs (tests/web/conftest.py: spare_tabs, wipe): a tab an earlier
test sat down in comes back to the next as a new browser's would, with no player, nothing in
its storage and none of the earlier test's routes, listeners or size."""

import re

import pytest
from playwright.sync_api import expect

from tests.web.play import sit_down

pytestmark = pytest.mark.slow

# The two tests run in this order on one worker (a module's tests go to one worker), maybe
# after other modules' browser tests, whose tabs may be kept too.
handed_on = {}


def test_a_tab_is_used_then_handed_on(open_table):
    page = open_table(width=400, height=700, reduced_motion=False)
    sit_down(page, "Kept")
    page.evaluate("() => sessionStorage.setItem('asnas:left', 'behind')")
    page.route(re.compile(r".*/api/v1/.*"), lambda route: route.abort())
    handed_on["page"] = page


def test_the_tab_handed_on_is_a_new_browser_s(open_table, spare_tabs):
    # The tab kept last is handed on first. Tabs that other modules' tests kept may be there
    # too (a test with two players keeps two): an assertion that it was the only one failed
    # once in a fresh-clone run (run 41).
    assert spare_tabs[-1] is handed_on["page"]
    page = open_table()
    assert page is handed_on["page"]
    # Only the language this page's address chose, as on a new browser's first visit, once
    # the first screen shows (the page stores it as its words come, which may be after load).
    expect(page.locator("#more-ways")).to_be_visible()
    stored = "() => [Object.keys(localStorage), Object.keys(sessionStorage)]"
    assert page.evaluate(stored) == [["asnas:lang"], []]
    assert page.viewport_size == {"width": 1000, "height": 900}
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    # The first screen, as for a new player; the earlier test's route would have failed this.
    page.locator("#more-ways").click()
    expect(page.locator("#new-match")).to_be_visible()
    assert "Kept" not in page.locator("#main").inner_text()
    assert page.errors == []
    assert page.requests[0].url.endswith("lang=en")
