"""The match aggregate as a request holds it: its row, the state the row stores, its seats,
and who it was loaded for. The store loads and writes it; every room and the HTTP layer pass
it around, so it lives apart from the store, which only the rooms may call."""

import secrets
from dataclasses import dataclass, field

from games.engine import Event, MatchState
from games.models import Match


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat, as a MatchView shows it: `name` and `player` are None at a human
    seat nobody has taken yet."""

    name: str | None
    kind: str
    player: str | None
    """The player's id, as text."""


@dataclass(slots=True)
class LoadedMatch:
    """A match row with the state it stores, its seats in seat order, and the seat of the
    player it was loaded for."""

    row: Match
    state: MatchState
    seats: list[SeatInfo]
    viewer_seat: int | None = None
    """None when loaded for someone not seated (a join)."""
    appended: list[tuple[int, Event]] = field(default_factory=list)
    """The events this request appended, with their seqs; empty for a match only read."""
    watchers: int = 0
    """How many watch streams are open on the match, over every server process."""
    watch_code: str | None = None
    """The watch code this request drew: only its hash is stored, so only this answer can
    show it."""
    viewer_left_at: int | None = None
    """The seq of the player_left of the player it was loaded for, once they left the table:
    they read every later event as a live spectator (engine.views.with_eyes)."""

    def admits(self, invite: str) -> bool:
        """Whether `invite` lets its holder join the table (or see it before joining): an
        open table's seats are anyone's; a table's need its invite; a single-player match
        has none to give."""
        # compare_digest: the time taken says nothing about how much of a guess was right.
        return bool(self.row.invite) and (
            self.row.open or secrets.compare_digest(self.row.invite.encode(), invite.encode())
        )
