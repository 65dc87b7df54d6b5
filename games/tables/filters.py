"""Which open tables a player asks for: a value the lobby, quick play and the HTTP layer
share, apart from the store that turns it into SQL."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableFilters:
    """Which open tables fit: with exactly `humans` human seats, a turn clock of at most
    `max_turn_seconds` (a table without a clock never fits a limit), AI seats at `ai_level`,
    and verifiable or not as `verifiable` says: a verifiable table shows every folded hand
    to all once its series ends, which nobody is to meet unasked, so by default none fits;
    and allowing bots or not as `bots` says, for the same reason (docs/bots.md). None: any."""

    humans: int | None = None
    max_turn_seconds: int | None = None
    ai_level: str | None = None
    verifiable: bool | None = False
    bots: bool | None = False
