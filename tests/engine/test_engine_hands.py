"""Hand ranking, checked against hand-written tables and a reference comparator written
straight from docs/rules.md "Hand ranking", not from the evaluator."""

from collections import Counter
from itertools import combinations, product
from math import comb

import pytest

from games.engine import ALL_HANDS, CATEGORIES, DECK, InvalidHand, evaluate
from tests.engine.support import RULES_TABLE, STRENGTH, reference_category, reference_key


def hand(text: str) -> tuple[str, ...]:
    """'As As Shah Bibi Couli' -> ('As', 'As', 'Shah', 'Bibi', 'Couli')."""
    return tuple(text.split())


def reference_compare(a, b) -> int:
    ka, kb = reference_key(a), reference_key(b)
    return (ka > kb) - (ka < kb)


def engine_compare(a, b) -> int:
    ka, kb = evaluate(a).key, evaluate(b).key
    return (ka > kb) - (ka < kb)


# --- categories --------------------------------------------------------------------------------

CATEGORY_TABLE = [
    ("As As As As Shah", "four_of_a_kind"),
    ("Couli Couli Couli Couli As", "four_of_a_kind"),
    ("Sarbaz Bibi Sarbaz Sarbaz Sarbaz", "four_of_a_kind"),
    ("As As As Shah Shah", "full_house"),
    ("Couli Sarbaz Couli Sarbaz Couli", "full_house"),
    ("Bibi Bibi Bibi As Couli", "three_of_a_kind"),
    ("Couli As Couli Shah Couli", "three_of_a_kind"),
    ("As As Shah Shah Bibi", "two_pair"),
    ("Couli Sarbaz Sarbaz Couli As", "two_pair"),
    ("Shah Shah As Bibi Couli", "pair"),
    ("Sarbaz Couli Bibi As Sarbaz", "pair"),
    ("As Shah Bibi Sarbaz Couli", "high_card"),
    ("Couli Sarbaz Bibi Shah As", "high_card"),
]


@pytest.mark.parametrize(("cards", "category"), CATEGORY_TABLE)
def test_category(cards, category):
    assert reference_category(hand(cards)) == category
    assert evaluate(hand(cards)).category == category
    assert evaluate(list(hand(cards))).category == category


def test_category_names_are_the_issues():
    assert set(CATEGORIES) == {name for name, _ in RULES_TABLE}


def test_the_121_hands_split_into_categories_as_counted_by_hand():
    # four: 5 quad ranks x 4 kickers; full house: 5 x 4; trips: 5 x C(4,2) kicker pairs;
    # two pair: C(5,2) pair ranks x 3 kickers; pair: 5 x C(4,3); high card: one hand.
    expected = {
        "four_of_a_kind": 20,
        "full_house": 20,
        "three_of_a_kind": 30,
        "two_pair": 30,
        "pair": 20,
        "high_card": 1,
    }
    assert Counter(evaluate(h).category for h in ALL_HANDS) == expected


# --- ordering, hand-written -------------------------------------------------------------------

