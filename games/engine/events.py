"""Events: the facts a match is made of, and the one catalogue of their types.

A match's state is the replay of its events. Every event converts to and from a JSON-ready
dict whose `type` names it; the dicts hold everything, including the deck and the seed.

Each event type is one dataclass, declared once, that says for everyone else:
- `type`, its name on the wire, in stored dicts and as the SSE `event:` name;
- `DOC`, what it means;
- for each of its fields (`public(...)` or `private(...)`), its kind and its meaning, and
  whether it may leave the server. `FIELDS` (the public fields with their kinds and docs:
  the API's serializers and schema are built from them; `views.event_view` sends these and
  nothing else, and for deal_ended only the hands the viewer may see), `PUBLIC` (their
  names), `to_dict` and `from_dict` are derived from those declarations;
- the facts the layers above act on: `starts_turn`, `starts_series`, `abandons_deal`,
  `ends_match`. A fact reads fields by name, so it answers alike for an event and for its
  public view (a dict): `starts_turn(event)` and `starts_turn(view)` agree.

Events carry everything `evolve` needs, so that replaying a stored match never runs rule
logic again: a rule changed later cannot change how an old match replays. How events were
stored in earlier shapes, and how those read back, is the codec's business (codec.py).
"""

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import ClassVar

from . import fairness
from .cards import HUMAN_SEAT
from .commands import Seeds
from .declare import (
    Declared,
    Field,
    declared,
    private,
    public,
    public_as,
    public_fields,
)
from .vocabulary import Actor

SERIES = Field("series", "integer", "Which 12-deal series: 1, then one more on each restart.")
DEAL_NUMBER = Field("deal_number", "integer", "The deal within the series, 1 to 12.")


EVENT_TYPES: dict[str, type["EventType"]] = {}
"""The catalogue: every event type by its name, in the order a match meets them."""


