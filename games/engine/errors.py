"""Rule errors: every refusal carries a stable, machine-readable code."""


class RuleError(Exception):
    """A command the rules refuse. `code` is stable; `detail` is for people."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail
