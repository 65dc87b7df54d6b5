"""The fairness room's store: the only code touching Commitment rows, the server seeds drawn
before a match that deals from them (docs/fairness.md)."""

import uuid
from datetime import datetime

from games.models import Commitment
from players.models import Player


def commitment_insert(*, player: Player, server_seed: str, expires_at: datetime) -> Commitment:
    return Commitment.objects.create(player=player, server_seed=server_seed, expires_at=expires_at)


def commitment_lock(*, commitment_id: uuid.UUID, player: Player) -> Commitment | None:
    """The player's commitment, locked until the transaction ends; None if they have none
    of this id."""
    return Commitment.objects.select_for_update().filter(pk=commitment_id, player=player).first()


def commitment_use(commitment: Commitment) -> None:
    """Mark a locked commitment used, so that no other match deals from it."""
    commitment.used = True
    commitment.save(update_fields=["used"])


def commitments_purge(*, now: datetime) -> int:
    """Delete the commitments no match can take any more."""
    return Commitment.objects.filter(expires_at__lte=now).delete()[0]
