"""The coaching room's write: the coach's advice for a player's current decision, given
from the worker's cache or computed within its cap (games.coaching.cache), and logged as a
Hint row (docs/ai.md)."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from games.ai.coach import Hint, advice_key, coach
from games.coaching import cache, store
from games.engine import HUMAN_SEAT, DomainError, legal_actions, observe, require_turn
from games.match import store as match_store
from players.models import Player


@dataclass(frozen=True, slots=True)
class GivenHint:
    """The coach's advice as a player is given it: the point of the match it is for, and the
    AI level its values are against. HintSerializer is its shape."""

    version: int
    series: int
    deal_number: int
    ai_level: str
    advice: Hint


@transaction.atomic
def hint_create(
    *, match_id: uuid.UUID, player: Player, shaped: Callable[[GivenHint], dict]
) -> dict:
    """The coach's advice for the owner's current decision, as `shaped` gives it (the API's
    HintSerializer: the answer's body), logged so as a Hint row: the row keeps what the
    player got. The match itself is not written: its version stays as it was. The advice
    comes from the worker's cache when any match asked it before, else is computed within
    the worker's cap (games.coaching.cache: 503 `hints_busy` past it)."""
    match = match_store.match_load(match_id=match_id, player=player)
    if match is None:
        raise DomainError("not_found", "No such match.")
    if player.kind == Player.Kind.BOT:
        raise DomainError("not_for_bots", "A bot plays without the coach's hints.")
    if match.row.tournament_id is not None:
        raise DomainError(
            "hints_not_allowed", "A tournament's match is played without the coach's hints."
        )
    played = sum(seat.kind != Player.Kind.AI for seat in match.seats)
    if played > 1:
        raise DomainError(
            "hints_not_allowed",
            f"Hints are for matches where every other seat is an AI seat; this one has {played} "
            "seats of humans or bots.",
        )
    state, level = match.state, match.row.ai_level
    require_turn(state, HUMAN_SEAT)  # the engine's own refusals of the action asked about
    view, legal = observe(state, HUMAN_SEAT), legal_actions(state, HUMAN_SEAT)
    advice = cache.cached_advice(advice_key(view, legal, level), lambda: coach(view, legal, level))
    body = shaped(GivenHint(state.version, state.series, state.deal_number, level, advice))
    store.hint_insert(match=match, player=player, state=state, advice=body)
    return body