# Each row: a stronger hand, a weaker hand, and why.
STRONGER_THAN = [
    # Category boundaries: the weakest hand of a category beats the strongest one below it.
    ("Couli Couli Couli Couli Sarbaz", "As As As Shah Shah", "weakest quads > best full house"),
    ("Couli Couli Couli Sarbaz Sarbaz", "As As As Shah Bibi", "weakest full house > best trips"),
    ("Couli Couli Couli Sarbaz Bibi", "As As Shah Shah Bibi", "weakest trips > best two pair"),
    ("Sarbaz Sarbaz Couli Couli Bibi", "As As Shah Bibi Sarbaz", "weakest two pair > best pair"),
    ("Couli Couli Sarbaz Bibi Shah", "As Shah Bibi Sarbaz Couli", "weakest pair > high card"),
    # Quads against a full house, whatever the ranks.
    ("Couli Couli Couli Couli As", "As As As Shah Shah", "quads > full house"),
    ("Sarbaz Sarbaz Sarbaz Sarbaz Couli", "As As As Couli Couli", "quads > full house"),
    # Quads: the quad first, then the kicker.
    ("As As As As Couli", "Shah Shah Shah Shah As", "higher quad wins"),
    ("Bibi Bibi Bibi Bibi As", "Bibi Bibi Bibi Bibi Shah", "quad kicker"),
    ("Couli Couli Couli Couli Shah", "Couli Couli Couli Couli Bibi", "quad kicker"),
    # Full house: the trips first, then the pair.
    ("Shah Shah Shah Couli Couli", "Bibi Bibi Bibi As As", "higher trips win"),
    ("Shah Shah Shah As As", "Shah Shah Shah Bibi Bibi", "same trips: higher pair"),
    # Three of a kind: the trips, then the kickers from the top.
    ("Shah Shah Shah Sarbaz Couli", "Bibi Bibi Bibi As Shah", "higher trips win"),
    ("As As As Shah Couli", "As As As Bibi Sarbaz", "first kicker"),
    ("As As As Shah Bibi", "As As As Shah Sarbaz", "second kicker"),
    ("Couli Couli Couli As Sarbaz", "Couli Couli Couli Shah Bibi", "first kicker"),
    # Two pair: the higher pair, then the lower pair, then the odd card.
    ("As As Couli Couli Sarbaz", "Shah Shah Bibi Bibi As", "higher pair first"),
    ("As As Bibi Bibi Couli", "As As Sarbaz Sarbaz Shah", "then the lower pair"),
    ("As As Shah Shah Bibi", "As As Shah Shah Couli", "then the odd card"),
    ("Bibi Bibi Sarbaz Sarbaz As", "Bibi Bibi Sarbaz Sarbaz Shah", "then the odd card"),
    ("Shah Shah Couli Couli Bibi", "Bibi Bibi Sarbaz Sarbaz As", "higher pair beats all else"),
    # Pair: the pair, then the three kickers from the top.
    ("Shah Shah Bibi Sarbaz Couli", "Bibi Bibi As Shah Sarbaz", "higher pair wins"),
    ("As As Shah Bibi Sarbaz", "As As Shah Bibi Couli", "third kicker"),
    ("As As Shah Sarbaz Couli", "As As Bibi Sarbaz Couli", "first kicker"),
    ("Couli Couli As Shah Sarbaz", "Couli Couli As Bibi Sarbaz", "second kicker"),
]


@pytest.mark.parametrize(("stronger", "weaker", "why"), STRONGER_THAN)
def test_stronger_hand_beats_weaker(stronger, weaker, why):
    assert evaluate(hand(stronger)).key > evaluate(hand(weaker)).key, why
    assert evaluate(hand(weaker)).key < evaluate(hand(stronger)).key, why


TIES = [
    ("As As Shah Shah Bibi", "Bibi Shah As Shah As"),
    ("Couli Couli Couli Couli Sarbaz", "Sarbaz Couli Couli Couli Couli"),
    ("Bibi Bibi As Sarbaz Couli", "Couli Sarbaz As Bibi Bibi"),
    ("As Shah Bibi Sarbaz Couli", "Couli Sarbaz Bibi Shah As"),
]


@pytest.mark.parametrize(("first", "second"), TIES)
def test_identical_hands_tie_in_any_order(first, second):
    assert evaluate(hand(first)) == evaluate(hand(second))


def test_every_high_card_hand_is_the_same_hand_and_ties():
    five = ("As", "Shah", "Bibi", "Sarbaz", "Couli")
    high_card_hands = [h for h in ALL_HANDS if len(set(h)) == 5]
    assert len(high_card_hands) == 1
    orders = [five, five[::-1], ("Bibi", "As", "Couli", "Shah", "Sarbaz")]
    values = {evaluate(order) for order in orders}
    assert len(values) == 1
    assert values.pop().category == "high_card"


# --- invalid input -----------------------------------------------------------------------------

INVALID = [
    ("As",) * 5,
    ("Couli",) * 5,
    ("As", "Shah", "Bibi", "Sarbaz"),
    ("As", "Shah", "Bibi", "Sarbaz", "Couli", "As"),
    (),
    ("As", "Shah", "Bibi", "Sarbaz", "Ace"),
    ("as", "shah", "bibi", "sarbaz", "couli"),
    ("As", "Shah", "Bibi", "Sarbaz", ""),
    (4, 3, 2, 1, 0),
    ("As", "Shah", "Bibi", "Sarbaz", None),
    ("As", "Shah", "Bibi", "Sarbaz", ["Couli"]),
    ("As", "Shah", "Bibi", "Sarbaz", ("Couli",)),
    "As Shah Bibi Sarbaz Couli",
    "AsAsShahShahBibi",
    None,
    5,
    b"AsShahBibiSarbazCouli",
]


