"""How a parallel test run (pytest-xdist) shares the tests between its workers.

Each test module is one unit, run whole on one worker, so a module's fixtures start once. The
tests marked `alone` (they signal, kill or count processes, or stop a Postgres, against
bounds of a few seconds) are one unit together: they run one after another on one worker,
never beside each other. That unit goes first, then the modules with a `slow` test, then the
rest, so that no long module is left running at the end while the other workers idle.

Only the workers collect the tests, and the controller, which schedules, sees only their
ids. So each worker writes which ids are marked (`record_marks`) before it reports its
collection, and the scheduler reads that record.
"""

import json
import os
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

ALONE_UNIT = "tests marked alone"


def marks_file(run_dir: Path, worker_id: str) -> Path:
    return run_dir / f"marks-{worker_id}.json"


def order_for_workers(items: list[pytest.Item]) -> None:
    """Puts the alone tests first, then the modules with a slow test, keeping the order
    within each module (pytest-django's included)."""
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("alone"):
            return 0
        return 1 if item.path in slow_modules else 2

    items.sort(key=rank)


def record_marks(items: list[pytest.Item], run_dir: Path, worker_id: str) -> None:
    alone = [item.nodeid for item in items if item.get_closest_marker("alone")]
    path = marks_file(run_dir, worker_id)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps({"alone": alone}))
    os.replace(partial, path)  # the scheduler never reads half a file


class AloneTogetherScheduling(LoadScopeScheduling):
    """xdist's scheduling by module (`--dist loadfile`), with the alone tests in a unit of
    their own and the units in the workers' order (no reordering by size)."""

    def __init__(self, config: pytest.Config, log, run_dir: Path) -> None:
        super().__init__(config, log)
        # The workers' order is the one wanted; xdist would sort the units by their size.
        config.option.loadscopereorder = False
        self.run_dir = run_dir
        self.alone: set[str] = set()

    def schedule(self) -> None:
        if self.collection is None:
            first = next(iter(self.registered_collections))
            marks = json.loads(marks_file(self.run_dir, first.gateway.id).read_text())
            self.alone = set(marks["alone"])
        super().schedule()

    def _split_scope(self, nodeid: str) -> str:
        if nodeid in self.alone:
            return ALONE_UNIT
        return nodeid.split("::", 1)[0]
