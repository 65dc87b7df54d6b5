"""Offline training of the `hard` strategy: MCCFR, exact measurement, the asset file."""

import time
from pathlib import Path

from . import strategy
from .cfr import Trainer
from .exploit import exploitability

ALGORITHM = "external-sampling MCCFR, regret matching, linear averaging"


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


def write(trainer: Trainer, path: Path, seconds: float | None = None, progress=None) -> dict:
    """Quantize the trainer's average strategy, measure the quantized table exactly, and
    write the asset. Returns its header."""
    quantized = strategy.dequantize(strategy.quantize_table(trainer.average_table()))
    measured = exploitability(quantized, progress=progress)
    meta = {
        "algorithm": ALGORITHM,
        "seed": trainer.seed,
        "iterations": trainer.iterations,
        "exploitability": round(measured["average"], 6),
        "exploitability_by_position": [round(x, 6) for x in measured["positions"]],
        "training_seconds": None if seconds is None else round(seconds),
        "written": time.strftime("%Y-%m-%d"),
    }
    return strategy.write_asset(path, trainer.average_table(), meta)
