"""The review: every decision of a seat, each legal action's exact value, the points lost,
a class and an accuracy (docs/review.md). Standard library and the engine only.

An action's value is the seat's expected score for the deal if it takes that action and
then plays the rest of the deal as `hard` would (looking at its next turn), against the
tables the other seats are taken to play (`opponents`): the coach's values
(`coach.hand_values`), exact Fractions. After the seat has looked, its hand is known and
the values are the coach's. Before it has looked, each action's value is the average over
the hands it could hold, each weighted by its chance given the public betting under those
tables, of that action's value with the hand; `look` is worth the average of the best
action once the hand is known, so looking never loses points. The hands the others held
are never read: the values are expectations over them, never a replay of what was dealt
(`deal_inputs` hands on the seat's own hand only once the seat looked at it).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from games.engine import (
    SEATS,
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    MatchState,
    evolve,
)
from games.engine.state import hands_from_deck
from games.engine.vocabulary import Action, Actor

from . import coach_tables
from .coach import Tables, hand_values, history_weight
from .hands import MULTIPLICITY, N_HANDS, hand_class
from .strategy import SCALE, load_strategy
from .tables import engine_legal
from .tree import TREE

TABLE_OF_LEVEL = {"easy": "easy", "normal": "normal", "hard": "hard", "expert": "hard"}
"""The table a review takes an AI seat of each level to play: expert's is its blueprint."""
BASIS_OF_LEVEL = {
    "hard": "exact",
    "normal": "model",
    "easy": "model_looks_averaged",
    "expert": "blueprint",
}
"""What the values are exact against, for an AI seat of each level: `exact` (hard plays its
table), `model` (normal's play as rows of 65,535ths), `model_looks_averaged` (easy's, its
looks averaged out, as the coach plays it), `blueprint` (expert's: hard, as its model of the
table is not the review's to see)."""
HUMAN = "human_as_hard"
"""The basis for another human's seat: taken to play hard."""

GRADES: tuple[tuple[str, Fraction | None], ...] = (
    ("best", Fraction(0)),
    ("good", Fraction(1, 20)),
    ("inaccuracy", Fraction(3, 20)),
    ("mistake", Fraction(2, 5)),
    ("blunder", None),
)
"""Each class with the most points a decision of it loses (docs/review.md): best loses
nothing, good at most 0.05 of a point, an inaccuracy at most 0.15, a mistake at most 0.4, a
blunder more."""
ACCURACY_SCALE = Fraction(1, 4)
"""A decision's accuracy is 100 x s / (s + points lost), s this: docs/review.md says why."""


def grade(lost: Fraction) -> str:
    for name, most in GRADES:
        if most is None or lost <= most:
            return name
    raise AssertionError("the last class has no bound")


def accuracy(losses: Sequence[Fraction]) -> Fraction | None:
    """The mean of 100 s / (s + lost) over the decisions, exactly; None for none."""
    if not losses:
        return None
    s = ACCURACY_SCALE
    return sum((100 * s / (s + lost) for lost in losses), Fraction(0)) / len(losses)


@dataclass(frozen=True, slots=True)
class Opponent:
    seat: int
    table: str
    """The table the values take the seat to play: hard, normal or easy."""
    basis: str
    """How that table stands to the seat's play: a BASIS_OF_LEVEL value or HUMAN."""


def opponents(seat: int, ai_level: str, ai_seats: Sequence[bool]) -> tuple[Opponent, ...]:
    """The other seats as a review of `seat` takes them: an AI seat plays its level's table
    (`ai_seats`: whether the AI plays each seat as the deal starts), a human hard."""
    return tuple(
        Opponent(other, TABLE_OF_LEVEL[ai_level], BASIS_OF_LEVEL[ai_level])
        if ai_seats[other]
        else Opponent(other, "hard", HUMAN)
        for other in range(SEATS)
        if other != seat
    )


def tables_by_position(seat: int, dealer: int, others: Sequence[Opponent]) -> Tables:
    """The coach's `Tables` (by position from the dealer) for a review of `seat`."""
    by_seat = {opponent.seat: opponent.table for opponent in others}
    by_seat[seat] = "hard"  # the seat itself: continues as hard; its entry is not read
    return tuple(by_seat[(dealer + position) % SEATS] for position in range(SEATS))


