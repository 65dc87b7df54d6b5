"""A migration means the same whatever the code later becomes: it imports only Django and the
standard library, and copies whatever else it needs. Imported app code (the engine, the codec,
the repository) could change under it and break a fresh install's migrate."""

import ast
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings

ALLOWED = {"django", *sys.stdlib_module_names}


def project_migrations() -> list[Path]:
    """The migration modules of the project's own apps (the top-level packages of the
    checkout; the virtualenv inside it holds other people's)."""
    root = Path(settings.BASE_DIR).resolve()
    folders = [
        Path(config.path) / "migrations"
        for config in apps.get_app_configs()
        if Path(config.path).resolve().parent == root
    ]
    return sorted(path for folder in folders for path in folder.glob("0*.py"))


def foreign_imports(source: str) -> list[str]:
    """Every module `source` imports, anywhere in it, that is neither Django nor the standard
    library; a relative import is named with its dots."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = ["." * node.level + (node.module or "")]
        else:
            continue
        found += [name for name in names if name.split(".")[0] not in ALLOWED]
    return found


def test_the_check_sees_every_kind_of_import():
    source = (
        "import uuid\nfrom django.db import migrations\n"
        "from games.engine import encode_event\n"
        "def forwards(apps, schema_editor):\n"
        "    from games.match.projection import numbered_lines\n"
        "    import players.tokens, json\n"
        "    from . import helpers\n"
    )
    assert foreign_imports(source) == ["games.engine", "games.match.projection", "players.tokens", "."]


def test_the_project_has_migrations_to_check():
    names = {f"{path.parent.parent.name}.{path.stem}" for path in project_migrations()}
    assert {"games.0005_event_batches", "games.0009_turn_clock", "players.0001_initial"} <= names


@pytest.mark.parametrize(
    "path", project_migrations(), ids=lambda path: f"{path.parent.parent.name}.{path.stem}"
)
def test_a_migration_imports_only_django_and_the_standard_library(path):
    assert foreign_imports(path.read_text()) == []
