"""The benchmark's figure from exact sums (games.ai.benchmark): no database."""

import math
import random
import statistics
from decimal import Decimal
from fractions import Fraction

from games.ai.benchmark import Sums, estimate, figure


def test_the_sums_are_exact_and_survive_the_row():
    values = [(Fraction(1, 3), Fraction(-2)), (Fraction(-5, 7), Fraction(3, 2))]
    sums = Sums()
    for play, result in values:
        sums = sums.add(play=play, result=result)
    assert sums == Sums(2, Fraction(-8, 21), Fraction(1, 9) + Fraction(25, 49), Fraction(-1, 2),
                        Fraction(4) + Fraction(9, 4))  # fmt: skip
    assert Sums.from_dict(sums.to_dict()) == sums
    assert sums.to_dict()["play"] == "-8/21"


def test_the_interval_is_the_sample_one_rounded_outwards():
    rng = random.Random(3)
    values = [Fraction(rng.randrange(-300, 300), 7) for _ in range(500)]
    found = estimate(len(values), sum(values), sum(v * v for v in values))
    assert found.mean == sum(values) / len(values)
    exact = 1.96 * statistics.stdev(float(v) for v in values) / math.sqrt(len(values))
    assert 0 <= float(found.half_width) - exact < 0.0001
    assert found.half_width == found.half_width.quantize(Decimal("0.0001"))
    assert found.width == 2 * found.half_width


def test_no_deal_no_figure_and_one_deal_no_interval():
    assert figure(Sums()) == (None, None)
    play, result = figure(Sums().add(play=Fraction(1, 2), result=Fraction(-3)))
    assert (play.mean, play.half_width, result.mean) == (Fraction(1, 2), None, Fraction(-3))


def test_equal_values_have_an_interval_of_width_zero():
    sums = Sums()
    for _ in range(10):
        sums = sums.add(play=Fraction(2, 3), result=Fraction(2, 3))
    play, _ = figure(sums)
    assert play.half_width == 0
