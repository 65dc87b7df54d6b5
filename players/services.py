from django.db import transaction

from players.models import Player
from players.tokens import hash_token, new_token


@transaction.atomic
def player_create(*, name: str) -> tuple[Player, str]:
    """A new human player and its bearer token, which is returned only here."""
    token = new_token()
    player = Player.objects.create(name=name, kind=Player.Kind.HUMAN, token_hash=hash_token(token))
    return player, token
