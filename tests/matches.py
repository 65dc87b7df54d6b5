"""Matches played through the services, for tests of the layers below the API."""

import random

from games.engine import Status, legal_actions
from games.match import log as match_log
from games.match.commands import match_create, match_join, match_move
from games.match.loaded import LoadedMatch
from games.models import Match


def play(match: LoadedMatch, *, deals: int, seed: int = 0) -> Match:
    """Play random legal actions at seat 0 until `deals` deals have ended; the match row."""
    rng = random.Random(seed)
    while True:
        state, row = match.state, match.row
        ended = state.deal_number - (state.status is Status.IN_DEAL)
        if ended >= deals or state.status is Status.FINISHED:
            return row
        if state.status is Status.DEAL_OVER:
            match = match_move(move="next_deal", match_id=row.id, player=row.owner)
        else:
            action = rng.choice(legal_actions(state, 0))
            match = match_move(move="act", match_id=row.id, player=row.owner, action=action)


def stored_seqs(match_id) -> list[int]:
    """The seq of every event stored for the match, in order, as the rows number them."""
    return [seq for seq, _, _ in match_log.match_event_lines(match_id=match_id)]


def stored_events(match_id) -> list[dict]:
    """Every event stored for the match, in order, as the engine's dicts."""
    return [event.to_dict() for _, event in match_log.match_events(match_id=match_id)]


def stored_deck(match_id, series: int, deal_number: int) -> tuple[str, ...]:
    """The deck of one deal, from its deal_started event: the one place it is stored."""
    (_, started), *_ = match_log.deal_events(
        match_id=match_id, series=series, deal_number=deal_number
    )
    return started.deck


def seated(people, humans: int, seed: int = 3, turn_seconds: int | None = None) -> LoadedMatch:
    """A table of `humans` of `people` (the first owns it), every seat taken: deal 1 begun."""
    match = match_create(
        owner=people[0], ai_level="easy", seed=seed, humans=humans, turn_seconds=turn_seconds
    )
    for guest in people[1:humans]:
        match = match_join(match_id=match.row.id, player=guest, invite=match.row.invite)
    return match


def play_until(match: LoadedMatch, people, stop) -> LoadedMatch:
    """Random legal play by whichever present human's turn it is, until `stop(state)`."""
    rng = random.Random(1)
    by_seat = {seat: people[seat] for seat in range(match.state.humans)}
    while not stop(match.state):
        state = match.state
        if state.status is Status.DEAL_OVER:
            match = match_move(move="next_deal", match_id=match.row.id, player=by_seat[0])
        else:
            seat = state.deal.turn
            action = rng.choice(legal_actions(state, seat))
            match = match_move(
                move="act", match_id=match.row.id, player=by_seat[seat], action=action
            )
    return match
