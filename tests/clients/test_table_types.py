"""The browser table's JavaScript type-checks (JSDoc, `tsc --checkJs --strict`) against the
types openapi-typescript generates from openapi.yaml, so it cannot drift from the API."""

import re
import shutil
from pathlib import Path

import pytest

from tests.clients.npm import REPO, SCHEMA_FILE, run

pytestmark = pytest.mark.slow

TABLE = REPO / "table"


def test_the_table_type_checks_against_the_schema(node_modules, tmp_path):
    # Check a copy, so the generated types never land in the repo.
    shutil.copytree(TABLE, tmp_path / "table", ignore=shutil.ignore_patterns("schema.d.ts"))
    checked = tmp_path / "table"
    bin_dir = node_modules / ".bin"
    run(bin_dir / "openapi-typescript", SCHEMA_FILE, "-o", checked / "schema.d.ts", cwd=checked)
    run(bin_dir / "tsc", "-p", checked, cwd=checked)


IMPORTED = re.compile(r'(?:from|import\()\s*"\./([\w./-]+\.js)"')
LOADED = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="([\w./-]+\.(?:js|css))"')


def loaded_by(page: str) -> set[Path]:
    """Every file of the table that `page` can load: its scripts and stylesheets, and every
    module they import, at once or when a screen is first shown (not the catalogues, whose
    path is made at run time)."""
    files = {TABLE / name for name in LOADED.findall((TABLE / page).read_text())}
    todo = [path for path in files if path.suffix == ".js"]
    while todo:
        for name in IMPORTED.findall(todo.pop().read_text()):
            if (path := TABLE / name) not in files:
                files.add(path)
                todo.append(path)
    return files


@pytest.mark.parametrize("page", ["index.html", "watch.html"])
def test_each_page_of_the_table_stays_small(page):
    # A visit loads one catalogue, not six: the code a page can load (all of its screens) and
    # the largest catalogue are what one language can cost there (tests/web/test_table_care.py
    # measures a real first visit).
    code = sum(path.stat().st_size for path in loaded_by(page))
    catalogue = max(path.stat().st_size for path in (TABLE / "i18n").glob("*.js"))
    assert code + catalogue < 150_000, f"{page}'s JS and CSS weigh {code + catalogue} bytes"


def test_the_size_counts_every_module_of_the_table():
    # Each module is loaded by one page or the other: none escapes the sums above.
    every = {path for path in TABLE.glob("*") if path.suffix in {".js", ".css"}}
    assert every == loaded_by("index.html") | loaded_by("watch.html")
    assert TABLE / "review.js" in loaded_by("index.html")
