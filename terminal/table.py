"""What the terminal table shows: the seats, your cards, this deal's actions, the last
deal's showdown and, once a match is over, the final standings. It reads only the API's
JSON: a match view and the match's events."""

import math
from datetime import UTC, datetime
from fractions import Fraction

from rich import box
from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from terminal.api import Api

ACTION_LOG = {
    "look": "looks at their cards.",
    "call": "calls {stake}; pot {pot}.",
    "hold": "holds at {stake}.",
    "raise": "raises to {stake}; pot {pot}.",
    "fold": "folds.",
}


def _action(event: dict, names: list[str]) -> list[str]:
    said = ACTION_LOG[event["action"]].format(stake=event["stake"], pot=event["pot"])
    if event["by"] == "clock":
        return [f"The clock played for {names[event['seat']]}: {said}"]
    return [f"{names[event['seat']]} {said}"]


def _left(event: dict, names: list[str]) -> list[str]:
    lines = [f"{names[event['seat']]} left; the AI plays their seat."]
    if event["abandoned"]:
        lines.append("Every human has left: the match is abandoned.")
    return lines


def _restarted(event: dict, names: list[str]) -> list[str]:
    level = f" The AI now plays at {event['ai_level']}." if event.get("ai_level") else ""
    return [f"Series {event['series']} begins.{level}"]


def _unknown(event: dict, names: list[str]) -> list[str]:
    # A type newer than this client: the table goes on without a line for it.
    return []


# The log's line(s) for each event type the API sends, keyed by its `type`
# (tests/clients/test_terminal_table.py checks every type in openapi.yaml is here). The
# others show elsewhere: the deal's result in the showdown panel, the end in the standings.
EVENT_LINES = {
    "match_created": _unknown,
    "deal_started": lambda event, names: [
        f"Deal {event['deal_number']}: {names[event['dealer']]} deals and opens with 1."
    ],
    "action": _action,
    "deal_ended": _unknown,
    "match_finished": _unknown,
    "match_restarted": _restarted,
    "resigned": _unknown,
    "player_joined": lambda event, names: [f"{event['name']} sat down at seat {event['seat']}."],
    "player_left": _left,
    # The view is read after the leave: the seat names nobody any more.
    "seat_freed": lambda event, names: [
        f"Seat {event['seat']} is open again: its human left before deal 1."
    ],
    "seed_revealed": lambda event, names: [
        "The tournament closed: its seed is revealed, and every deal can be checked."
    ],
    "seats_filled": lambda event, names: [
        f"The AI took the open seats ({', '.join(names[seat] for seat in event['seats'])})."
    ],
}

SCROLL_KEYS = {"[": "earlier moves", "]": "later moves"}
"""The keys that scroll the deal's log, offered while some of its lines are out of view."""
# Every status in which the match goes on; any other (finished, abandoned) is an end.
# not_started: what a delayed spectator sees until deal 1 has ended.
PLAYING = frozenset({"not_started", "waiting", "in_deal", "deal_over"})


def is_over(view: dict) -> bool:
    return view["status"] not in PLAYING


