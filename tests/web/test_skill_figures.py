"""Cards, your play, the others' play in the table (docs/skill.md), in headless Chromium: shown
under a deal's result only where every hand may be seen, and as sums in the final standings
of a verifiable match."""

from fractions import Fraction

import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot
from tests.web.play import api_get, button, match_id, new_match, play_on, settled, sit_down

pytestmark = pytest.mark.slow

WORDS = {
    "en": ("cards", "your play", "the others"),
    "fa": ("کارت‌ها", "بازی شما", "دیگران"),
}


def telling(deal: dict) -> int:
    """The seats whose figures the result shows: every seat in to the end, and a folded one
    only if a figure of it is not 0 to two decimals (it says something)."""
    return sum(
        1
        for seat in deal["seats"]
        if seat["skill"]
        and (
            not seat["folded"]
            or any(abs(Fraction(value)) >= Fraction(1, 200) for value in seat["skill"].values())
        )
    )


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_figures_show_where_every_hand_may_be_seen(open_table, api_origin, lang):
    page = open_table(lang=lang)
    sit_down(page)
    new_match(page, "hard")
    hidden = shown = 0
    while (status := settled(page)) != "finished":
        if status == "deal_over":
            panel = page.locator("#deal-panel")
            expect(panel).to_be_visible()
            deal = api_get(api_origin, page, f"/matches/{match_id(page)}")["last_deal"]
            if any(seat["skill"] for seat in deal["seats"]):
                expect(panel.locator(".skill")).to_have_count(telling(deal))
                shown += 1
            else:
                expect(panel.locator(".skill")).to_have_count(0)
                hidden += 1
            button(page, "next").click()
            continue
        play_on(page)
    assert hidden  # a deal with a folded hand kept its figures to itself
    match = api_get(api_origin, page, f"/matches/{match_id(page)}")
    assert match["fairness"]["verifiable"] and match["skill"] is not None
    panel = page.locator("#deal-panel")
    expect(panel.locator(".skill")).to_have_count(telling(match["last_deal"]))
    cards, yours, others = WORDS[lang]
    mine = panel.locator("tr.hand-row").nth(0).locator(".skill")
    if not match["last_deal"]["seats"][0]["folded"]:
        mine = mine.inner_text()
        assert cards in mine and yours in mine and others in mine
    standings = page.locator("#standings > ol > li").all_inner_texts()
    assert all(cards in line and others in line for line in standings), standings
    if lang == "fa":  # Persian digits, never Latin ones
        lines = "".join(panel.locator(".skill").all_inner_texts())
        assert not any(ch.isascii() and ch.isdigit() for ch in lines), lines
    screenshot(page, f"{lang}-skill-final")
    for part in ("deal-panel", "standings"):  # the figures, close up
        screenshot(page.locator(f"#{part}"), f"{lang}-skill-{part}", full_page=False)
    assert page.errors == []
