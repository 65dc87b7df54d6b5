"""Duplicate tournaments at the terminal (docs/tournaments.md): `play --tournaments` lists
them, `play --tournament ID` shows one's terms and enters it (the match is then played as any
other), and after the close shows the standings and, deal by deal, how every entrant of your
pool played the same hands. It reads only the API's JSON: GET /tournaments, GET
/tournaments/{id}, POST /tournaments/{id}/entries, and after the close GET
/tournaments/{id}/standings and /matches (every match's public record)."""

from datetime import datetime
from fractions import Fraction

from rich.console import Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from terminal.api import Api
from terminal.table import keys_line

DEALS = 12
STANDING_ROWS = 14
"""The most entrants the standings show at once on 24 lines (yours is always among them)."""
PHASES = {
    "upcoming": "entries not open yet",
    "open": "entries open",
    "playing": "entries closed, in play",
    "closed": "closed",
}


def _when(moment: str) -> str:
    """An API moment in the terminal's local time, to the minute."""
    return datetime.fromisoformat(moment).astimezone().strftime("%d %b %H:%M")


def _rounded(exact: str, places: int = 1) -> str:
    """A rounded figure of an exact fraction, for display beside or instead of it."""
    return f"{float(Fraction(exact)):.{places}f}"


def tournaments_table(tournaments: list[dict]) -> Group:
    """The newest tournaments: name, AI level, where each stands, its window, its entrants,
    and its id (what --tournament takes)."""
    if not tournaments:
        return Group(
            Rule("As-Nas · tournaments", style="bold"),
            Text("No tournament yet: POST /api/v1/tournaments creates one."),
        )
    table = Table(box=None, pad_edge=False)
    for column in ("Name", "AI", "Now", "Entries until", "Closes", "In"):
        table.add_column(column, no_wrap=column != "Name")
    for t in tournaments:
        table.add_row(
            t["name"],
            t["ai_level"],
            PHASES[t["phase"]],
            _when(t["entry_closes_at"]),
            _when(t["deadline"]),
            str(t["entrants"]),
        )
    ids = Table(box=None, pad_edge=False)
    ids.add_column("Name")
    ids.add_column("ID (play --tournament ID)", no_wrap=True)
    for t in tournaments:
        ids.add_row(t["name"], t["id"])
    return Group(Rule("As-Nas · tournaments", style="bold"), table, Text(""), ids)


def terms_screen(t: dict) -> Group:
    """One tournament's terms, before entering it."""
    cap = f" of {t['cap']}" if t["cap"] is not None else ""
    return Group(
        Rule(f"As-Nas · tournament {t['name']}", style="bold"),
        Text(f"Duplicate: every entrant plays the same 12 deals against {t['ai_level']} AI."),
        Text(f"Entries {_when(t['entry_opens_at'])} to {_when(t['entry_closes_at'])}"),
        Text(f"Closes {_when(t['deadline'])}; {t['turn_seconds']} s a turn"),
        Text(f"Entrants: {t['entrants']}{cap} · now: {PHASES[t['phase']]}"),
        Text(f"Commitment {t['commitment'][:16]}… (its deals cannot change)"),
    )


def standings_screen(t: dict, standings: dict, mine: str | None) -> Group:
    """The standings at the close: rank, entrant, matchpoints (exact), percentage, difference
    from the field's mean and raw total (rounded), your row marked."""
    rows = standings["standings"]
    shown = rows[:STANDING_ROWS]
    yours = next((row for row in rows if row["match"] == mine), None)
    if yours is not None and yours not in shown:
        shown = shown[: STANDING_ROWS - 1] + [yours]
    table = Table(box=None, pad_edge=False)
    for column in ("#", "Entrant", "MP", "%", "vs mean", "Total"):
        table.add_column(column, justify="left" if column == "Entrant" else "right")
    for row in shown:
        you = row["match"] == mine
        name = ("▶ " if you else "  ") + row["name"] + (" (bot)" if row["bot"] else "")
        table.add_row(
            str(row["rank"]),
            name + (" (you)" if you else ""),
            row["matchpoints"],
            _rounded(row["percentage"]),
            f"{float(Fraction(row['versus_mean'])):+.1f}",
            row["total"],
            style="bold" if you else None,
        )
    more = len(rows) - len(shown)
    return Group(
        Rule(f"{t['name']} · standings ({standings['entrants']} entrants)", style="bold"),
        table,
        Text(f"and {more} more" if more > 0 else ""),
    )


