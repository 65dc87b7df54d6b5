"""Refusals: every one carries a stable, machine-readable code. Which HTTP status a code
becomes is the edge's business (edge/problems.py), not the engine's or the services'."""


class DomainError(Exception):
    """A request the domain refuses. `code` is stable; `detail` is for people; `fields`, if
    any, are machine-readable facts the answer carries beside them (its schema names them)."""

    def __init__(self, code: str, detail: str, **fields):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.fields = fields


class RuleError(DomainError):
    """A command the rules refuse."""
