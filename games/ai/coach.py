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
from functools import cache, lru_cache

from games.engine import SEATS, SeatView

from . import coach_tables, kept_sums
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
    values, _ = hand_values(uniform(ai_level), node, hand, coach_tables.mapped())
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


Tables = tuple[str, str, str, str]
"""The AI table each position plays, by position from the dealer (a level's `_table_of`, or
`hard` for a human, as a review takes other humans to play); the asking position's own entry
is never read."""


def uniform(ai_level: str) -> Tables:
    """Every position playing the table of `ai_level`: what the coach plays a match with."""
    return (_table_of(ai_level),) * SEATS


HAND_FACTOR = coach_tables.whole_g()
"""Per hand class, the factor of its shuffles that the tables' sums leave out."""
SUMS_SCALE = 24**15
"""What the tables' sums are scaled by, besides that factor: the opponents' three hands'."""


def hand_values(
    tables: Tables, node: int, hand: int, mapped: coach_tables.CoachTables | None
) -> tuple[list[Fraction], int]:
    """At `node`, each of its actions' value (in `TREE.actions[node]` order) for the position
    to act holding `hand`, against opponents playing `tables`, it continuing as hard would;
    and the hand's weight given the betting so far: the sum over the deals where it holds
    `hand` of their shuffles x the opponents' chance of every action they took, in whole
    65,535ths, x SUMS_SCALE, so that every hand's weight at `node` is on one scale (0 where
    the opponents never bet so holding what the other cards make). `mapped`: the coach's
    tables (`coach_tables.mapped()`), or None to sum over the deals; opponents playing
    different tables are summed for in memory (`coach_tables.position_sums`)."""
    position = TREE.player[node]
    sums = _sums_of(tables, position, hand, mapped)
    if sums is not None:
        reached = sums[node]
        if reached:
            return _mapped_values(sums, node, hand, reached), reached * HAND_FACTOR[hand]
    values, reached = _slow_values(node, position, hand, tables)
    return values, reached * SUMS_SCALE


def history_weight(
    tables: Tables, node: int, hand: int, mapped: coach_tables.CoachTables | None
) -> int:
    """The hand's weight given the betting to `node`, as `hand_values` gives it, alone."""
    position = TREE.player[node]
    sums = _sums_of(tables, position, hand, mapped)
    if sums is not None:
        return sums[node] * HAND_FACTOR[hand]
    hands, weights = deals_holding(position, hand)
    return sum(_reach_of_history(node, hands, weights, tables)) * SUMS_SCALE


def _sums_of(tables: Tables, position: int, hand: int, mapped):
    opponents = {tables[p] for p in range(SEATS) if p != position}
    if len(opponents) == 1:
        return None if mapped is None else mapped.sums(opponents.pop(), position, hand)
    key = _opponents_only(tables, position)
    return coach_tables.held_sums(_mixed_sums(key, position), position, hand)


def _opponents_only(tables: Tables, position: int) -> tuple:
    return tuple(None if p == position else table for p, table in enumerate(tables))


@lru_cache(maxsize=8)
def _mixed_sums(key: tuple, position: int) -> list:
    """The tables' sums against opponents of different tables, for every hand and node of the
    position: seconds of CPU the first time on the machine, kept in the cache directory
    (`kept_sums.kept_position_sums`), and in memory for the few that a table of several
    humans needs."""
    return kept_sums.kept_position_sums(key, position, _mixed_rows(key))


def _mixed_rows(key: tuple) -> list:
    """Per node, the rows of the table its player plays (hard's at the asking position's own
    nodes, which nothing reads)."""
    return [
        None if p < 0 else archetype_rows(key[p] or "hard")[n] for n, p in enumerate(TREE.player)
    ]


_DEPTH = [len(history) for history in TREE.history]
_DEEPEST = max(_DEPTH)
_POWERS = [SCALE**k for k in range(_DEEPEST + 1)]


def _mapped_values(sums, node: int, hand: int, reached: int) -> list[Fraction]:
    """Each action's value at `node` from the tables' sums (the formula is in
    `coach_tables`), where the AI seats' table bets as the history says (`reached` > 0)."""
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


def _slow_values(node: int, position: int, hand: int, tables: Tables) -> tuple[list[Fraction], int]:
    """Each action's value at `node`, summed over the deals where `position` holds `hand`,
    and the sum of those deals' reach (0: the opponents never bet so, and the values are over
    the deals alone)."""
    hands, weights = deals_holding(position, hand)
    reach = _reach_of_history(node, hands, weights, tables)
    reached = total = sum(reach)
    if not total:  # the AI seats' table never bets so; fall back on the deals alone
        reach, total = list(weights), sum(weights)
    own = load_strategy().rows
    columns = _columns(tables, position)
    values = []
    for child in TREE.children[node]:
        _, value = subtree_values(own, columns, position, hand, hands, reach, child, scale=SCALE)
        values.append(value / total)
    return values, reached


def _reach_of_history(node: int, hands, weights, tables: Tables) -> list[int]:
    """Per deal: its weight times the chance that the AI seats, holding that deal's
    hands, bet as the history to `node` says (the human's own bets are given), in
    65,535ths per AI action: whole numbers, with the same denominator for every deal."""
    human = TREE.player[node]
    columns = _columns(tables, human)
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


def _columns(tables: Tables, position: int):
    """The opponents' tables as whole numbers out of SCALE, per node and action: each node's
    from the table its player plays (the asking position's own nodes are not read)."""
    opponents = {tables[p] for p in range(SEATS) if p != position}
    if len(opponents) == 1:
        return _table_columns(opponents.pop())
    return _mixed_columns(_opponents_only(tables, position))


@lru_cache(maxsize=8)
def _mixed_columns(key: tuple):
    return [
        None if p < 0 else _table_columns(key[p] or "hard")[n] for n, p in enumerate(TREE.player)
    ]


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
