"""The game loop of the terminal client: sign in, resume or start a match, and turn keys
into moves until you quit."""

import json
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from rich.console import Console, Group, RenderableType
from rich.text import Text

from terminal.api import Api, ApiProblem, Sessions
from terminal.follow import Follower
from terminal.ratings import rating_line
from terminal.review import fetch_review, page_keys, review_page, review_pages
from terminal.table import SCROLL_KEYS, TableState, invitation, is_over, next_tick, waiting_room

ACTION_KEYS = {"look": "l", "call": "c", "hold": "h", "raise": "r", "fold": "f"}
AI_LEVEL_KEYS = {"e": "easy", "n": "normal", "h": "hard", "x": "expert"}
CANCEL = {"c": "cancel"}
"""The one key that backs out of every question: no level's key, and no answer's."""
HINT = {"?": "hint"}
QUIT = {"q": "quit (resume later)"}
JOIN_KEYS = {"j": "join this table", "q": "quit without joining"}
TICK = "tick"
"""What a live screen's key() returns when `tick` seconds passed with no key: time to redraw."""


class Screen(Protocol):
    """Where the table is drawn and keys are read: a live screen at a terminal, or printed
    screens and typed lines from a script."""

    fit_to: Console | None
    """The terminal each screen must fit, or None where screens are printed one after another."""

    def ask(self, prompt: str) -> str:
        """A line of text, before the table is drawn (your name)."""

    def show(self, screen: RenderableType) -> None:
        """Draw the whole screen, in place of the last one."""

    def key(
        self, keys: dict[str, str], wake: int | None = None, tick: float | None = None
    ) -> str | None:
        """One of `keys`; any other key is ignored. EOFError when input ends. None if `wake`,
        a file descriptor, turns readable first (a live screen watches it; a printed one
        does not). TICK after `tick` seconds with neither, on a live screen only, so that
        a turn clock's countdown can be drawn again."""

    def idle(self, keys: dict[str, str], wake: int, tick: float | None = None) -> str | None:
        """While others play: one of `keys`, or None once `wake` turns readable, or TICK as
        key() gives it. A printed screen reads no input then, keeping a script's lines for
        its decisions."""

    def leave(self, farewell: RenderableType | None) -> None:
        """Stop drawing; `farewell` stays on the terminal afterwards."""


@dataclass(frozen=True)
class NewMatch:
    """How a new match is made: the AI seats' level (asked if None), a seed for the first one
    (where the server allows it), and for a table, its humans and seconds a turn."""

    ai_level: str | None = None
    seed: int | None = None
    humans: int | None = None
    turn_seconds: int | None = None
    open: bool = False
    """A table listed in the lobby, which anyone may join without the invite."""
    verifiable: bool = False
    """A table whose server seeds are revealed as each series ends (docs/fairness.md); a
    match against the AI is verifiable anyway."""
    client_seed: str | None = None
    """Your part of the dealing's randomness (docs/fairness.md); the server's alone if None."""

    def body(self, ai_level: str) -> dict:
        fields = {"seed": self.seed, "humans": self.humans, "turn_seconds": self.turn_seconds}
        fields["open"] = self.open or None
        fields["verifiable"] = self.verifiable or None
        fields["client_seed"] = self.client_seed
        return {"ai_level": ai_level} | {k: v for k, v in fields.items() if v is not None}


@dataclass(frozen=True)
class QuickPlay:
    """Sit at the open table that waited longest among those that fit, or open one."""

    humans: int | None = None
    max_turn_seconds: int | None = None
    ai_level: str | None = None
    verifiable: bool = False
    """Only a verifiable table, which shows every folded hand to all after each series."""

    def body(self) -> dict:
        fields = {
            "humans": self.humans,
            "max_turn_seconds": self.max_turn_seconds,
            "ai_level": self.ai_level,
            "verifiable": self.verifiable or None,
        }
        return {k: v for k, v in fields.items() if v is not None}


