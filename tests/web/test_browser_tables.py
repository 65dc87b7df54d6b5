"""Friends at one table in headless Chromium: the invite link, live events by EventSource with
stream tickets (and long-polling when streams fail), the turn clock and away seats."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import screenshot
from tests.web.play import (
    RECORD_STREAMS,
    api_get,
    at_one_version,
    button,
    friend_joins,
    hands_in,
    match_id,
    new_match,
    new_table,
    play_on,
    record_status,
    register,
    seeded,
    settled,
    sit_down,
    to_move,
    token,
)
from tests.web.test_table_care import axe_violations

pytestmark = pytest.mark.slow

SEED = 7


def recording(seed: int | None = None, script: str = RECORD_STREAMS):
    """A `before` for open_table: record the page's streams, and seed its new matches."""

    def before(page):
        page.add_init_script(script)
        if seed is not None:
            seeded(seed)(page)

    return before


def api_bodies(page, api_origin) -> list:
    """Every JSON body the page received from the API, and every SSE event's data."""
    bodies = []
    for request in page.requests:
        response = request.response()
        if request.url.startswith(f"{api_origin}/api/") and request.method != "OPTIONS":
            if response and "json" in (response.headers.get("content-type") or ""):
                bodies.append(response.json())
    return bodies + [json.loads(data) for data in page.evaluate("window.streamed")]


def cards_shown(page) -> list[str]:
    return page.locator(".hand .card.face").evaluate_all("cs => cs.map(c => c.ariaLabel)")


def test_two_friends_play_one_table_live_each_seeing_only_their_own_cards(open_table, api_origin):
    owner = open_table(before=recording(SEED))
    sit_down(owner, "Roya")
    # No clock: nothing deals on or acts but the two friends.
    new_table(owner, humans=2)
    match = match_id(owner)
    invite = api_get(api_origin, owner, f"/matches/{match}")["invite"]
    # While it waits: the open seat, and the owner's link with the invite in its fragment.
    expect(owner.locator(".seat.open")).to_have_count(1)
    expect(owner.locator(".deal-no")).to_have_text("Waiting for 1 more")
    link = owner.locator("#invite-link").input_value()
    assert re.fullmatch(
        rf"http://127\.0\.0\.1:\d+/index\.html\?api=[^#]+#match={match}&invite=.+", link
    )
    assert link.endswith(f"&invite={invite}")
    owner.locator("#copy-invite").click()
    expect(owner.locator("#status")).to_have_text("The link is copied.")
    assert owner.evaluate("navigator.clipboard.readText()") == link
    screenshot(owner, "table-waiting")

    friend = open_table(url=link, width=360, before=recording())
    expect(friend.locator(".invited")).to_be_visible()
    friend.locator("#player-name").fill("Darius")
    friend.locator("#login button[type=submit]").click()
    # Signed in, the friend sees the table before sitting at it, and has not joined yet.
    preview = friend.locator("#invitation")
    expect(preview.locator("h2")).to_have_text("Roya invites you to a table")
    expect(preview.locator("h2")).to_be_focused()
    expect(preview).to_contain_text("1 seat free of 2")
    expect(preview).to_contain_text("Turn clock: no clock")
    expect(preview).to_contain_text("AI level: Easy")
    expect(preview).to_contain_text("Who may watch: Nobody")
    expect(friend.locator("#invitation-fairness")).to_have_text(
        "Not verifiable: the seeds stay secret, and so do folded hands."
    )
    assert "invite" not in friend.url
    assert api_get(api_origin, owner, f"/matches/{match}")["seats"][1]["name"] is None
    assert axe_violations(friend) == []
    screenshot(friend, "table-invitation-360px")
    friend.locator("#join-invited").click()
    expect(friend.locator("#table")).to_be_visible()
    pages = [owner, friend]
    for page in pages:
        page.evaluate("window.stayed = true")
    # The owner sees the friend sit down and the deal start, without a reload.
    expect(owner.locator('[data-seat="1"] h3')).to_have_text("Darius")
    expect(owner.locator("#invite")).to_have_count(0)
    expect(friend.locator('[data-seat="0"] h3')).to_have_text("Roya")
    # Spectators off: the owner has one folded control, the friend nothing at all.
    expect(owner.locator("details#spectators summary")).to_have_text("Spectators · Nobody")
    expect(owner.locator("#spectators-mode")).not_to_be_visible()
    expect(friend.locator("#spectators")).to_have_count(0)

    names = {id(owner): "Roya", id(friend): "Darius"}
    moves = 0
    while at_one_version(pages) == "in_deal":
        page = to_move(pages)
        other = friend if page is owner else owner
        # The coach is for a player alone with the AI: the server refuses hints at a table.
        assert page.locator('[data-command="hint"]').count() == 0
        action = play_on(page)
        moves += 1
        at_one_version(pages)
        expect(other.locator("#log")).to_contain_text(f"{names[id(page)]}: {action.title()}")
        if action == "look":
            seat = 0 if page is owner else 1
            mine = api_get(api_origin, page, f"/matches/{match}")["your_cards"]
            expect(page.locator(".hand .card.face")).to_have_count(5)
            # Each page shows its own cards face up, and none of anyone else's (theirs lie face
            # down at their seats).
            assert cards_shown(page) == mine and page.locator(".seat .card.face").count() == 0
            assert api_get(api_origin, page, f"/matches/{match}")["your_seat"] == seat
            if moves < 4:
                screenshot(page, f"table-mid-deal-{names[id(page)]}")
    assert moves >= 2
    for page in pages:
        expect(page.locator("#deal-panel")).to_be_visible()
    screenshot(owner, "table-deal-over-owner")
    screenshot(friend, "table-deal-over-friend-360px")
    assert friend.evaluate("document.documentElement.scrollWidth") <= 360

    # The friend deals on; the owner's page follows into deal 2.
    button(friend, "next").click()
    expect(friend.locator(".deal-no")).to_have_text("Deal 2 of 12")
    expect(owner.locator(".deal-no")).to_have_text("Deal 2 of 12")
    assert at_one_version(pages) == "in_deal"

    # Deal 2's cards are still face down: deal 1's are the only ones the answers may show.
    cards = {}
    for seat, page in enumerate(pages):
        events = api_get(api_origin, page, f"/matches/{match}/events")["events"]
        ended = next(event for event in events if event["type"] == "deal_ended")
        cards[id(page)] = ended["seats"][seat]["hand"]
    assert cards[id(owner)] != cards[id(friend)], "the seed deals the two friends one hand"
    for page in pages:
        seen = [hand for body in api_bodies(page, api_origin) for hand in hands_in(body)]
        # Every hand any answer or stream message gave the page, outside the deal's results,
        # is its own; and there were some (the look's answer), so the check checks something.
        assert seen and all(hand == cards[id(page)] for hand in seen)
        assert page.evaluate("window.stayed") is True
        streams = page.evaluate("window.streams")
        assert streams and all("ticket=" in url for url in streams)
        addresses = [request.url for request in page.requests] + streams
        assert not any(token(page) in url or "wait=" in url for url in addresses)
        # The invite travels only in the invitation's and the join's bodies: never in an
        # address or a Referer.
        for request in page.requests:
            assert invite not in request.url
            assert invite not in (request.headers.get("referer") or "")
        assert page.errors == []


