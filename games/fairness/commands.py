"""The fairness room: the seeds a match deals from (docs/fairness.md). A server seed is
drawn and committed to before any client seed (`commitment_create`), taken by the match it
deals (`first_seeds`), and each series commits to the next one's (`next_server_seed`); a
match created with the test-only `seed` derives them all from it."""

import secrets
import uuid
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.engine import DomainError, Seeds, fairness
from games.fairness import store
from games.match.loaded import LoadedMatch
from players.models import Player

COMMITMENT_SECONDS = 600
"""How long a commitment may wait for the match it deals."""


@transaction.atomic
def commitment_create(*, player: Player) -> tuple[uuid.UUID, str, datetime]:
    """A server seed drawn now, before any client seed, for a match the player creates
    later: its id, its commitment (SHA-256, hex) and when it expires."""
    server_seed = secrets.token_bytes(fairness.SEED_BYTES).hex()
    expires_at = timezone.now() + timedelta(seconds=COMMITMENT_SECONDS)
    row = store.commitment_insert(player=player, server_seed=server_seed, expires_at=expires_at)
    return row.id, fairness.commitment(bytes.fromhex(server_seed)), expires_at


def seeded_seeds(seed: int, *, client_seed: str = "", verifiable: bool = True) -> Seeds:
    """The first seeds of a match created with the test-only `seed` (docs/fairness.md)."""
    first, following = fairness.test_server_seed(seed, 1), fairness.test_server_seed(seed, 2)
    return Seeds(first, following, client_seed, verifiable)


def seeded_next_server_seed(seed: int, series: int) -> str:
    """A seeded match's server seed for the series after `series` + 1, which a restart into
    series `series` + 1 commits to."""
    return fairness.test_server_seed(seed, series + 2)


@transaction.atomic
def commitments_purge(*, now: datetime) -> int:
    """Delete the commitments that can no longer create a match."""
    return store.commitments_purge(now=now)


def _commitment_take(commitment_id: uuid.UUID, *, player: Player, verifiable: bool) -> str:
    """The server seed of the player's commitment, which no other match may deal from now.
    A match that never reveals its seed would use a commitment up for nothing: refused,
    and the commitment stays as it was."""
    commitment = store.commitment_lock(commitment_id=commitment_id, player=player)
    if commitment is None:
        raise DomainError("commitment_not_found", "No such commitment.")
    if not verifiable:
        raise DomainError(
            "commitment_not_verifiable",
            "A commitment is for a verifiable match, whose seed is revealed when its series "
            "ends; pass verifiable: true or leave the commitment out.",
        )
    if commitment.used:
        raise DomainError("commitment_used", "This commitment was used already; draw a new one.")
    if commitment.expires_at <= timezone.now():
        raise DomainError("commitment_expired", "This commitment has expired; draw a new one.")
    store.commitment_use(commitment)
    return commitment.server_seed


def first_seeds(
    *,
    player: Player,
    seed: int | None,
    commitment: uuid.UUID | None,
    client_seed: str,
    verifiable: bool,
) -> Seeds:
    """The seeds a new match deals its first series from: derived from the test-only
    `seed`, taken from the player's commitment, or drawn now; and the next series' seed."""
    if seed is not None:
        return seeded_seeds(seed, client_seed=client_seed, verifiable=verifiable)
    if commitment is None:
        first = secrets.token_bytes(fairness.SEED_BYTES).hex()
    else:
        first = _commitment_take(commitment, player=player, verifiable=verifiable)
    following = secrets.token_bytes(fairness.SEED_BYTES).hex()
    return Seeds(first, following, client_seed, verifiable)


def next_server_seed(match: LoadedMatch) -> str | None:
    """The server seed of the series after the one a restart starts: drawn now, or for a
    seeded match derived from its seed, as its first ones were."""
    if match.state.seeds is None:
        return None
    if match.row.seeded:
        return seeded_next_server_seed(match.state.seed, match.state.series)
    return secrets.token_bytes(fairness.SEED_BYTES).hex()
