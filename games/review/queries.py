"""The review room's reads: a match's review as the player who reads it may see it, from the
stored reviews alone (two statements; a read never works a review out nor writes), and what
check_matches compares them with."""

import uuid
from collections.abc import Iterable

from games.engine import DomainError, Event
from games.match import store as match_store
from games.review import bodies, store
from players.models import Player


def review_answer(*, match_id: uuid.UUID, player: Player) -> dict:
    """The Review body (docs/review.md, "The review over the API") for `player`'s seat: 404
    to anyone else, 409 `review_not_yet` at a table of several humans before the match
    ended, 503 `review_pending` while any ended deal's review is not yet stored."""
    match = match_store.match_load(match_id=match_id, player=player)
    if match is None or match.viewer_seat is None:
        raise DomainError("not_found", "No such match.")
    state, seat = match.state, match.viewer_seat
    humans = [n for n, each in enumerate(match.seats) if each.kind != Player.Kind.AI]
    if len(humans) > 1 and not state.status.ended:
        raise DomainError(
            "review_not_yet",
            "At a table of several humans the review is shown once the match is over.",
        )
    rows = store.reviews_of(match_id=match_id)
    pending = sum(body is None for _, _, body in rows)
    if pending:
        raise DomainError(
            "review_pending", f"The review of {pending} deal(s) is being worked out; retry soon."
        )
    seeds = state.seeds
    revealed = bool(seeds and seeds.verifiable and seeds.revealed)
    seats = [seat, *(n for n in humans if n != seat and revealed)]
    reviewed = []
    for number in seats:
        # Another seat's decisions only where every hand it held may be seen: the deals of
        # the verifiable series that ended and revealed its seed (the current one).
        deals = [
            body[str(number)]
            for series, _, body in rows
            if str(number) in body and (number == seat or series == state.series)
        ]
        if number == seat or deals:
            reviewed.append(bodies.seat_review(number, deals))
    return {
        "id": match.row.id,
        "status": state.status.value,
        "ai_level": match.row.ai_level,
        "your_seat": seat,
        "seats": reviewed,
    }


def reviews_mismatches(*, match_id: uuid.UUID, events: Iterable[Event], ai_level: str) -> list[str]:
    """Where the match's stored reviews differ from the ones its events give (check_matches):
    only the stored ones are worked out again, so a check stays a replay and a few deals."""
    stored = {
        (series, number): body for series, number, body in store.reviews_stored(match_id=match_id)
    }
    if not stored:
        return []
    problems = []
    derived = dict(bodies.reviews(events, ai_level, wanted=set(stored)))
    for key, body in sorted(stored.items()):
        name = f"review of series {key[0]} deal {key[1]}"
        if key not in derived:
            problems.append(f"{name}: no such ended deal")
        elif derived[key] != body:
            problems.append(f"{name}: stored differs from the replay's")
    return problems
