"""The house rule on size: no source file over 600 lines and no Python function over 80, so
that each file has one duty and each function reads at a glance. Migrations (frozen
history), tests and generated files (openapi.yaml, the AI's trained tables) are left out."""

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
# What people write: the server, the tools and the browser table. Data and generated files
# (.json, .yaml, .lock) are not read by people, and the docs' pages are prose.
SOURCE_SUFFIXES = {".py", ".js", ".html", ".css", ".sh"}


def _source_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    return [
        ROOT / name
        for name in listed
        if name
        and Path(name).suffix in SOURCE_SUFFIXES
        and Path(name).parts[0] != "tests"
        and "migrations" not in Path(name).parts
        and (ROOT / name).is_file()
    ]


def _shown(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def files_too_long(files) -> list[str]:
    """`path: N lines` for each file over the limit."""
    found = []
    for path in files:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_FILE_LINES:
            found.append(f"{_shown(path)}: {lines} lines")
    return found


def functions_too_long(path: Path, source: str) -> list[str]:
    """`path:line name: N lines` for each function (or method) over the limit, its
    decorators and docstring included."""
    found = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines = node.end_lineno - first + 1
            if lines > MAX_FUNCTION_LINES:
                found.append(f"{_shown(path)}:{node.lineno} {node.name}: {lines} lines")
    return found


def test_no_source_file_is_too_long():
    offenders = files_too_long(_source_files())
    assert not offenders, f"over {MAX_FILE_LINES} lines; split by duty:\n" + "\n".join(offenders)


def test_no_function_is_too_long():
    offenders = [
        offender
        for path in _source_files()
        if path.suffix == ".py"
        for offender in functions_too_long(path, path.read_text(encoding="utf-8"))
    ]
    assert not offenders, f"over {MAX_FUNCTION_LINES} lines; split into named steps:\n" + "\n".join(
        offenders
    )


def test_the_checks_find_what_is_too_long(tmp_path):
    # Each check can fail: a file one line over the limit, and a function one line over.
    at_limit, over = tmp_path / "at_limit.js", tmp_path / "over.js"
    at_limit.write_text("let x;\n" * MAX_FILE_LINES)
    over.write_text("let x;\n" * (MAX_FILE_LINES + 1))
    assert files_too_long([at_limit, over]) == [f"{_shown(over)}: {MAX_FILE_LINES + 1} lines"]
    body = "    x = 1\n" * (MAX_FUNCTION_LINES - 1)
    module = tmp_path / "module.py"
    assert functions_too_long(module, f"def f():\n{body}x = 2\n") == []
    assert functions_too_long(module, f"@decorated\ndef f():\n{body}") == [
        f"{_shown(module)}:2 f: {MAX_FUNCTION_LINES + 1} lines"
    ]
