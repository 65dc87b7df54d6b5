"""Offline training of the `hard` strategy: full-width CFR variants (`solver.py`, the
default) or sampled MCCFR (`cfr.py`), exact measurement, the asset file."""

import multiprocessing
import time
from pathlib import Path

from . import strategy
from .cfr import Trainer
from .exploit import exploitability
from .solver import METHODS, Solver
from .tree import TREE

MCCFR = "mccfr"
ALGORITHMS = {
    MCCFR: "external-sampling MCCFR, regret matching, linear averaging",
    "cfr": "full-width CFR over exact counterfactual values, regret matching, uniform average",
    "lcfr": "full-width linear CFR over exact counterfactual values, regret matching",
    "cfr+": "full-width CFR+ over exact counterfactual values, regret matching+, "
    "alternating updates, linear averaging",
    "dcfr": "full-width discounted CFR (alpha 1.5, beta 0, gamma 2) over exact "
    "counterfactual values",
}
assert set(ALGORITHMS) == {MCCFR, *METHODS}


def train_full_width(
    method: str, iterations: int, *, on_progress=None, report_every: int = 0, on_report=None
) -> Solver:
    """`iterations` full-width iterations of `method` (see `solver`); deterministic.
    `on_report(iterations, exploitability_dict)` gets an exact measurement of the average
    strategy every `report_every` iterations (each costs about one iteration)."""
    solver = Solver(method)
    while solver.iterations < iterations:
        solver.run(1)
        if on_progress:
            on_progress(solver.iterations)
        if report_every and on_report and solver.iterations % report_every == 0:
            if solver.iterations < iterations:
                on_report(solver.iterations, solver.evaluator.exploitability(solver.average_rows()))
    return solver


def train(
    iterations: int,
    seed: int,
    *,
    chunk: int = 10_000,
    on_progress=None,
    report_every: int = 0,
    on_report=None,
) -> Trainer:
    """Run `iterations` MCCFR iterations from `seed`. The result depends only on
    (iterations, seed): chunking and reports do not touch the training's random source.
    `on_report(iterations, exploitability_dict)` gets an exact measurement every
    `report_every` iterations (each takes a while: it walks all 261,331 deals)."""
    trainer = Trainer(seed)
    while trainer.iterations < iterations:
        step = min(chunk, iterations - trainer.iterations)
        if report_every:
            step = min(step, report_every - trainer.iterations % report_every)
        trainer.run(step)
        if on_progress:
            on_progress(trainer.iterations)
        if report_every and on_report and trainer.iterations % report_every == 0:
            if trainer.iterations < iterations:
                on_report(trainer.iterations, exploitability(trainer.average_table()))
    return trainer


def _worker(seed: int, iterations: int, chunk: int, queue) -> None:
    trainer = Trainer(seed)
    while trainer.iterations < iterations:
        trainer.run(min(chunk, iterations - trainer.iterations))
        queue.put((seed, trainer.iterations, None))
    queue.put((seed, trainer.iterations, trainer.average))


def train_parallel(iterations: int, seed: int, workers: int, *, chunk=10_000, on_progress=None):
    """`workers` independent runs of `iterations` each, seeded seed, seed + 1, ...; their
    average-strategy sums are added up, which averages the runs' strategies (weighted by
    how often each reached each situation). Worker `seed` alone is `train(iterations,
    seed)`. Returns a Trainer holding the merged sums (`iterations` is per worker)."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    processes = [
        context.Process(target=_worker, args=(seed + i, iterations, chunk, queue))
        for i in range(workers)
    ]
    for process in processes:
        process.start()
    done = {seed + i: 0 for i in range(workers)}
    sums = {}
    while len(sums) < workers:
        worker, count, average = queue.get()
        done[worker] = count
        if average is not None:
            sums[worker] = average
        if on_progress:
            on_progress(sum(done.values()))
    for process in processes:
        process.join()
    return merge([sums[seed + i] for i in range(workers)], seed, iterations)


def merge(averages, seed: int, iterations: int) -> Trainer:
    """A Trainer holding the sum of several runs' average-strategy accumulators."""
    merged = Trainer.__new__(Trainer)
    merged.tree = TREE
    merged.seed = seed
    merged.workers = len(averages)
    merged.iterations = iterations
    merged.average = [
        None if rows[0] is None else [sum(column) for column in zip(*rows, strict=True)]
        for rows in zip(*averages, strict=True)
    ]
    return merged


def write(
    trainer: Trainer | Solver,
    path: Path,
    seconds: float | None = None,
    progress=None,
    cpu_seconds: float | None = None,
) -> dict:
    """Quantize the trainer's average strategy, measure the quantized table exactly (with
    exploit.py, independent of the solver), and write the asset. Returns its header."""
    quantized = strategy.dequantize(strategy.quantize_table(trainer.average_table()))
    measured = exploitability(quantized, progress=progress)
    workers = getattr(trainer, "workers", 1)
    method = getattr(trainer, "method", MCCFR)
    meta = {
        "algorithm": ALGORITHMS[method],
        "method": method,
        "seed": getattr(trainer, "seed", None),
        "workers": workers,
        "iterations": trainer.iterations,
        "exploitability": round(measured["average"], 6),
        "exploitability_by_position": [round(x, 6) for x in measured["positions"]],
        "training_seconds": None if seconds is None else round(seconds),
        "training_cpu_seconds": None if cpu_seconds is None else round(cpu_seconds),
        "note": "iterations are per worker; worker i trains from seed + i" if workers > 1 else "",
        "written": time.strftime("%Y-%m-%d"),
    }
    return strategy.write_asset(path, trainer.average_table(), meta)