class TableState:
    """What the table shows besides the current view, read from the match's events: this
    deal's public actions, and how many deals each seat has won in this series."""

    def __init__(self):
        self.seen = 0
        self.log: list[str] = []
        self.scrolled = 0
        """How many of the log's newest lines are scrolled out of view below it."""
        self.scroll_keys: dict[str, str] = {}
        """The scroll keys the last screen drawn offered: those that move the log now."""
        self.page = 1
        """How many of the log's lines the last screen drawn showed: a scroll moves by as many."""
        self.deals_won: dict[int, int] = {}
        self.tournament = ""
        """The tournament's name, for a tournament's match: its first line names it."""
        self.resigned = ""
        """Who resigned the series, the final standings' caption; empty if no one did."""

    def read_events(self, api: Api, view: dict, path: str | None = None) -> None:
        """Notes the events up to the view's version that were not noted yet, read from
        `path` (the match's events, unless a spectator's)."""
        path = path or f"/matches/{view['id']}/events"
        while self.seen < view["version"]:
            page = api("GET", f"{path}?after={self.seen}")
            # None past the view's version: a move made since the view was read (a friend's
            # fold just after this player joined) is left to the follower, which starts after
            # the last event noted and then reads a view that shows it. Noted here, it moved
            # the follower past it, and the table waited on a stale view for the next move.
            upto = [event for event in page["events"] if event["seq"] <= view["version"]]
            self.note(upto, view)
            if not upto:
                self.seen = view["version"]

    def note(self, events: list[dict], view: dict) -> None:
        """Notes these events, but none twice: a followed match delivers some of them both
        in a write's answer and from the follower."""
        names = [seat["name"] for seat in view["seats"]]
        for event in events:
            if event["seq"] > self.seen:
                self._note(event, names)
                self.seen = event["seq"]

    def _note(self, event: dict, names: list[str]) -> None:
        kind = event["type"]
        if kind == "deal_started":
            self.log, self.scrolled = [], 0
        elif kind == "deal_ended":
            for seat in event["winners"]:
                self.deals_won[seat] = self.deals_won.get(seat, 0) + 1
        elif kind == "match_restarted":
            self.log, self.deals_won, self.resigned, self.scrolled = [], {}, "", 0
        elif kind == "resigned":
            self.resigned = f"{names[event['seat']]} resigned."
        self.log.extend(EVENT_LINES.get(kind, _unknown)(event, names))

    def render(
        self,
        view: dict,
        keys: dict[str, str],
        notice: str = "",
        hint: dict | None = None,
        fit_to: Console | None = None,
    ) -> Group:
        """The whole screen; `keys` are the keys that work now, with what each does; `hint`
        the coach's advice, when asked for. On `fit_to`, a terminal, the screen is cut to
        its height: the log shows as many of the deal's lines as fit, the newest unless
        scrolled back, then the last showdown of a finished match goes, the fairness line,
        and a deal's showdown in play loses its borders, then its skill figures, so that the
        keys always show; the scroll keys are offered while lines are out of view."""
        playing = not is_over(view)
        end = len(self.log) - self.scrolled
        start = 0
        # How the last deal's showdown is drawn (SHOWDOWN_FORMS), or None: not at all.
        showdown = SHOWDOWN_FORMS[0] if view["status"] != "in_deal" and view["last_deal"] else None
        proof = fairness_line(view)
        while True:
            window = _LogWindow(self.log, start, end) if playing else _LogWindow([], 0, 0)
            offered = window.keys() if fit_to is not None else {}
            screen = self._screen(view, keys | offered, notice, hint, window, showdown, proof)
            cut = fit_to is not None and _height(screen, fit_to) > fit_to.height
            if cut and start < end - 1:
                start += 1
            elif cut and playing and start < end:  # not even one line fits: the log goes
                playing = False
            elif cut and showdown and is_over(view):
                showdown = None
            elif cut and proof:
                proof = ""
            elif cut and showdown and showdown != SHOWDOWN_FORMS[-1]:
                showdown = SHOWDOWN_FORMS[SHOWDOWN_FORMS.index(showdown) + 1]
            else:
                self.scroll_keys, self.page = offered, max(len(window.lines), 1)
                return screen

    def scroll(self, key: str) -> None:
        """Moves the log's view a screenful back ("[") or on ("]"), within the deal's lines."""
        step = self.page if key == "[" else -self.page
        self.scrolled = min(max(self.scrolled + step, 0), max(len(self.log) - 1, 0))

    def _screen(
        self,
        view: dict,
        keys: dict[str, str],
        notice: str,
        hint: dict | None,
        log: "_LogWindow",
        showdown: str | None,
        proof: str = "",
    ) -> Group:
        clock = f" · {view['turn_seconds']} s a turn" if view["turn_seconds"] else ""
        # A delayed spectator sees a match whose first deal is being played as before it. A
        # tournament's match is one series, and its name needs the room in 80 columns.
        series = "" if self.tournament else f" · series {view['series']}"
        where = (
            f"deal {view['deal_number']} of 12{series}"
            if view["deal_number"]
            else "before the first deal"
        )
        parts: list[RenderableType] = [
            Rule(
                f"As-Nas · {self.tournament + ' · ' if self.tournament else ''}{where}"
                f" · AI {view['ai_level']}{clock}",
                style="bold",
            ),
            _seats_table(view),
            Text(f"Pot {view['pot']} · high stake {view['high_stake']}{_deadline(view)}"),
            _your_cards(view),
        ]
        if log.lines:
            parts.append(log.text())
        if showdown:
            parts.append(_showdown(view, showdown))
        if is_over(view):
            parts.append(self.standings(view))
        if proof:
            parts.append(Text(proof, style="dim"))
        if hint:
            parts.append(_hint_table(hint))
        if notice:
            parts.append(Text(notice, style="bold red"))
        parts.append(keys_line(keys))
        return Group(*parts)

    def standings(self, view: dict) -> Table:
        """The final standings: every seat by total, highest first, winners starred."""
        table = Table(
            title="Final standings",
            title_justify="left",
            title_style="bold green",
            caption=self.resigned or None,
            caption_justify="left",
        )
        for column in ("Place", "Player", "Total", "Deals won"):
            table.add_column(column, justify="left" if column == "Player" else "right")
        sums = view.get("skill")
        if sums:
            table.add_column("Cards · play · the others", justify="right")
        ranked = sorted(view["seats"], key=lambda seat: -Fraction(seat["total"]))
        for seat in ranked:
            place = 1 + sum(Fraction(s["total"]) > Fraction(seat["total"]) for s in ranked)
            winner = seat["seat"] in (view["winners"] or [])
            table.add_row(
                str(place),
                ("★ " if winner else "") + _name(view, seat),
                seat["total"],
                str(self.deals_won.get(seat["seat"], 0)),
                *([skill_line(sums[seat["seat"]])] if sums else []),
                style="bold" if winner else None,
            )
        return table


