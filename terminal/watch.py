"""Watching a match with its owner's watch code: the table as spectators see it (no hand
but those a showdown showed), followed live until the match ends or you quit."""

from rich.text import Text

from terminal.api import Api
from terminal.follow import Follower
from terminal.game import TICK, Screen
from terminal.table import TableState, is_over, next_tick

EVENTS = "/watch/events"
KEYS = {"q": "stop watching"}


def watch_code(text: str) -> str:
    """The code from a watch link (`.../watch.html#watch=CODE`) or the code itself."""
    code = text.rsplit("#watch=", 1)[-1].strip()
    if not code:
        raise ValueError("a watch code, or the watch link its owner shared")
    return code


def watch(api: Api, screen: Screen, code: str) -> None:
    api.watch_code = code
    view = _view(api)
    table = TableState()
    table.read_events(api, view, EVENTS)
    follower = Follower(api, EVENTS, after=table.seen)
    try:
        while not is_over(view):
            screen.show(table.render(view, KEYS, fit_to=screen.fit_to))
            key = screen.idle(KEYS, follower.wake, next_tick(view))
            if key == "q":
                screen.leave(Text("You stopped watching."))
                return
            if key == TICK:
                continue
            news = follower.news()
            view = _view(api)
            table.note(news, view)
    finally:
        follower.stop()
    screen.show(table.render(view, {}, fit_to=screen.fit_to))
    screen.leave(table.standings(view))


def _view(api: Api) -> dict:
    """The spectator's view, with the player's fields a spectator has not: no seat, no
    cards."""
    view = api("POST", "/watch", {"watch_code": api.watch_code})
    return {**view, "your_seat": None, "your_cards": None, "your_category": None}