@dataclass(frozen=True, slots=True)
class Values:
    """The legal actions' values at one decision, and hard's mix of them (what a seat that
    looked, or knew its hand, and played hard there would expect)."""

    actions: tuple[tuple[str, Fraction], ...]
    hard_mix: Fraction

    @property
    def best(self) -> Fraction:
        return max(value for _, value in self.actions)

    def of(self, action: str) -> Fraction:
        return dict(self.actions)[action]


def looked_values(tables: Tables, node: int, hand: int, mapped) -> Values:
    """The values at `node` of the position to act, holding `hand` (the coach's), every legal
    action's: a fold while matched, which the tree leaves out, loses the stake."""
    return _hand_values(tables, node, hand, mapped)


def _with_the_matched_fold(node: int, hand: int, values: list[Fraction]) -> Values:
    position = TREE.player[node]
    row = load_strategy().rows[node][hand]
    by_action = dict(zip(TREE.actions[node], values, strict=True))
    mix = sum((Fraction(x, SCALE) * v for x, v in zip(row, values, strict=True)), Fraction(0))
    legal = tuple(a for a in engine_legal(TREE, node, looked=True) if a != Action.LOOK)
    stake = TREE.stakes[node][position]
    return Values(tuple((a, by_action.get(a, Fraction(-stake))) for a in legal), mix)


def blind_values(tables: Tables, node: int) -> Values:
    """As `worked_blind_values`, read from the shipped file where it holds them (every seat's
    first decision against each AI table: games/ai/review_blind.py)."""
    from .review_blind import precomputed  # which imports this module

    shipped = precomputed().get((tables, node))
    return shipped if shipped is not None else worked_blind_values(tables, node)


@lru_cache(maxsize=4096)
def worked_blind_values(tables: Tables, node: int) -> Values:
    """The values at `node` of the position to act before it has looked: each betting
    action's the mean over its hands, weighted by their chance given the betting, of its
    value with that hand; look's the mean of the best one. Kept: they depend only on the
    tables and the node, and a deal's first decision is always blind (121 hands' values,
    about a tenth of a second the first time)."""
    mapped = coach_tables.mapped()
    weights = [history_weight(tables, node, hand, mapped) for hand in range(N_HANDS)]
    if not any(weights):
        # The tables never bet as the others did, whatever the seat holds: its hands count
        # as dealt (as the coach's values then count the deals alone).
        weights = list(MULTIPLICITY)
    per_hand = [
        (_hand_values(tables, node, hand, mapped) if weight else None, weight)
        for hand, weight in enumerate(weights)
    ]
    total = sum(weight for _, weight in per_hand)
    legal = engine_legal(TREE, node, looked=False)
    sums = dict.fromkeys(legal, Fraction(0))
    mix = Fraction(0)
    for values, weight in per_hand:
        if not weight:
            continue
        w = Fraction(weight, total)
        for action, value in values.actions:
            sums[action] += w * value
        sums[Action.LOOK] += w * values.best
        mix += w * values.hard_mix
    return Values(tuple((action, sums[action]) for action in legal), mix)


def _hand_values(tables: Tables, node: int, hand: int, mapped) -> Values:
    values, _ = hand_values(tables, node, hand, mapped)
    return _with_the_matched_fold(node, hand, values)


@dataclass(frozen=True, slots=True)
class Decision:
    """One action of the reviewed seat."""

    action: str
    by: str
    """Who acted: the seat's player, the clock (for a present human), or the AI (after the
    human left)."""
    looked: bool
    """Whether the seat knew its hand: the values before are over the hands it could hold."""
    values: Values | None
    """None for a move the AI made after the human left: what the seat knew is not theirs."""
    lost: Fraction | None
    """The best value minus the chosen one's; None where there are no values."""
    grade: str | None
    """A class for the player's own moves only (`by` player)."""

    @property
    def counted(self) -> bool:
        return self.grade is not None


@dataclass(frozen=True, slots=True)
class DealReview:
    series: int
    deal_number: int
    seat: int
    dealer: int
    opponents: tuple[Opponent, ...]
    decisions: tuple[Decision, ...]

    @property
    def lost(self) -> Fraction:
        return sum((d.lost for d in self.decisions if d.counted), Fraction(0))

    @property
    def accuracy(self) -> Fraction | None:
        return accuracy([d.lost for d in self.decisions if d.counted])