def fairness_line(view: dict) -> str:
    """Once a verifiable series ended: its revealed seed, which anyone can check every deal
    with (docs/fairness.md); nothing before, and nothing for a match that is not verifiable."""
    seed = view.get("fairness", {}).get("server_seed")
    if not seed or not is_over(view):
        return ""
    return f"Seed {seed[:16]}… revealed: every deal can be checked (verify_match)."


def waiting_room(view: dict, keys: dict[str, str], server: str) -> Group:
    """A table waiting for its humans: who sits where and, for its owner, the invite and the
    command that joins it, cut into lines that fit 80 columns and paste whole into a shell."""
    open_seats = sum(seat["name"] is None for seat in view["seats"])
    parts: list[RenderableType] = [
        Rule(
            f"As-Nas · a table for {view['humans']} · waiting for {open_seats} more",
            style="bold",
        ),
        _seats_table(view),
    ]
    if view.get("fill_at"):
        until = datetime.fromisoformat(view["fill_at"]).astimezone().strftime("%H:%M:%S")
        parts.append(Text(f"At {until} the AI takes the seats still open and deal 1 starts."))
    if view.get("open"):
        parts.append(Text("Open table: anyone may join it from the lobby (play --tables)."))
    if view["invite"]:
        invite = f"{view['id']}:{view['invite']}"
        parts += [
            Text(f"Invite: {invite}", style="bold"),
            Text("A friend joins with:"),
            Text(f"  uv run manage.py play --url {server} \\\n    --join {invite}", no_wrap=True),
        ]
    parts.append(keys_line(keys))
    return Group(*parts)


def lobby(tables: list[dict], server: str) -> Group:
    """The open tables waiting for humans, longest waiting first, and how to sit at one."""
    if not tables:
        return Group(
            Rule("As-Nas · open tables", style="bold"),
            Text("No open table waits now. play --quick-play opens one for you."),
        )
    return Group(
        Rule("As-Nas · open tables", style="bold"),
        _tables_grid(tables),
        Text("Sit at one with:"),
        Text(f"  uv run manage.py play --url {server} --join TABLE", no_wrap=True),
        Text("or at the one that waited longest: play --quick-play"),
    )


def invitation(table: dict, keys: dict[str, str]) -> Group:
    """The table an invite is for, as the lobby lists an open one, before joining it: above
    all whether its deals are verifiable, and what that means."""
    fairness = (
        "Verifiable: each series' seed is revealed when it ends, so anyone can deal every "
        "deal again and check it (verify_match), folded hands included."
        if table["verifiable"]
        else "Not verifiable: its seeds stay secret, and so do folded hands."
    )
    return Group(
        Rule(f"As-Nas · {table['owner']} invites you to a table", style="bold"),
        _tables_grid([table]),
        Text(fairness),
        Text(f"Spectators: {table['spectators']}."),
        keys_line(keys),
    )


