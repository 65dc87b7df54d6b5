"""The rating line and the leaderboard in the table's lobby, in headless Chromium."""

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot
from tests.web.play import button, new_match, sit_down, token

pytestmark = pytest.mark.slow


def resign(page) -> None:
    button(page, "resign").click()
    page.locator('#confirm button[data-confirm="yes"]').click()
    expect(page.locator("#standings")).to_be_visible()


def resign_matches(api_origin, page, count: int) -> None:
    """`count` more unseeded matches, each given up at once: each rated, last."""
    headers = {"Authorization": f"Bearer {token(page)}"}
    with httpx.Client(base_url=f"{api_origin}/api/v1", headers=headers) as api:
        for _ in range(count):
            match = api.post("/matches", json={"ai_level": "hard"}).json()
            api.post(f"/matches/{match['id']}/resign", json={}).raise_for_status()


def test_the_lobby_shows_your_rating_and_the_leaderboard(open_table, api_origin):
    page = open_table(width=1000)
    sit_down(page, "Roya")
    # One number: while provisional, the estimate mu (mu - 3 sigma is 0 for a newcomer), and
    # what it means.
    rating = page.locator("#rating")
    expect(rating).to_contain_text("Your rating: 25.0 (provisional, 0 rated matches of 5)")
    expect(rating.locator(".meaning")).to_contain_text("it settles after 5 rated matches")
    assert "μ" not in rating.inner_text() and "σ" not in rating.inner_text()
    new_match(page, "easy")
    resign(page)
    button(page, "lobby").click()
    expect(page.locator("#rating")).to_contain_text("(provisional, 1 rated match of 5)")
    # The board takes five rated matches; anyone else's may be on it from other tests.
    expect(page.locator("#leaderboard li.you")).to_have_count(0)
    resign_matches(api_origin, page, 4)
    page.reload()
    # A returning player meets the first screen; the lobby is one step away.
    page.locator("#more-ways").click()
    expect(page.locator("#new-match")).to_be_visible()
    mine = page.locator("#leaderboard li.you")
    expect(mine).to_contain_text("Roya: ")
    # Off provisional: the leaderboard's own figure, the same as on the board.
    board_value = mine.inner_text().split(": ")[1].split(" ")[0]
    expect(rating).to_have_text(re.compile(rf"^Your rating: {re.escape(board_value)} Your skill"))
    expect(rating).not_to_contain_text("provisional")
    expect(mine).to_contain_text("(you) · 5 rated matches")
    screenshot(page, "en-lobby-rating")
    page.locator("#lang").select_option("fa")
    expect(page.locator("#rating")).to_contain_text("امتیاز شما: ")
    expect(page.locator("#rating .meaning")).to_contain_text("مهارتی که")
    expect(page.locator("#leaderboard li.you")).to_contain_text("(شما)")
    screenshot(page, "fa-lobby-rating")
    assert page.errors == []
