"""The browser table's JavaScript type-checks (JSDoc, `tsc --checkJs --strict`) against the
types openapi-typescript generates from openapi.yaml, so it cannot drift from the API."""

import re
import shutil

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


def reachable(entry: str) -> set[str]:
    """The modules a page can load from its entry: static imports and import() alike."""
    found, queue = set(), [entry]
    while queue:
        name = queue.pop()
        found.add(name)
        source = (TABLE / name).read_text()
        for imported in re.findall(r"""(?:from|import\()\s*["']\./([\w-]+\.js)["']""", source):
            if imported not in found:
                queue.append(imported)
    return found


def test_the_table_stays_small():
    # A visit loads one catalogue, not six, and one page's modules: the table's (app.js and
    # every screen it may fetch) or the spectators' (watch.js). The largest page's code, its
    # stylesheet and the largest catalogue are what one language can cost at most
    # (tests/web/test_table_care.py measures a real first visit, which loads less).
    pages = {entry: reachable(entry) for entry in ("app.js", "watch.js")}
    assert "match.js" in pages["app.js"] and "watch.js" not in pages["app.js"]
    style = (TABLE / "style.css").stat().st_size
    code = max(sum((TABLE / name).stat().st_size for name in names) for names in pages.values())
    catalogue = max(path.stat().st_size for path in (TABLE / "i18n").glob("*.js"))
    assert code + style + catalogue < 150_000, (
        f"a page of the table weighs {code + style + catalogue} bytes"
    )
