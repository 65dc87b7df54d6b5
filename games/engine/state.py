"""Match state: what `replay(events)` builds. Snapshots convert to and from JSON-ready dicts
that carry their format version: an older format still loads, a newer one is refused."""

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from .cards import SEATS, sort_hand
from .events import DealEnded

SNAPSHOT_FORMAT = 6
"""1: no `format` and no `rules` key (the rules version was 1). 2: both. 3: a `table` key
(humans, joined, left, clocked). 4: the table's `vacated` seats too. 5: its `filled` seats
too. 6: seeds `held` for a tournament's close. A state without table data is still written
as format 2, one with no seat vacated as format 3, one with no seat filled as format 4 at
most, and one whose seeds are not held as format 5 at most, so that every snapshot is
stored exactly as before unless a seat is free again or filled by the AI, or the match is a
tournament's (which older code would misread)."""
MATCH_DEALS = 12
OPENING_STAKE = 1
MAX_STAKE = 4


class Status(StrEnum):
    NOT_STARTED = "not_started"
    WAITING = "waiting"
    """A table waits for its humans; deal 1 starts when the last one joins."""
    IN_DEAL = "in_deal"
    DEAL_OVER = "deal_over"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    """Every human left before the match finished: nobody plays it any more."""

    @property
    def ended(self) -> bool:
        """Nothing more happens in the match unless it is restarted."""
        return self in (Status.FINISHED, Status.ABANDONED)


class Outcome(StrEnum):
    """How a deal ended: a showdown, every other seat folding, or cut short by a restart
    (abandoned deals have no deal_ended event; the stored deal rows record them)."""

    SHOWDOWN = "showdown"
    UNCONTESTED = "uncontested"
    ABANDONED = "abandoned"


class SnapshotFormatError(ValueError):
    """A stored snapshot in a format this code cannot read: written by newer code."""


# At most 5**5 orders of five cards exist, so sorting each once and remembering it is cheap.
_sorted_hand = lru_cache(maxsize=4096)(sort_hand)


# For each dealer, where each seat's first card lies in the deck.
_FIRST_CARDS = tuple(
    tuple((seat - dealer - 1) % SEATS for seat in range(SEATS)) for dealer in range(SEATS)
)


def hands_from_deck(deck: tuple[str, ...], dealer: int) -> tuple[tuple[str, ...], ...]:
    """Card i of the deck goes to seat (dealer + 1 + i) mod 4."""
    deck = tuple(deck)  # slices of a tuple are hashable, as the cache needs
    return tuple([_sorted_hand(deck[first::SEATS]) for first in _FIRST_CARDS[dealer]])


@dataclass(slots=True)
class DealState:
    series: int
    deal_number: int
    dealer: int
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    stakes: list[int]
    folded: list[bool]
    looked: list[bool]
    acted: list[bool]
    """Whether each seat has acted since the deal began and since the last raise."""
    history: list[tuple[int, str]]
    """Every action of the deal so far, as (seat, action), looks included."""
    turn: int | None
    high_stake: int
    pot: int
    result: DealEnded | None = None

    @classmethod
    def opening(
        cls, series: int, deal_number: int, dealer: int, deck: tuple[str, ...]
    ) -> "DealState":
        stakes = [0] * SEATS
        stakes[dealer] = OPENING_STAKE
        return cls(
            series=series,
            deal_number=deal_number,
            dealer=dealer,
            deck=deck,
            hands=hands_from_deck(deck, dealer),
            stakes=stakes,
            folded=[False] * SEATS,
            looked=[False] * SEATS,
            acted=[False] * SEATS,
            history=[],
            turn=(dealer + 1) % SEATS,
            high_stake=OPENING_STAKE,
            pot=OPENING_STAKE,
        )

    def to_dict(self) -> dict:
        return {
            "series": self.series,
            "number": self.deal_number,  # the stored key of formats 1 to 3
            "dealer": self.dealer,
            "deck": list(self.deck),
            "stakes": list(self.stakes),
            "folded": list(self.folded),
            "looked": list(self.looked),
            "acted": list(self.acted),
            "history": [list(entry) for entry in self.history],
            "turn": self.turn,
            "high_stake": self.high_stake,
            "pot": self.pot,
            "ended": self.result is not None,
        }

    @classmethod
    def from_dict(cls, data: dict, result: DealEnded | None) -> "DealState":
        deck = tuple(data["deck"])
        return cls(
            series=data["series"],
            deal_number=data["number"],
            dealer=data["dealer"],
            deck=deck,
            hands=hands_from_deck(deck, data["dealer"]),
            stakes=list(data["stakes"]),
            folded=list(data["folded"]),
            looked=list(data["looked"]),
            acted=list(data["acted"]),
            history=[(seat, action) for seat, action in data["history"]],
            turn=data["turn"],
            high_stake=data["high_stake"],
            pot=data["pot"],
            result=result if data["ended"] else None,
        )


def _zero_totals() -> list[Fraction]:
    return [Fraction(0)] * SEATS


def _no_seats() -> list[bool]:
    return [False] * SEATS


