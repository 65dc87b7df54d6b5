"""Cards, your play, the others' play: one deal's result split three ways (docs/skill.md).

With the four hands as dealt fixed, V_i(h) is seat i's expected result from the betting
history h on when every seat plays the `hard` strategy (each by its own hand). No chance is
left, so V is an exact fraction: the hard table's rows are integers summing to 65,535, and
V(h) = sum over the actions a of row[a] / 65,535 * V(h + a), down to the deal's results.

For each decision on the deal's actual path, by seat j at h choosing a, every seat i gets
Delta_i = V_i(h + a) - V_i(h). A seat's `cards` is V_i at the start, its `play` the sum of
its own decisions' Deltas, its `table` the sum of the other seats' decisions' Deltas; as the
Deltas telescope, result_i = cards + play + table exactly.

Two kinds of move are outside the hard table, and both have a V all the same:
- a look: the table is for a seat that has looked (`Strategy.choose` always looks first,
  it is free), so looking changes no V, and its Delta is 0;
- a fold while already matched (only the dealer's first turn when nobody raised): the hard
  table never folds there, but the move ends the deal at once (every other seat still in
  has acted and matched), so no AI seat ever has to answer it, and its V is its result.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.engine import SEATS, ActionTaken, DealEnded, DealStarted, Event, evaluate
from games.engine.state import DealState, MatchState, hands_from_deck

from .hands import hand_class
from .strategy import SCALE, Strategy, load_strategy
from .tree import TREE, build_tree

_FULL_TREE = build_tree(matched_fold=True)
"""Every legal betting history, the matched folds included, by position (dealer first)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """One seat's share of a deal's result: what its cards were worth against hard play, what
    its own decisions added, and what the other seats' decisions added."""

    cards: Fraction
    play: Fraction
    table: Fraction

    @property
    def result(self) -> Fraction:
        return self.cards + self.play + self.table

    def to_dict(self) -> dict[str, str]:
        return {"cards": str(self.cards), "play": str(self.play), "table": str(self.table)}


def deal_skill(
    dealer: int,
    hands: Sequence[Sequence[str]],
    history: Sequence[tuple[int, str]],
    strategy: Strategy | None = None,
) -> tuple[Skill, ...]:
    """Each seat's Skill for a deal with these `hands` (by seat) that was dealt by `dealer`
    and played as `history` ((seat, action), looks included, as the engine records it)."""
    zero = Fraction(0)
    play, table = [zero] * SEATS, [zero] * SEATS
    deltas, node, values = _deltas(dealer, hands, history, strategy)
    for position, delta in deltas:
        for i in range(SEATS):
            if i == position:
                play[i] += delta[i]
            else:
                table[i] += delta[i]
    if _FULL_TREE.player[node] >= 0:
        raise ValueError(f"the deal {history!r} has not ended")
    return tuple(
        Skill(values[0][position], play[position], table[position])
        for position in ((seat - dealer) % SEATS for seat in range(SEATS))
    )


def decision_deltas(
    dealer: int, hands: Sequence[Sequence[str]], history: Sequence[tuple[int, str]]
) -> list[Fraction]:
    """Per action of `history` (a deal's so far, looks included), the Δ of the seat that took
    it: what it added to that seat's play (0 for a look)."""
    deltas, _, _ = _deltas(dealer, hands, history, None)
    out, betting = [], iter(deltas)
    for _, action in history:
        if action == "look":
            out.append(Fraction(0))
        else:
            position, delta = next(betting)
            out.append(delta[position])
    return out


def _deltas(dealer, hands, history, strategy):
    """(position, Δ by position) per betting action of `history`, the node it leads to, and
    the values V."""
    strategy = strategy or load_strategy()
    seat_of = [(dealer + position) % SEATS for position in range(SEATS)]
    classes = [hand_class(tuple(hands[seat])) for seat in seat_of]
    strengths = [evaluate(tuple(hands[seat])).key for seat in seat_of]
    values = _values(strategy, classes, strengths)
    deltas = []
    node = 0
    for seat, action in history:
        if action == "look":
            continue  # V is the same after a look (see the module's docstring)
        position = (seat - dealer) % SEATS
        if _FULL_TREE.player[node] != position:
            raise ValueError(f"seat {seat} acted out of turn in {history!r}")
        child = _FULL_TREE.children[node][_FULL_TREE.actions[node].index(action)]
        deltas.append((position, [values[child][i] - values[node][i] for i in range(SEATS)]))
        node = child
    return deltas, node, values


