"""The Puzzles screen in the browser (#42 item 3): another player's match is played to its end
through the API, its reviews worked out by the server and its puzzles mined by the turn
clock's sweep, as in production; then a new player opens the screen from the lobby, sees each
position exactly as the API gives it, solves a puzzle by keyboard (English) or by button
(Persian), and reads the grade the server answered: the best action, each action's exact
value, the puzzle rating before and after; the next puzzle, a miss, and the refusal when none
is left. At 1280 px and at 360 px without sideways scroll, axe-clean on each screen. Nothing is
faked: the puzzles are the sweep's and the grades the server's."""

import os
import re
import time

import httpx
import psycopg
import pytest
from playwright.sync_api import expect

from tests.servers import migrated_database, served
from tests.tournaments.support import steady
from tests.web.conftest import screenshot
from tests.web.play import register, sit_down, token
from tests.web.test_screens_load import fetched
from tests.web.test_table_care import axe_violations, catalogue

# The puzzles are mined from stored reviews, worked out once the coach's tables are built.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("coach_tables_built")]

SEED = 6  # a match whose steady play (look, then call or hold) leaves clear decisions
KEYS = {"look": "KeyL", "call": "KeyC", "hold": "KeyH", "raise": "KeyR", "fold": "KeyF"}
SIZES = [(1280, 800), (360, 740)]
# Persian digits, its decimal point and the minus sign, as the API's ASCII; the marks that
# keep each figure's direction, dropped.
PLAIN = str.maketrans("۰۱۲۳۴۵۶۷۸۹٫−", "0123456789.-", "\u200e\u200f\u2068\u2069\u061c")


@pytest.fixture(scope="module")
def puzzle_server(page_origin, tmp_path_factory):
    """A server of this module's own whose sweep runs every 2 s (300 s in production), so
    that a match's puzzles are mined within the test; yields its origin and database URL."""
    log = tmp_path_factory.mktemp("puzzles-api") / "serve.log"
    with migrated_database("puzzles") as url:
        env = {**os.environ, "DATABASE_URL": url, "ASNAS_CORS_ORIGINS": page_origin}
        env |= {"ASNAS_ALLOW_CLIENT_SEED": "1", "ASNAS_PURGE_INTERVAL_SECONDS": "2"}
        with served(log, env) as (origin, _):
            yield origin, url


@pytest.fixture(scope="module")
def api_origin(puzzle_server):
    """The pages of this module talk to the puzzles' server."""
    return puzzle_server[0]