@dataclass(slots=True)
class SeriesSeeds:
    """The seeds a match dealt by the verifiable scheme deals its series from."""

    scheme: str
    verifiable: bool
    server_seed: str
    """This series' server seed, hex: secret until the series ends (where verifiable)."""
    next_server_seed: str
    """The next series' server seed, hex, committed to already."""
    client_seeds: list[str]
    """By seat; "" where none was given."""
    revealed: bool = False
    """The series ended and its server seed was revealed."""
    held: bool = False
    """A tournament's match: the seed is revealed at the tournament's close (seed_revealed),
    not when the series ends."""

    def to_dict(self) -> dict:
        held = {"held": True} if self.held else {}  # states stored before it stay the same
        return {
            "scheme": self.scheme,
            "verifiable": self.verifiable,
            "server_seed": self.server_seed,
            "next_server_seed": self.next_server_seed,
            "client_seeds": list(self.client_seeds),
            "revealed": self.revealed,
            **held,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "SeriesSeeds":
        return cls(**{**data, "client_seeds": list(data["client_seeds"])})


def _snapshot_format(table: dict | None, seeds: "SeriesSeeds | None") -> int:
    """The oldest format that holds `table` and `seeds`: see SNAPSHOT_FORMAT."""
    if seeds is not None and seeds.held:
        return SNAPSHOT_FORMAT
    if not table:
        return 2
    if "filled" in table:
        return 5
    return 4 if "vacated" in table else 3


@dataclass(slots=True)
class MatchState:
    version: int = 0
    """How many events built this state: the seq of the last one."""
    seed: int | None = None
    rules: int | None = None
    """The rules version of the match, from match_created."""
    status: Status = Status.NOT_STARTED
    series: int = 0
    totals: list[Fraction] = field(default_factory=_zero_totals)
    deal: DealState | None = None
    """The current deal, or the one just settled while the status is deal_over or finished."""
    last_result: DealEnded | None = None
    """The most recent settled deal of this series."""
    winners: tuple[int, ...] | None = None
    humans: int = 1
    """Seats 0 to humans - 1 are human seats; the others are AI."""
    joined: int = 1
    """How many human seats were ever handed out, in seat order (the owner's from the
    start): seats 0 to joined - 1, of which the `vacated` ones are open again."""
    vacated: list[bool] = field(default_factory=_no_seats)
    """The human seats freed before deal 1 (seat_freed), which the next joins take first."""
    left: list[bool] = field(default_factory=_no_seats)
    """The humans who left: the AI plays their seats."""
    filled: list[bool] = field(default_factory=_no_seats)
    """The human seats the AI took when the table's `fill_after` ran out (seats_filled):
    AI seats for the whole match, never a human's."""
    clocked: list[bool] = field(default_factory=_no_seats)
    """Whether the clock took a seat's last action."""
    seeds: SeriesSeeds | None = None
    """The verifiable scheme's seeds; None for a match dealt as before it, from `seed`."""

    @property
    def deal_number(self) -> int:
        return self.deal.deal_number if self.deal else 0

    def seated(self, seat: int) -> bool:
        """Whether a human holds `seat` (they may have left since: see `left`)."""
        return seat < self.joined and not self.vacated[seat] and not self.filled[seat]

    def open_seat(self) -> int:
        """The human seat the next join takes: the lowest one freed, else the next one never
        handed out."""
        return next((seat for seat in range(self.joined) if self.vacated[seat]), self.joined)

    def ai_plays(self, seat: int) -> bool:
        """Whether the AI acts for `seat`: an AI seat, or a human seat whose human left."""
        return seat >= self.humans or self.left[seat] or self.filled[seat]

    def away(self, seat: int) -> bool:
        """A human seat whose human left, or for whom the clock took the last action."""
        human = seat < self.humans and not self.filled[seat]
        return human and (self.left[seat] or self.clocked[seat])

    def _table(self) -> dict | None:
        if self.humans == 1 and not any(self.left) and not any(self.clocked):
            return None
        return {
            "humans": self.humans,
            "joined": self.joined,
            "left": list(self.left),
            "clocked": list(self.clocked),
            **({"vacated": list(self.vacated)} if any(self.vacated) else {}),
            **({"filled": list(self.filled)} if any(self.filled) else {}),
        }

    def to_dict(self) -> dict:
        table = self._table()
        return {
            "format": _snapshot_format(table, self.seeds),
            **({"table": table} if table else {}),
            "version": self.version,
            "seed": self.seed,
            "rules": self.rules,
            "status": self.status.value,
            "series": self.series,
            "totals": [str(total) for total in self.totals],
            "deal": self.deal.to_dict() if self.deal else None,
            "last_result": self.last_result.to_dict() if self.last_result else None,
            "winners": list(self.winners) if self.winners is not None else None,
            # Only where there are: a match dealt as before stores the snapshot it stored.
            **({"seeds": self.seeds.to_dict()} if self.seeds else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "MatchState":
        snapshot_format = data.get("format", 1)
        if snapshot_format not in (1, 2, 3, 4, 5, SNAPSHOT_FORMAT):
            raise SnapshotFormatError(
                f"snapshot format {snapshot_format!r}; this code reads 1 to {SNAPSHOT_FORMAT}"
            )
        last_result = DealEnded.from_dict(data["last_result"]) if data["last_result"] else None
        table = data.get("table") or {}
        return cls(
            version=data["version"],
            seed=data["seed"],
            rules=data["rules"] if snapshot_format >= 2 else 1,
            status=Status(data["status"]),
            series=data["series"],
            totals=[Fraction(total) for total in data["totals"]],
            deal=DealState.from_dict(data["deal"], last_result) if data["deal"] else None,
            last_result=last_result,
            winners=tuple(data["winners"]) if data["winners"] is not None else None,
            humans=table.get("humans", 1),
            joined=table.get("joined", 1),
            left=list(table.get("left", _no_seats())),
            clocked=list(table.get("clocked", _no_seats())),
            seeds=SeriesSeeds.from_dict(data["seeds"]) if "seeds" in data else None,
            vacated=list(table.get("vacated", _no_seats())),
            filled=list(table.get("filled", _no_seats())),
        )