@pytest.mark.parametrize("cards", INVALID, ids=repr)
def test_invalid_hands_are_refused(cards):
    with pytest.raises(InvalidHand):
        evaluate(cards)


@pytest.mark.parametrize("cards", [c for c in INVALID if isinstance(c, tuple)], ids=repr)
def test_invalid_hands_are_refused_as_lists_too(cards):
    with pytest.raises(InvalidHand):
        evaluate(list(cards))


def test_invalid_hand_is_a_value_error_with_a_message():
    with pytest.raises(ValueError, match="Couli"):
        evaluate(("As",) * 5)


# --- all 121 hands ----------------------------------------------------------------------------


def _all_hands_independently() -> set[tuple[str, ...]]:
    """Every multiset of five ranks with at most four copies of each, via counts per rank."""
    names = list(STRENGTH)
    hands = set()
    for counts in product(range(5), repeat=5):
        if sum(counts) == 5:
            ranks = (r for r, n in zip(names, counts, strict=True) for _ in range(n))
            hands.add(tuple(sorted(ranks)))
    return hands


def test_there_are_121_hands_and_all_hands_is_them():
    # Multisets of 5 from 5 ranks, C(9, 5) = 126, minus the 5 with five copies of one rank.
    assert comb(9, 5) - 5 == 121
    independent = _all_hands_independently()
    assert len(independent) == 121
    assert len(ALL_HANDS) == 121
    assert {tuple(sorted(h)) for h in ALL_HANDS} == independent


def test_every_hand_is_its_own_strength_class():
    # Copies are identical, so two different multisets never tie (the high-card hand is unique).
    keys = {evaluate(h).key for h in ALL_HANDS}
    assert len(keys) == 121


def test_all_pairs_agree_with_the_rules_and_form_a_total_preorder():
    hands = sorted(_all_hands_independently())
    n = len(hands)
    cmp = [[engine_compare(a, b) for b in hands] for a in hands]
    for i, a in enumerate(hands):
        for j, b in enumerate(hands):
            assert cmp[i][j] == reference_compare(a, b), (a, b)
            assert cmp[i][j] == -cmp[j][i], ("antisymmetry", a, b)
    # Transitivity: "a <= b" as bit sets; whenever a <= b, everything above b is above a.
    at_least = [sum(1 << j for j in range(n) if cmp[i][j] <= 0) for i in range(n)]
    for i in range(n):
        for j in range(n):
            if at_least[i] >> j & 1:
                assert at_least[j] & ~at_least[i] == 0, ("transitivity", hands[i], hands[j])
    # Totality: every pair compares one way or the other.
    assert all(at_least[i] >> j & 1 or at_least[j] >> i & 1 for i in range(n) for j in range(n))


def test_reference_comparator_agrees_with_the_hand_written_table():
    # The reference is only worth something if it also says what the table says.
    for stronger, weaker, why in STRONGER_THAN:
        assert reference_compare(hand(stronger), hand(weaker)) == 1, why


# --- the 15,504 five-card subsets of the 20 physical cards --------------------------------------


def test_category_frequencies_over_all_five_card_subsets_of_the_deck():
    assert len(DECK) == 20
    subsets = combinations(range(20), 5)
    counts = Counter(evaluate(tuple(DECK[i] for i in five)).category for five in subsets)
    total = sum(counts.values())
    assert total == comb(20, 5) == 15_504
    # Counted by hand: choose ranks for the groups, then which physical copies.
    expected = {
        "four_of_a_kind": 5 * comb(4, 4) * 16,
        "full_house": 5 * comb(4, 3) * 4 * comb(4, 2),
        "three_of_a_kind": 5 * comb(4, 3) * comb(4, 2) * 4 * 4,
        "two_pair": comb(5, 2) * comb(4, 2) ** 2 * 3 * 4,
        "pair": 5 * comb(4, 2) * comb(4, 3) * 4**3,
        "high_card": 4**5,
    }
    assert sum(expected.values()) == total
    assert counts == expected
    percent = {category: round(100 * n / total, 1) for category, n in counts.items()}
    assert percent == {
        "pair": 49.5,
        "two_pair": 27.9,
        "three_of_a_kind": 12.4,
        "high_card": 6.6,
        "full_house": 3.1,
        "four_of_a_kind": 0.5,
    }
