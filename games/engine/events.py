"""Events: the facts a match is made of. A match's state is the replay of its events.

Every event converts to and from a JSON-ready dict whose `type` names it. The dicts
hold everything, including the deck and the seed: `views.event_view` makes the copy
a given seat may see.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class MatchCreated:
    type: ClassVar[str] = "match_created"
    seed: int

    def to_dict(self) -> dict:
        return {"type": self.type, "seed": self.seed}

    @classmethod
    def from_dict(cls, data: dict) -> "MatchCreated":
        return cls(seed=data["seed"])


@dataclass(frozen=True, slots=True)
class DealStarted:
    type: ClassVar[str] = "deal_started"
    series: int
    deal_number: int
    dealer: int
    deck: tuple[str, ...]
    """The shuffled deck: card i goes to seat (dealer + 1 + i) mod 4."""

    def to_dict(self) -> dict:
        return {
            "type": self.type,
            "series": self.series,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "deck": list(self.deck),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "DealStarted":
        return cls(data["series"], data["deal_number"], data["dealer"], tuple(data["deck"]))


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A seat's action, with that seat's stake, the high stake and the pot after it."""

    type: ClassVar[str] = "action"
    seat: int
    action: str
    stake: int
    high_stake: int
    pot: int

    def to_dict(self) -> dict:
        return {
            "type": self.type,
            "seat": self.seat,
            "action": self.action,
            "stake": self.stake,
            "high_stake": self.high_stake,
            "pot": self.pot,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "ActionTaken":
        return cls(data["seat"], data["action"], data["stake"], data["high_stake"], data["pot"])


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's part in a settled deal. `hand` and `category` are the full record;
    `shown` says whether the table saw them (a showdown hand that had not folded)."""

    seat: int
    hand: tuple[str, ...]
    category: str
    stake: int
    payout: Fraction
    delta: Fraction
    folded: bool
    shown: bool

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "hand": list(self.hand),
            "category": self.category,
            "stake": self.stake,
            "payout": str(self.payout),
            "delta": str(self.delta),
            "folded": self.folded,
            "shown": self.shown,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "SeatResult":
        return cls(
            data["seat"],
            tuple(data["hand"]),
            data["category"],
            data["stake"],
            Fraction(data["payout"]),
            Fraction(data["delta"]),
            data["folded"],
            data["shown"],
        )


@dataclass(frozen=True, slots=True)
class DealEnded:
    type: ClassVar[str] = "deal_ended"
    series: int
    deal_number: int
    outcome: str
    """`showdown`, or `uncontested` when every other seat folded."""
    winners: tuple[int, ...]
    seats: tuple[SeatResult, ...]

    def to_dict(self) -> dict:
        return {
            "type": self.type,
            "series": self.series,
            "deal_number": self.deal_number,
            "outcome": self.outcome,
            "winners": list(self.winners),
            "seats": [seat.to_dict() for seat in self.seats],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "DealEnded":
        return cls(
            data["series"],
            data["deal_number"],
            data["outcome"],
            tuple(data["winners"]),
            tuple(SeatResult.from_dict(seat) for seat in data["seats"]),
        )


@dataclass(frozen=True, slots=True)
class MatchFinished:
    type: ClassVar[str] = "match_finished"
    series: int
    winners: tuple[int, ...]
    totals: tuple[Fraction, ...]

    def to_dict(self) -> dict:
        return {
            "type": self.type,
            "series": self.series,
            "winners": list(self.winners),
            "totals": [str(total) for total in self.totals],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "MatchFinished":
        return cls(
            data["series"],
            tuple(data["winners"]),
            tuple(Fraction(total) for total in data["totals"]),
        )


@dataclass(frozen=True, slots=True)
class MatchRestarted:
    type: ClassVar[str] = "match_restarted"
    series: int

    def to_dict(self) -> dict:
        return {"type": self.type, "series": self.series}

    @classmethod
    def from_dict(cls, data: dict) -> "MatchRestarted":
        return cls(series=data["series"])


Event = MatchCreated | DealStarted | ActionTaken | DealEnded | MatchFinished | MatchRestarted

EVENT_TYPES: dict[str, type] = {
    cls.type: cls
    for cls in (MatchCreated, DealStarted, ActionTaken, DealEnded, MatchFinished, MatchRestarted)
}


def event_from_dict(data: dict) -> Event:
    return EVENT_TYPES[data["type"]].from_dict(data)
