"""A deal's review as the API shows it (docs/review.md, "The review over the API"), worked
out from a match's events: per human seat, every decision with each legal action's exact
value (games.ai.review) and the position exactly as the seat saw it. No Django: the worker
stores what this returns, and a read only adds up what is stored.

What a seat's body holds is what that seat knew: the public betting, who acted, the stakes,
and its own hand only for decisions after its player (or the clock for them) looked at it.
"""

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from games.ai.review import (
    GRADES,
    DealReview,
    Decision,
    accuracy,
    grade,
    opponents,
    review_deal,
)
from games.engine import SEATS, ActionTaken, DealEnded, DealStarted, Event, MatchState, evolve
from games.engine.state import hands_from_deck
from games.engine.vocabulary import Action, Actor

Key = tuple[int, int]
"""A deal's (series, deal number)."""


@dataclass(slots=True)
class _Move:
    seat: int
    action: str
    by: str
    pot: int
    high_stake: int
    seats: list[dict]
    """Each seat's stake, folded and looked just before the move."""


@dataclass(slots=True)
class EndedDeal:
    """What the reviews of one ended deal read of it."""

    key: Key
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    ai_seats: tuple[bool, ...]
    level: str
    moves: list[_Move]

    def reviewed_seats(self) -> list[int]:
        """The human seats as the deal started, and any seat a human decided for (its player
        or the clock): AI seats have nothing to review."""
        humans = {seat for seat in range(SEATS) if not self.ai_seats[seat]}
        return sorted(humans | {m.seat for m in self.moves if m.by != Actor.AI})

    def seen(self, seat: int) -> bool:
        """Whether the seat's player (or the clock for them) looked at its hand."""
        return any(
            m.seat == seat and m.action == Action.LOOK and m.by != Actor.AI for m in self.moves
        )


def ended_deals(events: Iterable[Event], ai_level: str, wanted: set[Key] | None = None):
    """Each ended deal of a match's `events` (only the `wanted` keys, if given), in order.
    `ai_level`: the match's level where its events do not record it."""
    return Replay(ai_level).deals(enumerate(events, 1), wanted)


@dataclass(slots=True)
class Replay:
    """A match's events replayed up to its event `seq`: the state after it, the level its
    events name, and the deal being played. Kept by a process from one deal's end to the
    next (games.review.commands), so that each deal's end replays that deal's events only,
    not the match's."""

    level: str
    state: MatchState = field(default_factory=MatchState)
    seq: int = 0
    started: Key | None = None
    current: EndedDeal | None = None
    ended: set[Key] = field(default_factory=set)
    """Every deal that ended among the events replayed."""

    def deals(
        self, events: Iterable[tuple[int, Event]], wanted: set[Key] | None = None
    ) -> Iterator[EndedDeal]:
        """Each deal that ends among the match's next `events` (seq, event), in order; only the
        `wanted` keys, if given, of the deals that start among them. `seq` is brought up to
        date before each deal is yielded, so a caller may stop after any."""
        state = self.state
        for seq, event in events:
            named = getattr(event, "ai_level", None)
            if named:
                self.level = named
            if isinstance(event, DealStarted):
                evolve(state, event)
                self.seq = seq
                self.started = key = (state.deal.series, state.deal.deal_number)
                self.current = None
                if wanted is None or key in wanted:
                    self.current = EndedDeal(
                        key,
                        event.dealer,
                        hands_from_deck(event.deck, event.dealer),
                        tuple(state.ai_plays(s) for s in range(SEATS)),
                        self.level,
                        [],
                    )
                continue
            current = self.current
            if isinstance(event, ActionTaken) and current is not None:
                current.moves.append(_move(state, event))
            evolve(state, event)
            self.seq = seq
            if isinstance(event, DealEnded):
                if self.started is not None:
                    self.ended.add(self.started)
                if current is not None:
                    self.current = None
                    yield current


def _move(state: MatchState, event: ActionTaken) -> _Move:
    deal = state.deal
    return _Move(
        event.seat,
        event.action,
        event.actor,
        deal.pot,
        deal.high_stake,
        [
            {
                "seat": s,
                "stake": deal.stakes[s],
                "folded": deal.folded[s],
                "looked": deal.looked[s],
            }
            for s in range(SEATS)
        ],
    )