def event_type(cls):
    """Declares an event type: its dataclass, its public fields derived from its fields'
    declarations, and its place in the catalogue."""
    cls = declared(cls)
    cls.FIELDS = public_fields(cls)
    cls.PUBLIC = tuple(spec.name for spec in cls.FIELDS)
    EVENT_TYPES[cls.type] = cls
    return cls


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
REVEALED_SEED_DOC = (
    "A verifiable match: the ended series' server seed, revealed (hex), to check against "
    "its commitment. Else null."
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


class EventType(Declared):
    """What every event type declares (see the module's docstring). The facts default to
    false; a type says where one holds."""

    __slots__ = ()
    type: ClassVar[str]
    DOC: ClassVar[str]
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    PUBLIC: ClassVar[tuple[str, ...]] = ()

    def __getitem__(self, name: str):
        return getattr(self, name)

    def to_dict(self) -> dict:
        return {"type": self.type, **Declared.to_dict(self)}

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


@event_type
class MatchCreated(SeriesStart):
    type: ClassVar[str] = "match_created"
    DOC: ClassVar[str] = (
        "The match was created: how its deals are made, and, where they can be verified, "
        "the commitments to its server seeds. The seeds themselves stay on the server."
    )
    seed: int = private("integer", "The secret integer the deals are made from, as before.")
    rules: int = private(
        "integer", "The version of the rules the match is played by.", default=RULES_VERSION
    )
    humans: int = private(
        "integer",
        "How many human seats (0 to humans - 1); stored only when more than one, so that a "
        "single-player match is stored exactly as before tables existed.",
        default=1,
        stored_when_set=True,
    )
    seeds: Seeds | None = private(
        "seeds",
        "Where the match deals by the verifiable scheme, its first seeds (server-only but "
        "for what `commitments` derives); None for a match dealt from `seed` as before.",
        default=None,
        stored_when_set=True,
        stored_as={
            "verifiable": "verifiable",
            "server_seed": "server_seed",
            "next_server_seed": "next_server_seed",
            "client_seed": "client_seed",
            "held": "held",
        },
        publishes=(
            Field("scheme", "text", SCHEME_DOC),
            Field("verifiable", "boolean", VERIFIABLE_DOC),
            Field("commitment", "hash", COMMITMENT_DOC),
            Field("next_commitment", "hash", NEXT_COMMITMENT_DOC),
            Field("client_seed", "text", 'The owner\'s client seed ("" where none was given).'),
        ),
    )
    ai_level: str | None = private(
        "ai_level",
        "The AI seats' level at creation; None in matches created before levels were "
        "recorded (their ai_level column is the truth).",
        default=None,
        stored_when_set=True,
    )
    players: tuple[str | None, ...] = private(
        "players",
        "Who sits at each seat at creation, by player id: the owner at seat 0, None at each "
        "human seat still open, an AI persona at each AI seat; () in matches created before "
        "seats were recorded (their seat rows are the truth).",
        default=(),
        stored_when_set=True,
    )

    @property
    def scheme(self) -> str:
        return fairness.SCHEME if self.seeds else LEGACY_SCHEME

    @property
    def verifiable(self) -> bool:
        return self.seeds is not None and self.seeds.verifiable


@event_type
class DealStarted(EventType):
    type: ClassVar[str] = "deal_started"
    DOC: ClassVar[str] = (
        "A deal was dealt: the dealer opened with 1, and every seat holds five cards."
    )
    series: int = public_as(SERIES)
    deal_number: int = public_as(DEAL_NUMBER)
    dealer: int = public("seat", "The dealer's seat (0-3); the seat after the dealer acts first.")
    deck: tuple[str, ...] = private(
        "cards", "The shuffled deck: card i goes to seat (dealer + 1 + i) mod 4."
    )

    @staticmethod
    def starts_turn(event) -> bool:
        return True

    @staticmethod
    def starts_series(event) -> bool:
        return event["deal_number"] == 1


@event_type
class ActionTaken(EventType):
    """A seat's action, with that seat's stake, the high stake, the pot and the turn after
    it."""

    type: ClassVar[str] = "action"
    DOC: ClassVar[str] = "A seat acted: looked, called, held, raised or folded."
    seat: int = public("seat", "The seat that acted.")
    action: str = public("action", "What the seat did.")
    stake: int = public("integer", "The seat's stake after the action.")
    high_stake: int = public(
        "integer", "The highest stake of any seat in this deal: calling matches it."
    )
    pot: int = public("integer", "Points staked by every seat in this deal so far.")
    # Left out of ==: the other fields say what happened, and tests compare those; the
    # golden replays check `turn`, and the table tests check `by`.
    turn: int | None = private(
        "seat",
        "The seat to act next, or None when the betting is over.",
        default=None,
        compare=False,
    )
    by: str | None = public(
        "actor",
        "Who acted for the seat: its player, the AI, or the clock.",
        default=None,
        compare=False,
        stored_when_set=True,
    )
    """None in events stored before tables existed; `actor` reads those."""

    @staticmethod
    def starts_turn(event) -> bool:
        # A look keeps the turn; every other action passes it or ends the betting.
        return event["action"] != "look"

    @property
    def actor(self) -> str:
        if self.by is not None:
            return self.by
        # Before tables, the one human sat at HUMAN_SEAT and the AI everywhere else.
        return Actor.PLAYER if self.seat == HUMAN_SEAT else Actor.AI


@declared
class SeatResult(Declared):
    """One seat's part in a settled deal. `hand` and `category` are the full record;
    `shown` says whether the table saw them (a showdown hand that had not folded)."""

    seat: int = private("seat", "The seat.")
    hand: tuple[str, ...] = private("cards", "Its five cards.")
    category: str = private("text", "What its hand is worth.")
    stake: int = private("integer", "What it staked in the deal.")
    payout: Fraction = private("fraction", "Its share of the pot.")
    delta: Fraction = private("fraction", "What the deal won or lost it: payout - stake.")
    folded: bool = private("boolean", "Whether it folded.")
    shown: bool = private("boolean", "Whether the table saw its hand.")


@event_type
class DealEnded(EventType):
    type: ClassVar[str] = "deal_ended"
    DOC: ClassVar[str] = (
        "A deal was settled: who won its pot, and each seat's part as you may see it."
    )
    series: int = public_as(SERIES)
    deal_number: int = public_as(DEAL_NUMBER)
    outcome: str = public(
        "outcome",
        "`showdown` when two or more seats were left to compare hands, `uncontested` "
        "when all but one folded.",
    )
    winners: tuple[int, ...] = public("seats", "The seats that won this deal and split its pot.")
    seats: tuple[SeatResult, ...] = public(
        "seat_results", "The four seats, in seat order.", items=SeatResult
    )


@event_type
class MatchFinished(EventType):
    type: ClassVar[str] = "match_finished"
    DOC: ClassVar[str] = "The series is over: all 12 deals were played, or a seat resigned."
    series: int = public_as(SERIES)
    winners: tuple[int, ...] = public(
        "seats",
        "The seats with the highest total: the match's winners (after a resignation, "
        "the leaders among the other seats).",
    )
    totals: tuple[Fraction, ...] = public(
        "points", "Each seat's total points this series, in seat order, exact."
    )
    server_seed: str | None = public("seed", REVEALED_SEED_DOC, default=None, stored_when_set=True)

    @staticmethod
    def ends_match(event) -> bool:
        return True


@event_type
class MatchRestarted(SeriesStart):
    type: ClassVar[str] = "match_restarted"
    DOC: ClassVar[str] = "A new series began: every total is zero again."
    series: int = public_as(SERIES)
    ai_level: str | None = public(
        "ai_level",
        "The AI seats' level from this series on, where the restart changed it; null "
        "where it stayed as it was (and in matches restarted before levels were recorded).",
        default=None,
        stored_when_set=True,
    )
    server_seed: str | None = public(
        "seed",
        "A verifiable match restarted before its series ended: that series' server seed, "
        "revealed (hex). Else null.",
        default=None,
        stored_when_set=True,
    )
    seeds: Seeds | None = private(
        "seeds",
        "A match dealt by the verifiable scheme: the new series' seeds (its server seed is "
        "the one committed to as the next; `next_server_seed` the one after it).",
        default=None,
        stored_when_set=True,
        stored_as={
            "server_seed": "new_server_seed",
            "next_server_seed": "next_server_seed",
            "client_seed": "client_seed",
            "verifiable": "verifiable",
        },
        publishes=(
            Field(
                "commitment", "hash", "A verifiable match: the new series' commitment, else null."
            ),
            Field("next_commitment", "hash", NEXT_COMMITMENT_DOC),
            Field("client_seed", "text", "The restarter's client seed for the new series."),
        ),
    )

    @staticmethod
    def abandons_deal(event) -> bool:
        return True


@event_type
class Resigned(EventType):
    """A seat gave the match up. An unfinished deal is abandoned and counts for nobody; the
    match_finished that follows names the winners."""

    type: ClassVar[str] = "resigned"
    DOC: ClassVar[str] = (
        "A seat gave the match up; the match_finished that follows names the winners."
    )
    seat: int = public("seat", "The seat that gave the match up.")

    @staticmethod
    def abandons_deal(event) -> bool:
        return True


@event_type
class PlayerJoined(EventType):
    """A human took the next open seat of a waiting table."""

    type: ClassVar[str] = "player_joined"
    DOC: ClassVar[str] = "A human took an open seat of a waiting table."
    seat: int = public("seat", "The seat the human took.")
    name: str = public("text", "The human's name.")
    client_seed: str = public(
        "text",
        'The human\'s client seed ("" where none was given).',
        default="",
        stored_when_set=True,
    )
    player: str | None = private(
        "player",
        "The human's player id; None in joins stored before seats were recorded.",
        default=None,
        stored_when_set=True,
    )


@event_type
class PlayerLeft(EventType):
    """A human left: the AI plays the seat for the rest of the match. `abandoned` is true
    when no human is left at an unfinished match, which then ends with no winners."""

    type: ClassVar[str] = "player_left"
    DOC: ClassVar[str] = "A human left the table: the AI plays the seat from now on."
    seat: int = public("seat", "The seat the AI plays from now on.")
    abandoned: bool = public(
        "boolean",
        "No human is left: the match ends `abandoned`, with no winners.",
        default=False,
    )
    server_seed: str | None = public("seed", REVEALED_SEED_DOC, default=None, stored_when_set=True)

    @staticmethod
    def abandons_deal(event) -> bool:
        return event["abandoned"]

    @staticmethod
    def ends_match(event) -> bool:
        return event["abandoned"]


@event_type
class SeatFreed(EventType):
    """A human other than the owner left a table before its first deal: the seat is open
    again, and the next join takes it (the same human may). Leaving after deal 1 has started
    is `player_left`, and stored logs from before this event replay as they always did."""

    type: ClassVar[str] = "seat_freed"
    DOC: ClassVar[str] = (
        "A human left a waiting table before deal 1: the seat is open again for anyone."
    )
    seat: int = public(
        "seat", "The seat its human left before deal 1: open again, for the next join."
    )


@event_type
class SeatsFilled(EventType):
    """A waiting table's owner chose `fill_after`, and it ran out before every human seat
    was taken: the AI took the open seats, and plays them for the whole match. Deal 1 is
    dealt right after, by its own event."""

    type: ClassVar[str] = "seats_filled"
    DOC: ClassVar[str] = (
        "A waiting table's `fill_after` ran out: the AI took the open seats, and deal 1 starts."
    )
    seats: tuple[int, ...] = public("seats", "The open seats the AI took, for the whole match.")
    players: tuple[str, ...] = private(
        "players",
        "The AI personas that took `seats`, by player id in the same order; () in fills "
        "stored before seats were recorded.",
        default=(),
        stored_when_set=True,
    )


@event_type
class SeedRevealed(EventType):
    """A tournament closed: the server seed its matches were dealt from, held back when each
    match's series ended (it deals every entrant's match), is revealed in each of them."""

    type: ClassVar[str] = "seed_revealed"
    DOC: ClassVar[str] = (
        "The match's tournament closed: the server seed its series was dealt from, which "
        "every entrant's match shares, is revealed now."
    )
    series: int = public_as(SERIES)
    server_seed: str = public(
        "seed", "The series' server seed (hex), to check against its commitment."
    )


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
    | SeedRevealed
)


def event_from_dict(data: Mapping) -> Event:
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