def _tables_grid(tables: list[dict]) -> Table:
    """Tables waiting for humans, a line each, as GET /tables lists them (OpenTable)."""
    grid = Table(box=None, pad_edge=False)
    for column in ("Table", "Seats free", "Players", "Turn", "AI", "Verifiable", "AI fills at"):
        grid.add_column(column)
    for table in tables:
        names = ", ".join(seat["name"] or "·" for seat in table["seats"])
        turn = f"{table['turn_seconds']} s" if table["turn_seconds"] else "no clock"
        fills = (
            datetime.fromisoformat(table["fill_at"]).astimezone().strftime("%H:%M:%S")
            if table["fill_at"]
            else "–"
        )
        verifiable = "yes" if table["verifiable"] else "no"
        grid.add_row(
            table["id"],
            f"{table['seats_free']} of {table['humans']}",
            names,
            turn,
            table["ai_level"],
            verifiable,
            fills,
        )
    return grid


def keys_line(keys: dict[str, str]) -> Text:
    return Text("Keys: " + "   ".join(f"{k} {what}" for k, what in keys.items()), style="cyan")


def _deadline(view: dict) -> str:
    """Whose turn the clock counts, until when in the terminal's local time, and the seconds
    left as the screen is drawn (a live screen draws it again every second)."""
    left = _seconds_left(view)
    if left is None:
        return ""
    whose = (
        "your" if view["turn"] == view["your_seat"] else f"{view['seats'][view['turn']]['name']}'s"
    )
    until = datetime.fromisoformat(view["turn_deadline"]).astimezone().strftime("%H:%M:%S")
    return f" · {whose} turn until {until} ({max(0, math.ceil(left))} s left)"


def _seconds_left(view: dict) -> float | None:
    """Of the turn the clock counts, now; None when no clock counts one."""
    if not view["turn_deadline"] or view["turn"] is None:
        return None
    return (datetime.fromisoformat(view["turn_deadline"]) - datetime.now(UTC)).total_seconds()


def next_tick(view: dict) -> float | None:
    """Seconds until the countdown shows one second less: just past the next whole second
    left, so that no number is skipped however long a redraw takes. None without a running
    clock."""
    left = _seconds_left(view)
    if left is None or left <= 0:
        return None
    return left % 1 + 0.02


class _LogWindow:
    """The lines of the deal's log from `start` to `end` (exclusive), and how many lie out of
    view before and after them."""

    def __init__(self, log: list[str], start: int, end: int):
        self.lines = log[start:end]
        self.before, self.after = start, len(log) - end

    def keys(self) -> dict[str, str]:
        offered = {"[": SCROLL_KEYS["["]} if self.before else {}
        return offered | ({"]": SCROLL_KEYS["]"]} if self.after else {})

    def text(self) -> Text:
        # One line says what is out of view, on both sides: the screen has few to spare.
        sides = ((self.before, "earlier"), (self.after, "later"))
        said = " · ".join(f"{n} {side}" for n, side in sides if n)
        lines = [f"… {said} in this deal"] if said else []
        return Text("\n".join(lines + self.lines), style="dim")


def _height(screen: RenderableType, console: Console) -> int:
    return len(console.render_lines(screen, console.options.update(height=None), pad=False))


def _name(view: dict, seat: dict) -> str:
    if seat["name"] is None:
        return "(open seat)"
    you = seat["seat"] == view["your_seat"]
    # A bot is labelled as one, to its own screen too (docs/bots.md).
    labels = {"ai": " (AI)", "bot": " (bot)"}
    return seat["name"] + (" (you)" if you else "") + labels.get(seat["kind"], "")