def deal_body(deal: EndedDeal) -> dict[str, dict]:
    """The stored review of an ended deal: by seat (as a string, a JSON key), each reviewed
    seat's body."""
    return {str(seat): seat_body(deal, seat) for seat in deal.reviewed_seats()}


def seat_body(deal: EndedDeal, seat: int) -> dict:
    hand = deal.hands[seat] if deal.seen(seat) else None
    others = opponents(seat, deal.level, deal.ai_seats)
    actions = [(m.seat, m.action, m.by) for m in deal.moves]
    series, number = deal.key
    review = review_deal(
        deal.dealer, seat, actions, hand, others, series=series, deal_number=number
    )
    decisions, mine = [], (i for i, m in enumerate(deal.moves) if m.seat == seat)
    for decision, at in zip(review.decisions, mine, strict=True):
        decisions.append(_decision(decision, deal.moves, at, hand))
    return {
        "series": series,
        "deal_number": number,
        "dealer": deal.dealer,
        "opponents": [{"seat": o.seat, "table": o.table, "basis": o.basis} for o in others],
        **figures(_losses(review)),
        "decisions": decisions,
    }


def _losses(review: DealReview) -> list[Fraction]:
    return [d.lost for d in review.decisions if d.counted]


def _decision(decision: Decision, moves: Sequence[_Move], at: int, hand) -> dict:
    move, values = moves[at], decision.values
    best = values.best if values else None
    return {
        "action": decision.action,
        "by": decision.by,
        "looked": decision.looked,
        "grade": decision.grade,
        "lost": exact(decision.lost),
        "lost_rounded": rounded(decision.lost, 2),
        "values": [
            {"action": a, "value": str(v), "value_rounded": rounded(v, 2), "best": v == best}
            for a, v in (values.actions if values else ())
        ],
        "position": {
            "hand": list(hand) if decision.looked and hand is not None else None,
            "pot": move.pot,
            "high_stake": move.high_stake,
            "seats": move.seats,
            "moves": [{"seat": m.seat, "action": m.action, "by": m.by} for m in moves[:at]],
        },
    }


def exact(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


def rounded(value: Fraction | None, places: int) -> float | None:
    return None if value is None else float(round(value, places))


def figures(losses: Sequence[Fraction]) -> dict:
    """Points lost, accuracy and the classes' counts of classed decisions' `losses`."""
    lost = sum(losses, Fraction(0))
    score = accuracy(losses)
    counts = dict.fromkeys((name for name, _ in GRADES), 0)
    for each in losses:
        counts[grade(each)] += 1
    return {
        "lost": str(lost),
        "lost_rounded": rounded(lost, 2),
        "accuracy": exact(score),
        "accuracy_rounded": rounded(score, 1),
        "counts": counts,
    }


def seat_review(seat: int, deals: Sequence[dict]) -> dict:
    """A seat's review over its deals' stored bodies: the sums, and the deals as stored."""
    losses = [
        Fraction(d["lost"]) for deal in deals for d in deal["decisions"] if d["grade"] is not None
    ]
    bases = {o["basis"]: None for deal in deals for o in deal["opponents"]}
    return {"seat": seat, **figures(losses), "bases": list(bases), "deals": list(deals)}


def reviews(events: Iterable[Event], ai_level: str, wanted: set[Key] | None = None) -> Iterator:
    """(key, stored body) of each ended deal of `events` (the `wanted` ones, if given)."""
    for deal in ended_deals(events, ai_level, wanted):
        yield deal.key, deal_body(deal)


def reviews_after(
    replay: Replay, events: Iterable[tuple[int, Event]], wanted: set[Key]
) -> Iterator:
    """As `reviews`, going on from `replay` with the match's next `events` (seq, event): (key,
    stored body) of each `wanted` deal that ends among them. Every deal's moves are kept as
    it is played, since a deal that starts in one call may end, and be due, in the next."""
    for deal in replay.deals(events):
        if deal.key in wanted:
            yield deal.key, deal_body(deal)
