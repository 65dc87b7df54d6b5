"""The counting invariants of issue 9, from the project's own code."""

from collections import Counter

from games.ai.deals import TOTAL_WEIGHT, all_deals
from games.ai.hands import CARD_LEVEL_HANDS, MULTIPLICITY, N_HANDS, STRENGTH
from games.ai.tree import TREE, build_tree
from games.engine import ALL_HANDS, evaluate


def test_hand_classes():
    assert N_HANDS == 121
    assert CARD_LEVEL_HANDS == 15_504
    # Every hand is its own strength class.
    assert len(set(STRENGTH)) == 121
    share = Counter()
    for hand, count in zip(ALL_HANDS, MULTIPLICITY, strict=True):
        share[evaluate(hand).category] += count
    percent = {category: round(100 * n / CARD_LEVEL_HANDS, 1) for category, n in share.items()}
    assert percent == {
        "pair": 49.5,
        "two_pair": 27.9,
        "three_of_a_kind": 12.4,
        "high_card": 6.6,
        "full_house": 3.1,
        "four_of_a_kind": 0.5,
    }


def _counts(tree):
    terminals = tree.terminal_nodes()
    return (
        tree.size,
        len(tree.decision_nodes()),
        len(terminals),
        sum(1 for n in terminals if not tree.showdown[n]),
        sum(1 for n in terminals if tree.showdown[n]),
    )


def test_betting_tree_counts():
    assert _counts(TREE) == (1804, 788, 1016, 235, 781)
    assert _counts(build_tree(matched_fold=True))[0] == 1811
    assert max(len(history) for history in TREE.history) == 13
    assert len(TREE.decision_nodes()) * N_HANDS == 95_348


def test_distinct_deals():
    deals, weights = all_deals()
    assert len(deals) == 261_331
    assert sum(weights) == TOTAL_WEIGHT
    assert len(set(deals)) == len(deals)