@dataclass(frozen=True)
class Invite:
    """A table to join: its match id and invite code, as `MATCH_ID:CODE`, or an open table's
    match id alone (no code needed)."""

    match_id: str
    code: str

    @classmethod
    def parse(cls, text: str) -> "Invite":
        match_id, colon, code = text.strip().partition(":")
        if not match_id or (colon and not code) or (not colon and not _is_uuid(match_id)):
            raise ValueError(
                f"an invite is MATCH_ID:CODE, as its table's owner sees it, or an open "
                f"table's MATCH_ID: {text!r}"
            )
        return cls(match_id, code)

    def body(self) -> dict:
        return {"invite": self.code} if self.code else {}


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def sign_in(api: Api, sessions: Sessions, screen: Screen, *, name: str | None) -> dict:
    """Take the saved token, or register (asking the name unless given); the session."""
    session = sessions.load()
    api.token = session.get("token")
    if api.token and not _answers(api, "/players/me"):
        api.token = None  # a token from a server whose database was reset
    if not api.token:
        player = api("POST", "/players", {"name": name or screen.ask("Your name")})
        api.token = session["token"] = player["token"]
        sessions.save(session)
    return session


def play(
    api: Api,
    sessions: Sessions,
    screen: Screen,
    *,
    server: str,
    name: str | None = None,
    new: NewMatch = NewMatch(),
    join: Invite | None = None,
    quick: QuickPlay | None = None,
    record: Path | None = None,
    entered: dict | None = None,
) -> None:
    """Sign in, then join the table `join`, sit where `quick` play finds a seat, make the
    table `new` asks for, or resume the unfinished match or start one; play until you quit,
    leave or decline another match. `new.client_seed` goes with a join, a quick play and a
    restart too; a match that ended is kept as its record (docs/record.md) in `record`.
    `entered` is a tournament's match to play (terminal/tournaments.py).
    `server` is the base URL a friend reaches the API at, for the join command."""
    session = sign_in(api, sessions, screen, name=name)
    seed = {"client_seed": new.client_seed} if new.client_seed is not None else {}
    opened = _opened(api, screen, session, new, join=join, quick=quick, entered=entered, seed=seed)
    if opened is None:
        return
    view, notice = opened
    table, follower, hint = TableState(), None, None
    while True:
        if view is None:
            view, new = _new_match(api, screen, new)
        if session.get("match_id") != view["id"]:
            session["match_id"] = view["id"]
            sessions.save(session)
        table.read_events(api, view)
        if view.get("tournament") and not table.tournament:
            table.tournament = api("GET", f"/tournaments/{view['tournament']}")["name"]
        if follower is None and _shared(view) and not is_over(view):
            follower = Follower(api, f"/matches/{view['id']}/events", after=table.seen)
        if is_over(view):
            _forget_match(sessions, session, follower)
            if not _another_match(api, screen, table, view, notice, record):
                return
            view, table, follower, notice = None, TableState(), None, ""
            continue
        key = _next_key(screen, table, view, notice, hint, follower, server)
        if key == TICK:
            continue
        if key in SCROLL_KEYS:  # reading back through the deal: the hint stays in view
            table.scroll(key)
            continue
        hint, table.scrolled = None, 0
        if key is None:  # news from the table
            news = follower.news()
            view = api("GET", f"/matches/{view['id']}")
            table.note(news, view)
            continue
        if key == "q":
            screen.leave(Text("Saved: run play again to resume this match."))
            return
        if key == "?":
            hint, notice = _hint(api, view)
            continue
        move = _move(screen, table, view, key)
        if move is None:
            notice = ""
            continue
        if move[0].endswith("/restart"):
            move = (move[0], move[1] | seed)
        try:
            view, notice = api("POST", *move), ""
        except ApiProblem as problem:
            view, notice = _refused(api, view, problem)
            continue
        if move[0].endswith("/leave"):
            _forget_match(sessions, session, follower)
            screen.leave(Text(f"You left: the AI plays seat {view['your_seat']} from now on."))
            return
        if view["status"] != "in_deal" and view["last_deal"]:
            # A write's answer has no skill figures (docs/skill.md): a read works them out.
            view = api("GET", f"/matches/{view['id']}")