def test_an_invite_shows_a_verifiable_table_and_cancel_leaves_it_as_it_was(
    open_table, page_origin, api_origin
):
    owner = {"Authorization": f"Bearer {register(api_origin, 'Roya')}"}
    body = {"humans": 3, "verifiable": True, "turn_seconds": 45, "spectators": "live"}
    created = httpx.post(
        f"{api_origin}/api/v1/matches", json={**body, "ai_level": "hard"}, headers=owner
    )
    table = created.json()
    link = f"{page_origin}/index.html?api={api_origin}#match={table['id']}&invite={table['invite']}"
    friend = open_table(url=link)
    friend.locator("#player-name").fill("Darius")
    friend.locator("#login button[type=submit]").click()
    preview = friend.locator("#invitation")
    expect(preview).to_contain_text("2 seats free of 3")
    expect(preview).to_contain_text("Turn clock: 45 s a turn")
    expect(preview).to_contain_text("AI level: Hard")
    expect(preview).to_contain_text("Who may watch: Live")
    expect(friend.locator("#invitation-fairness")).to_contain_text(
        "Verifiable: each series’ seed is revealed when it ends"
    )
    # A language switch draws the preview again in the new words; it stays a preview.
    friend.locator("#lang").select_option("fa")
    expect(preview.locator("h2")).to_have_text("Roya شما را به یک میز دعوت کرده است")
    expect(friend.locator("#invitation-fairness")).to_contain_text("قابل وارسی")
    friend.locator("#lang").select_option("en")
    friend.locator("#cancel-invited").click()
    expect(friend.locator("#new-match")).to_be_visible()
    view = httpx.get(f"{api_origin}/api/v1/matches/{table['id']}", headers=owner).json()
    assert (view["version"], view["seats"][1]["name"]) == (table["version"], None)
    assert friend.errors == []


def test_a_dropped_stream_resumes_with_a_fresh_ticket(open_table, api_origin):
    dropped = []

    def drop_first(route):
        if dropped:
            return route.continue_()
        dropped.append(route.request.url)
        route.abort("connectionreset")

    def before(page):
        recording()(page)
        page.route(re.compile(r".*/stream\?.*"), drop_first)

    owner = open_table(before=before)
    sit_down(owner, "Roya")
    new_table(owner, humans=3)
    friend_joins(api_origin, owner)
    expect(owner.locator('[data-seat="1"] h3')).to_have_text("Darius")
    expect(owner.locator(".seat.open")).to_have_count(1)
    streams = owner.evaluate("window.streams")
    queries = [parse_qs(urlsplit(url).query) for url in streams]
    tickets = [query["ticket"][0] for query in queries]
    assert dropped and len(streams) >= 2 and len(set(tickets)) == len(tickets)
    assert all("after" in query for query in queries)
    assert not any("wait=" in request.url for request in owner.requests)
    assert owner.errors == []


def test_without_streams_the_table_long_polls(open_table, api_origin):
    def no_tickets(route):
        cors = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*"}
        if route.request.method == "OPTIONS":
            return route.fulfill(status=204, headers=cors)
        body = {"status": 404, "code": "not_found", "title": "Not found", "detail": "No such page."}
        route.fulfill(
            status=404, headers=cors, content_type="application/problem+json", body=json.dumps(body)
        )

    owner = open_table(
        before=lambda page: page.route(re.compile(r".*/stream-tickets$"), no_tickets)
    )
    sit_down(owner, "Roya")
    new_table(owner, humans=2)
    friend_joins(api_origin, owner)
    expect(owner.locator('[data-seat="1"] h3')).to_have_text("Darius")
    assert any("/events?after=" in r.url and "wait=25" in r.url for r in owner.requests)
    assert owner.errors == []


# The page's clock runs an hour fast: the countdown must go by the server's time.
FAST_CLOCK = "{ const now = Date.now; Date.now = () => now() + 3600e3; }"


def test_the_turn_clock_counts_down_then_acts_and_marks_the_seat_away(open_table, api_origin):
    owner = open_table(before=recording(SEED, RECORD_STREAMS + FAST_CLOCK))
    sit_down(owner, "Roya")
    new_table(owner, humans=2, seconds=10)
    # Darius joins and never moves: the clock moves for him.
    friend_joins(api_origin, owner)
    expect(owner.locator('[data-seat="1"] h3')).to_have_text("Darius")
    clock = owner.locator('[data-seat="1"] #clock')
    for _ in range(12):
        assert at_one_version([owner]) == "in_deal"
        if clock.count():
            break
        play_on(owner)
    # By the page's own clock, an hour fast, the turn would have run out long ago.
    shown = clock.inner_text()
    assert re.fullmatch(r"0:(10|0[1-9])", shown), shown
    screenshot(owner, "table-clock")
    # Redrawn each second.
    expect(clock).not_to_have_text(shown, timeout=3000)
    log = owner.locator("#log li.by-clock")
    expect(log.first).to_have_text(re.compile(r"^Darius: \w+ \(time ran out\)$"), timeout=20_000)
    expect(owner.locator('[data-seat="1"] .flags')).to_contain_text("Away")
    screenshot(owner, "table-away")
    assert owner.errors == []


def test_the_ai_moves_before_your_first_turn_are_played_one_by_one(open_table, api_origin):
    page = open_table(reduced_motion=False, before=seeded(SEED))
    record_status(page)
    sit_down(page)
    new_match(page)
    settled(page)
    view = api_get(api_origin, page, f"/matches/{match_id(page)}")
    events = api_get(api_origin, page, f"/matches/{match_id(page)}/events")["events"]
    before_you = []
    for event in events:
        if event["type"] == "action":
            if event["seat"] == 0:
                break
            name = view["seats"][event["seat"]]["name"]
            before_you.append(f"{name}: {event['action'].title()}")
    assert before_you, "the seed gives the AI seats no move before yours"
    said = [line for line in page.evaluate("said") if line in before_you]
    assert said == before_you
    assert page.errors == []


def test_a_persian_table_runs_right_to_left_and_shows_who_left(open_table, api_origin):
    owner = open_table(lang="fa", before=recording(SEED))
    sit_down(owner, "رویا")
    new_table(owner, humans=2)
    match = match_id(owner)
    expect(owner.locator(".deal-no")).to_have_text("در انتظار ۱ نفر دیگر")
    expect(owner.locator(".seat.open h3")).to_have_text("جای خالی")
    expect(owner.locator("#invite-title")).to_have_text("دوستانتان را دعوت کنید")
    assert owner.evaluate("getComputedStyle(document.getElementById('main')).direction") == "rtl"
    # The link itself reads left to right inside the right-to-left page.
    assert (
        owner.evaluate("getComputedStyle(document.getElementById('invite-link')).direction")
        == "ltr"
    )
    screenshot(owner, "fa-table-waiting")
    friend = friend_joins(api_origin, owner, "داریوش")
    expect(owner.locator('[data-seat="1"] h3')).to_have_text("داریوش")
    response = httpx.post(
        f"{api_origin}/api/v1/matches/{match}/leave",
        json={},
        headers={"Authorization": f"Bearer {friend}"},
    )
    assert response.status_code == 200
    expect(owner.locator('[data-seat="1"] .flags')).to_contain_text("رفته")
    expect(owner.locator("#log")).to_contain_text("داریوش میز را ترک کرد")
    screenshot(owner, "fa-table-left")
    assert owner.errors == []