def review_deal(
    dealer: int,
    seat: int,
    actions: Iterable[tuple[int, str, str]],
    hand: Sequence[str] | None,
    others: Sequence[Opponent],
    *,
    series: int = 1,
    deal_number: int = 1,
) -> DealReview:
    """The review of `seat`'s decisions in a deal dealt by `dealer` and played as `actions`
    ((seat, action, by), looks included); `hand`: the seat's cards, read only for decisions
    after it looked (None if it never did)."""
    tables = tables_by_position(seat, dealer, others)
    mapped = coach_tables.mapped()
    node, looked, decisions = 0, False, []
    for actor, action, by in actions:
        if actor == seat:
            decisions.append(_decision(tables, node, looked, hand, action, by, mapped))
        if action == Action.LOOK:
            looked = looked or actor == seat
            continue
        if TREE.player[node] != (actor - dealer) % SEATS:
            raise ValueError(f"seat {actor} acted out of turn at {TREE.history[node]!r}")
        if action not in TREE.actions[node]:
            break  # a fold while matched: it ends the deal
        node = TREE.children[node][TREE.actions[node].index(action)]
    return DealReview(series, deal_number, seat, dealer, tuple(others), tuple(decisions))


def _decision(tables, node, looked, hand, action, by, mapped) -> Decision:
    if by == Actor.AI:
        return Decision(action, by, looked, None, None, None)
    if looked:
        if hand is None:
            raise ValueError("a decision after looking needs the seat's hand")
        values = looked_values(tables, node, hand_class(hand), mapped)
    else:
        values = blind_values(tables, node)
    lost = values.best - values.of(action)
    return Decision(action, by, looked, values, lost, grade(lost) if by == Actor.PLAYER else None)


@dataclass(frozen=True, slots=True)
class DealInputs:
    """What a review of one seat reads of a deal, and nothing more: the public betting with
    who acted, the seat's own hand only if its player (or the clock for them) looked at it,
    and how the other seats are taken to play."""

    series: int
    deal_number: int
    dealer: int
    actions: tuple[tuple[int, str, str], ...]
    hand: tuple[str, ...] | None
    others: tuple[Opponent, ...]


def deal_inputs(
    events: Iterable[Event], seat: int, ai_level: str
) -> Iterable[tuple[DealInputs, DealEnded]]:
    """Each ended deal of a match's `events` as a review of `seat` reads it. `ai_level`: the
    match's level where its events do not record it (matches created before they did); a
    restart that names another level counts from its series on."""
    state = MatchState()
    level = ai_level
    dealt: DealStarted | None = None
    ai_seats: tuple[bool, ...] = ()
    actions: list[tuple[int, str, str]] = []
    seen = False
    for event in events:
        evolve(state, event)
        named = getattr(event, "ai_level", None)
        if named:
            level = named
        if isinstance(event, DealStarted):
            dealt, actions, seen = event, [], False
            ai_seats = tuple(state.ai_plays(s) for s in range(SEATS))
        elif isinstance(event, ActionTaken) and dealt is not None:
            actions.append((event.seat, event.action, event.actor))
            if event.seat == seat and event.action == Action.LOOK and event.actor != Actor.AI:
                seen = True
        elif isinstance(event, DealEnded) and dealt is not None:
            hand = hands_from_deck(dealt.deck, dealt.dealer)[seat] if seen else None
            inputs = DealInputs(
                event.series,
                event.deal_number,
                dealt.dealer,
                tuple(actions),
                hand,
                opponents(seat, level, ai_seats),
            )
            yield inputs, event
            dealt = None


def review_events(events: Iterable[Event], seat: int, ai_level: str) -> "MatchReview":
    """The review of every ended deal of a match's `events` for `seat`."""
    return MatchReview(
        seat,
        tuple(
            review_deal(
                i.dealer,
                seat,
                i.actions,
                i.hand,
                i.others,
                series=i.series,
                deal_number=i.deal_number,
            )
            for i, _ in deal_inputs(events, seat, ai_level)
        ),
    )


@dataclass(frozen=True, slots=True)
class MatchReview:
    seat: int
    deals: tuple[DealReview, ...]

    @property
    def decisions(self) -> list[Decision]:
        return [d for deal in self.deals for d in deal.decisions]

    @property
    def lost(self) -> Fraction:
        return sum((deal.lost for deal in self.deals), Fraction(0))

    @property
    def accuracy(self) -> Fraction | None:
        return accuracy([d.lost for d in self.decisions if d.counted])

    def counts(self) -> dict[str, int]:
        counts = {name: 0 for name, _ in GRADES}
        for decision in self.decisions:
            if decision.counted:
                counts[decision.grade] += 1
        return counts