def _opened(
    api: Api,
    screen: Screen,
    session: dict,
    new: NewMatch,
    *,
    join: Invite | None,
    quick: QuickPlay | None,
    entered: dict | None,
    seed: dict,
) -> tuple[dict | None, str] | None:
    """The match to play first and a notice to show with it: a tournament's `entered`, the
    table of `join` (None if you chose not to join it), where `quick` play seats you, or the
    unfinished match to resume; no view when a new match is to be made."""
    if entered:
        return entered, ""
    if join:
        view = _joined(api, screen, join, seed)
        return None if view is None else (view, "")
    if quick:
        return api("POST", "/quick-play", quick.body() | seed), ""
    if new.humans is None and "match_id" in session:
        return _resumed(api, session["match_id"])
    return None, ""


def _joined(api: Api, screen: Screen, join: Invite, seed: dict) -> dict | None:
    """The match of the table `join` names, once you chose to join it (or were seated there
    already); None if you did not join."""
    view = _answers(api, f"/matches/{join.match_id}")  # seated there already: resume
    if view is not None:
        return view
    # The table first, as the lobby would list it: the friend chooses knowing it.
    shown = api("POST", f"/matches/{join.match_id}/invitation", join.body())
    screen.show(invitation(shown, JOIN_KEYS))
    if screen.key(JOIN_KEYS) != "j":
        screen.leave(Text("You did not join; the same command shows the table again."))
        return None
    return api("POST", f"/matches/{join.match_id}/join", join.body() | seed)


def _resumed(api: Api, match_id: str) -> tuple[dict | None, str]:
    """The unfinished match you left, and the notice that says it resumes; None if it is
    over or the server no longer knows it."""
    view = _answers(api, f"/matches/{match_id}")
    if view is None or is_over(view):
        return None, ""
    return view, f"Resuming match {view['id']}."


def _new_match(api: Api, screen: Screen, new: NewMatch) -> tuple[dict, NewMatch]:
    """A new match as `new` asks (the AI level asked if not given), and how the next new
    match is made: only the first takes the seed and is a table."""
    level = new.ai_level or _choose(screen, "Choose the AI level", AI_LEVEL_KEYS)
    view = api("POST", "/matches", new.body(level))
    return view, replace(
        new, seed=None, humans=None, turn_seconds=None, open=False, verifiable=False
    )


def _forget_match(sessions: Sessions, session: dict, follower: Follower | None) -> None:
    """Nothing to resume: stop following the match and drop it from the session."""
    if follower:
        follower.stop()
    del session["match_id"]
    sessions.save(session)


def _another_match(
    api: Api, screen: Screen, table: TableState, view: dict, notice: str, record: Path | None
) -> bool:
    """The finished match with your rating, kept as its record if asked; whether you play
    another (never at a shared table)."""
    keys = {"n": "leave"} if _shared(view) else {"y": "play another match", "n": "leave"}
    # Rated as it finished (docs/ratings.md): the rating it left you with; a tournament's
    # match is rated with its tournament, from the standings, at the close.
    if view.get("tournament"):
        rated = "Rated with the tournament at its close; play --tournament then shows it."
    else:
        rated = rating_line(api("GET", "/players/me")["rating"])
    if record is not None:
        kept = api("GET", f"/matches/{view['id']}/record")
        record.write_text(json.dumps(kept, indent=1) + "\n")
        rated += f" Its record is in {record}."
    keys = {"v": "review your decisions", **keys}
    screen.show(table.render(view, keys, notice or rated, fit_to=screen.fit_to))
    while (key := screen.key(keys)) == "v":
        shown = _review(api, screen, view["id"])
        screen.show(table.render(view, keys, shown or rated, fit_to=screen.fit_to))
    if key == "y":
        return True
    screen.leave(Group(table.standings(view), Text(rated)))
    return False


def _review(api: Api, screen: Screen, match_id: str) -> str:
    """The match's review, a page at a time, until you go back; what to say if there is none."""
    try:
        review = fetch_review(api, match_id, lambda line: screen.show(Text(line)))
    except ApiProblem as problem:
        if problem.status == 401 or (problem.status >= 500 and problem.code != "review_pending"):
            raise
        return f"No review: {problem}"
    pages, page = review_pages(review), 0
    while True:
        screen.show(review_page(pages, page))
        key = screen.key(page_keys(page, len(pages)))
        if key == "b":
            return ""
        page += 1 if key == "]" else -1


