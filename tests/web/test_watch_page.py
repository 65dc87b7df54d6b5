"""Spectators in the browser: the owner turns them on in the table's panel and gets a watch
link (the code in its fragment); a spectator's page, with no account, follows the match live
and shows no hidden card; the owner's table counts the watchers."""

import re

import pytest
from playwright.sync_api import expect

from tests.web.play import api_get, match_id, new_match, play_on, settled, sit_down

pytestmark = pytest.mark.slow


def test_the_owner_shares_a_watch_link_and_a_spectator_follows(open_table, api_origin):
    owner = open_table()
    sit_down(owner)
    new_match(owner)
    expect(owner.locator("#spectators")).to_contain_text("0 watching")
    owner.locator("#spectators-mode").select_option("live")
    link = owner.locator("#watch-link")
    expect(link).to_have_value(re.compile(r"/watch\.html\?api=.*#watch=[\w-]{32,}$"))
    watcher = open_table(url=link.input_value())
    expect(watcher.locator("#watching")).to_contain_text("Watching (live)")
    expect(watcher.locator("#seats")).to_contain_text("Roya")
    # The code never went to the server in a URL.
    code = link.input_value().split("#watch=")[1]
    assert not any(code in request.url for request in watcher.requests)
    # The owner's next move shows on the spectator's page by itself.
    before = watcher.locator("#seats").inner_text()
    settled(owner)
    play_on(owner)
    expect(watcher.locator("#seats")).not_to_have_text(before, timeout=15_000)
    # Every view the owner gets now counts the spectator.
    expect(owner.locator("#spectators")).to_contain_text("1 watching", timeout=15_000)
    # In deal 1 no hand has been shown: the spectator's page shows none.
    if api_get(api_origin, owner, f"/matches/{match_id(owner)}")["deal_number"] == 1:
        text = watcher.locator("main").inner_text()
        assert not re.search(r"\b(As|Shah|Bibi|Sarbaz|Couli)\b", text), text
    assert watcher.errors == [] and owner.errors == []
