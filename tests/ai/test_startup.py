"""The service loads the hard AI's table at start-up and refuses to start without it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_service_refuses_to_start_without_a_valid_strategy(tmp_path):
    # A copy of the project whose asset is damaged: Django's setup must stop with the reason.
    script = (
        "import django, games.ai.strategy as s, pathlib\n"
        f"s.ASSET_PATH = pathlib.Path({str(tmp_path / 'missing.json')!r})\n"
        "django.setup()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "asnas_api.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "StrategyError" in result.stderr
    assert "missing.json" in result.stderr
