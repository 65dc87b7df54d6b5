"""Commands: what a seat or the table asks for. `decide` turns them into events."""

from dataclasses import dataclass
from enum import StrEnum


class Action(StrEnum):
    LOOK = "look"
    CALL = "call"
    HOLD = "hold"
    RAISE = "raise"
    FOLD = "fold"


@dataclass(frozen=True, slots=True)
class StartMatch:
    seed: int


@dataclass(frozen=True, slots=True)
class Act:
    """A seat's look, call, hold, raise or fold."""

    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class NextDeal:
    pass


@dataclass(frozen=True, slots=True)
class Restart:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    """A seat gives the match up: it ends at once, and that seat cannot be among its winners."""

    seat: int


Command = StartMatch | Act | NextDeal | Restart | Resign
