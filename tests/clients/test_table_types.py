"""The browser table's JavaScript type-checks (JSDoc, `tsc --checkJs --strict`) against the
types openapi-typescript generates from openapi.yaml, so it cannot drift from the API."""

import re
import shutil
from pathlib import Path

import pytest

from tests.clients.npm import REPO, run
from tests.schema_file import SCHEMA_FILE

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
AT_ONCE = re.compile(r'from\s*"\./([\w./-]+\.js)"')
LOADED = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="([\w./-]+\.(?:js|css))"')


def loaded_by(page: str, imported: re.Pattern = IMPORTED) -> set[Path]:
    """The files of the table that `page` loads: its scripts and stylesheets, and every module
    they import, by default at once or when a screen is first shown (`AT_ONCE`: only the
    static imports, what arrives with the page); not the catalogues, whose path is made at run
    time."""
    files = {TABLE / name for name in LOADED.findall((TABLE / page).read_text())}
    todo = [path for path in files if path.suffix == ".js"]
    while todo:
        for name in imported.findall(todo.pop().read_text()):
            if (path := TABLE / name) not in files:
                files.add(path)
                todo.append(path)
    return files


def weight(files: set[Path]) -> int:
    # A visit loads one catalogue, not six: the largest is what one language can cost.
    catalogue = max(path.stat().st_size for path in (TABLE / "i18n").glob("*.js"))
    return sum(path.stat().st_size for path in files) + catalogue


@pytest.mark.parametrize("page", ["index.html", "watch.html"])
def test_what_a_page_loads_at_once_stays_under_150_kb(page):
    # The bound for a first visit, on what the page's static imports bring before any
    # screen is shown (tests/web/test_table_care.py measures a real first visit, which loads
    # less: the first screen's module too, but not every static import of every page).
    assert weight(loaded_by(page, AT_ONCE)) < 150_000


@pytest.mark.parametrize("page", ["index.html", "watch.html"])
def test_all_a_page_can_load_stays_within_300_kb(page):
    # Every screen it may fetch later too (the match, the review, the puzzles, the tournaments,
    # the rules' pictures), each only when first shown: what a player who opens every screen
    # pays. It grows by a few kilobytes a screen; a library or inlined data would not fit.
    assert weight(loaded_by(page)) < 300_000


def test_no_module_of_the_table_outgrows_24_kb():
    # A screen grown by a library or inlined data shows in one file, which the sums above only
    # see once it has eaten their margin; words live in the catalogues, measured above.
    sizes = {
        path.name: path.stat().st_size for path in TABLE.glob("*") if path.suffix in {".js", ".css"}
    }
    assert max(sizes.values()) < 24_000, sorted(sizes.items(), key=lambda item: -item[1])[:3]


def test_the_sizes_count_every_module_of_the_table():
    # Each module is loaded by one page or the other: none escapes the sums above; and the
    # screens a first visit does not show are not among what arrives at once.
    every = {path for path in TABLE.glob("*") if path.suffix in {".js", ".css"}}
    assert every == loaded_by("index.html") | loaded_by("watch.html")
    later = {
        TABLE / name
        for name in ("review.js", "rules.js", "cards.js", "puzzles.js", "tournament.js")
    }
    assert later <= loaded_by("index.html")
    assert not later & loaded_by("index.html", AT_ONCE)
