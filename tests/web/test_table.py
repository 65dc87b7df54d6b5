"""The table in headless Chromium: the page on one origin, the API on another (CORS)."""

import json
import re
from fractions import Fraction

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import ARTIFACTS, screenshot
from tests.web.play import (
    PREFERRED,
    TURN_IN_DEAL_1,
    api_get,
    button,
    fresh_turn,
    match_id,
    new_match,
    play_on,
    record_status,
    seeded,
    settled,
    sit_down,
    token,
)

pytestmark = pytest.mark.slow


def your_actions(events: list[dict]) -> list[str]:
    return [event["action"] for event in events if event["type"] == "action" and event["seat"] == 0]


@pytest.mark.parametrize(
    ("lang", "width", "motion"), [("en", 1000, True), ("es", 360, False)], ids=["en", "es-360px"]
)
def test_a_whole_match_through_the_ui(open_table, api_origin, lang, width, motion):
    page = open_table(lang=lang, width=width, reduced_motion=not motion)
    # Every message the status line shows, in order: the AI's moves come one by one.
    record_status(page)
    sit_down(page)
    new_match(page, "easy")
    settled(page)
    first_turn_ms = page.evaluate(
        "() => performance.getEntriesByName('asnas:your-turn')[0]?.startTime ?? null"
    )
    shots = {}
    while (status := settled(page)) != "finished":
        if status == "deal_over":
            panel = page.locator("#deal-panel")
            expect(panel).to_be_visible()
            if "showdown" not in shots and panel.locator(".mini .card").count() >= 10:
                shots["showdown"] = screenshot(page, f"{lang}-showdown")
            if motion and page.locator("#motion").input_value() != "reduced":
                if not page.locator("#look").evaluate("details => details.open"):
                    page.locator("#look > summary").click()  # folded away on a phone
                # Seen a deal of the AI's moves played out, the player turns them off: the
                # rest of the match goes at once (and the test takes 10 s, not 40).
                page.locator("#motion").select_option("reduced")
                expect(page.locator("html")).to_have_attribute("data-motion", "reduced")
            button(page, "next").click()
            continue
        if play_on(page) == "look":
            expect(page.locator(".hand .card.face")).to_have_count(5)
            if "mid-deal" not in shots:  # the first deal's: one shot, not one per deal
                shots["mid-deal"] = screenshot(page, f"{lang}-mid-deal")

    expect(page.locator("#standings")).to_be_visible()
    shots["final"] = screenshot(page, f"{lang}-final")
    match = api_get(api_origin, page, f"/matches/{match_id(page)}")
    assert (match["status"], match["deal_number"]) == ("finished", 12)
    assert page.locator("#scoreboard tbody tr").count() == 12
    # The standings show the server's exact totals, and the scoreboard's running sums reach them.
    standings = page.locator("#standings li").all_inner_texts()
    for seat in match["seats"]:  # then, in a verifiable match, its skill sums
        assert any(line.startswith(f"{seat['name']}: {seat['total']}") for line in standings)
    last_row = page.locator("#scoreboard tbody tr").last.locator(".run").all_inner_texts()
    assert last_row == [f"({seat['total']})" for seat in match["seats"]]
    assert page.locator(".chart polyline").count() == 4
    ai_names = [seat["name"] for seat in match["seats"][1:]]
    said = page.evaluate("said")
    (ARTIFACTS / f"{lang}-said.json").write_text(json.dumps(said, ensure_ascii=False, indent=0))
    assert any(line.startswith(tuple(ai_names)) for line in said), said
    if width == 360:
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.errors == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{lang}-timing.json").write_text(
        json.dumps({"ms_from_navigation_to_first_turn": first_turn_ms})
    )
    assert set(shots) >= {"mid-deal", "final"}


# How often the table is drawn: each draw replaces what <main> holds at once (match.js, render).
COUNT_DRAWS = (
    "() => { window.draws = 0; new MutationObserver((records) => { window.draws += records"
    ".filter((record) => record.target.localName === 'main').length; })"
    ".observe(document.body, {childList: true, subtree: true}); }"
)


