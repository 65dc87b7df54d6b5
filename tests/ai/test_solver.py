"""The numpy solver's exact values agree with exploit.py, and its methods converge."""

import numpy as np
import pytest

from games.ai import training
from games.ai.deals import TOTAL_WEIGHT
from games.ai.exploit import position_values, uniform_table
from games.ai.solver import METHODS, Evaluator, Solver
from tests.ai.support import random_table

UNIFORM_EXPLOITABILITY = 1.664  # random play, docs/ai.md


@pytest.fixture(scope="module")
def evaluator():
    return Evaluator()


@pytest.mark.slow
@pytest.mark.parametrize("position", [1, 2])
def test_vectorised_values_match_exploit_py(evaluator, position):
    # Random rows with zeros exercise every showdown pattern and tie.
    table = random_table(10 + position)
    rows = evaluator.to_rows(table)
    mean, best = evaluator.node_values(rows, evaluator.reach(rows), position)
    big_f = evaluator.terms.big_f
    expected_best, expected_mean = position_values(table, position)
    assert float(big_f @ best[0]) / TOTAL_WEIGHT == pytest.approx(expected_best, rel=1e-9)
    assert float(big_f @ mean[0]) / TOTAL_WEIGHT == pytest.approx(expected_mean, rel=1e-9)


def test_rows_and_tables_round_trip(evaluator):
    table = random_table(3)
    again = evaluator.to_table(evaluator.to_rows(table))
    assert [r for r in again if r] == [[pytest.approx(row) for row in r] for r in table if r]


def test_uniform_play_is_as_exploitable_as_exploit_py_says(evaluator):
    measured = evaluator.exploitability(evaluator.to_rows(uniform_table()))
    assert measured["average"] == pytest.approx(UNIFORM_EXPLOITABILITY, abs=0.001)


@pytest.mark.slow
@pytest.mark.parametrize("method", [m for m in METHODS if m != "cfr+"])
def test_every_method_improves_on_random_play(method):
    solver = Solver(method)
    solver.run(2)
    average = solver.average_rows()
    assert np.allclose(np.add.reduceat(average, solver.evaluator.layout.row_starts), 1.0)
    assert solver.evaluator.exploitability(average)["average"] < UNIFORM_EXPLOITABILITY / 2


@pytest.mark.slow
def test_cfr_plus_converges_deterministically():
    reports = []
    # Five iterations: reports after the second and the fourth (none after the last).
    solver = training.train_full_width(
        "cfr+", 5, report_every=2, on_report=lambda i, m: reports.append(m["average"])
    )
    assert reports[0] < UNIFORM_EXPLOITABILITY / 2
    assert reports[1] < reports[0] / 2
    assert len(reports) == 2
    again = Solver("cfr+")
    again.run(5)
    assert np.array_equal(again.average_rows(), solver.average_rows())
