"""The review of your decisions in the terminal (docs/review.md): the match's accuracy and
points lost, a bar per deal of the points lost, and every decision with its class and each
action's value; `play --review ID` prints it, and a finished match offers it (key v), a page
of the summary and the chart that fits 80 × 24, then a page per deal.

It reads only the API's JSON: the body of GET /matches/{id}/review."""

import time
from collections.abc import Callable
from fractions import Fraction

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from terminal.api import Api, ApiProblem
from terminal.table import keys_line

WAITS = 20
"""How many times a review still being worked out (503 review_pending) is asked for again,
Retry-After apart."""
BAR_WIDTH = 40
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
BASES = {
    "exact": "exact against hard",
    "model": "against normal's stored play",
    "model_looks_averaged": "against easy's stored play, its looks averaged",
    "blueprint": "against expert's blueprint, hard",
    "human_as_hard": "the other humans taken to play as hard",
}


def fetch_review(api: Api, match_id: str, waiting: Callable[[str], None], sleep=time.sleep) -> dict:
    """The review of match `match_id`. While the server is still working it out (a deal just
    ended), `waiting` is told so and the review is asked for again after Retry-After."""
    for attempt in range(1, WAITS + 1):
        try:
            return api("GET", f"/matches/{match_id}/review")
        except ApiProblem as problem:
            if problem.code != "review_pending" or attempt == WAITS:
                raise
            waiting("The review of the last deal is being worked out…")
            sleep(problem.retry_after or 1)
    raise AssertionError("the loop returns or raises")


def _rounded(exact: str, value: float, places: int = 2, sign: bool = False) -> str:
    """`value`, the API's `exact` fraction rounded to `places`, marked "≈" where the rounding
    changed it, as the table marks its skill figures ("≈+0.64"; "-0.25" is exact)."""
    shown = f"{value:+.{places}f}" if sign and value else f"{value:.{places}f}"
    return shown if (Fraction(exact) * 10**places).denominator == 1 else "≈" + shown


def _points(of: dict, field: str, sign: bool = False, negated: bool = False) -> str:
    """The points of `of[field]` (exact) and `of[field + "_rounded"]`, negated if asked."""
    value = of[f"{field}_rounded"]
    # + 0.0: a lost 0 negated is -0.0, which Python writes "-0.00".
    return _rounded(of[field], (-value if negated else value) + 0.0, sign=sign)


def _accuracy(of: dict) -> str:
    if of["accuracy"] is None:
        return "–"
    return _rounded(of["accuracy"], of["accuracy_rounded"], places=1)


def _label(review: dict, deal: dict) -> str:
    """A deal's name: its number, and its series once there were several."""
    several = len({d["series"] for d in review["seats"][0]["deals"]}) > 1
    return f"{deal['series']}.{deal['deal_number']}" if several else str(deal["deal_number"])


def summary(review: dict) -> Group:
    """Accuracy, points lost, the classes' counts and what the values rest on."""
    you = review["seats"][0]
    counts = " · ".join(f"{grade} {you['counts'][grade]}" for grade in GRADES)
    bases = "; ".join(BASES.get(basis, basis) for basis in you["bases"]) or "no decisions"
    return Group(
        Text("Review of your decisions", style="bold"),
        Text(f"Accuracy {_accuracy(you)} · points lost {_points(you, 'lost')}"),
        Text(counts),
        Text(f"Values {bases}.", style="dim"),
    )


def chart(review: dict) -> Group:
    """Points lost per deal, a bar each: the text is the chart, so it reads aloud too."""
    deals = review["seats"][0]["deals"]
    top = max([0.5, *(deal["lost_rounded"] for deal in deals)])
    table = Table(box=None, pad_edge=False)
    for column, justify in (("Deal", "right"), ("", "left"), ("Lost", "right"), ("", "left")):
        table.add_column(column, justify=justify)
    for deal in deals:
        bad = deal["counts"]["mistake"] + deal["counts"]["blunder"]
        bar = "█" * round(deal["lost_rounded"] / top * BAR_WIDTH)
        table.add_row(
            _label(review, deal),
            Text(bar, style="red" if bad else "blue"),
            _points(deal, "lost"),
            f"{bad} mistake{'s' * (bad != 1)}" if bad else "",
        )
    return Group(Text("Points lost per deal"), table)


def _values(decision: dict) -> str:
    """Each action's value, the best starred: "look ≈+0.15* · call ≈-0.73 · fold -1.00"."""
    return " · ".join(
        f"{value['action']} {_points(value, 'value', sign=True)}{'*' if value['best'] else ''}"
        for value in decision["values"]
    )


def _decision_line(decision: dict) -> str:
    when = "" if decision["looked"] else " (blind)"
    if decision["grade"] == "best":
        verdict = "best"
    elif decision["grade"] is not None:
        verdict = f"{decision['grade']}, {_points(decision, 'lost', sign=True, negated=True)}"
    else:
        verdict = "played by the clock" if decision["by"] == "clock" else "played by the AI"
    return f"{decision['action']}{when}: {verdict}"


def deal_page(review: dict, deal: dict) -> Group:
    """A deal's decisions: what was chosen, its class and the points lost, and under each,
    every legal action's value."""
    accuracy = _accuracy(deal)
    lines = [
        Text(
            f"Deal {_label(review, deal)}: points lost {_points(deal, 'lost')}, "
            f"accuracy {accuracy}",
            style="bold",
        )
    ]
    for number, decision in enumerate(deal["decisions"], 1):
        bad = decision["grade"] in ("mistake", "blunder")
        lines.append(Text(f"{number}. {_decision_line(decision)}", style="red" if bad else ""))
        lines.append(Text(f"   {_values(decision) or 'no values'}", style="dim"))
    return Group(*lines)


def verdict(deal: dict) -> str:
    """The one-line verdict of a deal: "2 decisions, 1 mistake: ≈-0.42"."""
    classed = sum(decision["grade"] is not None for decision in deal["decisions"])
    mistakes = deal["counts"]["mistake"] + deal["counts"]["blunder"]
    return (
        f"{classed} decision{'s' * (classed != 1)}, {mistakes} mistake{'s' * (mistakes != 1)}: "
        f"{_points(deal, 'lost', sign=True, negated=True)}"
    )


def review_pages(review: dict) -> list[RenderableType]:
    """The review a page at a time: the summary with the chart, then each deal's decisions."""
    deals = [deal for deal in review["seats"][0]["deals"] if deal["decisions"]]
    return [Group(summary(review), chart(review))] + [deal_page(review, d) for d in deals]


def page_keys(page: int, pages: int) -> dict[str, str]:
    """The keys of review page `page` (from 0) of `pages`."""
    earlier = {"[": "previous page"} if page else {}
    later = {"]": "next page"} if page + 1 < pages else {}
    return {**earlier, **later, "b": "back"}


def review_page(pages: list[RenderableType], page: int) -> Group:
    """Page `page` of the review, its number and its keys last."""
    keys = page_keys(page, len(pages))
    return Group(
        pages[page], Text(f"Page {page + 1} of {len(pages)}", style="dim"), keys_line(keys)
    )


def whole_review(review: dict) -> Group:
    """Every page one after the other, as `play --review` prints it."""
    return Group(*review_pages(review))