def test_without_motion_an_answer_is_drawn_once_whatever_moves_it_brings(open_table):
    """With reduced motion the others' moves after yours come at once: nothing is painted or
    read between them, so the table is drawn once for the answer. It was drawn (and the status
    line measured, two layouts of the page) once for each of the others' moves as well. The
    deals are fixed, so the answer counted is the same in every run."""
    page = open_table(before=seeded(TURN_IN_DEAL_1))
    sit_down(page)
    new_match(page, "easy")
    page.evaluate(COUNT_DRAWS)
    while (status := settled(page)) != "finished":
        if status == "deal_over":
            button(page, "next").click()
            continue
        page.evaluate("window.draws = 0")
        with page.expect_response(re.compile(r".*/actions$")) as answered:
            play_on(page)
        settled(page)
        events = answered.value.json()["events"]
        others = [event for event in events if event["type"] == "action" and event["seat"] != 0]
        if len(others) >= 2 and not any(event["type"] == "deal_ended" for event in events):
            assert page.evaluate("window.draws") == 1
            return
    pytest.fail("no answer of the match brought two moves of others within a deal")


def test_a_match_opened_from_a_view_older_than_its_events_logs_what_the_view_shows(
    open_table, api_origin
):
    """The page opens a match with two reads, the view and then its events, and a move can be
    made between them (by a friend, the clock, or the player in another tab). The log listed
    such a move before the table showed it (and, where the page follows the match live, once
    more when the feed brought it). Here the view is read before a move, the events after."""
    page = open_table(before=seeded(TURN_IN_DEAL_1))
    sit_down(page)
    new_match(page, "easy")
    settled(page)
    logged = page.locator("#log li").all_inner_texts()
    match = match_id(page)
    older = api_get(api_origin, page, f"/matches/{match}")
    action = next(a for a in (*PREFERRED, "look") if a in older["legal_actions"])
    moved = httpx.post(
        f"{api_origin}/api/v1/matches/{match}/actions",
        json={"action": action, "expected_version": older["version"]},
        headers={"Authorization": f"Bearer {token(page)}"},
    )
    assert moved.status_code == 200 and moved.json()["version"] > older["version"], moved.text
    page.route(
        re.compile(rf".*/api/v1/matches/{match}$"),
        lambda route: route.fulfill(response=route.fetch(), json=older),
    )
    page.reload()
    settled(page)
    assert page.locator("#table").get_attribute("data-status") == older["status"]
    assert page.locator("#log li").all_inner_texts() == logged
    # The view as it now stands, and the log with the moves.
    page.unroute_all()
    page.reload()
    settled(page)
    assert len(page.locator("#log li").all_inner_texts()) > len(logged)
    assert page.errors == []


def test_a_double_click_and_a_lost_answer_act_once(at_a_fresh_turn, api_origin):
    page = at_a_fresh_turn()
    match = match_id(page)
    before = api_get(api_origin, page, f"/matches/{match}")["version"]
    # The first answer to the look is lost on the way back: the page must retry with its key.
    keys = []

    def lose_first_answer(route):
        keys.append(route.request.headers["idempotency-key"])
        response = route.fetch()
        if len(keys) == 1:
            route.abort("connectionreset")
        else:
            route.fulfill(response=response)

    page.route(f"{api_origin}/api/v1/matches/*/actions", lose_first_answer)
    look = button(page, "look")
    look.dblclick()
    expect(page.locator(".hand .card.face")).to_have_count(5)
    settled(page)
    events = api_get(api_origin, page, f"/matches/{match}/events?after={before}")["events"]
    assert your_actions(events) == ["look"]
    assert len(keys) == 2 and keys[0] == keys[1]
    assert page.errors == []


def test_a_stale_version_reloads_and_says_so(at_a_fresh_turn, api_origin):
    page = at_a_fresh_turn()
    match = match_id(page)
    # Elsewhere (another tab, another device), the same player looks at the cards.
    response = httpx.post(
        f"{api_origin}/api/v1/matches/{match}/actions",
        json={"action": "look"},
        headers={"Authorization": f"Bearer {token(page)}"},
    )
    assert response.status_code == 200
    button(page, "look").click()
    expect(page.locator("#status")).to_have_text(
        "The match had moved on elsewhere; it is reloaded as it stands now."
    )
    # Reloaded: the cards are face up, look is no longer offered, and play goes on.
    expect(page.locator(".hand .card.face")).to_have_count(5)
    expect(button(page, "look")).to_have_count(0)
    played = play_on(page)
    settled(page)
    events = api_get(api_origin, page, f"/matches/{match}/events")["events"]
    assert your_actions(events)[-2:] == ["look", played]
    assert page.errors == []


