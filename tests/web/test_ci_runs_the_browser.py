"""CI runs the browser tests with the system Chromium: a missing browser fails them there,
where a skip would let CI pass without them (#24)."""

import re

import pytest

from tests.servers import BASE_DIR
from tests.web.conftest import unavailable


def test_a_missing_browser_fails_in_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setenv("ASNAS_CI", "1")
    with pytest.raises(pytest.fail.Exception, match="CI must run the browser tests"):
        unavailable("no Chromium")
    monkeypatch.delenv("ASNAS_CI")
    with pytest.raises(pytest.skip.Exception):
        unavailable("no Chromium")


def test_the_ci_script_says_it_is_ci_before_the_tests():
    script = (BASE_DIR / ".ci" / "run").read_text()
    ci = re.search(r"^export ASNAS_CI=1$", script, flags=re.MULTILINE)
    tests = re.search(r"^uv run pytest$", script, flags=re.MULTILINE)
    assert ci and tests and ci.start() < tests.start()
