"""The tables room's writes: quick play, which seats a player at the open table that fits
and has waited longest, or opens one that fits."""

from dataclasses import replace

from django.db import transaction

from games import ai
from games.engine import DomainError
from games.match.commands import TABLE_TURN_SECONDS, answering, match_create, match_seat
from games.match.loaded import LoadedMatch
from games.tables import store
from games.tables.filters import TableFilters
from players.models import Player
from players.services import player_kind_locked

QUICK_PLAY_HUMANS = 2
"""The size of a table quick play opens when the player names none."""
QUICK_PLAY_FILL_AFTER = 60
"""How long a table quick play opens waits for humans before the AI fills it."""


@transaction.atomic
def match_quick_play(
    *, player: Player, filters: TableFilters, client_seed: str = ""
) -> LoadedMatch:
    """Seat `player` at the open table that fits `filters` and has waited longest, or, when
    none does, open one that fits: `filters.humans` seats (QUICK_PLAY_HUMANS if not named),
    the AI at `filters.ai_level`, the default turn clock or the limit if shorter, verifiable
    if `filters.verifiable`, and the AI filling the seats still open after
    QUICK_PLAY_FILL_AFTER seconds.

    Quick plays take their turns (store.quick_play_lock), so two that find no table at
    once do not both open one: the second finds the table the first opened and sits there.
    The turn comes before the look: one that looked first could hold the lock of a table it
    had found full while it waited for the turn, whose holder waited for that table (a
    deadlock). A table the player already sits at is never chosen;
    if their own other quick play seated them at the chosen table meanwhile, that table is
    the answer, unchanged.

    A bot sits only at a table that allows bots, whatever its filters say, and never opens
    one (`no_table_for_bots`): a table for humans is theirs to open (docs/bots.md)."""
    store.quick_play_lock()
    bot = player_kind_locked(player=player) == Player.Kind.BOT
    if bot:
        filters = replace(filters, bots=True)
    match = _quick_play_seat(player=player, filters=filters, client_seed=client_seed)
    if match is not None:
        return match
    if bot:
        raise DomainError("no_table_for_bots", "No open table that allows bots fits; try later.")
    humans = filters.humans or QUICK_PLAY_HUMANS
    turn_seconds = TABLE_TURN_SECONDS
    if filters.max_turn_seconds is not None:
        turn_seconds = min(turn_seconds, filters.max_turn_seconds)
    return match_create(
        owner=player,
        ai_level=filters.ai_level or ai.DEFAULT_AI_LEVEL,
        humans=humans,
        turn_seconds=turn_seconds,
        client_seed=client_seed,
        verifiable=filters.verifiable,
        open=True,
        bots=bool(filters.bots),
        fill_after=QUICK_PLAY_FILL_AFTER,
    )


def _quick_play_seat(
    *, player: Player, filters: TableFilters, client_seed: str
) -> LoadedMatch | None:
    match = store.table_lock_oldest_fitting(filters=filters, player=player)
    if match is None:
        return None
    mine = str(player.pk)
    if any(seat.player == mine for seat in match.seats):
        match.viewer_seat = next(n for n, seat in enumerate(match.seats) if seat.player == mine)
        return match
    return match_seat(match=match, player=player, client_seed=client_seed)


match_quick_play_answer = answering(match_quick_play)
