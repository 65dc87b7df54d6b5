"""The coach: advice for a human's decision in a single-player match.

`coach(view, legal, ai_level)` reads only that seat's `SeatView` (its own cards once it has
looked, the public betting) and gives:

- the `hard` strategy's probability of each legal action;
- each action's expected score for this deal, in points, against the AI seats' strategies
  (the table of `ai_level`; for `expert`, its blueprint `hard`, as the coach does not see
  its model), the human continuing as `hard` would. It is an exact Fraction: summed over
  every deal still possible (the human's own hand fixed, the other three hands weighted by
  how many shuffles deal them and by the chance that the AI seats would have bet as they
  did holding them), not sampled, in whole-number arithmetic over the tables as they are
  stored, rows of 65,535ths (`easy`'s and `normal`'s rows rounded to them the same way);
- the hand's rank among the 121 classes (1 = strongest) and its exact chance to beat
  three random hands at a showdown, outright and tied.

Before the human has looked there is no hand to speak of: the advice is to look (free,
and what `hard` always does first), with no values or strength, so a hint never
reveals a card the player has not seen.

The sums over deals are computed once for every spot and kept in a file mapped read-only
(`coach_tables`): with it mapped (`warm`), a hint walks the betting tree below its node and
costs a few milliseconds; until then, or where the AI seats' table never bets as they did,
it sums over the deals where the seat holds its hand, as the coach always did (a tenth of a
second or two at a deal's first decisions). Both give the same exact fractions.
"""

import logging
import subprocess
from array import array
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from games.engine import SEATS, SeatView

from . import coach_tables
from .deals import deals_holding
from .expert import archetype_rows
from .exploit import action_columns, subtree_values
from .hands import N_HANDS, STRENGTH, hand_class
from .strategy import SCALE, load_strategy
from .tree import TREE

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActionAdvice:
    action: str
    hard_probability: Fraction
    """Exact: the shipped table stores each row as integers out of SCALE."""
    expected_value: Fraction | None
    """Expected score of this deal in points, exactly, or None before looking."""


@dataclass(frozen=True)
class Hint:
    actions: tuple[ActionAdvice, ...]
    values_are_exact: bool
    """True: the values sum over every possible deal (none are sampled)."""
    hand_rank: int | None
    """1 = the strongest of the 121 hand classes; None before looking."""
    showdown_win: Fraction | None
    """The chance that the hand beats three random hands outright."""
    showdown_tie: Fraction | None
    """The chance that it ties for best with one or more of them."""


def warm() -> None:
    """Map the coach's tables (`coach_tables.load`), building their file first if no process
    did yet: seconds to a minute of CPU in a separate process, once per set of AI assets.
    Blocks until then: a server worker calls it in a thread of its own as it starts; hints that come
    before compute their values from the deals meanwhile, with the same results. A failure
    to build or map is logged and leaves hints on that way."""
    try:
        coach_tables.load()
    except (OSError, ValueError, subprocess.CalledProcessError):
        logger.exception("the coach's tables could not be built or mapped; hints sum over deals")


def advice_key(view: SeatView, legal: tuple[str, ...], ai_level: str) -> tuple:
    """Everything `coach` reads, and nothing more: the AI seats' table (expert's is hard's),
    the betting node (which fixes the seat's position from the dealer), the seat's own hand
    class, and the legal actions; before looking, the legal actions alone. Two calls with
    equal keys give equal advice, whichever match they come from. It holds only what the
    asking seat may see (its own hand and the public betting), never another seat's cards."""
    if view.your_cards is None:
        return ("blind", legal)
    return (
        _table_of(ai_level),
        TREE.index[tuple(action for _, action in view.history if action != "look")],
        hand_class(view.your_cards),
        legal,
    )


def coach(view: SeatView, legal: tuple[str, ...], ai_level: str) -> Hint:
    """Advice for the seat of `view` whose turn it is (`legal`: its legal actions)."""
    if view.your_cards is None:
        return Hint(
            actions=tuple(ActionAdvice(a, Fraction(a == "look"), None) for a in legal),
            values_are_exact=True,
            hand_rank=None,
            showdown_win=None,
            showdown_tie=None,
        )
    hand = hand_class(view.your_cards)
    position = (view.seat - view.dealer) % SEATS
    node = TREE.index[tuple(action for _, action in view.history if action != "look")]
    tables = coach_tables.mapped()
    values = None
    if tables is not None:
        values = _mapped_values(tables.sums(_table_of(ai_level), position, hand), node, hand)
    if values is None:
        values = _slow_values(node, position, hand, ai_level)
    row = load_strategy().rows[node][hand]
    advice = []
    for action in legal:
        if action in TREE.actions[node]:
            i = TREE.actions[node].index(action)
            advice.append(ActionAdvice(action, Fraction(row[i], SCALE), values[i]))
        else:  # folding while matched: dominated, not in the table; the stake is lost
            advice.append(ActionAdvice(action, Fraction(0), Fraction(-TREE.stakes[node][position])))
    win, tie = showdown_chances(hand)
    return Hint(tuple(advice), True, N_HANDS - STRENGTH[hand], win, tie)


