"""The terminal table of `manage.py play`: As-Nas drawn with rich and played over HTTP.

It is a client of the public API like any other, so it imports nothing of the server: it
knows the game only from the JSON that the API answers.
"""

import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from rich.console import Console, Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

ACTION_KEYS = {"look": "l", "call": "c", "hold": "h", "raise": "r", "fold": "f"}
ACTION_LOG = {
    "look": "looks at their cards.",
    "call": "calls {stake}; pot {pot}.",
    "hold": "holds at {stake}.",
    "raise": "raises to {stake}; pot {pot}.",
    "fold": "folds.",
}

# ask(prompt, choices) returns one of choices, or any text when choices is None.
Ask = Callable[[str, list[str] | None], str]


class ApiProblem(Exception):
    """An error answer: its HTTP status and the problem body's code and detail."""

    def __init__(self, status: int, problem: dict):
        super().__init__(problem.get("detail") or f"HTTP {status}")
        self.status = status
        self.code = problem.get("code")


class Api:
    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/") + "/api/v1"
        self.token: str | None = None

    def __call__(self, method: str, path: str, body: dict | None = None) -> dict:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = json.dumps(body or {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.base_url + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            try:
                problem = json.load(error)
            except ValueError:  # not the API answering, e.g. a proxy's error page
                problem = {}
            raise ApiProblem(error.code, problem) from None


class Sessions:
    """Each server's token and unfinished match, in a JSON file that only its owner may
    read, since a token is as good as a password."""

    def __init__(self, path: Path, server: str):
        self.path = path
        self.server = server

    def _all(self) -> dict:
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}

    def load(self) -> dict:
        return self._all().get(self.server, {})

    def save(self, session: dict) -> None:
        sessions = {**self._all(), self.server: session}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as state_file:
            json.dump(sessions, state_file, indent=2)


def play(
    api: Api,
    sessions: Sessions,
    console: Console,
    ask: Ask,
    *,
    name: str | None = None,
    ai_level: str | None = None,
) -> None:
    """Sign in, resume the unfinished match or start one, and play until you quit or decline
    another match."""
    session = sessions.load()
    api.token = session.get("token")
    if api.token and not _answers(api, "/players/me"):
        api.token = None  # a token from a server whose database was reset
    if not api.token:
        player = api("POST", "/players", {"name": name or ask("Your name", None)})
        api.token = session["token"] = player["token"]
        sessions.save(session)

    view = _answers(api, f"/matches/{session['match_id']}") if "match_id" in session else None
    if view and view["status"] == "finished":
        view = None
    if view:
        console.print(f"Resuming match {view['id']}.")
    table = TableState()
    while True:
        if view is None:
            view = api("POST", "/matches", {"ai_level": ai_level} if ai_level else {})
            session["match_id"] = view["id"]
            sessions.save(session)
        table.read_events(api, view)
        console.clear()
        console.print(table.render(view))
        if view["status"] == "finished":
            del session["match_id"]
            sessions.save(session)
            if ask("Play another match?", ["y", "n"]) != "y":
                return
            view, table = None, TableState()
            continue
        choices = _choices(view)
        key = ask("Your move", list(choices))
        if key == "q":
            console.print("Saved: run play again to resume this match.")
            return
        path = f"/matches/{view['id']}"
        body = {"expected_version": view["version"]}
        try:
            if view["status"] == "deal_over":
                view = api("POST", f"{path}/next-deal", body)
            else:
                view = api("POST", f"{path}/actions", {"action": choices[key], **body})
        except ApiProblem as problem:
            # Refused, e.g. because the match moved on in another window: show it as it is.
            if problem.status not in (409, 422):
                raise
            console.print(f"[red]{problem}[/red]")
            view = api("GET", path)


def _answers(api: Api, path: str) -> dict | None:
    """The GET answer, or None for a token or match that this server does not know."""
    try:
        return api("GET", path)
    except ApiProblem as problem:
        if problem.status in (401, 404):
            return None
        raise


def _choices(view: dict) -> dict[str, str]:
    """Keys and what they do: the legal actions, or the next deal, and quitting."""
    if view["status"] == "deal_over":
        choices = {"n": "next deal"}
    else:
        choices = {ACTION_KEYS[action]: action for action in view["legal_actions"]}
    return {**choices, "q": "quit"}


class TableState:
    """What the table shows besides the current view: this deal's public actions, read
    from the match's events."""

    def __init__(self):
        self.seen = 0
        self.log: list[str] = []

    def read_events(self, api: Api, view: dict) -> None:
        names = [seat["name"] for seat in view["seats"]]
        while self.seen < view["version"]:
            page = api("GET", f"/matches/{view['id']}/events?after={self.seen}")
            for event in page["events"]:
                self._note(event, names)
            self.seen = page["events"][-1]["seq"] if page["events"] else view["version"]

    def _note(self, event: dict, names: list[str]) -> None:
        kind = event["type"]
        if kind == "deal_started":
            self.log = [
                f"Deal {event['deal_number']}: {names[event['dealer']]} deals and opens with 1."
            ]
        elif kind == "action":
            said = ACTION_LOG[event["action"]].format(stake=event["stake"], pot=event["pot"])
            self.log.append(f"{names[event['seat']]} {said}")
        elif kind == "match_restarted":
            self.log = [f"Series {event['series']} begins."]

    def render(self, view: dict) -> Group:
        parts = [
            Rule(
                f"As-Nas · deal {view['deal_number']} of 12 · series {view['series']} · "
                f"AI {view['ai_level']}",
                style="bold",
            ),
            _seats_table(view),
            Text(f"Pot {view['pot']} · high stake {view['high_stake']}"),
            _your_cards(view),
        ]
        if self.log:
            parts.append(Text("\n".join(self.log[-10:]), style="dim"))
        if view["status"] != "in_deal" and view["last_deal"]:
            parts.append(_showdown(view))
        if view["status"] == "finished":
            winners = ", ".join(view["seats"][seat]["name"] for seat in view["winners"])
            parts.append(Text(f"Match over. Winner: {winners}.", style="bold green"))
        else:
            keys = "   ".join(f"{key} {what}" for key, what in _choices(view).items())
            parts.append(Text(f"Keys: {keys}", style="cyan"))
        return Group(*parts)


def _seats_table(view: dict) -> Table:
    table = Table(box=None, pad_edge=False)
    for column in ("", "Seat", "Player", "Stake", "Total", ""):
        table.add_column(column, justify="right" if column in ("Stake", "Total") else "left")
    for seat in view["seats"]:
        number = seat["seat"]
        label = " (you)" if number == view["your_seat"] else " (AI)" if seat["kind"] == "ai" else ""
        notes = [
            note
            for note, shown in (
                ("dealer", number == view["dealer"]),
                ("looked", seat["looked"]),
                ("folded", seat["folded"]),
            )
            if shown
        ]
        table.add_row(
            "▶" if number == view["turn"] else "",
            str(number),
            seat["name"] + label,
            str(seat["stake"]),
            seat["total"],
            ", ".join(notes),
            style="dim" if seat["folded"] else None,
        )
    return table


def _your_cards(view: dict) -> Text:
    if view["your_cards"] is None:
        return Text("Your cards: hidden until you look (l)")
    category = view["your_category"].replace("_", " ")
    return Text(f"Your cards: {' '.join(view['your_cards'])} ({category})", style="bold")


def _showdown(view: dict) -> Table:
    deal = view["last_deal"]
    table = Table(title=f"Deal {deal['deal_number']}: {deal['outcome']}", title_justify="left")
    for column in ("Seat", "Hand", "Category", "Stake", "Payout", "Score"):
        table.add_column(
            column, justify="right" if column in ("Stake", "Payout", "Score") else "left"
        )
    for seat in deal["seats"]:
        number = seat["seat"]
        table.add_row(
            ("★ " if number in deal["winners"] else "") + view["seats"][number]["name"],
            " ".join(seat["hand"] or ["hidden"]),
            "folded" if seat["folded"] else (seat["category"] or "").replace("_", " "),
            str(seat["stake"]),
            seat["payout"],
            seat["delta"],
        )
    return table
