"""The browser table's JavaScript type-checks (JSDoc, `tsc --checkJs --strict`) against the
types openapi-typescript generates from openapi.yaml, so it cannot drift from the API."""

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


def test_the_table_stays_small():
    # A visit loads one catalogue, not six: the code and the largest catalogue are what one
    # language can cost (tests/web/test_table_care.py measures a real first visit).
    files = [path for path in TABLE.rglob("*") if path.suffix in {".js", ".css"}]
    code = sum(path.stat().st_size for path in files if path.parent.name != "i18n")
    catalogue = max(path.stat().st_size for path in files if path.parent.name == "i18n")
    assert code + catalogue < 150_000, f"the table's JS and CSS weigh {code + catalogue} bytes"
