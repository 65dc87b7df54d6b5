"""Spectators in the browser: the owner turns them on in the table's panel and gets a watch
link (the code in its fragment); a spectator's page, with no account, follows the match live
and shows no hidden card; the owner's table counts the watchers. The spectator's page is the
table's too: its six languages, Persian digits right to left, the cards of a showdown, the
catalogue's words for a problem, the look kept in the browser, WCAG 2.2 AA."""

import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot
from tests.web.play import (
    TURN_IN_DEAL_1,
    api_get,
    button,
    match_id,
    new_match,
    play_on,
    seeded,
    settled,
    sit_down,
)
from tests.web.test_table_care import SAME_ON_SCREEN, axe_violations, english_words, to_deal_over

pytestmark = pytest.mark.slow


def let_watch(owner, mode: str) -> None:
    """The owner unfolds the spectators' control, folded while no one may watch, and lets
    spectators watch (`mode`)."""
    owner.locator("#spectators summary").click()
    owner.locator("#spectators-mode").select_option(mode)


def share_live(owner) -> str:
    """The owner's watch link, spectators live."""
    let_watch(owner, "live")
    link = owner.locator("#watch-link")
    expect(link).to_have_value(re.compile(r"/watch\.html\?api=.*#watch=[\w-]{32,}$"))
    return link.input_value()


def test_the_owner_shares_a_watch_link_and_a_spectator_follows(open_table, api_origin):
    owner = open_table(before=seeded(TURN_IN_DEAL_1))
    sit_down(owner)
    new_match(owner)
    link = share_live(owner)
    expect(owner.locator("#spectators")).to_contain_text("0 watching")
    watcher = open_table(url=link)
    expect(watcher.locator("#watching")).to_have_text("Watching live")
    expect(watcher.locator("#seats")).to_contain_text("Roya")
    # Once its stream is open, the page counts itself among the watchers.
    expect(watcher.locator("#match-line")).to_contain_text("1 watching", timeout=15_000)
    # The code never went to the server in a URL.
    code = link.split("#watch=")[1]
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
        assert watcher.locator("main .card").count() == 0
    assert watcher.errors == [] and owner.errors == []


def english_leaks(page, language: str) -> set[str]:
    text = page.evaluate("document.body.innerText")
    return (set(re.findall(r"[A-Za-z]{4,}", text)) & english_words()) - SAME_ON_SCREEN[language]


def test_after_a_showdown_the_watch_page_speaks_each_language_and_draws_the_hands(open_table):
    owner = open_table()
    sit_down(owner)
    new_match(owner)
    link = share_live(owner)
    # Play on to a deal that ended in a showdown: its hands are shown to everyone.
    for _ in range(12):
        to_deal_over(owner)
        if owner.locator("#deal-panel .hand-row .mini .card").count() >= 10:
            break
        button(owner, "next").click()
    else:
        pytest.fail("no showdown in 12 deals")
    found = {}

    # English, at a desktop's width.
    english = open_table(url=link.replace("?api=", "?lang=en&api="), width=1280)
    expect(english.locator("#deal-panel .card").first).to_be_visible()
    found["en"] = axe_violations(english)
    screenshot(english, "watch-en")

    # Spanish on a phone, asked for in the address; the table's look kept in the browser
    # (here, Contrast at 100 %) applies here too.
    def high_contrast(page):
        page.add_init_script("localStorage.setItem('asnas:contrast', '100')")

    spanish = open_table(
        url=link.replace("?api=", "?lang=es&api="), width=360, before=high_contrast
    )
    expect(spanish.locator("html")).to_have_attribute("lang", "es")
    expect(spanish.locator("html")).to_have_attribute("data-contrast", "100")
    expect(spanish.locator("#watching")).to_have_text("Mirando en directo")
    expect(spanish).to_have_title("As-Nas: mirando")
    shown = spanish.locator("#deal-panel .hand-row .mini").filter(has=spanish.locator(".card"))
    expect(shown.first.locator(".card")).to_have_count(5)
    # Found and measured in one evaluation: the page draws itself again when its stream opens,
    # and cards found by a locator before that redraw and measured after it are detached
    # (no width, no place).
    cards = spanish.evaluate(
        """() => {
        const hand = [...document.querySelectorAll("#deal-panel .hand-row .mini")]
          .find((mini) => mini.querySelector(".card"));
        return [...hand.querySelectorAll(".card")].map((card) => ({
          width: card.getBoundingClientRect().width,
          y: card.getBoundingClientRect().y,
          name: card.querySelector(".name")?.innerText,
        }));
      }"""
    )
    assert min(card["width"] for card in cards) >= 32
    assert len({round(card["y"]) for card in cards}) == 1, "the hand wraps"
    names = [card["name"] for card in cards if card["name"] is not None]
    assert len(names) == 5 and set(names) <= {"As", "Shah", "Bibi", "Sarbaz", "Couli"}
    assert spanish.evaluate("document.documentElement.scrollWidth") <= 360
    leaks = {"es": english_leaks(spanish, "es")}
    found["es at 360 px"] = axe_violations(spanish)
    screenshot(spanish, "watch-es-360")

    # Persian, the language this browser chose at the table (no ?lang=).
    def chose_persian(page):
        page.add_init_script("localStorage.setItem('asnas:lang', 'fa')")

    persian = open_table(url=link, before=chose_persian)
    expect(persian.locator("html")).to_have_attribute("lang", "fa")
    expect(persian.locator("html")).to_have_attribute("dir", "rtl")
    expect(persian.locator("#deal-panel .card").first).to_be_visible()
    expect(persian.locator("#brand")).to_have_text("آس‌ناس")
    leaks["fa"] = english_leaks(persian, "fa")
    text = persian.locator("main").text_content().replace("Roya", "")
    assert re.findall(r"[0-9A-Za-z]", text) == [], text
    assert re.search(r"[۰-۹]", text), text
    # The AI seats' names in Persian script, the cards' names too.
    assert "داریوش" in text or "شیرین" in text or "کاوه" in text, text
    found["fa"] = axe_violations(persian)
    screenshot(persian, "watch-fa")

    # The language menu redraws the page in another language, and the table remembers it.
    persian.locator("#lang").select_option("fr")
    expect(persian.locator("html")).to_have_attribute("dir", "ltr")
    leaks["fr"] = english_leaks(persian, "fr")
    assert persian.evaluate("localStorage.getItem('asnas:lang')") == "fr"

    assert {where: words for where, words in leaks.items() if words} == {}
    assert {where: lines for where, lines in found.items() if lines} == {}
    for page in (english, spanish, persian):
        assert page.errors == []


