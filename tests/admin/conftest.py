import random

import pytest

from games.engine import MatchState, Status, legal_actions
from games.models import Deal, Match, MatchEvent
from games.services import match_act, match_create, match_next_deal, match_restart
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


@pytest.fixture
def restarted_match(make_match):
    """A match restarted over and over until it holds `events` events, the way a player who
    keeps restarting makes one: restarted_match(events=13_000). One real restart is copied,
    series after series, straight into the tables, since thousands of service calls would
    take minutes."""

    def make(*, events: int) -> Match:
        match = make_match(deals=0)
        match = match_restart(match_id=match.id, player=match.owner)
        block = list(match.events.filter(seq__gte=_restart_seq(match)).order_by("seq"))
        deal = match.deals.get(series=2)
        new_events, new_deals, seq, series = [], [], match.version, 2
        while seq < events:
            series += 1
            for event in block:
                seq += 1
                payload = {**event.payload}
                if "series" in payload:
                    payload["series"] = series
                new_events.append(
                    MatchEvent(match=match, seq=seq, type=event.type, payload=payload)
                )
            new_deals.append(
                Deal(match=match, series=series, number=1, dealer=deal.dealer, deck=deal.deck)
            )
        MatchEvent.objects.bulk_create(new_events, batch_size=2000)
        Deal.objects.bulk_create(new_deals, batch_size=2000)
        Match.objects.filter(pk=match.pk).update(version=seq, series=series)
        match.refresh_from_db()
        return match

    return make


def _restart_seq(match: Match) -> int:
    return match.events.filter(type="match_restarted").values_list("seq", flat=True).get()
