"""Training is reproducible from its seed, and its tables are well-formed."""

import pytest

from games.ai import strategy, training
from games.ai.tree import TREE


def test_training_depends_only_on_iterations_and_seed():
    a = training.train(300, seed=5, chunk=7)
    b = training.train(300, seed=5, chunk=300)
    c = training.train(300, seed=6)
    assert a.average == b.average
    assert a.average != c.average


def test_merging_workers_adds_their_average_sums():
    a, b = training.train(100, seed=3), training.train(100, seed=4)
    merged = training.merge([a.average, b.average], seed=3, iterations=100)
    for n, p in enumerate(TREE.player):
        if p >= 0:
            i = n * 121 + 17
            assert merged.average[i] == [
                x + y for x, y in zip(a.average[i], b.average[i], strict=True)
            ]


def test_quantized_rows_sum_exactly():
    table = training.train(200, seed=1).average_table()
    for rows in strategy.quantize_table(table):
        if rows is not None:
            assert all(sum(row) == strategy.SCALE for row in rows)
    assert strategy.quantize((1 / 3, 1 / 3, 1 / 3)) in {(21845, 21845, 21845)}
    assert strategy.quantize((0.5, 0.5)) in {(32768, 32767), (32767, 32768)}


def test_written_asset_reads_back(tmp_path):
    trainer = training.train(200, seed=1)
    path = tmp_path / "s.json"
    header = strategy.write_asset(path, trainer.average_table(), {"seed": 1})
    loaded = strategy.read_asset(path)
    assert loaded.header["sha256"] == header["sha256"]
    assert loaded.rows == strategy.quantize_table(trainer.average_table())
    assert loaded.table()[0][0] == pytest.approx(trainer.average_table()[0][0], abs=1e-4)


@pytest.mark.slow
def test_a_full_width_table_is_written_with_its_method_and_exact_measure(tmp_path):
    solver = training.train_full_width("cfr+", 2)
    path = tmp_path / "s.json"
    header = training.write(solver, path, seconds=1.0, cpu_seconds=1.0)
    loaded = strategy.read_asset(path)
    assert loaded.header["method"] == "cfr+" and loaded.header["seed"] is None
    assert loaded.header["algorithm"].startswith("full-width CFR+")
    assert 0 < header["exploitability"] < 1.0
    assert loaded.rows == strategy.quantize_table(solver.average_table())
