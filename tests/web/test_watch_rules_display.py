"""The spectators' page has the table's Rules and Display (#35 item 7): the rules dialog in
the page's language, fetched when first opened, and the Display sliders applied as they move
and kept for the table too; axe-core clean at every contrast and color temperature."""

import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot
from tests.web.play import new_match, sit_down
from tests.web.test_table_care import axe_violations, open_display, set_slider
from tests.web.test_watch_page import share_live

pytestmark = pytest.mark.slow

SECTIONS = {
    "en": ["Objective", "Setup", "Playing a turn", "Hand rankings", "Scoring and end"],
    "es": [
        "Objetivo",
        "Preparación",
        "Cómo se juega un turno",
        "Jugadas, de mayor a menor",
        "Puntuación y final",
    ],
    "fa": ["هدف", "آماده‌سازی", "بازی در یک نوبت", "ترکیب‌ها", "امتیاز و پایان"],
}


@pytest.mark.parametrize(
    ("lang", "width"), [("en", 1280), ("es", 360), ("fa", 1280)], ids=["en", "es-360px", "fa"]
)
def test_the_watch_page_has_the_rules_and_the_display_settings(open_table, lang, width):
    owner = open_table()
    sit_down(owner)
    new_match(owner)
    link = share_live(owner)
    watcher = open_table(url=f"{link.replace('watch.html?', f'watch.html?lang={lang}&')}")
    watcher.set_viewport_size({"width": width, "height": 740 if width == 360 else 800})
    expect(watcher.locator("#watching")).to_be_visible()
    assert not [r for r in watcher.requests if r.url.endswith("/rules.js")]
    # Rules: the table's dialog, in the page's language, by keyboard.
    watcher.locator("#open-rules").focus()
    watcher.keyboard.press("Enter")
    rules = watcher.locator("#rules")
    expect(rules).to_be_visible()
    expect(watcher.locator("#close-rules")).to_be_focused()
    expect(rules.locator(".rules-sections > li > h3")).to_have_text(SECTIONS[lang])
    expect(rules.locator(".ranking li").first.locator(".card")).to_have_count(5)
    screenshot(watcher, f"watch-rules-{lang}")
    assert axe_violations(watcher) == []
    watcher.keyboard.press("Escape")
    expect(rules).to_be_hidden()
    # Display: the sliders, applied at once, and axe clean at every look.
    open_display(watcher)
    before = watcher.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg')")
    found = {}
    for contrast in (0, 50, 100):
        for temperature in (0, 50, 100):
            set_slider(watcher, "contrast", contrast)
            set_slider(watcher, "temperature", temperature)
            found[(contrast, temperature)] = axe_violations(watcher)
    assert {look: lines for look, lines in found.items() if lines} == {}
    after = watcher.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg')")
    assert after != before
    if width == 360:
        assert watcher.evaluate("document.documentElement.scrollWidth") <= 360
    # Kept in this browser, for the table too.
    watcher.reload()
    open_display(watcher)
    expect(watcher.locator("#temperature")).to_have_value("100")
    assert watcher.errors == []
