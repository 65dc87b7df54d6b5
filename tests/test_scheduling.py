"""How a parallel run shares out the tests (asnas_api/pytest_scheduling.py), driven with
stand-ins for xdist's workers: the alone tests together on one worker, and beside them only
the modules that use no database and start no server."""

import json
import re
from pathlib import Path
from types import SimpleNamespace

from asnas_api.pytest_scheduling import (
    BESIDE_THE_ALONE,
    WAITS_FOR_THE_COACH_TABLES,
    AloneTogetherScheduling,
    marks_file,
    order_for_workers,
)

ROOT = Path(__file__).resolve().parent.parent

ALONE = [
    "tests/test_shutdown.py::test_stop",
    "tests/test_serve.py::test_owns",
    "tests/reliability/test_clock_processes.py::test_lead",
]
WEB = ["tests/web/test_table.py::test_match"]
AI = ["tests/ai/test_solver.py::test_one", "tests/ai/test_solver.py::test_two"]
ENGINE = ["tests/engine/test_engine_codec.py::test_round_trip"]
SERVE = ["tests/test_serve.py::test_other"]


class Worker:
    """What the scheduler uses of an xdist WorkerController: it records what it is sent."""

    def __init__(self, name: str, collection: list[str]) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.collection = collection
        self.sent: list[list[str]] = []

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.append([self.collection[index] for index in indexes])

    def shutdown(self) -> None:
        self.shutting_down = True


def scheduling(tmp_path: Path, collection: list[str]):
    """The scheduler of a 2-worker run of `collection`, its first work shared out."""
    config = SimpleNamespace(
        option=SimpleNamespace(loadscopereorder=True), getvalue=lambda name: ["2*popen"]
    )
    marks_file(tmp_path, "gw0").write_text(json.dumps({"alone": ALONE}))
    scheduler = AloneTogetherScheduling(config, None, tmp_path)
    first, second = Worker("gw0", collection), Worker("gw1", collection)
    for worker in (first, second):
        scheduler.add_node(worker)
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()

    def complete(worker: Worker, nodeids: list[str]) -> None:
        for nodeid in nodeids:
            scheduler.mark_test_complete(worker, collection.index(nodeid))

    return complete, first, second


def test_beside_the_alone_tests_another_worker_takes_only_the_engine_and_ai_modules(tmp_path):
    complete, first, second = scheduling(tmp_path, ALONE + WEB + AI + ENGINE + SERVE)
    assert first.sent == [ALONE]
    # The web module comes first in the queue, but needs the cluster the alone tests stop.
    assert second.sent == [AI, ENGINE]
    complete(second, AI + ENGINE)
    complete(first, ALONE[:2])
    assert second.sent == [AI, ENGINE]  # nothing else may run beside them: it waits
    # The alone worker takes the one unit that lets its last alone test run, and no more.
    assert first.sent == [ALONE, WEB]
    complete(first, ALONE[2:])
    # The alone tests done, the worker that waited takes what is left, each test once.
    assert second.sent == [AI, ENGINE, SERVE]


def test_without_a_module_to_run_beside_them_the_other_worker_waits(tmp_path):
    complete, first, second = scheduling(tmp_path, ALONE + WEB + SERVE)
    assert first.sent == [ALONE] and second.sent == []
    complete(first, ALONE[:2])
    assert first.sent == [ALONE, WEB] and second.sent == []
    complete(first, ALONE[2:])
    assert second.sent == [SERVE]


# What a module that runs beside the alone tests must not use: the database (pytest-django's
# fixtures and marks, the models) or a server of its own.
USES_THE_DATABASE_OR_A_SERVER = re.compile(
    r"django_db|\btransactional_db\b|\bdb\b|live_server|admin_client|tests\.servers"
    r"|games\.models|players\.models|from games\.(match|tables|fairness|spectating)"
    r"|manage\.py\", \"serve"
)


def test_the_modules_that_run_beside_the_alone_tests_use_no_database_and_no_server():
    modules = [path for folder in BESIDE_THE_ALONE for path in (ROOT / folder).glob("*.py")]
    assert len(modules) > 30
    offending = {
        str(path.relative_to(ROOT)): match.group()
        for path in modules
        if (match := USES_THE_DATABASE_OR_A_SERVER.search(path.read_text()))
    }
    assert offending == {}


def collected(path: str, name: str, marks: tuple[str, ...] = (), fixtures: tuple[str, ...] = ()):
    """What order_for_workers reads of a collected test."""
    return SimpleNamespace(
        path=Path(path),
        name=name,
        fixturenames=list(fixtures),
        get_closest_marker=lambda mark: mark if mark in marks else None,
    )


def test_the_alone_tests_then_slow_modules_then_the_rest_those_waiting_for_the_tables_last():
    """At the start the coach's tables are still being built: the modules that wait for them
    come after the others of their kind, and each module stays whole and in order."""
    items = [
        collected("tests/web/test_review.py", "a", ("slow",), (WAITS_FOR_THE_COACH_TABLES,)),
        collected("tests/web/test_review.py", "b"),
        collected("tests/http/test_views.py", "c"),
        collected("tests/ai/test_coach.py", "d", ("slow",)),
        collected("tests/ai/test_coach.py", "e", (), (WAITS_FOR_THE_COACH_TABLES,)),
        collected("tests/ai/test_solver.py", "f", ("slow",)),
        collected("tests/test_serve.py", "g", ("alone",)),
        collected("tests/ai/test_review.py", "h", (), (WAITS_FOR_THE_COACH_TABLES,)),
        collected("tests/engine/test_engine.py", "i"),
    ]
    order_for_workers(items)
    assert [item.name for item in items] == ["g", "f", "a", "b", "d", "e", "c", "i", "h"]
