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
    humans: int = 1
    """With more than one, the match waits for the others to join before deal 1."""


@dataclass(frozen=True, slots=True)
class Act:
    """A seat's look, call, hold, raise or fold."""

    seat: int
    action: str
    by: str = "player"
    """Who acts for the seat: "player", "ai" or "clock"."""


@dataclass(frozen=True, slots=True)
class NextDeal:
    pass


@dataclass(frozen=True, slots=True)
class Restart:
    seat: int = 0
    """Who asks: at a shared table only the owner, at seat 0, may restart."""
    ai_level: str | None = None
    """The AI seats' new level, where the restart changes it; recorded in match_restarted."""


@dataclass(frozen=True, slots=True)
class Resign:
    """A seat gives the match up: it ends at once, and that seat cannot be among its winners."""

    seat: int


@dataclass(frozen=True, slots=True)
class Join:
    """A human takes the next open seat of a waiting table."""

    name: str


@dataclass(frozen=True, slots=True)
class Leave:
    """A human leaves: the AI plays the seat from now on."""

    seat: int


Command = StartMatch | Act | NextDeal | Restart | Resign | Join | Leave