def _heights() -> list[int]:
    """Per node of the full tree, the most decisions on a path from it to the deal's end."""
    heights = [0] * _FULL_TREE.size
    for node in range(_FULL_TREE.size - 1, -1, -1):  # children after their parent
        children = _FULL_TREE.children[node]
        heights[node] = 1 + max(heights[child] for child in children) if children else 0
    return heights


_HEIGHTS = _heights()
TWELFTHS = 12
"""Every result is a whole number of twelfths (a pot shared by up to four)."""


def _values(strategy: Strategy, classes, strengths) -> "_Values":
    return _Values(strategy.rows, classes, strengths)


class _Values(dict):
    """V by position at the nodes of the full tree, for these hand classes and strengths (by
    position), each worked out when first asked for, and only the nodes hard play reaches
    from there (a branch it never takes does not count).

    Fractions with denominators of 65,535^k are slow to add, so the work is in integers:
    at a node of height k, N = V * 12 * 65,535^k, and a parent of height k scales each
    child's N by 65,535^(k - 1 - its height) before weighting it."""

    def __init__(self, rows, classes, strengths):
        super().__init__()
        self.rows, self.classes, self.strengths = rows, classes, strengths
        self.scaled: dict[int, tuple[int, ...]] = {}

    def __missing__(self, node: int) -> tuple[Fraction, ...]:
        denominator = TWELFTHS * SCALE ** _HEIGHTS[node]
        value = tuple(Fraction(n, denominator) for n in self._scaled(node))
        self[node] = value
        return value

    def _scaled(self, node: int) -> tuple[int, ...]:
        found = self.scaled.get(node)
        if found is not None:
            return found
        tree = _FULL_TREE
        position = tree.player[node]
        if position < 0:
            payoffs = tree.payoffs(node, self.strengths)
            found = tuple(int(p * TWELFTHS) for p in payoffs)
        else:
            trained = TREE.index[tree.history[node]]
            row = self.rows[trained][self.classes[position]]
            weight = dict(zip(TREE.actions[trained], row, strict=True))
            sums = [0] * SEATS
            height = _HEIGHTS[node]
            for action, child in zip(tree.actions[node], tree.children[node], strict=True):
                w = weight.get(action, 0)  # a matched fold: never in the table
                if w:
                    w *= SCALE ** (height - 1 - _HEIGHTS[child])
                    child_values = self._scaled(child)
                    for i in range(SEATS):
                        sums[i] += w * child_values[i]
            found = tuple(sums)
        self.scaled[node] = found
        return found


def stored_figures(events: Iterable[Event], series: int) -> dict[int, dict]:
    """Every ended deal of `series` among a match's `events`, by deal number, as a write that
    ends a deal stores its figures (`deal_figures`)."""
    figures: dict[int, dict] = {}
    dealt: DealStarted | None = None
    history: list[tuple[int, str]] = []
    for event in events:
        if isinstance(event, DealStarted):
            dealt, history = event, []
        elif isinstance(event, ActionTaken):
            history.append((event.seat, event.action))
        elif isinstance(event, DealEnded) and event.series == series:
            hands = hands_from_deck(dealt.deck, dealt.dealer)
            figures[event.deal_number] = _figures(dealt.dealer, hands, history, event)
    return figures


def deal_figures(deal: DealState) -> dict:
    """The figures of a settled deal, from the state that settled it: which hands the table
    saw (`shown`, by seat) and each seat's Skill as exact fraction strings (`seats`)."""
    return _figures(deal.dealer, deal.hands, deal.history, deal.result)


def _figures(dealer: int, hands, history: Sequence[tuple[int, str]], ended: DealEnded) -> dict:
    return {
        "shown": [seat.shown for seat in ended.seats],
        "seats": [skill.to_dict() for skill in deal_skill(dealer, hands, history)],
    }


