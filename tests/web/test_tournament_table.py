"""A tournament's match at the browser table (#37): played as any, but with no hint,
restart or spectators on offer (the API refuses them), and its fairness panel saying the
seed is revealed at the tournament's close, in each of the six languages, at 360 px without
sideways scroll, axe-clean."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.play import button, settled, sit_down, token
from tests.web.test_table_care import axe_violations

pytestmark = pytest.mark.slow

LANGUAGES = ("en", "fa", "fr", "es", "da", "pl")
CATALOGUES = Path(__file__).resolve().parents[2] / "table" / "i18n"


def said(lang: str, key: str) -> str:
    """The catalogue's line `key` in `lang`, as the page shows it."""
    line = next(x for x in (CATALOGUES / f"{lang}.js").read_text().splitlines() if f" {key}:" in x)
    return json.loads(line.split(": ", 1)[1].rstrip(","))  # a JS string here is JSON too


def enter_a_tournament(api_origin: str, page) -> str:
    """A tournament created and entered by the page's player through the API: their match."""
    api = httpx.Client(
        base_url=f"{api_origin}/api/v1", headers={"Authorization": f"Bearer {token(page)}"}
    )
    now = datetime.now(UTC)
    terms = {
        "name": "Evening",
        "ai_level": "normal",
        "entry_opens_at": (now - timedelta(minutes=1)).isoformat(),
        "entry_closes_at": (now + timedelta(minutes=30)).isoformat(),
        "deadline": (now + timedelta(hours=1)).isoformat(),
    }
    tournament = api.post("/tournaments", json=terms).json()
    return api.post(f"/tournaments/{tournament['id']}/entries", json={}).json()["id"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tournament_match_offers_no_hint_restart_or_spectators(
    open_table, page_origin, api_origin, lang
):
    page = open_table(lang=lang, width=360)
    sit_down(page, "Roya")
    match_id = enter_a_tournament(api_origin, page)
    # The table resumes the match its address names when it loads (a hash alone does not).
    page.goto(f"{page_origin}/index.html?api={api_origin}&lang={lang}#match={match_id}")
    page.reload()
    expect(page.locator("#table")).to_be_visible()
    settled(page)
    expect(button(page, "resign")).to_be_visible()
    for command in ("hint", "restart"):
        expect(button(page, command)).to_have_count(0)
    expect(page.locator("#spectators")).to_have_count(0)
    expect(page.locator("#fairness")).to_contain_text(said(lang, "fair_hidden_tournament"))
    # Above the table: the tournament's name, the deal in play, the time left to the close.
    bar = page.locator("#tournament-bar")
    expect(bar).to_contain_text("Evening")
    expect(bar).to_contain_text(said(lang, "deal_of").split("{")[0].strip())
    expect(bar.locator(".close")).not_to_be_empty()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
    assert page.errors == []
