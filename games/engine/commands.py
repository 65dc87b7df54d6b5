"""Commands: what a seat or the table asks for. `decide` turns them into events."""

from dataclasses import dataclass

from .vocabulary import Actor


@dataclass(frozen=True, slots=True)
class StartMatch:
    seed: int
    humans: int = 1
    """With more than one, the match waits for the others to join before deal 1."""
    seeds: "Seeds | None" = None
    """Deal by the verifiable scheme from these seeds; None deals as matches did before it
    (from `seed` alone)."""
    ai_level: str | None = None
    """The AI seats' level, recorded in match_created."""
    players: tuple[str | None, ...] = ()
    """Who sits at each seat, by player id (None: a human seat still open), recorded in
    match_created."""


@dataclass(frozen=True, slots=True)
class Seeds:
    """What a match dealt by the verifiable scheme starts from (docs/fairness.md): the
    server seeds of its first series and of the next one (hex, secret until revealed), the
    owner's client seed, and whether the seeds are ever revealed."""

    server_seed: str
    next_server_seed: str
    client_seed: str = ""
    verifiable: bool = True
    held: bool = False
    """A tournament's match (docs/tournaments.md): its server seed deals every entrant's
    match, so the series' end reveals nothing; the tournament's close reveals it
    (RevealSeed)."""


@dataclass(frozen=True, slots=True)
class Act:
    """A seat's look, call, hold, raise or fold."""

    seat: int
    action: str
    by: Actor = Actor.PLAYER
    """Who acts for the seat."""


@dataclass(frozen=True, slots=True)
class NextDeal:
    pass


@dataclass(frozen=True, slots=True)
class Restart:
    seat: int = 0
    """Who asks: at a shared table only the owner, at seat 0, may restart."""
    ai_level: str | None = None
    """The AI seats' new level, where the restart changes it; recorded in match_restarted."""
    client_seed: str = ""
    """The restarter's client seed for the new series (a verifiable match)."""
    next_server_seed: str | None = None
    """A verifiable match: the server seed of the series after the new one (hex), whose
    commitment the new series' view publishes."""


@dataclass(frozen=True, slots=True)
class Resign:
    """A seat gives the match up: it ends at once, and that seat cannot be among its winners."""

    seat: int


@dataclass(frozen=True, slots=True)
class Join:
    """A human takes the next open seat of a waiting table."""

    name: str
    client_seed: str = ""
    """Mixed into the dealing of a verifiable match, after its commitment was published."""
    player: str | None = None
    """The joining player's id, recorded in player_joined (never shown)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A human leaves: the AI plays the seat from now on."""

    seat: int


@dataclass(frozen=True, slots=True)
class FillSeats:
    """The AI takes every open seat of a waiting table, and deal 1 starts (the clock, when
    the table's `fill_after` runs out)."""

    players: tuple[str, ...] = ()
    """The AI personas free to take the open seats, by player id: the first open seat takes
    the first, and so on; recorded in seats_filled."""


@dataclass(frozen=True, slots=True)
class RevealSeed:
    """The close of a tournament reveals the held server seed of one of its matches."""


Command = StartMatch | Act | NextDeal | Restart | Resign | Join | Leave | FillSeats | RevealSeed
