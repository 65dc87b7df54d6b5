"""How a parallel test run (pytest-xdist) shares the tests between its workers.

Each test module is one unit, run whole on one worker, so a module's fixtures start once. The
tests marked `alone` (they kill or stop a Postgres, or a serve on the run's cluster, or time
processes against bounds of a few seconds) are one unit together, run first, one after
another on one worker: beside other tests, they failed theirs and others' (the run's shared
cluster dropped every connection once while they ran). Meanwhile the other workers take only
the modules of `BESIDE_THE_ALONE`, which use no database and start no server, so what the
alone tests stop cannot touch them, and they no longer idle for minutes. The alone worker
takes one unit more, which an xdist worker needs to run its last test, and no other: when the
alone tests end, the workers that waited come first to the rest. Then come the modules with a
`slow` test, then the rest, so that no long module is left running at the end while the other
workers idle. Within each, the modules that wait for the coach's tables (`coach_tables_built`,
built in the background as the run starts) come last: first, the two workers beside the alone
ones both waited on the build while the alone tests mostly slept, a core idle for 20 s.

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
BESIDE_THE_ALONE = ("tests/engine/", "tests/ai/")
"""The folders whose modules may run while the alone tests do: the rules engine's and the AI's
tests, which touch no database and start no server (tests/test_scheduling.py keeps them so)."""


def marks_file(run_dir: Path, worker_id: str) -> Path:
    return run_dir / f"marks-{worker_id}.json"


WAITS_FOR_THE_COACH_TABLES = "coach_tables_built"
"""The fixture of the tests that wait for the coach's tables (tests/conftest.py)."""


def order_for_workers(items: list[pytest.Item]) -> None:
    """Puts the alone tests first, then the modules with a slow test, the ones that wait for
    the coach's tables last of each, keeping the order within each module (pytest-django's
    included)."""
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    waiting_modules = {
        item.path for item in items if WAITS_FOR_THE_COACH_TABLES in item.fixturenames
    }

    def rank(item: pytest.Item) -> tuple[int, bool]:
        if item.get_closest_marker("alone"):
            return 0, False
        return 1 if item.path in slow_modules else 2, item.path in waiting_modules

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

    def _assign_work_unit(self, node) -> None:
        if self._runs_the_alone_tests(node) and len(self.assigned_work[node]) > 1:
            # An xdist worker holds back its last test until it is sent more, so the alone
            # worker needs one unit after them; more would take the others' share meanwhile.
            return
        if self._waits_for_the_alone_tests(node):
            beside = next(
                (unit for unit in self.workqueue if unit.startswith(BESIDE_THE_ALONE)), None
            )
            if beside is None:
                return
            self.workqueue.move_to_end(beside, last=False)  # the unit the base class takes
        super()._assign_work_unit(node)

    def mark_test_complete(self, node, item_index: int, duration: float = 0) -> None:
        nodeid = self.registered_collections[node][item_index]
        if nodeid not in self.alone:
            super().mark_test_complete(node, item_index, duration)
            return
        self.assigned_work[node][ALONE_UNIT][nodeid] = True
        if not self._runs_the_alone_tests(node):
            # The other workers waited for them: they come first to what is left.
            for other in self.nodes:
                if other is not node:
                    self._reschedule(other)
        self._reschedule(node)

    def _runs_the_alone_tests(self, node) -> bool:
        work = self.assigned_work.get(node, {})
        return ALONE_UNIT in work and not all(work[ALONE_UNIT].values())

    def _waits_for_the_alone_tests(self, node) -> bool:
        """Whether another node than `node` still runs alone tests."""
        return any(self._runs_the_alone_tests(other) for other in self.nodes if other is not node)

    def _split_scope(self, nodeid: str) -> str:
        if nodeid in self.alone:
            return ALONE_UNIT
        return nodeid.split("::", 1)[0]
