"""Issue #25's "done when": a script written from the issue's text alone verifies a
single-player match end to end. examples/verify_from_spec.py imports nothing of the
service; it runs here against a real server, in isolated mode from an empty directory, and
must fail on a tampered seed or a swapped card."""

import re
import subprocess
from pathlib import Path

import pytest

from tests.clients.scripts import EXAMPLES, imported_outside_stdlib, run_isolated

SCRIPT = EXAMPLES / "verify_from_spec.py"

pytestmark = pytest.mark.slow


def run(server_url: str, tmp_path: Path, *options: str) -> subprocess.CompletedProcess:
    return run_isolated(SCRIPT, tmp_path, server_url, *options)


def test_the_script_imports_the_standard_library_only():
    assert imported_outside_stdlib(SCRIPT) == set()


@pytest.mark.parametrize("options", [(), ("--resign-after", "2")], ids=["finished", "resigned"])
def test_the_script_verifies_a_single_player_match_end_to_end(server_url, tmp_path, options):
    result = run(server_url, tmp_path, "--client-seed", "roya's own: 42", *options)
    assert result.returncode == 0, result.stdout + result.stderr
    *_, verified = result.stdout.splitlines()
    deals = 3 if options else 12
    expected = f"verified: commitment, {deals} decks, {2 * deals} dealers"
    assert verified.startswith(expected), verified
    # Every deal's every hand was checked at least once: the record shows them all.
    assert f"({4 * deals} distinct deal and seat)" in verified, verified


def test_the_script_fails_on_a_tampered_seed(server_url, tmp_path):
    result = run(server_url, tmp_path, "--resign-after", "1", "--tamper", "seed")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL the revealed seed does not hash to the commitment" in result.stdout, result.stdout


def test_the_script_fails_on_the_very_card_it_swapped(server_url, tmp_path):
    # Whichever deal first showed a hand (deals may end before the player's turn, so the
    # script resigns only once one was shown): the one finding names the hand it changed.
    result = run(server_url, tmp_path, "--resign-after", "1", "--tamper", "card")
    assert result.returncode == 1, result.stdout + result.stderr
    swapped = re.search(r"^tampered: card, (.+: deal \d+ seat \d+)$", result.stdout, re.M)
    assert swapped, result.stdout
    assert f"FAIL {swapped[1]} " in result.stdout, result.stdout
    assert "FAIL: 1 disagreements in all" in result.stdout, result.stdout