def test_persian_runs_right_to_left(open_table):
    page = open_table(lang="fa")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#start-game")).to_have_text("شروع بازی")
    sit_down(page, "رویا")
    new_match(page)
    fresh_turn(page)
    button(page, "look").click()
    expect(page.locator(".hand .card.face")).to_have_count(5)
    names = set(page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.ariaLabel)"))
    assert names <= {"آس", "شاه", "بی‌بی", "سرباز", "کولی"}
    assert page.evaluate("getComputedStyle(document.getElementById('main')).direction") == "rtl"
    # The text runs right to left, but the table is the game's: play passes to the right, so
    # the seat after yours sits on your right, as in every language, its name still in Persian.
    after_you = page.locator(".seat-1").bounding_box()
    before_you = page.locator(".seat-3").bounding_box()
    assert after_you["x"] > before_you["x"]
    assert page.locator(".seat-1").evaluate("seat => getComputedStyle(seat).direction") == "rtl"
    screenshot(page, "fa-mid-deal")
    assert page.errors == []


def test_keyboard_only_play_of_a_whole_match(open_table):
    page = open_table()
    keys = page.keyboard
    # The first screen's Start game has the focus: Enter deals a match at once.
    expect(page.locator("#start-game")).to_be_focused()
    keys.press("Enter")
    expect(page.locator("#table")).to_be_visible()

    def play_the_deal():
        for _ in range(40):
            if settled(page) != "in_deal":
                return
            offered = page.locator("#actions button.play").evaluate_all(
                "buttons => buttons.map(b => b.getAttribute('aria-keyshortcuts'))"
            )
            keys.press("L" if "L" in offered else next(k for k in "CHRF" if k in offered))

    play_the_deal()
    expect(page.locator("#deal-panel")).to_be_visible()
    # Tab reaches the next-deal button, and Enter presses it. It goes round the page (the
    # button is above the result, which has the focus), so it takes as many presses as the
    # page has stops: 15 with a bare result, more once the deal's figures or its review add
    # theirs, which arrive when they will.
    stops = page.locator(
        "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])"
    ).count()
    focused = ""
    for _ in range(stops + 1):
        keys.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.command || ''")
        if focused == "next":
            break
    assert focused == "next"
    keys.press("Enter")
    expect(page.locator(".deal-no")).to_have_text("Deal 2 of 12")
    # The other eleven deals: the keys alone, N for each next deal.
    for _ in range(11):
        play_the_deal()
        if settled(page) == "finished":
            break
        keys.press("N")
    play_the_deal()
    expect(page.locator("#standings")).to_be_visible()
    # The end is announced and focused: the keyboard user is taken to it.
    expect(page.locator("#standings-title")).to_be_focused()
    expect(page.locator("#status")).to_contain_text(re.compile("won the match|share the win"))
    assert page.errors == []


def test_a_429_counts_down_and_problems_read_as_messages(at_a_fresh_turn, api_origin):
    page = at_a_fresh_turn()
    answers = iter(
        [
            (429, {"Retry-After": "3"}, {"code": "throttled", "detail": "Slow down."}),
            (400, {}, {"code": "validation_error", "title": "Bad", "detail": "No such action."}),
        ]
    )

    def refuse(route):
        status, headers, body = next(answers)
        route.fulfill(
            status=status,
            headers={**headers, "Access-Control-Expose-Headers": "Retry-After"},
            content_type="application/problem+json",
            body=json.dumps({"status": status, **body}),
        )

    page.route(f"{api_origin}/api/v1/matches/*/actions", refuse)
    button(page, "look").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"you may go on in [123] s"))
    expect(button(page, "look")).to_be_disabled()
    expect(button(page, "look")).to_be_enabled(timeout=5000)
    button(page, "look").click()
    # The catalogue's words for the code, never the server's English detail.
    expect(page.locator("#status")).to_have_text("The server did not accept this request.")
    page.unroute(f"{api_origin}/api/v1/matches/*/actions")
    button(page, "look").click()
    expect(page.locator(".hand .card.face")).to_have_count(5)