def unseen_figures(ended: DealEnded) -> dict:
    """What a write stores of a deal whose figures no viewer may see (`kept`): which hands
    the table saw, and no figures (`seats` null), so that a read tells it from a deal whose
    figures were never worked out."""
    return {"shown": [seat.shown for seat in ended.seats], "seats": None}


def kept(state: MatchState, ended: DealEnded) -> bool:
    """Whether the write that settles a deal (`ended`, leading to `state`) works out and
    keeps its figures: only when some viewer may see them, every deal of a verifiable series
    (all of them once it ends and reveals its seed), else a deal whose every hand was shown
    but at most a present human's own. No viewer can see more later: nobody takes a seat
    after deal 1, and a human who leaves sees only what a spectator sees."""
    if state.seeds is not None and state.seeds.verifiable:
        return True
    shown = [seat.shown for seat in ended.seats]
    present = [seat for seat in range(SEATS) if not state.ai_plays(seat)]
    return any(visible(shown, viewer, False) for viewer in (None, *present))


def visible(shown: Sequence[bool], viewer: int | None, revealed: bool) -> bool:
    """Whether a deal's figures may be shown to `viewer` (a seat, or None for a spectator):
    they depend on every hand, folded ones too, so only where the viewer may see all four,
    because the series' seed is revealed (`revealed`, a verifiable series that ended) or the
    table saw every hand but the viewer's own."""
    return revealed or all(seen or seat == viewer for seat, seen in enumerate(shown))


def sums(figures: Iterable[dict]) -> list[dict[str, str]]:
    """Per seat, the sums of stored figures (`stored_figures` values)."""
    totals = [[Fraction(0)] * 3 for _ in range(SEATS)]
    for deal in figures:
        for seat, skill in enumerate(deal["seats"]):
            for k, name in enumerate(PARTS):
                totals[seat][k] += Fraction(skill[name])
    return [dict(zip(PARTS, map(str, seat), strict=True)) for seat in totals]


PARTS = ("cards", "play", "table")


def settled(
    state: MatchState, events: list[Event], so_far: dict | None
) -> tuple[dict[tuple[int, int], dict], dict | None]:
    """What the write of `events`, which lead to `state`, keeps of the figures: those of the
    deal they settle, by its (series, deal number), as its row keeps them (`kept` says
    when), and the match row's figures of the series so far, from `so_far` (as
    `series_so_far`). A write settles at most one deal, the one its state still holds: a
    deal is dealt only by a write of its own."""
    deal = state.deal
    if deal is None or deal.result is None or deal.result not in events:
        return {}, so_far
    if kept(state, deal.result):
        figures = deal_figures(deal)
    else:
        figures = unseen_figures(deal.result)
    return {(deal.series, deal.deal_number): figures}, series_so_far(so_far, deal, figures)


def series_so_far(previous: dict | None, deal: DealState, figures: dict) -> dict | None:
    """What the match row keeps of its series' figures once `deal` settled with `figures`
    (as a deal row keeps them), from what it kept before (`previous`), so that a read shows
    them from the row it reads anyway: the last deal's figures, the sums over the series'
    deals (null once one kept none), and whether every deal so far may be seen by each
    viewer, a spectator first, then each seat. None when the deals before are not in
    `previous` (a series begun before the row kept them)."""
    shown = figures["shown"]
    seen = [visible(shown, viewer, False) for viewer in (None, *range(SEATS))]
    sums = figures["seats"]
    if deal.deal_number > 1:
        if previous is None or (previous["series"], previous["deal_number"]) != (
            deal.series,
            deal.deal_number - 1,
        ):
            return None
        seen = [before and now for before, now in zip(previous["seen"], seen, strict=True)]
        if sums is not None and previous["sums"] is not None:
            sums = [
                {part: str(Fraction(total[part]) + Fraction(seat[part])) for part in PARTS}
                for total, seat in zip(previous["sums"], sums, strict=True)
            ]
        else:
            sums = None
    return {
        "series": deal.series,
        "deal_number": deal.deal_number,
        "last": figures["seats"],
        "sums": sums,
        "seen": seen,
    }
