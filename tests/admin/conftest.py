import random

import pytest

from games.engine import MatchState, Status, legal_actions
from games.models import Match
from games.services import match_act, match_create, match_next_deal
from players.services import player_create


def play(match: Match, *, deals: int, seed: int = 0) -> Match:
    """Play random legal actions at seat 0 until `deals` deals have ended."""
    rng = random.Random(seed)
    while True:
        state = MatchState.from_dict(match.state)
        ended = state.deal_number - (state.status is Status.IN_DEAL)
        if ended >= deals or state.status is Status.FINISHED:
            return match
        if state.status is Status.DEAL_OVER:
            match = match_next_deal(match_id=match.id, player=match.owner)
        else:
            action = rng.choice(legal_actions(state, 0))
            match = match_act(match_id=match.id, player=match.owner, action=action)


@pytest.fixture
def make_match(db):
    """A seeded match of a new player, with `deals` deals played: make_match(deals=2)."""

    def make(*, seed: int = 1, deals: int = 0, name: str = "Roya") -> Match:
        player, _ = player_create(name=name)
        match = match_create(owner=player, ai_level="normal", seed=seed)
        return play(match, deals=deals, seed=seed)

    return make
