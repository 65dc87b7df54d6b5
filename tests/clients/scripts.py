"""The examples/ scripts a user runs as they are: imports checked from the source, runs in
Python's isolated mode from an empty directory, as someone with none of the service's code."""

import ast
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def imported_outside_stdlib(script: Path) -> set[str]:
    """The top-level modules `script` imports that the standard library lacks (none wanted);
    a script that imports nothing at all is itself a sign the parse went wrong."""
    tree = ast.parse(script.read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported, f"{script.name} imports nothing"
    return imported - sys.stdlib_module_names


def run_isolated(script: Path, cwd: Path, *arguments: str) -> subprocess.CompletedProcess:
    # -I: no PYTHONPATH, no user site, not even the script's own directory on sys.path.
    return subprocess.run(
        [sys.executable, "-I", script, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )
