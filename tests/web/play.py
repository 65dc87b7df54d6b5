"""Moves through the table's UI, as a person would make them, and what a test reads of the
match through the API beside it."""

import json
import re
import time

import httpx
from playwright.sync_api import Page, expect

PREFERRED = ("call", "hold", "raise", "fold")

# The page is not working on a request (it sets aria-busy on the body while one is out).
NOT_BUSY = "document.body.getAttribute('aria-busy') !== 'true'"


def sit_down(page: Page, name: str = "Roya") -> None:
    """From the first screen to the lobby (the click registers a player with a default name),
    then named `name` with the lobby's form."""
    page.locator("#more-ways").click()
    page.locator("#new-match").wait_for()  # not an expect: see settled
    rename(page, name)


def rename(page: Page, name: str) -> None:
    page.locator("#rename-name").fill(name)
    page.locator("#rename button[type=submit]").click()
    expect(page.locator("#main h2").first).to_contain_text(name)
    page.wait_for_function(f"() => {NOT_BUSY}")


def new_match(page: Page, level: str = "easy") -> None:
    page.locator("#ai-level").select_option(level)
    page.locator("#new-match").click()
    page.locator("#table").wait_for()  # not an expect: see settled


def settled(page: Page) -> str:
    """Waits until the table shows a turn of yours, a deal over or the end, and is not busy;
    returns the status. One wait in the page rather than an `expect`: an expect that has to
    wait renders an aria snapshot of the page at each of its polls (Playwright 1.60 and on,
    microsoft/playwright#41098): 1.0 of the page's 4.4 busy seconds over 30 moves (#34)."""
    page.wait_for_function(
        "() => { const t = document.getElementById('table');"
        f" return {NOT_BUSY} && t"
        " && (t.dataset.status !== 'in_deal' || document.querySelector('#actions button.play')); }"
    )
    return page.locator("#table").get_attribute("data-status")


def button(page: Page, command: str):
    return page.locator(f'button[data-command="{command}"]')


def play_on(page) -> str:
    """One move of yours: a look first when there is one, then call, hold, raise or fold."""
    offered = page.locator("#actions button.play").evaluate_all(
        "buttons => buttons.map(b => b.dataset.command)"
    )
    choice = "look" if "look" in offered else next(a for a in PREFERRED if a in offered)
    button(page, choice).click()
    return choice


def fresh_turn(page) -> None:
    """Plays on until it is your turn with your cards still face down."""
    while True:
        status = settled(page)
        if status == "in_deal" and button(page, "look").count():
            return
        if status == "deal_over":
            button(page, "next").click()
        else:
            play_on(page)


def token(page) -> str:
    return page.evaluate(
        "() => Object.entries(localStorage).find(([k]) => k.startsWith('asnas:token@'))[1]"
    )


def api_get(api_origin, page, path: str) -> dict:
    response = httpx.get(
        f"{api_origin}/api/v1{path}", headers={"Authorization": f"Bearer {token(page)}"}
    )
    response.raise_for_status()
    return response.json()


def match_id(page) -> str:
    return re.search(r"match=([\w-]+)", page.url).group(1)


# ---- tables for friends ----

RANKS = {"As", "Shah", "Bibi", "Sarbaz", "Couli"}

# Keeps the data of every SSE event the page's code receives (window.streamed), and each
# stream's address (window.streams): the stream's body cannot be read from the network side.
RECORD_STREAMS = """
window.streamed = []; window.streams = [];
const Original = window.EventSource;
window.EventSource = class extends Original {
  constructor(url, init) { super(url, init); window.streams.push(String(url)); }
  addEventListener(type, listener, options) {
    const record = (message) => { window.streamed.push(message.data); listener(message); };
    super.addEventListener(type, record, options);
  }
};
"""


# A seed whose deal 1 gives the owner of a match against the AI a turn, and goes on after
# their look. With a random seed the three AI seats can end deal 1 in the request that makes
# the match, before the owner's first turn: a test that moves in deal 1, or reads the first
# deal the page deals as deal 1, fixes its cards with this one (runs of #34 met both).
TURN_IN_DEAL_1 = 6


def seeded(seed: int):
    """A `before` for open_table: the page's new matches get `seed`, so their deals are fixed."""

    def route(page: Page) -> None:
        def add_seed(route):
            if route.request.method != "POST":
                return route.continue_()
            body = {**route.request.post_data_json, "seed": seed}
            route.continue_(post_data=json.dumps(body))

        page.route(re.compile(r".*/api/v1/matches$"), add_seed)

    return route


def new_table(page: Page, humans: int = 2, seconds: int | None = None, level: str = "easy") -> None:
    """A table of `humans`, with `seconds` per turn, or no clock."""
    page.locator("#ai-level").select_option(level)
    page.locator("#humans").select_option(str(humans))
    page.locator("#turn-seconds").fill("" if seconds is None else str(seconds))
    page.locator("#new-match").click()
    page.locator('#table[data-status="waiting"]').wait_for()  # not an expect: see settled


def at_one_version(pages: list[Page], timeout: float = 15) -> str:
    """Waits until every page shows the same version of the match, none of them busy (so each
    has heard of every move); returns the status."""
    deadline = time.monotonic() + timeout
    while True:
        versions = {page.locator("#table").get_attribute("data-version") for page in pages}
        busy = any(page.locator("body[aria-busy=true]").count() for page in pages)
        if len(versions) == 1 and not busy:
            return pages[0].locator("#table").get_attribute("data-status")
        assert time.monotonic() < deadline, f"the pages stay at versions {versions}"
        pages[0].wait_for_timeout(100)


def to_move(pages: list[Page]) -> Page:
    """The page whose turn it is, once every page is at one version mid-deal: AI seats act
    within the writes, so a human is to act, and exactly one page offers moves."""
    assert at_one_version(pages) == "in_deal"
    movers = [page for page in pages if page.locator("#actions button.play").count()]
    assert len(movers) == 1, f"{len(movers)} pages offer a move"
    return movers[0]


def friend_joins(api_origin: str, owner: Page, name: str = "Darius") -> str:
    """Through the API, a friend takes the next seat at the owner's table; returns their token."""
    match = match_id(owner)
    invite = api_get(api_origin, owner, f"/matches/{match}")["invite"]
    friend = register(api_origin, name)
    join(api_origin, friend, match, invite)
    return friend


def record_status(page: Page) -> None:
    """Keeps every message the status line shows, in order, in window.said."""
    page.evaluate(
        "() => { window.said = []; new MutationObserver(() => said.push("
        "document.getElementById('status').textContent)).observe("
        "document.getElementById('status'),"
        " {childList: true, characterData: true, subtree: true}); }"
    )


def register(api_origin: str, name: str) -> str:
    response = httpx.post(f"{api_origin}/api/v1/players", json={"name": name})
    response.raise_for_status()
    return response.json()["token"]


def join(api_origin: str, bearer: str, match: str, invite: str) -> dict:
    response = httpx.post(
        f"{api_origin}/api/v1/matches/{match}/join",
        json={"invite": invite},
        headers={"Authorization": f"Bearer {bearer}"},
    )
    response.raise_for_status()
    return response.json()


def hands_in(data):
    """Every hand of five cards in an answer or event, outside deal results (which show the
    showdown's hands to everyone)."""
    if isinstance(data, dict):
        if data.get("type") == "deal_ended":
            return
        for key, value in data.items():
            if key != "last_deal":
                yield from hands_in(value)
    elif isinstance(data, list):
        if len(data) == 5 and all(item in RANKS for item in data):
            yield data
        else:
            for item in data:
                yield from hands_in(item)