def test_served_by_the_api_itself_with_the_browser_preferences(open_table, api_origin):
    # No ?api=: the page calls the server it came from. The browser asks for reduced motion.
    page = open_table(url=f"{api_origin}/?lang=da", reduced_motion=True)
    expect(page.locator("html")).to_have_attribute("data-motion", "reduced")
    expect(page.locator("#start-game")).to_have_text("Start spillet")
    sit_down(page, "Sofie")
    new_match(page)
    settled(page)
    expect(page.locator(".deal-no")).to_have_text(re.compile(r"Giv \d+ af 12"))
    before = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    page.locator("#contrast").fill("100")
    expect(page.locator("html")).to_have_attribute("data-contrast", "100")
    after = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert (before, after) == ("rgb(244, 241, 232)", "rgb(255, 255, 255)")
    screenshot(page, "da-high-contrast")
    assert page.errors == []


def test_the_hint_button_shows_the_coachs_advice(at_a_fresh_turn, api_origin):
    page = at_a_fresh_turn()
    button(page, "hint").click()
    panel = page.locator("#hint")
    expect(panel.locator(".strength")).to_have_text(
        "Look first: it is free and shows you your hand."
    )
    expect(panel.locator('tr[data-action="look"] td').nth(1)).to_have_text("1 (100%)")
    assert "of 121" not in panel.inner_text()
    button(page, "look").click()
    settled(page)
    # The look moved the match on: the old advice is gone until asked for again.
    expect(panel).to_have_count(0)
    expect(button(page, "hint")).to_be_enabled()
    page.keyboard.press("?")
    # A seen hand's advice sums over every deal still possible: well under a second on a quiet
    # machine, but CI's loaded one once took over the default 5 s.
    expect(panel.locator(".strength")).to_contain_text("ranks", timeout=30_000)
    asked = api_get(api_origin, page, f"/matches/{match_id(page)}/hint")
    expect(panel.locator(".strength")).to_contain_text(
        f"ranks {asked['hand_rank']} of 121; it beats three random hands {asked['showdown_win']}"
    )
    for advice in asked["actions"]:
        cells = panel.locator(f'tr[data-action="{advice["action"]}"] td')
        expect(cells.nth(1)).to_contain_text(advice["hard_probability"])
        exact = advice["expected_value"]  # shown to 4 places, exact in the cell's title
        shown = "0" if exact == "0" else f"{float(Fraction(exact)):+.4f}".lstrip("+-")
        expect(cells.nth(2)).to_contain_text(shown)
        expect(cells.nth(2)).to_have_attribute("title", re.compile(re.escape(exact.lstrip("-"))))
    screenshot(page, "table-hint")
    assert page.errors == []


def test_the_expert_level_is_offered_and_played(open_table, api_origin):
    page = open_table()
    sit_down(page)
    options = page.locator("#ai-level option")
    expect(options).to_have_text(["Easy", "Normal", "Hard", "Expert"])
    screenshot(page, "lobby-levels")
    new_match(page, "expert")
    fresh_turn(page)
    assert api_get(api_origin, page, f"/matches/{match_id(page)}")["ai_level"] == "expert"
    screenshot(page, "expert-match")
    assert page.errors == []


def test_a_fold_while_hold_is_free_asks_first(at_a_fresh_turn, api_origin):
    """One key or click must not give up a stake that Hold keeps for nothing: the page asks,
    sends nothing if cancelled, and folds once confirmed. The server's views are changed on
    the way to show Hold as free at this turn."""
    page = at_a_fresh_turn()
    match = match_id(page)

    def hold_is_free(route):
        response = route.fetch()
        view = response.json()
        if route.request.method == "GET" and view.get("turn") == view.get("your_seat"):
            view["legal_actions"] = ["hold", "raise", "fold"]
            view["seats"][view["your_seat"]]["stake"] = view["high_stake"]
        route.fulfill(response=response, json=view)

    page.route(f"{api_origin}/api/v1/matches/{match}", hold_is_free)
    page.reload()
    expect(button(page, "hold")).to_be_visible()
    sent = []
    page.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    button(page, "fold").click()
    expect(page.locator("#confirm-text")).to_contain_text("Hold is free now")
    page.locator('#confirm button[value="cancel"]').click()
    expect(page.locator("#confirm")).not_to_be_visible()
    # The dialog's close event comes a task after it closed, and till then the page is still
    # busy with the cancelled fold and takes no key (as while any request is out).
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")
    assert sent == []
    page.keyboard.press("F")  # the key asks as the button does
    expect(page.locator("#confirm-text")).to_contain_text("Hold is free now")
    with page.expect_request(lambda request: request.method == "POST") as folding:
        page.locator('#confirm button[value="yes"]').click()
    assert json.loads(folding.value.post_data)["action"] == "fold"
    assert page.errors == []