def write(origin: str, token: str, path: str, body: dict) -> dict:
    response = httpx.post(
        f"{origin}/api/v1{path}",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert response.status_code in (200, 201), response.text
    return response.json()


@pytest.fixture(scope="module")
def puzzles(puzzle_server) -> dict[str, str]:
    """Mina's match against the AI, played to its end; once the sweep has mined it, every
    stored puzzle's best action by its id (read from the database: the API tells it only
    with a grade)."""
    origin, url = puzzle_server
    mina = register(origin, "Mina")
    view = write(origin, mina, "/matches", {"seed": SEED, "ai_level": "easy"})
    decision = 0
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = write(origin, mina, f"/matches/{view['id']}/next-deal", {})
        else:
            action = steady(decision, view["legal_actions"])
            decision += 1
            view = write(origin, mina, f"/matches/{view['id']}/actions", {"action": action})
    probe = {"Authorization": f"Bearer {register(origin, 'Probe')}"}
    deadline = time.monotonic() + 300
    while (got := httpx.get(f"{origin}/api/v1/puzzles/next", headers=probe)).status_code != 200:
        assert got.json()["code"] == "no_puzzle_left", got.text
        assert time.monotonic() < deadline, "the sweep mined no puzzle of the finished match"
        time.sleep(1)
    with psycopg.connect(url) as connection:
        found = dict(connection.execute("SELECT id::text, best FROM games_puzzle").fetchall())
    assert len(found) >= 2, "the test needs a puzzle to solve and one to miss"
    return found


def plain(text: str) -> str:
    return text.translate(PLAIN)


def signed(value: str) -> str:
    """The API's exact value as the page writes it, signed: "7/6" is "+7/6"."""
    return value if value.startswith("-") or value == "0" else f"+{value}"


def main_text(page) -> str:
    """The screen's words, without the keys' letters (the keyboard's own, on any language)."""
    return page.evaluate(
        "() => { const main = document.getElementById('main').cloneNode(true);"
        " main.querySelectorAll('kbd').forEach((k) => k.remove()); return main.innerText; }"
    )


def at_each_size(page, name: str) -> None:
    """At 1280 × 800 and 360 × 740: no sideways scroll, no axe violation, a screenshot."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
        assert axe_violations(page) == [], (name, width)
        screenshot(page, f"{name}-{width}")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def shows_position(page, puzzle: dict, lang: str) -> None:
    """The position exactly as the API gave it: the hand (or five cards face down), the pot
    and high stake, each seat by its place with its stake, the moves, the legal actions."""
    spot = puzzle["position"]
    screen = page.locator("#puzzles")
    if spot["hand"]:
        cards = screen.locator(".card.face")
        expect(cards).to_have_count(5)
        assert cards.evaluate_all("cs => cs.map(c => c.dataset.rank)") == spot["hand"]
    else:
        expect(screen.locator(".card.back")).to_have_count(5)
    pot = plain(page.locator("#puzzle-pot").inner_text())
    assert re.findall(r"\d+", pot) == [str(spot["pot"]), str(spot["high_stake"])]
    seats = page.locator("#puzzle-seats li")
    expect(seats).to_have_count(4)
    for i, seat in enumerate(spot["seats"]):
        line = plain(seats.nth(i).inner_text())
        assert seats.nth(i).get_attribute("data-place") == str(seat["position"])
        assert re.findall(r"\d+", line) == [str(seat["stake"])], line
    dealer = page.locator(f'#puzzle-seats li[data-place="{spot["dealer"]}"]')
    expect(dealer).to_contain_text(catalogue(lang)["dealer"])
    moves = page.locator("#puzzle-moves li")
    expect(moves).to_have_count(len(spot["moves"]))
    assert moves.evaluate_all("ms => ms.map(m => [Number(m.dataset.place), m.dataset.action])") == [
        [move["position"], move["action"]] for move in spot["moves"]
    ]
    choices = page.locator("#puzzles [data-choice]")
    assert choices.evaluate_all("bs => bs.map(b => b.dataset.choice)") == puzzle["actions"]
    ratings = plain(page.locator("#puzzle-ratings").inner_text())
    assert f"{puzzle['your_rating']:.2f}" in ratings and f"{puzzle['rating']:.2f}" in ratings


def shows_grade(page, grade: dict) -> None:
    """The grade exactly as the API answered it: solved or not, the best action, each
    action's exact value and its rounded figure, the loss, the ratings before and after."""
    verdict = page.locator("#puzzle-graded")
    expect(verdict).to_be_focused()
    expect(verdict).to_have_attribute("data-solved", str(grade["solved"]).lower())
    expect(verdict).to_have_attribute("data-best", grade["best"])
    if not grade["solved"]:  # rounded in the sentence, exact below it
        assert f"{grade['lost_rounded']:.2f}" in plain(verdict.inner_text())
        lost = plain(page.locator("#puzzle-lost").inner_text())
        assert lost.endswith(f": {grade['lost']}"), lost
    rows = page.locator("#puzzle-values tbody tr")
    expect(rows).to_have_count(len(grade["values"]))
    for i, value in enumerate(grade["values"]):
        row = rows.nth(i)
        assert row.get_attribute("data-action") == value["action"]
        assert row.get_attribute("data-value") == value["value"]
        assert (row.get_attribute("class") == "best") == value["best"]
        rounded, exact = (plain(cell) for cell in row.locator("td").all_inner_texts())
        assert exact == signed(value["value"]), (exact, value)
        figure = value["value_rounded"]
        assert rounded == (f"≈{figure:+.2f}" if figure else "≈0.00"), rounded
    change = plain(page.locator("#puzzle-rating-change").inner_text())
    before, after = f"{grade['rating_before']:.2f}", f"{grade['rating']:.2f}"
    assert re.search(rf"{re.escape(before)}\s*[→←]\s*{re.escape(after)}", change), change
    its = plain(page.locator("#puzzle-its-rating").inner_text())
    assert f"{grade['puzzle_rating']:.2f}" in its


def try_puzzle(page, choose) -> dict:
    """Makes a choice (`choose()` presses a key or a button) and returns the server's grade."""
    with page.expect_response(lambda r: r.url.endswith("/try")) as answered:
        choose()
    assert answered.value.status == 200
    return answered.value.json()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_puzzle_solved_and_graded_as_the_api_grades_it(open_table, puzzles, lang):
    page = open_table(lang=lang, width=1280, height=800)
    sit_down(page)
    expect(page.locator("#lobby-puzzles")).to_contain_text(catalogue(lang)["puzzles_line"])
    at_each_size(page, f"lobby-{lang}")
    # Reached from the lobby; its code arrives when the screen is first shown.
    assert "puzzles.js" not in fetched(page)
    with page.expect_response(lambda r: r.url.endswith("/puzzles/next")) as given:
        page.locator("#open-puzzles").click()
    puzzle = given.value.json()
    expect(page.locator("#puzzle-title")).to_be_focused()
    assert "puzzles.js" in fetched(page)
    shows_position(page, puzzle, lang)
    at_each_size(page, f"puzzle-{lang}")

    best = puzzles[puzzle["id"]]
    if lang == "en":  # by its key, the same physical key in every language (table/keys.js)
        grade = try_puzzle(page, lambda: page.keyboard.press(KEYS[best]))
    else:
        grade = try_puzzle(page, lambda: page.locator(f'[data-choice="{best}"]').click())
    assert grade["solved"] and grade["action"] == grade["best"] == best
    shows_grade(page, grade)
    if lang == "fa":  # Persian throughout: no Latin letter, no ASCII digit
        assert re.findall(r"[A-Za-z0-9]", main_text(page)) == [], main_text(page)
    at_each_size(page, f"puzzle-graded-{lang}")
    if lang == "en":  # a language switch draws the grade again in the new words, no fetch
        asked = len(page.requests)
        page.locator("#lang").select_option("es")
        expect(page.locator("#puzzle-title")).to_have_text(catalogue("es")["puzzles_title"])
        expect(page.locator("#puzzle-values tbody tr")).to_have_count(len(grade["values"]))
        assert not [r.url for r in page.requests[asked:] if "/api/" in r.url]
        page.locator("#lang").select_option("en")
        page.locator("#puzzle-graded").focus()  # the menu kept the focus, as it should
        shows_grade(page, grade)

    # The next puzzles, each missed on purpose by a button, until none is left for this player.
    seen = {puzzle["id"]}
    while True:
        with page.expect_response(lambda r: r.url.endswith("/puzzles/next")) as given:
            page.keyboard.press("KeyN")
        if given.value.status == 404:
            break
        puzzle = given.value.json()
        assert puzzle["id"] not in seen and puzzle["id"] in puzzles
        seen.add(puzzle["id"])
        expect(page.locator("#puzzle-title")).to_be_focused()
        shows_position(page, puzzle, lang)
        worse = next(a for a in puzzle["actions"] if a != puzzles[puzzle["id"]])
        grade = try_puzzle(page, lambda a=worse: page.locator(f'[data-choice="{a}"]').click())
        assert not grade["solved"] and grade["action"] == worse
        shows_grade(page, grade)
        if len(seen) == 2:
            screenshot(page, f"puzzle-missed-{lang}")
            if lang == "fa":  # the miss's sentences and the themes, Persian too
                assert re.findall(r"[A-Za-z0-9]", main_text(page)) == [], main_text(page)
    assert seen == set(puzzles)
    # The API's refusal in the screen's words: none is left, and no next step but the lobby.
    refused = page.locator("#puzzle-refused")
    expect(refused).to_be_focused()
    expect(refused).to_have_text(catalogue(lang)["problem_no_puzzle_left"])
    expect(page.locator('#puzzles [data-command="next"]')).to_have_count(0)
    at_each_size(page, f"puzzle-none-{lang}")
    page.locator("#puzzles-lobby").click()
    expect(page.locator("#open-puzzles")).to_be_visible()
    assert page.errors == []


def test_a_puzzle_tried_elsewhere_is_refused_in_words_and_the_next_one_offered(
    open_table, api_origin, puzzles
):
    """The same player tries the puzzle from another client first (another tab, a retry whose
    answer was lost): the server refuses the page's try (409 puzzle_tried), and the screen
    says so in its words and offers the next puzzle."""
    page = open_table(lang="en", width=360, height=740)
    sit_down(page)
    with page.expect_response(lambda r: r.url.endswith("/puzzles/next")) as given:
        page.locator("#open-puzzles").click()
    puzzle = given.value.json()
    expect(page.locator("#puzzle-title")).to_be_focused()
    elsewhere = httpx.post(
        f"{api_origin}/api/v1/puzzles/{puzzle['id']}/try",
        json={"action": puzzle["actions"][0]},
        headers={"Authorization": f"Bearer {token(page)}"},
    )
    assert elsewhere.status_code == 200, elsewhere.text
    with page.expect_response(lambda r: r.url.endswith("/try")) as answered:
        page.locator(f'[data-choice="{puzzle["actions"][-1]}"]').click()
    assert answered.value.status == 409
    refused = page.locator("#puzzle-refused")
    expect(refused).to_be_focused()
    expect(refused).to_have_text(catalogue("en")["problem_puzzle_tried"])
    expect(page.locator("#puzzles [data-choice]")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
    screenshot(page, "puzzle-tried-en-360")
    with page.expect_response(lambda r: r.url.endswith("/puzzles/next")) as given:
        page.keyboard.press("KeyN")
    following = given.value.json()
    assert following["id"] != puzzle["id"] and following["id"] in puzzles
    expect(page.locator("#puzzles [data-choice]")).to_have_count(len(following["actions"]))
    assert page.errors == []