def _seats_table(view: dict) -> Table:
    table = Table(box=None, pad_edge=False)
    for column in ("", "Seat", "Player", "Stake", "Total", ""):
        table.add_column(column, justify="right" if column in ("Stake", "Total") else "left")
    for seat in view["seats"]:
        number = seat["seat"]
        notes = [
            note
            for note, shown in (
                ("dealer", number == view["dealer"]),
                ("looked", seat["looked"]),
                ("folded", seat["folded"]),
                ("away", seat["away"]),
            )
            if shown
        ]
        table.add_row(
            "▶" if number == view["turn"] else "",
            str(number),
            _name(view, seat),
            str(seat["stake"]),
            seat["total"],
            ", ".join(notes),
            style="dim" if seat["folded"] else None,
        )
    return table


def _your_cards(view: dict) -> Text:
    if view["your_seat"] is None:
        return Text(f"Watching ({view['spectators']}): hands show only at a showdown")
    if view["your_cards"] is None:
        return Text("Your cards: hidden until you look (l)")
    category = view["your_category"].replace("_", " ")
    return Text(f"Your cards: {' '.join(view['your_cards'])} ({category})", style="bold")


SHOWDOWN_FORMS = ("whole", "without borders", "without figures")
"""How a deal's showdown is drawn, from the widest and tallest: `render` takes the next where
the screen is taller than the terminal (the skill figures' column wraps its rows at 80
columns, and four rows of three lines pushed the keys off an 80 × 24 terminal)."""


def _showdown(view: dict, form: str) -> Table:
    deal = view["last_deal"]
    whole = form == SHOWDOWN_FORMS[0]
    table = Table(
        title=f"Deal {deal['deal_number']}: {deal['outcome']}",
        title_justify="left",
        box=box.HEAVY_HEAD if whole else None,
        pad_edge=whole,
    )
    for column in ("Seat", "Hand", "Category", "Stake", "Payout", "Score"):
        table.add_column(
            column, justify="right" if column in ("Stake", "Payout", "Score") else "left"
        )
    figures = form != SHOWDOWN_FORMS[-1] and any(seat.get("skill") for seat in deal["seats"])
    if figures:
        table.add_column("Cards · play · the others", justify="right")
    for seat in deal["seats"]:
        number = seat["seat"]
        table.add_row(
            ("★ " if number in deal["winners"] else "") + view["seats"][number]["name"],
            " ".join(seat["hand"] or ["hidden"]),
            "folded" if seat["folded"] else (seat["category"] or "").replace("_", " "),
            str(seat["stake"]),
            seat["payout"],
            seat["delta"],
            *([skill_line(seat["skill"])] if figures else []),
        )
    return table


def skill_line(skill: dict | None) -> str:
    """Cards, play and the others' play (docs/skill.md), each exact when short, else to two
    places; "–" where they may not be shown."""
    if skill is None:
        return "–"
    return " · ".join(_figure(skill[part]) for part in ("cards", "play", "table"))


def _figure(text: str) -> str:
    value = Fraction(text)
    return ("+" if value > 0 else "") + text if len(text) <= 8 else f"≈{float(value):+.2f}"


def _percent(text: str) -> str:
    """An exact fraction as a percentage: exact to a tenth, else "≈" and rounded."""
    value = Fraction(text) * 100
    if (value * 10).denominator == 1:
        return f"{float(value):g}%"
    return f"≈{float(value):.1f}%"


def _hint_table(hint: dict) -> Group:
    """The coach's advice in words: the hand's strength once looked, how often the hard AI
    plays each action here, and each action's exact expected score."""
    strength = (
        f"your hand ranks {hint['hand_rank']} of 121: it beats three random hands "
        f"{_percent(hint['showdown_win'])} of the time (ties {_percent(hint['showdown_tie'])})"
        if hint["hand_rank"] is not None
        else "look first: it is free"
    )
    table = Table(
        caption="how often the hard AI plays each action here, and the expected score of "
        "this deal against the AI seats (exact fractions, shown to 4 places)",
        caption_justify="left",
    )
    for column in ("Action", "Hard AI plays it", "Expected score"):
        table.add_column(column, justify="left" if column == "Action" else "right")
    for advice in hint["actions"]:
        value = advice["expected_value"]
        shown = "–" if value is None else f"{float(Fraction(value)):+.4f}"
        table.add_row(advice["action"], _percent(advice["hard_probability"]), shown)
    return Group(Text(f"Hint · {strength}", style="bold magenta"), table)
