"""Issue #37's "done when": examples/verify_tournament.py, which imports nothing of the
service, verifies a closed tournament against a real server (`manage.py serve`): the
commitment, every entrant's dealers and hands, the same deals for all, and the same AI
action wherever two matches share the public history before it; and fails when the seed,
a card or an AI action was tampered with."""

import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.clients.scripts import EXAMPLES, imported_outside_stdlib, run_isolated

SCRIPT = EXAMPLES / "verify_tournament.py"

pytestmark = pytest.mark.slow


def run(server_url: str, tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess:
    return run_isolated(SCRIPT, tmp_path, server_url, *arguments)


def test_the_script_imports_the_standard_library_only():
    assert imported_outside_stdlib(SCRIPT) == set()


def player(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=f"{base}/api/v1", timeout=60)
    token = client.post("/players", json={"name": name}).json()["token"]
    client.headers["Authorization"] = f"Bearer {token}"
    return client


def play(client: httpx.Client, view: dict, deals: int, fold_at: int | None = None) -> None:
    """Play `deals` deals: look, then call or hold, but fold at decision `fold_at`."""
    decision = 0
    while view["status"] != "finished" and (view["deal_number"], view["status"]) < (
        deals,
        "deal_over",
    ):
        if view["status"] == "deal_over":
            view = client.post(f"/matches/{view['id']}/next-deal", json={}).json()
            continue
        legal = view["legal_actions"]
        if decision == fold_at and "fold" in legal:
            action = "fold"
        else:
            action = next((a for a in ("look", "call", "hold") if a in legal), legal[0])
        decision += 1
        view = client.post(f"/matches/{view['id']}/actions", json={"action": action}).json()
        assert "legal_actions" in view, view


@pytest.fixture(scope="module")
def closed_tournament(server_url, server_env) -> tuple[str, str]:
    """A tournament of two deal pools and four entrants (three who play alike, one who folds
    once), closed: its id and the commitment noted at its creation. Four in two pools: one
    pool has two at least, whose AI actions the script compares."""
    now = datetime.now(UTC)
    owner = player(server_url, "Owner")
    terms = {
        "name": "Verified",
        "ai_level": "hard",
        "entry_opens_at": (now - timedelta(minutes=1)).isoformat(),
        "entry_closes_at": (now + timedelta(minutes=10)).isoformat(),
        "deadline": (now + timedelta(minutes=20)).isoformat(),
        "pools": 2,
    }
    tournament = owner.post("/tournaments", json=terms).json()
    for name, fold_at in (("Roya", None), ("Babak", None), ("Nima", 6), ("Sara", None)):
        entrant = player(server_url, name)
        view = entrant.post(f"/tournaments/{tournament['id']}/entries", json={}).json()
        play(entrant, view, deals=4, fold_at=fold_at)
    # The deadline passes: as if 20 minutes went by, the row says so; the next read closes it.
    with psycopg.connect(server_env["DATABASE_URL"], autocommit=True) as connection:
        connection.execute(
            "UPDATE games_tournament SET entry_closes_at = now() - interval '2 minutes',"
            " deadline = now() - interval '1 minute' WHERE id = %s",
            [tournament["id"]],
        )
    assert owner.get(f"/tournaments/{tournament['id']}").json()["phase"] == "closed"
    return tournament["id"], tournament["commitment"]


def test_the_script_verifies_a_closed_tournament(server_url, tmp_path, closed_tournament):
    tournament, commitment = closed_tournament
    result = run(server_url, tmp_path, tournament, "--commitment", commitment)
    assert result.returncode == 0, result.stdout + result.stderr
    *_, verified = result.stdout.splitlines()
    assert verified.startswith("verified: commitment, 4 matches in "), verified
    # Four matches of at least four deals, and AI actions met in more than one match.
    deals = int(verified.split(", ")[2].split()[0])
    compared = int(verified.split(", ")[-1].split()[0])
    assert deals >= 16 and compared > 0, verified


@pytest.mark.parametrize(
    ("tampered", "found"),
    [
        ("seed", "FAIL the revealed seed does not hash to the commitment"),
        ("card", " showed "),
        ("ai", " where "),
    ],
)
def test_the_script_fails_on_what_was_tampered_with(
    server_url, tmp_path, closed_tournament, tampered, found
):
    result = run(server_url, tmp_path, closed_tournament[0], "--tamper", tampered)
    assert result.returncode == 1, result.stdout + result.stderr
    assert found in result.stdout, result.stdout


def test_a_commitment_other_than_the_one_noted_fails(server_url, tmp_path, closed_tournament):
    result = run(server_url, tmp_path, closed_tournament[0], "--commitment", "0" * 64)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "not the one noted at its creation" in result.stdout, result.stdout
