"""Each import-linter contract in pyproject.toml holds on the code, and fails on a forbidden
import: a contract that nothing can break guards nothing."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ["games", "players", "asnas_api", "edge", "bench", "terminal"]
VERDICT = re.compile(r"^(?P<name>.+) (?P<verdict>KEPT|BROKEN)(?: \(.*\))?$", re.MULTILINE)
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

# (contract name, module that gains the import, the forbidden import): at least one for each
# contract, and one for each kind of import the rooms forbid (docs/architecture.md).
FORBIDDEN = [
    ("engine is pure", "games/engine/rules.py", "import django"),
    ("a store calls no command or query", "games/match/store.py", "import games.match.commands"),
    (
        "a store calls no command or query",
        "games/spectating/store.py",
        "import games.spectating.queries",
    ),
    ("a query calls no command", "games/tables/queries.py", "import games.tables.commands"),
    ("a query calls no command", "games/match/queries.py", "import games.match.commands"),
    ("a query calls no command", "games/review/queries.py", "import games.review.commands"),
    ("a store calls no command or query", "games/review/store.py", "import games.review.queries"),
    (
        "the HTTP layer touches no store or model",
        "games/http/review.py",
        "import games.review.store",
    ),
    ("engine is pure", "games/ai/review.py", "import games.review.bodies"),
    ("the live room knows no domain", "games/live/sse.py", "import games.review.queries"),
    (
        "a query calls no command",
        "games/tournaments/queries.py",
        "import games.tournaments.commands",
    ),
    (
        "a store calls no command or query",
        "games/tournaments/store.py",
        "import games.tournaments.queries",
    ),
    (
        "the HTTP layer touches no store or model",
        "games/http/tournaments.py",
        "import games.tournaments.store",
    ),
    ("engine is pure", "games/engine/duplicate.py", "import games.tournaments"),
    ("a query calls no command", "games/puzzles/queries.py", "import games.puzzles.commands"),
    ("a store calls no command or query", "games/puzzles/store.py", "import games.puzzles.queries"),
    (
        "the HTTP layer touches no store or model",
        "games/http/puzzles.py",
        "import games.puzzles.store",
    ),
    ("engine is pure", "games/ai/review.py", "import games.puzzles.positions"),
    ("the live room knows no domain", "games/live/sse.py", "import games.puzzles.queries"),
    ("a query calls no command", "games/ladder/queries.py", "import games.ladder.commands"),
    ("a store calls no command or query", "games/ladder/store.py", "import games.ladder.queries"),
    (
        "the HTTP layer touches no store or model",
        "games/http/ladder.py",
        "import games.ladder.store",
    ),
    ("engine is pure", "games/ai/benchmark.py", "import games.ladder"),
    ("the live room knows no domain", "games/live/sse.py", "import games.ladder.queries"),
    ("the HTTP layer touches no store or model", "games/http/match.py", "import games.match.store"),
    ("the HTTP layer touches no store or model", "games/http/coaching.py", "import games.models"),
    ("the HTTP layer touches no store or model", "games/http/tables.py", "import players.models"),
    ("the live room knows no domain", "games/live/sse.py", "import games.http"),
    ("the live room knows no domain", "games/live/loop.py", "import games.match.commands"),
    ("edge imports no app", "edge/problems.py", "import games"),
    ("the terminal client knows only HTTP", "terminal/api.py", "import psycopg"),
    ("top-level packages form no cycles", "players/selectors.py", "import bench"),
    ("layers", "games/engine/cards.py", "import games.ai"),
    ("layers", "games/match/queries.py", "import games.http.match"),
    ("layers", "games/live/wakeups.py", "import players.services"),
]


def contracts(root: Path) -> dict[str, str]:
    """Each contract's verdict (KEPT or BROKEN) on the code under root."""
    run = subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": str(LINT_IMPORTS.parent)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    # "NAME KEPT", or "NAME KEPT (4 ignored imports)" for a contract with declared exceptions.
    found = VERDICT.finditer(run.stdout)
    return {line["name"]: line["verdict"] for line in found}


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """The project's Python modules and pyproject.toml, to break at will."""
    root = tmp_path_factory.mktemp("imports")
    shutil.copy(REPO / "pyproject.toml", root)
    for package in PACKAGES:
        for module in (REPO / package).rglob("*.py"):
            target = root / module.relative_to(REPO)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(module, target)
    return root


def test_every_contract_holds_and_is_tested():
    assert contracts(REPO) == dict.fromkeys((name for name, _, _ in FORBIDDEN), "KEPT")


@pytest.mark.parametrize(
    ("name", "module", "line"),
    FORBIDDEN,
    ids=[f"{module}: {line}" for _, module, line in FORBIDDEN],
)
def test_a_forbidden_import_breaks_the_contract(copy, name, module, line):
    original = (copy / module).read_text()
    (copy / module).write_text(f"{original}\n{line}\n")
    try:
        verdicts = contracts(copy)
    finally:
        (copy / module).write_text(original)
    assert verdicts[name] == "BROKEN", verdicts