_DEPTH = [len(history) for history in TREE.history]
_DEEPEST = max(_DEPTH)
_POWERS = [SCALE**k for k in range(_DEEPEST + 1)]


def _mapped_values(sums, node: int, hand: int) -> list[Fraction] | None:
    """Each action's value at `node` from the mapped tables (the formula is in
    `coach_tables`), or None where the AI seats' table never bets as the history says."""
    reached = sums[node]
    if not reached:
        return None
    own = load_strategy().rows
    q = TREE.player[node]
    player, children, folded = TREE.player, TREE.children, TREE.folded
    values = []
    for child in children[node]:
        total = 0
        stack = [(child, 1)]
        while stack:
            n, weight = stack.pop()
            if player[n] < 0 or folded[n][q]:
                total += weight * sums[n] * _POWERS[_DEEPEST - _DEPTH[n]]
            elif player[n] == q:
                for c, x in zip(children[n], own[n][hand], strict=True):
                    if x:
                        stack.append((c, weight * x))
            else:
                stack.extend((c, weight) for c in children[n])
        values.append(Fraction(total, 12 * reached * _POWERS[_DEEPEST - _DEPTH[child]]))
    return values


def _slow_values(node: int, position: int, hand: int, ai_level: str) -> list[Fraction]:
    """Each action's value at `node`, summed over the deals where `position` holds `hand`."""
    hands, weights = deals_holding(position, hand)
    reach = _reach_of_history(node, hands, weights, ai_level)
    total = sum(reach)
    if not total:  # the AI seats' table never bets so; fall back on the deals alone
        reach, total = list(weights), sum(weights)
    own = load_strategy().rows
    columns = _columns(ai_level)
    values = []
    for child in TREE.children[node]:
        _, value = subtree_values(own, columns, position, hand, hands, reach, child, scale=SCALE)
        values.append(value / total)
    return values


def _reach_of_history(node: int, hands, weights, ai_level: str) -> list[int]:
    """Per deal: its weight times the chance that the AI seats, holding that deal's
    hands, bet as the history to `node` says (the human's own bets are given), in
    65,535ths per AI action: whole numbers, with the same denominator for every deal."""
    columns = _columns(ai_level)
    human = TREE.player[node]
    reach = list(weights)
    n = 0
    for action in TREE.history[node]:
        p = TREE.player[n]
        i = TREE.actions[n].index(action)
        if p != human:
            column = columns[n][i]
            reach = [r * column[x] for r, x in zip(reach, hands[p], strict=True)]
        n = TREE.children[n][i]
    return reach


def _table_of(ai_level: str) -> str:
    """The table the coach plays the AI seats with: an expert seat's is its blueprint, hard's."""
    return "hard" if ai_level == "expert" else ai_level


def _columns(ai_level: str):
    """The AI seats' table as whole numbers out of SCALE, per node and action, built once for
    the levels that share it."""
    return _table_columns(_table_of(ai_level))


@cache
def _table_columns(table: str):
    """As 16-bit integers: a hint sums over deals only before the tables are mapped or where
    the AI seats never bet as they did, so these should cost little memory while kept."""
    return [
        None if node is None else [array("H", column) for column in node]
        for node in action_columns(archetype_rows(table))
    ]


def showdown_chances(hand: int) -> tuple[Fraction, Fraction]:
    """(win outright, tie for best) of `hand` against three random hands, exactly."""
    tables = coach_tables.mapped()
    if tables is not None:
        return tables.showdown_chances(hand)
    return _counted_showdown_chances(hand)


@cache
def _counted_showdown_chances(hand: int) -> tuple[Fraction, Fraction]:
    hands, weights = deals_holding(0, hand)
    mine = STRENGTH[hand]
    win = tie = total = 0
    for a, b, c, w in zip(hands[1], hands[2], hands[3], weights, strict=True):
        best = max(STRENGTH[a], STRENGTH[b], STRENGTH[c])
        total += w
        if best < mine:
            win += w
        elif best == mine:
            tie += w
    return Fraction(win, total), Fraction(tie, total)
