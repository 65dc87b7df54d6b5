"""Events: the facts a match is made of. A match's state is the replay of its events.

Every event converts to and from a JSON-ready dict whose `type` names it. The dicts
hold everything, including the deck and the seed. Each event type lists in `PUBLIC` the
fields that may leave the server; `views.event_view` sends those and nothing else (and
for deal_ended, only the hands the viewer may see).

Events carry everything `evolve` needs, so that replaying a stored match never runs rule
logic again: a rule changed later cannot change how an old match replays.
"""

from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from .cards import HUMAN_SEAT

RULES_VERSION = 1
"""Raise it whenever a rule changes what `decide` does in a way its events cannot tell apart;
`match_created` records it. A change that comes with an event of its own needs none: freeing
a seat before deal 1 (seat_freed) replaced a player_left that evolve still applies as before,
so every stored match replays the same and a new match is still created as before."""


@dataclass(frozen=True, slots=True)
class MatchCreated:
    type: ClassVar[str] = "match_created"
    PUBLIC: ClassVar[tuple[str, ...]] = ()
    seed: int
    rules: int = RULES_VERSION
    """The version of the rules the match is played by."""
    humans: int = 1
    """How many human seats (0 to humans - 1); stored only when more than one, so that a
    single-player match is stored exactly as before tables existed."""

    def to_dict(self) -> dict:
        data = {"type": self.type, "seed": self.seed, "rules": self.rules}
        if self.humans != 1:
            data["humans"] = self.humans
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "MatchCreated":
        return cls(seed=data["seed"], rules=data["rules"], humans=data.get("humans", 1))


@dataclass(frozen=True, slots=True)
class DealStarted:
    type: ClassVar[str] = "deal_started"
    PUBLIC: ClassVar[tuple[str, ...]] = ("series", "deal_number", "dealer")
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
    """A seat's action, with that seat's stake, the high stake, the pot and the turn after
    it."""

    type: ClassVar[str] = "action"
    PUBLIC: ClassVar[tuple[str, ...]] = ("seat", "action", "stake", "high_stake", "pot", "by")
    seat: int
    action: str
    stake: int
    high_stake: int
    pot: int
    # Left out of ==: the other fields say what happened, and tests compare those; the
    # golden replays check `turn`, and the table tests check `by`.
    turn: int | None = field(default=None, compare=False)
    """The seat to act next, or None when the betting is over (server-only)."""
    by: str | None = field(default=None, compare=False)
    """Who acted: "player", "ai" or "clock". None in events stored before tables existed;
    `actor` reads those."""

    @property
    def actor(self) -> str:
        if self.by is not None:
            return self.by
        # Before tables, the one human sat at HUMAN_SEAT and the AI everywhere else.
        return "player" if self.seat == HUMAN_SEAT else "ai"

    def to_dict(self) -> dict:
        data = {
            "type": self.type,
            "seat": self.seat,
            "action": self.action,
            "stake": self.stake,
            "high_stake": self.high_stake,
            "pot": self.pot,
            "turn": self.turn,
        }
        if self.by is not None:
            data["by"] = self.by
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "ActionTaken":
        return cls(
            data["seat"],
            data["action"],
            data["stake"],
            data["high_stake"],
            data["pot"],
            data["turn"],
            data.get("by"),
        )


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
    PUBLIC: ClassVar[tuple[str, ...]] = ("series", "deal_number", "outcome", "winners", "seats")
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
    PUBLIC: ClassVar[tuple[str, ...]] = ("series", "winners", "totals")
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
    PUBLIC: ClassVar[tuple[str, ...]] = ("series",)
    series: int

    def to_dict(self) -> dict:
        return {"type": self.type, "series": self.series}

    @classmethod
    def from_dict(cls, data: dict) -> "MatchRestarted":
        return cls(series=data["series"])


@dataclass(frozen=True, slots=True)
class Resigned:
    """A seat gave the match up. An unfinished deal is abandoned and counts for nobody; the
    match_finished that follows names the winners."""

    type: ClassVar[str] = "resigned"
    PUBLIC: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int

    def to_dict(self) -> dict:
        return {"type": self.type, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: dict) -> "Resigned":
        return cls(seat=data["seat"])


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A human took the next open seat of a waiting table."""

    type: ClassVar[str] = "player_joined"
    PUBLIC: ClassVar[tuple[str, ...]] = ("seat", "name")
    seat: int
    name: str

    def to_dict(self) -> dict:
        return {"type": self.type, "seat": self.seat, "name": self.name}

    @classmethod
    def from_dict(cls, data: dict) -> "PlayerJoined":
        return cls(seat=data["seat"], name=data["name"])


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A human left: the AI plays the seat for the rest of the match. `abandoned` is true
    when no human is left at an unfinished match, which then ends with no winners."""

    type: ClassVar[str] = "player_left"
    PUBLIC: ClassVar[tuple[str, ...]] = ("seat", "abandoned")
    seat: int
    abandoned: bool = False

    def to_dict(self) -> dict:
        return {"type": self.type, "seat": self.seat, "abandoned": self.abandoned}

    @classmethod
    def from_dict(cls, data: dict) -> "PlayerLeft":
        return cls(seat=data["seat"], abandoned=data["abandoned"])


@dataclass(frozen=True, slots=True)
class SeatFreed:
    """A human other than the owner left a table before its first deal: the seat is open
    again, and the next join takes it (the same human may). Leaving after deal 1 has started
    is `player_left`, and stored logs from before this event replay as they always did."""

    type: ClassVar[str] = "seat_freed"
    PUBLIC: ClassVar[tuple[str, ...]] = ("seat",)
    seat: int

    def to_dict(self) -> dict:
        return {"type": self.type, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: dict) -> "SeatFreed":
        return cls(seat=data["seat"])


Event = (
    MatchCreated
    | DealStarted
    | ActionTaken
    | DealEnded
    | MatchFinished
    | MatchRestarted
    | Resigned
    | PlayerJoined
    | PlayerLeft
    | SeatFreed
)

EVENT_TYPES: dict[str, type] = {
    cls.type: cls
    for cls in (
        MatchCreated,
        DealStarted,
        ActionTaken,
        DealEnded,
        MatchFinished,
        MatchRestarted,
        Resigned,
        PlayerJoined,
        PlayerLeft,
        SeatFreed,
    )
}


def event_from_dict(data: dict) -> Event:
    return EVENT_TYPES[data["type"]].from_dict(data)