def _next_key(
    screen: Screen,
    table: TableState,
    view: dict,
    notice: str,
    hint: dict | None,
    follower: Follower | None,
    server: str,
) -> str | None:
    """Draw the table (or the waiting room) and read a key: None for news from the table,
    TICK when a turn clock's countdown must be drawn again."""
    keys = _keys(view)
    if view["status"] == "waiting":
        screen.show(waiting_room(view, keys, server))
    else:
        screen.show(table.render(view, keys, notice, hint, fit_to=screen.fit_to))
        keys = keys | table.scroll_keys
    # While a turn clock runs, the screen is drawn again each second, to count it down.
    tick = next_tick(view)
    if follower is None or _decides(view):
        return screen.key(keys, follower and follower.wake, tick)
    return screen.idle(keys, follower.wake, tick)


def _hint(api: Api, view: dict) -> tuple[dict | None, str]:
    """The coach's hint, or the notice of why there is none."""
    try:
        return api("GET", f"/matches/{view['id']}/hint"), ""
    except ApiProblem as problem:
        if problem.status == 401 or problem.status >= 500:
            raise
        return None, f"No hint: {problem}"


def _refused(api: Api, view: dict, problem: ApiProblem) -> tuple[dict, str]:
    """A refused move (e.g. the match moved on in another window): the table as it is now,
    and the notice that says why."""
    if problem.status == 401 or problem.status >= 500:
        raise problem
    if problem.code == "stale_version" and _shared(view):
        notice = "Another seat or the clock moved first: here is the table now."
    else:
        notice = f"Refused: {problem}"
    return api("GET", f"/matches/{view['id']}"), notice


RATED_AS_RESIGNATION = "The series in play is rated as your resignation."
"""Said before a restart or leave is confirmed: walking away from a series in play is rated as
resigning it (docs/ratings.md)."""


def _move(screen: Screen, table: TableState, view: dict, key: str) -> tuple[str, dict] | None:
    """The request a key asks for, after confirming a restart or resignation; None if the
    player thought better of it."""
    path = f"/matches/{view['id']}"
    body = {"expected_version": view["version"]}
    # Restart and leave come only with a series in play, which either then rates as resigned.
    if key == "s":
        levels = {**AI_LEVEL_KEYS, **CANCEL}
        notice = f"Restart: a new series of 12 deals. {RATED_AS_RESIGNATION} AI level?"
        screen.show(table.render(view, levels, notice, fit_to=screen.fit_to))
        level = AI_LEVEL_KEYS.get(screen.key(levels))
        return (f"{path}/restart", {**body, "ai_level": level}) if level else None
    if key == "g" and view["humans"] > 1:
        sure = {"y": "yes, leave", **CANCEL}
        notice = f"Leave? The AI plays your seat for the rest of the match. {RATED_AS_RESIGNATION}"
        screen.show(table.render(view, sure, notice, fit_to=screen.fit_to))
        return (f"{path}/leave", body) if screen.key(sure) == "y" else None
    if key == "g":
        sure = {"y": "yes, resign", **CANCEL}
        notice = "Resign? The match ends now, totals as they are."
        if view.get("tournament"):
            notice = (
                "Resign? The match ends now; each deal not played to its end scores as the "
                "field's lowest."
            )
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
    """Keys and what they do: the legal actions or the next deal, then the match's own. At a
    table, `g` leaves it, and no one restarts before the end or asks the coach; alone with a
    clock (a tournament's match), `g` resigns, as in the browser: leaving would abandon it."""
    if view["status"] == "waiting":
        return QUIT
    if view["status"] == "deal_over":
        keys = {"n": "next deal"}
    else:
        keys = {ACTION_KEYS[action]: action for action in view["legal_actions"]}
    if _shared(view):
        return {**keys, "g": "leave" if view["humans"] > 1 else "resign", **QUIT}
    # The coach speaks only to a decision: between deals it would answer "deal over".
    hint = HINT if view["status"] == "in_deal" else {}
    return {**keys, **hint, "s": "restart", "g": "resign", **QUIT}


def _shared(view: dict) -> bool:
    """A match that moves while you wait: other humans, or a clock that acts for you."""
    return view["humans"] > 1 or view["turn_seconds"] is not None


def _decides(view: dict) -> bool:
    """Whether you have something to decide: your turn, or a deal over."""
    return view["status"] == "deal_over" or bool(view["legal_actions"])
