"""What `play` says before it sends a move that cannot be taken back (terminal/game.py), with
a stand-in screen and table: no server."""

import pytest

from terminal.game import _move


class Prompted:
    """A screen that keeps what it was shown and answers every question with `answer`, and a
    table that renders to its notice alone."""

    fit_to = None

    def __init__(self, answer: str):
        self.answer, self.shown = answer, []

    def render(self, view, keys, notice, fit_to=None) -> str:
        return notice

    def show(self, screen) -> None:
        self.shown.append(screen)

    def key(self, keys, wake=None, tick=None) -> str:
        return self.answer


SHARED = {"id": "m", "version": 7, "humans": 2, "turn_seconds": 60}
ALONE = {"id": "m", "version": 7, "humans": 1, "turn_seconds": None}


@pytest.mark.parametrize(("view", "key", "answer"), [(SHARED, "g", "y"), (ALONE, "s", "e")])
def test_a_leave_or_restart_says_it_is_rated_as_a_resignation_before_it_goes(view, key, answer):
    prompted = Prompted(answer)
    path, _ = _move(prompted, prompted, view, key)
    (asked,) = prompted.shown
    assert "rated as your resignation" in asked
    assert path == f"/matches/m/{'leave' if key == 'g' else 'restart'}"
