"""The terminal's review (terminal/review.py) of the body docs/review.md gives as its example:
each page fits 80 × 24 with its keys last, the chart has a bar per deal in proportion to the
points lost, each decision shows its class and every value, and a review still being worked
out is waited for as Retry-After asks."""

import copy
import io
import json
import re
import time
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console

from terminal.api import ApiProblem
from terminal.review import (
    BAR_WIDTH,
    fetch_review,
    review_page,
    review_pages,
    verdict,
    whole_review,
)
from tests.clients.http import call
from tests.clients.plays import play, play_command
from tests.servers import BASE_DIR

DOCS = Path(__file__).resolve().parents[2] / "docs" / "review.md"


def example() -> dict:
    """The example body of docs/review.md's "The review over the API"."""
    section = DOCS.read_text().split("## The review over the API", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)\n```", section, re.DOTALL)[1])


def twelve_deals() -> dict:
    """The example's deal played twelve times, the points lost growing deal by deal."""
    review = example()
    deal = review["seats"][0]["deals"][0]
    deals = []
    for number in range(1, 13):
        again = copy.deepcopy(deal) | {"deal_number": number, "lost_rounded": number / 10}
        if number == 12:
            again["counts"] = again["counts"] | {"mistake": 1}
        deals.append(again)
    review["seats"][0]["deals"] = deals
    return review


def shown(screen, height: int = 24) -> str:
    console = Console(file=io.StringIO(), width=80, height=height, color_system=None)
    console.print(screen)
    return console.file.getvalue()


def test_each_page_fits_80_by_24_with_its_keys_last():
    pages = review_pages(twelve_deals())
    assert len(pages) == 13  # the summary with the chart, then each deal
    for page in range(len(pages)):
        lines = shown(review_page(pages, page)).splitlines()
        assert len(lines) <= 24, "\n".join(lines)
        assert lines[-1].startswith("Keys: "), lines[-1]
        assert "b back" in lines[-1]
    first, last = shown(review_page(pages, 0)), shown(review_page(pages, 12))
    assert "[ previous page" not in first and "] next page" in first
    assert "[ previous page" in last and "] next page" not in last


def test_the_chart_draws_a_bar_per_deal_in_proportion_to_the_points_lost():
    screen = shown(review_page(review_pages(twelve_deals()), 0))
    rows = re.findall(r"^\s*(\d+)\s+(█*)\s+≈?\d\.\d\d", screen, re.MULTILINE)
    bars = {int(deal): len(bar) for deal, bar in rows}
    assert sorted(bars) == list(range(1, 13))
    assert bars[12] == BAR_WIDTH and bars[6] == BAR_WIDTH // 2
    assert "Accuracy ≈82.2 · points lost ≈0.14\n" in screen
    assert "best 1 · good 0 · inaccuracy 1 · mistake 0 · blunder 0" in screen
    assert "Values against normal's stored play." in screen
    assert re.search(r"12 .*1\.20\s+1 mistake$", screen, re.MULTILINE), screen


def test_each_decision_shows_its_class_and_every_action_s_value():
    screen = shown(whole_review(example()), height=200)
    assert "1. look (blind): best" in screen
    assert "look ≈+0.15* · call ≈-0.73 · raise ≈-0.87 · fold 0.00" in screen
    assert "2. fold: inaccuracy, ≈-0.14" in screen
    assert "call ≈+0.14* · raise ≈+0.12 · fold 0.00" in screen
    assert verdict(example()["seats"][0]["deals"][0]) == "2 decisions, 0 mistakes: ≈-0.14"


@pytest.mark.parametrize(
    ("lost", "rounded", "said"),
    [
        ("1/4", 0.25, "-0.25"),
        ("1/3", 0.33, "≈-0.33"),
        ("0", 0.0, "0.00"),
        ("1/200", 0.01, "≈-0.01"),
    ],
)
def test_a_figure_is_marked_rounded_exactly_where_rounding_changed_it(lost, rounded, said):
    """ "≈" as the table marks its skill figures: a quarter is -0.25 exactly, a third is not."""
    deal = example()["seats"][0]["deals"][0] | {"lost": lost, "lost_rounded": rounded}
    assert verdict(deal).endswith(f": {said}"), verdict(deal)


class PendingThenReady:
    """An API that answers review_pending `times` times, then the review."""

    def __init__(self, times: int, code: str = "review_pending"):
        self.times, self.code, self.asked = times, code, []

    def __call__(self, method: str, path: str, body=None) -> dict:
        self.asked.append((method, path))
        if len(self.asked) <= self.times:
            raise ApiProblem(503 if self.code == "review_pending" else 409, {"code": self.code}, 2)
        return example()


def test_a_review_being_worked_out_is_waited_for_as_retry_after_asks():
    api, said, slept = PendingThenReady(2), [], []
    review = fetch_review(api, "m-1", said.append, sleep=slept.append)
    assert review == example()
    assert api.asked == [("GET", "/matches/m-1/review")] * 3
    assert slept == [2, 2]
    assert said == ["The review of the last deal is being worked out…"] * 2


def test_a_review_not_yet_open_is_not_waited_for():
    api, slept = PendingThenReady(1, code="review_not_yet"), []
    with pytest.raises(ApiProblem) as refused:
        fetch_review(api, "m-1", lambda line: None, sleep=slept.append)
    assert refused.value.code == "review_not_yet" and slept == []


def open_review(terminal) -> str:
    """v, and v again as a player would while the screen says there is no review yet (the
    terminal waits out Retry-After for about 20 s, and a review may take longer on a loaded
    machine): the review's first page, once the server has it."""
    for _ in range(10):
        terminal.keys("v")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            pane = terminal.screen()
            if "Keys: ] next page   b back" in pane:
                return pane
            if "No review: " not in pane:  # the key was taken: now wait for its answer
                break
            time.sleep(0.2)
        while time.monotonic() < deadline:
            pane = terminal.screen()
            if "Keys: ] next page   b back" in pane:
                return pane
            if "No review: The review of" in pane:  # still being worked out: ask again
                break
            time.sleep(0.2)
    pytest.fail(f"the review never showed; the pane:\n{pane}")


def marked(exact: str, text: str, places: int = 2) -> str:
    """`text`, a figure to `places`, as the review shows it: "≈" first unless it is exact."""
    return text if (Fraction(exact) * 10**places).denominator == 1 else "≈" + text


@pytest.mark.slow
@pytest.mark.usefixtures("coach_tables_built")  # the server reviews once they are (conftest)
def test_a_finished_match_offers_its_review_and_play_review_prints_it(
    server_env, server_url, tmp_path, terminal, artifacts
):
    """Under tmux at 80 × 24: a deal played (look, fold), the next one resigned, then v shows
    the review a page at a time on the table's screen, nothing scrolled; `play --review ID`
    prints the same review whole, as the server has it."""
    state = ["--state", str(tmp_path / "play.json"), "--name", "Reviewer", "--ai-level", "normal"]
    terminal.start(play_command("--url", server_url, "--seed", "5", *state), server_env, BASE_DIR)
    terminal.pane("Keys: l look")
    for key, showing in (("l", "Your cards: "), ("f", "n next deal"), ("n", "deal 2 of 12")):
        terminal.keys(key)
        terminal.pane(showing)
    terminal.keys("g")
    terminal.pane("Resign?")
    terminal.keys("y")
    terminal.pane("v review your decisions")
    pane = open_review(terminal)
    assert "Review of your decisions" in pane and "Points lost per deal" in pane
    assert terminal.scrolled() == 0, "nothing scrolled off the screen"
    (artifacts / "review-tmux-summary.txt").write_text(pane)
    terminal.keys("]")
    pane = terminal.pane("Keys: [ previous page   b back")
    assert re.search(r"Deal 1: points lost ≈?\d\.\d\d, accuracy", pane), pane
    assert "1. look (blind): best" in pane and re.search(r"2\. fold: \w+", pane), pane
    (artifacts / "review-tmux-deal.txt").write_text(pane)
    terminal.keys("b")
    terminal.pane("v review your decisions")
    terminal.keys("n")
    terminal.pane("Final standings")

    token = json.loads((tmp_path / "play.json").read_text())[server_url]["token"]
    match = call(server_url, "GET", "/matches", token)["results"][0]["id"]
    review = call(server_url, "GET", f"/matches/{match}/review", token)
    printed = play(server_env, "--url", server_url, *state, "--review", match, keys="")
    you = review["seats"][0]
    accuracy = marked(you["accuracy"], f"{you['accuracy_rounded']:.1f}", places=1)
    lost = marked(you["lost"], f"{you['lost_rounded']:.2f}")
    assert f"Accuracy {accuracy} · points lost {lost}" in printed
    fold = you["deals"][0]["decisions"][-1]
    figures = [
        (v["action"], marked(v["value"], f"{v['value_rounded']:+.2f}"), "*" * v["best"])
        for v in fold["values"]
    ]
    values = " · ".join(f"{action} {value}{best}" for action, value, best in figures)
    values = values.replace("+0.00", "0.00")
    assert values in printed, printed
