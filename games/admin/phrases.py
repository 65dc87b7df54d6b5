"""How the admin shows each event type: one phrase for its timeline and, for a type that
changes who sits where, how it moves the seats' join and leave times. `SHOWN` holds them
keyed by type, so that a new event type is one entry here (the catalogue test,
tests/clients/test_event_catalogue.py, fails until it has one)."""

from collections.abc import Callable
from dataclasses import dataclass

from games.engine import (
    Action,
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    MatchCreated,
    MatchFinished,
    MatchRestarted,
    Outcome,
    PlayerJoined,
    PlayerLeft,
    Resigned,
    SeatFreed,
    SeatsFilled,
    SeedRevealed,
)

_VERBS = {Action.CALL: "calls to", Action.HOLD: "holds at", Action.RAISE: "raises to"}


def deal_name(series: int, deal_number: int) -> str:
    """ "deal 3" in a match's first series, "series 2 deal 3" after a restart."""
    return f"deal {deal_number}" if series == 1 else f"series {series} deal {deal_number}"


def readable(word: str) -> str:
    """A category or outcome as people write it: "three_of_a_kind" is "three of a kind"."""
    return word.replace("_", " ")


def seat_label(seat: int, names: dict[int, str]) -> str:
    """ "seat 2 (Shirin)": the number the events use, and the name people know (none at an
    open seat)."""
    return f"seat {seat} ({names[seat]})" if names.get(seat) else f"seat {seat}"


def seats_label(seats, names: dict[int, str]) -> str:
    if len(seats) == 1:
        return seat_label(seats[0], names)
    named = [seat_label(seat, names).removeprefix("seat ") for seat in seats]
    return "seats " + ", ".join(named[:-1]) + " and " + named[-1]


def _created(event: MatchCreated, deal, names) -> str:
    return f"match created · dealt by {event.scheme}"


def _dealt(event: DealStarted, deal, names) -> str:
    name = deal_name(event.series, event.deal_number)
    return f"{name} starts · dealer {seat_label(event.dealer, names)}"


def _acted(event: ActionTaken, deal, names) -> str:
    seat = seat_label(event.seat, names)
    if event.action == Action.LOOK:
        return f"{deal} · {seat} looks"
    if event.action == Action.FOLD:
        return f"{deal} · {seat} folds · pot {event.pot}"
    verb = _VERBS.get(event.action, event.action)
    return f"{deal} · {seat} {verb} {event.stake} · pot {event.pot}"


def _settled(event: DealEnded, deal, names) -> str:
    pot = sum(seat.stake for seat in event.seats)
    verb = "wins" if len(event.winners) == 1 else "split"
    text = f"{deal_name(event.series, event.deal_number)} · {readable(event.outcome)}"
    text += f" · {seats_label(event.winners, names)} {verb} {pot}"
    if event.outcome == Outcome.SHOWDOWN:
        text += f" ({readable(event.seats[event.winners[0]].category)})"
    return text


def _finished(event: MatchFinished, deal, names) -> str:
    verb = "wins" if len(event.winners) == 1 else "win"
    totals = ", ".join(map(str, event.totals))
    winners = seats_label(event.winners, names)
    return f"series {event.series} over · {winners} {verb} · totals {totals}"


def _restarted(event: MatchRestarted, deal, names) -> str:
    level = f" · AI level {event.ai_level}" if event.ai_level else ""
    return f"restart · series {event.series} begins{level}"


def _left(event: PlayerLeft, deal, names) -> str:
    text = f"{seat_label(event.seat, names)} leaves; the AI plays the seat"
    return text + (" · match abandoned" if event.abandoned else "")


def _filled(event: SeatsFilled, deal, names) -> str:
    return f"the AI took the open seats {', '.join(map(str, event.seats))}; deal 1 starts"


def _sat_down(event: PlayerJoined, at, joined: dict, left: dict) -> None:
    joined[event.seat] = at
    left.pop(event.seat, None)  # a seat freed and taken again shows its latest join


def _stood_up(event: PlayerLeft | SeatFreed, at, joined: dict, left: dict) -> None:
    left[event.seat] = at


def _ai_sat_down(event: SeatsFilled, at, joined: dict, left: dict) -> None:
    joined.update(dict.fromkeys(event.seats, at))


@dataclass(frozen=True, slots=True)
class Shown:
    """How the admin shows one event type: its timeline phrase, `phrase(event, deal, names)`,
    and, for a type that changes who sits where, how it moves the seats' join and leave
    times, `seats(event, at, joined, left)`."""

    phrase: Callable[[Event, str | None, dict[int, str]], str]
    seats: Callable[[Event, object, dict, dict], None] | None = None


SHOWN = {
    MatchCreated: Shown(_created),
    DealStarted: Shown(_dealt),
    ActionTaken: Shown(_acted),
    DealEnded: Shown(_settled),
    MatchFinished: Shown(_finished),
    MatchRestarted: Shown(_restarted),
    Resigned: Shown(lambda event, deal, names: f"seat {event.seat} resigns"),
    PlayerJoined: Shown(
        lambda event, deal, names: f"{seat_label(event.seat, names)} joins", seats=_sat_down
    ),
    PlayerLeft: Shown(_left, seats=_stood_up),
    SeatFreed: Shown(
        lambda event, deal, names: (
            f"{seat_label(event.seat, names)} leaves before deal 1; the seat is open again"
        ),
        seats=_stood_up,
    ),
    SeatsFilled: Shown(_filled, seats=_ai_sat_down),
    SeedRevealed: Shown(
        lambda event, deal, names: f"the tournament closed: series {event.series}'s seed revealed"
    ),
}
"""Every event type as the admin shows it (tests/clients/test_event_catalogue.py checks
there is one for each type of the catalogue)."""


def describe(event: Event, deal: str | None, names: dict[int, str] | None = None) -> str:
    """One event at a glance, e.g. "deal 3 · seat 2 (Shirin) raises to 3 · pot 7". Actions do
    not say which deal they belong to, so the caller names it: `deal` is the latest deal
    started. `names` maps seat numbers to player names."""
    return SHOWN[type(event)].phrase(event, deal, names or {})
