"""Who sits at each seat and the AI seats' level, projected from the events: the one
projection the append writes to the seat rows and the ai_level column, check_matches checks
them against and rebuild_projections rewrites them from. Whether the AI plays a seat, or its
human is away, is the match state's (`MatchState.ai_plays`, `away`), from the same events.

Logs written before the events carried player ids and levels say nothing of them: a seat or
the level is known from the first event that says who sits there or what the level is, and
until then its stored row is the truth."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .cards import SEATS
from .events import Event, MatchCreated, MatchRestarted, PlayerJoined, SeatFreed, SeatsFilled


def _nobody() -> list:
    return [None] * SEATS


@dataclass(slots=True)
class Seating:
    players: list[str | None] = field(default_factory=_nobody)
    """The player id at each seat; None at a human seat nobody holds (or not known yet)."""
    ai_level: str | None = None
    """None until known."""
    seats_known_from: list[int | None] = field(default_factory=_nobody)
    """By seat, the seq of the first event that said who sits there; None: none did yet."""
    level_known_from: int | None = None
    """The seq of the first event that said the AI level; None: none did yet."""

    @classmethod
    def of_rows(cls, players: Sequence[str | None], ai_level: str) -> "Seating":
        """The seating the stored rows hold, taken as the truth (seq 0): where an append starts."""
        return cls(list(players), ai_level, [0] * SEATS, 0)

    def place(self, seq: int, seat: int, player: str | None) -> None:
        self.players[seat] = player
        if self.seats_known_from[seat] is None:
            self.seats_known_from[seat] = seq

    def follow(self, first_seq: int, events: Iterable[Event]) -> "Seating":
        """Apply `events`, numbered from `first_seq`, in place; returns itself."""
        for seq, event in enumerate(events, start=first_seq):
            seat(self, seq, event)
        return self

    def set_level(self, seq: int, ai_level: str) -> None:
        self.ai_level = ai_level
        if self.level_known_from is None:
            self.level_known_from = seq


def _created(seating: Seating, seq: int, event: MatchCreated) -> None:
    for seat, player in enumerate(event.players):
        seating.place(seq, seat, player)
    if event.ai_level is not None:
        seating.set_level(seq, event.ai_level)


def _joined(seating: Seating, seq: int, event: PlayerJoined) -> None:
    if event.player is not None:
        seating.place(seq, event.seat, event.player)


def _freed(seating: Seating, seq: int, event: SeatFreed) -> None:
    seating.place(seq, event.seat, None)  # open again: anyone may sit there, its last player too


def _filled(seating: Seating, seq: int, event: SeatsFilled) -> None:
    for seat, player in zip(event.seats, event.players, strict=False):
        seating.place(seq, seat, player)


def _restarted(seating: Seating, seq: int, event: MatchRestarted) -> None:
    if event.ai_level is not None:  # a restart that keeps the level says nothing of it
        seating.set_level(seq, event.ai_level)


SEATERS = {
    MatchCreated: _created,
    PlayerJoined: _joined,
    SeatFreed: _freed,
    SeatsFilled: _filled,
    MatchRestarted: _restarted,
}
"""How each event type that seats someone or sets the level changes the seating; every other
type changes nothing (a player who left keeps their seat: the AI plays it, they watch)."""


def seat(seating: Seating, seq: int, event: Event) -> Seating:
    """Apply event number `seq` to `seating` (in place) and return it."""
    seater = SEATERS.get(type(event))
    if seater is not None:
        seater(seating, seq, event)
    return seating


def seating(events) -> Seating:
    """The seating a match's (seq, event) pairs project to, from nothing."""
    projected = Seating()
    for seq, event in events:
        seat(projected, seq, event)
    return projected
