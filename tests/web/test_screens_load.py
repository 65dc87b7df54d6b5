"""Each screen's module is fetched when the screen is first shown (table/core.js): a first
visit's first screen fetches neither the lobby's code, nor the match table's, nor the rules'
pictures, and the lobby not the match table's."""

import pytest
from playwright.sync_api import expect

from tests.web.play import new_match, sit_down

pytestmark = pytest.mark.slow

MATCH_MODULES = {"match.js", "match-controls.js", "match-panels.js", "match-scores.js"}


def fetched(page) -> set[str]:
    """The table's own modules the page asked for so far (not the API, not the catalogue)."""
    urls = [request.url.split("?")[0] for request in page.requests]
    return {url.rsplit("/", 1)[1] for url in urls if url.endswith(".js") and "/i18n/" not in url}


def test_each_screen_s_code_arrives_when_the_screen_is_first_shown(open_table):
    page = open_table()
    expect(page.locator("#start-game")).to_be_visible()
    first = fetched(page)
    assert {"app.js", "core.js", "start.js", "rules-text.js"} <= first
    # The rules' words are on the first screen; their pictures wait until they are shown.
    later = {"lobby.js", "invitation.js", "login.js", "rules.js", "cards.js", "rename.js"}
    later |= {"puzzles.js", "lobby-tournaments.js", "tournament.js", "match-tournament.js"}
    assert not first & (MATCH_MODULES | later), first

    page.locator("#open-rules").click()
    expect(page.locator("#rules .ranking .card").first).to_be_visible()
    assert {"rules.js", "cards.js"} <= fetched(page)
    page.keyboard.press("Escape")

    sit_down(page)
    in_the_lobby = fetched(page)
    assert "lobby.js" in in_the_lobby
    assert not in_the_lobby & (MATCH_MODULES | {"invitation.js", "puzzles.js", "tournament.js"}), (
        in_the_lobby
    )

    new_match(page)
    assert MATCH_MODULES <= fetched(page)
    assert "invitation.js" not in fetched(page)
    assert page.errors == []
