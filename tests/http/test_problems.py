"""The error registry is the one table of codes: the docs show it as it is, and every code
the domain raises is in it."""

import re
from pathlib import Path

from edge.problems import PROBLEMS, docs_table

ROOT = Path(__file__).resolve().parents[2]
RAISED = re.compile(r"(?:RuleError|DomainError)\(\s*\"(\w+)\"")


def test_the_docs_table_is_the_registry():
    assert docs_table() in (ROOT / "docs" / "rules.md").read_text()


def test_every_code_the_domain_raises_is_registered_and_every_domain_entry_is_raised():
    raised = {
        code for path in (ROOT / "games").rglob("*.py") for code in RAISED.findall(path.read_text())
    }
    assert raised, "the pattern finds no raise at all"
    assert raised <= PROBLEMS.keys(), raised - PROBLEMS.keys()
    domain = {code for code, entry in PROBLEMS.items() if not entry.framework}
    assert domain == raised, domain ^ raised


def test_only_the_server_side_codes_are_5xx():
    assert all(400 <= entry.status < 600 for entry in PROBLEMS.values())
    server_side = {code for code, entry in PROBLEMS.items() if entry.status >= 500}
    # A hint refused for the server's own capacity is not the client's fault either, nor a
    # review the server has not yet worked out, nor a benchmark's count that waits for the
    # server's tables.
    assert server_side == {
        "server_error",
        "database_unavailable",
        "hints_busy",
        "review_pending",
        "benchmark_pending",
    }
