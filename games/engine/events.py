"""Events: the facts a match is made of, and the one catalogue of their types.

A match's state is the replay of its events. Every event converts to and from a JSON-ready
dict whose `type` names it; the dicts hold everything, including the deck and the seed.

Each event type is the one place that says, for everyone else:
- `type`, its name on the wire, in stored dicts and as the SSE `event:` name;
- `DOC`, what it means;
- `FIELDS`, the fields that may leave the server, each with its kind and meaning (the API's
  serializers and schema are built from them; `views.event_view` sends these and nothing
  else, and for deal_ended only the hands the viewer may see); `PUBLIC` names them;
- the facts the layers above act on: `starts_turn`, `starts_series`, `abandons_deal`,
  `ends_match`. A fact reads fields by name, so it answers alike for an event and for its
  public view (a dict): `starts_turn(event)` and `starts_turn(view)` agree.

Events carry everything `evolve` needs, so that replaying a stored match never runs rule
logic again: a rule changed later cannot change how an old match replays.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import ClassVar

from . import fairness
from .cards import HUMAN_SEAT
from .commands import Seeds


@dataclass(frozen=True, slots=True)
class Field:
    """One public field of an event type: its name, its kind and what it means."""

    name: str
    kind: str
    """One of KINDS; the API layer maps each kind to a serializer field."""
    doc: str


KINDS = (
    "integer",
    "seat",
    "seats",
    "boolean",
    "text",
    "points",
    "action",
    "actor",
    "outcome",
    "seat_results",
    "ai_level",
    "hash",
    "seed",
)
"""Field kinds: a count or number, a seat (0-3), a list of seats, a flag, a text, a list of
exact points (fraction strings) by seat, an action name, who acted, a deal's outcome, a
settled deal's seats as the viewer may see them, an AI level (or null), a SHA-256
commitment (or null) and a revealed server seed (or null), both in lowercase hex."""

SERIES = Field("series", "integer", "Which 12-deal series: 1, then one more on each restart.")

LEGACY_SCHEME = "python-random/0"
"""How matches created before verifiable dealing were dealt: from a secret integer seed."""
SCHEME_DOC = (
    f"How the deals are made: `{fairness.SCHEME}` (verifiable: docs/fairness.md) or "
    f"`{LEGACY_SCHEME}` (matches created before it)."
)
VERIFIABLE_DOC = (
    "Whether the server seed of each series is revealed when it ends, so that anyone can "
    "deal every deal again (docs/fairness.md)."
)
COMMITMENT_DOC = (
    "SHA-256 (lowercase hex) of the series' server seed, published before any client seed "
    "is given; null unless verifiable."
)
NEXT_COMMITMENT_DOC = (
    "SHA-256 of the next series' server seed, published before its client seeds; null "
    "unless verifiable."
)
REVEALED_SEED = Field(
    "server_seed",
    "seed",
    "A verifiable match: the ended series' server seed, revealed (hex), to check against "
    "its commitment. Else null.",
)


def commitments(seeds) -> dict:
    """The commitments the seeds publish: to this series' and the next one's server seed,
    where the match is verifiable. `seeds` is a Seeds, a state's SeriesSeeds (both have
    `server_seed`, `next_server_seed` and `verifiable`), or None."""
    if seeds is None or not seeds.verifiable:
        return {"commitment": None, "next_commitment": None}
    return {
        "commitment": fairness.commitment(bytes.fromhex(seeds.server_seed)),
        "next_commitment": fairness.commitment(bytes.fromhex(seeds.next_server_seed)),
    }


DEAL_NUMBER = Field("deal_number", "integer", "The deal within the series, 1 to 12.")


def _names(fields: tuple[Field, ...]) -> tuple[str, ...]:
    return tuple(spec.name for spec in fields)


class EventType:
    """What every event type declares (see the module's docstring). The facts default to
    false; a type says where one holds."""

    __slots__ = ()
    type: ClassVar[str]
    DOC: ClassVar[str]
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    PUBLIC: ClassVar[tuple[str, ...]] = ()

    def __getitem__(self, name: str):
        return getattr(self, name)

    @staticmethod
    def starts_turn(event) -> bool:
        """A new turn begins at this event: the turn clock starts again from it."""
        return False

    @staticmethod
    def starts_series(event) -> bool:
        """Deal 1 of a series was dealt: play begins."""
        return False

    @staticmethod
    def abandons_deal(event) -> bool:
        """A deal still being played ends here unsettled, counting for nobody."""
        return False

    @staticmethod
    def ends_match(event) -> bool:
        """Nothing more will happen in the match unless it is restarted."""
        return False


RULES_VERSION = 1
"""Raise it whenever a rule changes what `decide` does in a way its events cannot tell apart;
`match_created` records it. A change that comes with an event of its own needs none: freeing
a seat before deal 1 (seat_freed) replaced a player_left that evolve still applies as before,
so every stored match replays the same and a new match is still created as before."""


class SeriesStart(EventType):
    """An event that starts a series dealt from `seeds`: what it publishes of them."""

    __slots__ = ()

    @property
    def client_seed(self) -> str:
        return self.seeds.client_seed if self.seeds else ""

    @property
    def commitment(self) -> str | None:
        return commitments(self.seeds)["commitment"]

    @property
    def next_commitment(self) -> str | None:
        return commitments(self.seeds)["next_commitment"]


@dataclass(frozen=True, slots=True)
class MatchCreated(SeriesStart):
    type: ClassVar[str] = "match_created"
    DOC: ClassVar[str] = (
        "The match was created: how its deals are made, and, where they can be verified, "
        "the commitments to its server seeds. The seeds themselves stay on the server."
    )
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("scheme", "text", SCHEME_DOC),
        Field("verifiable", "boolean", VERIFIABLE_DOC),
        Field("commitment", "hash", COMMITMENT_DOC),
        Field("next_commitment", "hash", NEXT_COMMITMENT_DOC),
        Field("client_seed", "text", 'The owner\'s client seed ("" where none was given).'),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    seed: int
    rules: int = RULES_VERSION
    """The version of the rules the match is played by."""
    humans: int = 1
    """How many human seats (0 to humans - 1); stored only when more than one, so that a
    single-player match is stored exactly as before tables existed."""
    seeds: Seeds | None = None
    """Where the match deals by the verifiable scheme, its first seeds (server-only but for
    what `commitments` derives); None for a match dealt from `seed` as before."""

    @property
    def scheme(self) -> str:
        return fairness.SCHEME if self.seeds else LEGACY_SCHEME

    @property
    def verifiable(self) -> bool:
        return self.seeds is not None and self.seeds.verifiable

    def to_dict(self) -> dict:
        data = {"type": self.type, "seed": self.seed, "rules": self.rules}
        if self.humans != 1:
            data["humans"] = self.humans
        if self.seeds is not None:
            data.update(
                scheme=self.scheme,
                verifiable=self.seeds.verifiable,
                server_seed=self.seeds.server_seed,
                next_server_seed=self.seeds.next_server_seed,
                client_seed=self.seeds.client_seed,
            )
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "MatchCreated":
        seeds = None
        if data.get("server_seed") is not None:
            seeds = Seeds(
                data["server_seed"],
                data["next_server_seed"],
                data["client_seed"],
                data["verifiable"],
            )
        return cls(
            seed=data["seed"], rules=data["rules"], humans=data.get("humans", 1), seeds=seeds
        )


@dataclass(frozen=True, slots=True)
class DealStarted(EventType):
    type: ClassVar[str] = "deal_started"
    DOC: ClassVar[str] = (
        "A deal was dealt: the dealer opened with 1, and every seat holds five cards."
    )
    FIELDS: ClassVar[tuple[Field, ...]] = (
        SERIES,
        DEAL_NUMBER,
        Field("dealer", "seat", "The dealer's seat (0-3); the seat after the dealer acts first."),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
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

    @staticmethod
    def starts_turn(event) -> bool:
        return True

    @staticmethod
    def starts_series(event) -> bool:
        return event["deal_number"] == 1

    @classmethod
    def from_dict(cls, data: dict) -> "DealStarted":
        return cls(data["series"], data["deal_number"], data["dealer"], tuple(data["deck"]))


@dataclass(frozen=True, slots=True)
class ActionTaken(EventType):
    """A seat's action, with that seat's stake, the high stake, the pot and the turn after
    it."""

    type: ClassVar[str] = "action"
    DOC: ClassVar[str] = "A seat acted: looked, called, held, raised or folded."
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("seat", "seat", "The seat that acted."),
        Field("action", "action", "What the seat did."),
        Field("stake", "integer", "The seat's stake after the action."),
        Field(
            "high_stake",
            "integer",
            "The highest stake of any seat in this deal: calling matches it.",
        ),
        Field("pot", "integer", "Points staked by every seat in this deal so far."),
        Field("by", "actor", "Who acted for the seat: its player, the AI, or the clock."),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
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

    @staticmethod
    def starts_turn(event) -> bool:
        # A look keeps the turn; every other action passes it or ends the betting.
        return event["action"] != "look"

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
class DealEnded(EventType):
    type: ClassVar[str] = "deal_ended"
    DOC: ClassVar[str] = (
        "A deal was settled: who won its pot, and each seat's part as you may see it."
    )
    FIELDS: ClassVar[tuple[Field, ...]] = (
        SERIES,
        DEAL_NUMBER,
        Field(
            "outcome",
            "outcome",
            "`showdown` when two or more seats were left to compare hands, `uncontested` "
            "when all but one folded.",
        ),
        Field("winners", "seats", "The seats that won this deal and split its pot."),
        Field("seats", "seat_results", "The four seats, in seat order."),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
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
class MatchFinished(EventType):
    type: ClassVar[str] = "match_finished"
    DOC: ClassVar[str] = "The series is over: all 12 deals were played, or a seat resigned."
    FIELDS: ClassVar[tuple[Field, ...]] = (
        SERIES,
        Field(
            "winners",
            "seats",
            "The seats with the highest total: the match's winners (after a resignation, "
            "the leaders among the other seats).",
        ),
        Field("totals", "points", "Each seat's total points this series, in seat order, exact."),
        REVEALED_SEED,
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    series: int
    winners: tuple[int, ...]
    totals: tuple[Fraction, ...]
    server_seed: str | None = None
    """The series' server seed, revealed as it ends: a verifiable match only."""

    @staticmethod
    def ends_match(event) -> bool:
        return True

    def to_dict(self) -> dict:
        data = {
            "type": self.type,
            "series": self.series,
            "winners": list(self.winners),
            "totals": [str(total) for total in self.totals],
        }
        if self.server_seed is not None:
            data["server_seed"] = self.server_seed
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "MatchFinished":
        return cls(
            data["series"],
            tuple(data["winners"]),
            tuple(Fraction(total) for total in data["totals"]),
            data.get("server_seed"),
        )


@dataclass(frozen=True, slots=True)
class MatchRestarted(SeriesStart):
    type: ClassVar[str] = "match_restarted"
    DOC: ClassVar[str] = "A new series began: every total is zero again."
    FIELDS: ClassVar[tuple[Field, ...]] = (
        SERIES,
        Field(
            "ai_level",
            "ai_level",
            "The AI seats' level from this series on, where the restart changed it; null "
            "where it stayed as it was (and in matches restarted before levels were recorded).",
        ),
        Field(
            "server_seed",
            "seed",
            "A verifiable match restarted before its series ended: that series' server seed, "
            "revealed (hex). Else null.",
        ),
        Field("commitment", "hash", "A verifiable match: the new series' commitment, else null."),
        Field("next_commitment", "hash", NEXT_COMMITMENT_DOC),
        Field("client_seed", "text", "The restarter's client seed for the new series."),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    series: int
    ai_level: str | None = None
    """The new AI level, where the restart changed it: stored only then, so that a restart
    that keeps the level is stored exactly as before levels were recorded."""
    server_seed: str | None = None
    """The ended series' server seed, revealed here if it ended with this restart."""
    seeds: Seeds | None = None
    """A match dealt by the verifiable scheme: the new series' seeds (its server seed is the
    one committed to as the next; `next_server_seed` the one after it)."""

    @staticmethod
    def abandons_deal(event) -> bool:
        return True

    def to_dict(self) -> dict:
        data = {"type": self.type, "series": self.series}
        if self.ai_level is not None:
            data["ai_level"] = self.ai_level
        if self.server_seed is not None:
            data["server_seed"] = self.server_seed
        if self.seeds is not None:
            data.update(
                new_server_seed=self.seeds.server_seed,
                next_server_seed=self.seeds.next_server_seed,
                client_seed=self.seeds.client_seed,
                verifiable=self.seeds.verifiable,
            )
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "MatchRestarted":
        seeds = None
        if data.get("new_server_seed") is not None:
            seeds = Seeds(
                data["new_server_seed"],
                data["next_server_seed"],
                data["client_seed"],
                data["verifiable"],
            )
        return cls(data["series"], data.get("ai_level"), data.get("server_seed"), seeds)


@dataclass(frozen=True, slots=True)
class Resigned(EventType):
    """A seat gave the match up. An unfinished deal is abandoned and counts for nobody; the
    match_finished that follows names the winners."""

    type: ClassVar[str] = "resigned"
    DOC: ClassVar[str] = (
        "A seat gave the match up; the match_finished that follows names the winners."
    )
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("seat", "seat", "The seat that gave the match up."),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    seat: int

    @staticmethod
    def abandons_deal(event) -> bool:
        return True

    def to_dict(self) -> dict:
        return {"type": self.type, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: dict) -> "Resigned":
        return cls(seat=data["seat"])


@dataclass(frozen=True, slots=True)
class PlayerJoined(EventType):
    """A human took the next open seat of a waiting table."""

    type: ClassVar[str] = "player_joined"
    DOC: ClassVar[str] = "A human took an open seat of a waiting table."
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("seat", "seat", "The seat the human took."),
        Field("name", "text", "The human's name."),
        Field("client_seed", "text", 'The human\'s client seed ("" where none was given).'),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    seat: int
    name: str
    client_seed: str = ""

    def to_dict(self) -> dict:
        data = {"type": self.type, "seat": self.seat, "name": self.name}
        if self.client_seed:
            data["client_seed"] = self.client_seed
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "PlayerJoined":
        return cls(seat=data["seat"], name=data["name"], client_seed=data.get("client_seed", ""))


@dataclass(frozen=True, slots=True)
class PlayerLeft(EventType):
    """A human left: the AI plays the seat for the rest of the match. `abandoned` is true
    when no human is left at an unfinished match, which then ends with no winners."""

    type: ClassVar[str] = "player_left"
    DOC: ClassVar[str] = "A human left the table: the AI plays the seat from now on."
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("seat", "seat", "The seat the AI plays from now on."),
        Field(
            "abandoned",
            "boolean",
            "No human is left: the match ends `abandoned`, with no winners.",
        ),
        REVEALED_SEED,
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    seat: int
    abandoned: bool = False
    server_seed: str | None = None
    """The series' server seed, revealed when the match is abandoned: a verifiable match
    only."""

    @staticmethod
    def abandons_deal(event) -> bool:
        return event["abandoned"]

    @staticmethod
    def ends_match(event) -> bool:
        return event["abandoned"]

    def to_dict(self) -> dict:
        data = {"type": self.type, "seat": self.seat, "abandoned": self.abandoned}
        if self.server_seed is not None:
            data["server_seed"] = self.server_seed
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "PlayerLeft":
        return cls(data["seat"], data["abandoned"], data.get("server_seed"))


@dataclass(frozen=True, slots=True)
class SeatFreed(EventType):
    """A human other than the owner left a table before its first deal: the seat is open
    again, and the next join takes it (the same human may). Leaving after deal 1 has started
    is `player_left`, and stored logs from before this event replay as they always did."""

    type: ClassVar[str] = "seat_freed"
    DOC: ClassVar[str] = (
        "A human left a waiting table before deal 1: the seat is open again for anyone."
    )
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field(
            "seat",
            "seat",
            "The seat its human left before deal 1: open again, for the next join.",
        ),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    seat: int

    def to_dict(self) -> dict:
        return {"type": self.type, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: dict) -> "SeatFreed":
        return cls(seat=data["seat"])


@dataclass(frozen=True, slots=True)
class SeatsFilled(EventType):
    """A waiting table's owner chose `fill_after`, and it ran out before every human seat
    was taken: the AI took the open seats, and plays them for the whole match. Deal 1 is
    dealt right after, by its own event."""

    type: ClassVar[str] = "seats_filled"
    DOC: ClassVar[str] = (
        "A waiting table's `fill_after` ran out: the AI took the open seats, and deal 1 starts."
    )
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("seats", "seats", "The open seats the AI took, for the whole match."),
    )
    PUBLIC: ClassVar[tuple[str, ...]] = _names(FIELDS)
    seats: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"type": self.type, "seats": list(self.seats)}

    @classmethod
    def from_dict(cls, data: dict) -> "SeatsFilled":
        return cls(seats=tuple(data["seats"]))


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
    | SeatsFilled
)

EVENT_TYPES: dict[str, type[EventType]] = {
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
        SeatsFilled,
    )
}


"""The catalogue: every event type by its name, in the order a match meets them."""


def event_from_dict(data: dict) -> Event:
    return EVENT_TYPES[data["type"]].from_dict(data)


def starts_turn(event: Event | Mapping) -> bool:
    return EVENT_TYPES[event["type"]].starts_turn(event)


def starts_series(event: Event | Mapping) -> bool:
    return EVENT_TYPES[event["type"]].starts_series(event)


def abandons_deal(event: Event | Mapping) -> bool:
    return EVENT_TYPES[event["type"]].abandons_deal(event)


def ends_match(event: Event | Mapping) -> bool:
    return EVENT_TYPES[event["type"]].ends_match(event)


class Notice(StrEnum):
    """What the player's own stream announces, across all their matches (its SSE `event:`
    names)."""

    YOUR_TURN = "your_turn"
    MATCH_STARTED = "match_started"
    MATCH_FINISHED = "match_finished"
    WATCHERS_CHANGED = "watchers_changed"