def _choices(events: list[dict], deal: int) -> tuple[list[str], list[str] | None]:
    """The entrant's own actions (seat 0) on `deal`, and their hand where the record shows it."""
    actions, hand, current = [], None, None
    for event in events:
        if event["type"] == "deal_started":
            current = event["deal_number"]
        elif event["type"] == "action" and current == deal and event["seat"] == 0:
            actions.append(event["action"])
        elif event["type"] == "deal_ended" and event["deal_number"] == deal:
            hand = next((s["hand"] for s in event["seats"] if s["seat"] == 0), None)
    return actions, hand


def comparison_screen(t: dict, standings: dict, matches: dict, deal: int, mine: str | None):
    """Deal `deal` compared: every entrant of your deal pool (the first pool if you did not
    enter), their choices on the same hands, their result and matchpoints, your row marked."""
    pools = {m["match"]: m["pool"] for m in matches["matches"]}
    events = {m["match"]: m["events"] for m in matches["matches"]}
    pool = pools.get(mine, 0)
    table = Table(box=None, pad_edge=False)
    for column in ("Entrant", "Choices", "Result", "MP"):
        table.add_column(column, justify="right" if column in ("Result", "MP") else "left")
    hand = None
    for row in standings["standings"]:
        if pools.get(row["match"]) != pool:
            continue
        score = row["deals"][deal - 1]
        actions, shown = _choices(events[row["match"]], deal)
        hand = hand or shown
        you = row["match"] == mine
        choices = " ".join(actions) if score["played"] else "not played: the field's lowest"
        table.add_row(
            ("▶ " if you else "  ") + row["name"] + (" (you)" if you else ""),
            choices,
            score["result"],
            score["matchpoints"],
            style="bold" if you else None,
        )
    pooled = f" · pool {pool + 1} of {t['pools']}" if t["pools"] > 1 else ""
    return Group(
        Rule(f"{t['name']} · deal {deal} of {DEALS}{pooled}", style="bold"),
        Text("Every entrant here held the same cards" + (f": {' '.join(hand)}." if hand else ".")),
        table,
    )


def results(api: Api, screen, t: dict) -> None:
    """The standings, then deal by deal the comparison, until you quit."""
    standings = api("GET", f"/tournaments/{t['id']}/standings")
    mine = t["your_entry"]["match"] if t["your_entry"] else None
    matches, deal = None, 0  # deal 0: the standings page
    while True:
        if deal == 0:
            body = standings_screen(t, standings, mine)
            keys = {"]": "each deal compared", "q": "quit"}
        else:
            matches = matches or api("GET", f"/tournaments/{t['id']}/matches")
            body = comparison_screen(t, standings, matches, deal, mine)
            keys = {"[": "previous deal" if deal > 1 else "standings"}
            keys |= {"]": "next deal"} if deal < DEALS else {}
            keys |= {"s": "standings", "q": "quit"}
        screen.show(Group(body, keys_line(keys)))
        key = screen.key(keys)
        if key == "q":
            screen.leave(body)
            return
        deal = 0 if key == "s" else deal + (1 if key == "]" else -1)


def enter_or_show(api: Api, screen, tournament_id: str) -> dict | None:
    """The tournament `tournament_id` as it stands for you: its standings once closed, your
    match to play (entered now if you choose, or resumed), or why there is nothing to play.
    The match to play, or None."""
    t = api("GET", f"/tournaments/{tournament_id}")  # a read closes it if its deadline passed
    if t["phase"] == "closed":
        results(api, screen, t)
        return None
    entry = t["your_entry"]
    if entry is not None:
        view = api("GET", f"/matches/{entry['match']}")
        if view["status"] != "finished":
            return view
        total = f"Your total {entry['total']} over {len(entry['deals'])} deals."
        later = (
            f"The standings and each deal's comparison appear at the close, {_when(t['deadline'])}."
        )
        screen.leave(Group(terms_screen(t), Text(total), Text(later)))
        return None
    if t["phase"] != "open":
        when = (
            f"Entries open {_when(t['entry_opens_at'])}."
            if t["phase"] == "upcoming"
            else f"Entries closed; the standings appear at the close, {_when(t['deadline'])}."
        )
        screen.leave(Group(terms_screen(t), Text(when)))
        return None
    keys = {"e": "enter: your match starts at once", "q": "quit"}
    screen.show(Group(terms_screen(t), keys_line(keys)))
    if screen.key(keys) != "e":
        screen.leave(None)
        return None
    entered = api("POST", f"/tournaments/{tournament_id}/entries", {})
    return api("GET", f"/matches/{entered['id']}")