def test_a_bad_or_absent_code_shows_the_catalogue_s_words(open_table, page_origin, api_origin):
    bad = open_table(url=f"{page_origin}/watch.html?api={api_origin}&lang=es#watch={'x' * 43}")
    expect(bad.locator("#status")).to_have_text(
        "Este enlace para mirar no es válido: quien creó la mesa puede haber sacado un código"
        " nuevo o dejado de compartir la partida."
    )
    absent = open_table(url=f"{page_origin}/watch.html?api={api_origin}&lang=fa")
    expect(absent.locator("#status")).to_have_text(
        "این پیوند کد تماشا ندارد: پیوند کامل را از صاحب میز بخواهید."
    )
    expect(absent.locator("html")).to_have_attribute("dir", "rtl")
    # No request went out without a code.
    assert not any("/api/v1/" in request.url for request in absent.requests)
    assert bad.errors == [] and absent.errors == []


def test_past_a_watch_limit_the_page_says_so_in_words_and_follows_when_it_may(open_table):
    owner = open_table(before=seeded(TURN_IN_DEAL_1))
    sit_down(owner)
    new_match(owner)
    link = share_live(owner)
    refused = []

    def one_limit(page):
        def answer(route):
            if refused:
                return route.continue_()
            refused.append(route.request.url)
            route.fulfill(
                status=429,
                headers={
                    "Retry-After": "2",
                    "Access-Control-Allow-Origin": "*",
                    "Access-Control-Expose-Headers": "Retry-After",
                },
                content_type="application/problem+json",
                json={"code": "watch_limit_address", "detail": "Your address watches as many"},
            )

        page.route(re.compile(r".*/api/v1/watch/tickets$"), answer)

    watcher = open_table(url=link.replace("?api=", "?lang=pl&api="), before=one_limit)
    expect(watcher.locator("#status")).to_have_text(
        "Twoje połączenie ogląda już tyle partii, ile może; zamknij jedną i spróbuj ponownie."
    )
    # Two seconds later (Retry-After) it follows the match, and the words go.
    expect(watcher.locator("#status")).to_be_empty(timeout=15_000)
    settled(owner)
    before = watcher.locator("#seats").inner_text()
    play_on(owner)
    expect(watcher.locator("#seats")).not_to_have_text(before, timeout=15_000)
    assert len(refused) == 1 and watcher.errors == []


def test_a_delayed_spectator_sees_a_deal_only_once_it_has_ended(open_table):
    """Delayed, the page says so in the spectator's language, shows nothing of the deal in
    play (no seat to act, none that looked), and draws the deal's result once it ends."""
    owner = open_table(before=seeded(TURN_IN_DEAL_1))
    sit_down(owner)
    new_match(owner)
    let_watch(owner, "delayed")
    link = owner.locator("#watch-link")
    expect(link).to_have_value(re.compile(r"/watch\.html\?api=.*#watch=[\w-]{32,}$"))
    settled(owner)
    play_on(owner)  # deal 1 has moves now, which a delayed spectator may not see yet

    spanish = open_table(url=link.input_value().replace("?api=", "?lang=es&api="), width=360)
    expect(spanish.locator("#watching")).to_have_text(
        "Mirando con retraso: las jugadas de una mano se ven cuando termina"
    )
    expect(spanish.locator("#seats")).to_contain_text("Roya")
    assert settled(owner) == "in_deal", "deal 1 ended too soon to be watched in play"
    marks = spanish.locator("#seats .mark").all_inner_texts()
    assert not {mark.strip(" ·") for mark in marks} & {"En turno", "Miró"}, marks
    expect(spanish.locator("#deal-panel")).to_have_count(0)
    # Nothing of a "series 0" or "deal 0": it is before the first deal, as far as it knows.
    expect(spanish.locator("#match-line")).to_have_text(
        re.compile(r"^Antes de la primera mano · Bote: 0 · ")
    )
    screenshot(spanish, "watch-es-360-delayed-in-play")

    to_deal_over(owner)
    # The deal's end reaches the page by itself, with the whole deal's result.
    expect(spanish.locator("#deal-panel")).to_be_visible(timeout=15_000)
    assert english_leaks(spanish, "es") == set()
    screenshot(spanish, "watch-es-360-delayed-ended")
    spanish.locator("#lang").select_option("fa")
    expect(spanish.locator("#watching")).to_have_text(
        "تماشا با تأخیر: حرکت‌های هر دست پس از پایان آن دیده می‌شود"
    )
    expect(spanish.locator("html")).to_have_attribute("dir", "rtl")
    assert spanish.errors == [] and owner.errors == []
