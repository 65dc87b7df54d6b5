"""The game loop of the terminal client: sign in, resume or start a match, and turn keys
into moves until you quit."""

from typing import Protocol

from rich.console import Console, RenderableType
from rich.text import Text

from terminal.api import Api, ApiProblem, Sessions
from terminal.table import TableState, is_over

ACTION_KEYS = {"look": "l", "call": "c", "hold": "h", "raise": "r", "fold": "f"}
AI_LEVEL_KEYS = {"e": "easy", "n": "normal", "h": "hard", "x": "expert"}
HINT = {"?": "hint"}
QUIT = {"q": "quit (resume later)"}


class Screen(Protocol):
    """Where the table is drawn and keys are read: a live screen at a terminal, or printed
    screens and typed lines from a script."""

    fit_to: Console | None
    """The terminal each screen must fit, or None where screens are printed one after another."""

    def ask(self, prompt: str) -> str:
        """A line of text, before the table is drawn (your name)."""

    def show(self, screen: RenderableType) -> None:
        """Draw the whole screen, in place of the last one."""

    def key(self, keys: dict[str, str]) -> str:
        """One of `keys`; any other key is ignored. EOFError when input ends."""

    def leave(self, farewell: RenderableType | None) -> None:
        """Stop drawing; `farewell` stays on the terminal afterwards."""


def play(
    api: Api, sessions: Sessions, screen: Screen, *, name=None, ai_level=None, seed=None
) -> None:
    """Sign in, resume the unfinished match or start one, and play until you quit or decline
    another match. `seed` deals the first new match, where the server allows it."""
    session = sessions.load()
    api.token = session.get("token")
    if api.token and not _answers(api, "/players/me"):
        api.token = None  # a token from a server whose database was reset
    if not api.token:
        player = api("POST", "/players", {"name": name or screen.ask("Your name")})
        api.token = session["token"] = player["token"]
        sessions.save(session)

    view = _answers(api, f"/matches/{session['match_id']}") if "match_id" in session else None
    notice = f"Resuming match {view['id']}." if view and not is_over(view) else ""
    if view and is_over(view):
        view = None
    table = TableState()
    hint = None
    while True:
        if view is None:
            level = ai_level or _choose(screen, "Choose the AI level", AI_LEVEL_KEYS)
            seeded = {} if seed is None else {"seed": seed}
            view = api("POST", "/matches", {"ai_level": level, **seeded})
            seed = None
            session["match_id"] = view["id"]
            sessions.save(session)
        table.read_events(api, view)
        if is_over(view):
            del session["match_id"]
            sessions.save(session)
            keys = {"y": "play another match", "n": "leave"}
            screen.show(table.render(view, keys, notice, fit_to=screen.fit_to))
            if screen.key(keys) != "y":
                screen.leave(table.standings(view))
                return
            view, table, notice = None, TableState(), ""
            continue
        keys = _keys(view)
        screen.show(table.render(view, keys, notice, hint, fit_to=screen.fit_to))
        key = screen.key(keys)
        hint = None
        if key == "q":
            screen.leave(Text("Saved: run play again to resume this match."))
            return
        if key == "?":
            try:
                hint, notice = api("GET", f"/matches/{view['id']}/hint"), ""
            except ApiProblem as problem:
                if problem.status == 401 or problem.status >= 500:
                    raise
                notice = f"No hint: {problem}"
            continue
        move = _move(screen, table, view, key)
        if move is None:
            notice = ""
            continue
        try:
            view, notice = api("POST", *move), ""
        except ApiProblem as problem:
            # Refused, e.g. because the match moved on in another window: show it as it is.
            if problem.status == 401 or problem.status >= 500:
                raise
            notice = f"Refused: {problem}"
            view = api("GET", f"/matches/{view['id']}")


def _move(screen: Screen, table: TableState, view: dict, key: str) -> tuple[str, dict] | None:
    """The request a key asks for, after confirming a restart or resignation; None if the
    player thought better of it."""
    path = f"/matches/{view['id']}"
    body = {"expected_version": view["version"]}
    if key == "s":
        levels = {**AI_LEVEL_KEYS, "x": "cancel"}
        notice = "Restart: a new series of 12 deals. AI level?"
        screen.show(table.render(view, levels, notice, fit_to=screen.fit_to))
        level = AI_LEVEL_KEYS.get(screen.key(levels))
        return (f"{path}/restart", {**body, "ai_level": level}) if level else None
    if key == "g":
        sure = {"y": "yes, resign", "x": "cancel"}
        notice = "Resign? The match ends now, totals as they are."
        screen.show(table.render(view, sure, notice, fit_to=screen.fit_to))
        return (f"{path}/resign", body) if screen.key(sure) == "y" else None
    if key == "n":
        return (f"{path}/next-deal", body)
    action = next(action for action, action_key in ACTION_KEYS.items() if action_key == key)
    return (f"{path}/actions", {"action": action, **body})


def _choose(screen: Screen, question: str, keys: dict[str, str]) -> str:
    screen.show(Text(f"{question}:   " + "   ".join(f"{k} {v}" for k, v in keys.items())))
    return keys[screen.key(keys)]


def _answers(api: Api, path: str) -> dict | None:
    """The GET answer, or None for a token or match that this server does not know."""
    try:
        return api("GET", path)
    except ApiProblem as problem:
        if problem.status in (401, 404):
            return None
        raise


def _keys(view: dict) -> dict[str, str]:
    """Keys and what they do: the legal actions or the next deal, then the match's own."""
    if view["status"] == "deal_over":
        keys = {"n": "next deal"}
    else:
        keys = {ACTION_KEYS[action]: action for action in view["legal_actions"]} | HINT
    return {**keys, "s": "restart", "g": "resign", **QUIT}
