"""What `play` says before it sends a move that cannot be taken back (terminal/game.py), with
a stand-in screen and table: no server."""

import pytest

from terminal.game import _keys, _move


class Prompted:
    """A screen that keeps what it was shown and answers every question with `answer`, and a
    table that renders to its notice alone."""

    fit_to = None

    def __init__(self, answer: str):
        self.answer, self.shown, self.listed = answer, [], {}

    def render(self, view, keys, notice, fit_to=None) -> str:
        return notice

    def show(self, screen) -> None:
        self.shown.append(screen)

    def key(self, keys, wake=None, tick=None) -> str:
        self.listed = keys
        return self.answer


SHARED = {"id": "m", "version": 7, "humans": 2, "turn_seconds": 60}
ALONE = {"id": "m", "version": 7, "humans": 1, "turn_seconds": None}
# A tournament's match: alone, with a clock.
ENTERED = {"id": "m", "version": 7, "humans": 1, "turn_seconds": 60, "tournament": {"name": "T"}}


@pytest.mark.parametrize(("view", "key", "answer"), [(SHARED, "g", "y"), (ALONE, "s", "e")])
def test_a_leave_or_restart_says_it_is_rated_as_a_resignation_before_it_goes(view, key, answer):
    prompted = Prompted(answer)
    path, _ = _move(prompted, prompted, view, key)
    (asked,) = prompted.shown
    assert "rated as your resignation" in asked
    assert path == f"/matches/m/{'leave' if key == 'g' else 'restart'}"


@pytest.mark.parametrize(
    ("view", "key"), [(ALONE, "s"), (SHARED, "g"), (ALONE, "g"), (ENTERED, "g")]
)
def test_each_key_a_question_lists_does_what_it_says(view, key):
    """Restart, leave and resign: every key shown is pressed once. Cancel sends nothing (at
    the restart it once restarted at expert, whose key it shared); any other sends its move."""
    question = Prompted("?")  # a key no question lists, to see which keys it lists
    assert _move(question, question, view, key) is None
    listed = question.listed
    assert "cancel" in listed.values() and len(set(listed.values())) == len(listed)
    for pressed, label in listed.items():
        prompted = Prompted(pressed)
        move = _move(prompted, prompted, view, key)
        if label == "cancel":
            assert move is None, (pressed, label)
            continue
        path, body = move
        if key == "s":
            assert (path, body["ai_level"]) == ("/matches/m/restart", label)
        else:
            assert path == f"/matches/m/{'leave' if view is SHARED else 'resign'}"
            assert _keys(view | {"status": "deal_over"})["g"] == path.rsplit("/", 1)[1]
            assert label.startswith("yes")


@pytest.mark.parametrize(("status", "offered"), [("in_deal", True), ("deal_over", False)])
def test_the_hint_is_offered_only_where_there_is_a_decision(status, offered):
    """Between deals the coach has nothing to say: `?` there only answered "the deal is over"."""
    view = ALONE | {"status": status, "legal_actions": ["call"] if status == "in_deal" else []}
    assert ("?" in _keys(view)) is offered


def test_a_tournament_s_match_resigns_and_says_what_its_unplayed_deals_score():
    """Leaving would abandon it (the last human gone); resigning ends it, and the close then
    scores each unplayed deal as the field's lowest (docs/tournaments.md)."""
    prompted = Prompted("y")
    path, _ = _move(prompted, prompted, ENTERED, "g")
    (asked,) = prompted.shown
    assert path == "/matches/m/resign"
    assert "the field's lowest" in asked and "AI plays your seat" not in asked
