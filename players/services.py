from django.db import transaction

from players.models import Player, Token
from players.tokens import hash_token, new_token


def _token_add(player: Player) -> str:
    token = new_token()
    Token.objects.create(player=player, token_hash=hash_token(token))
    return token


@transaction.atomic
def player_create(*, name: str) -> tuple[Player, str]:
    """A new human player and its bearer token, which is returned only here."""
    player = Player.objects.create(name=name, kind=Player.Kind.HUMAN)
    return player, _token_add(player)


@transaction.atomic
def token_issue(*, player: Player) -> str:
    """Another token for the player, say for another device; the others keep working."""
    return _token_add(player)


@transaction.atomic
def token_rotate(*, player: Player, token: str) -> str:
    """A new token in place of `token`, which stops working at once."""
    token_revoke(player=player, token=token)
    return _token_add(player)


@transaction.atomic
def token_revoke(*, player: Player, token: str) -> None:
    """`token` stops working at once. Revoking the last one locks the player out for good:
    only hashes are kept, so nothing can issue a token without one."""
    Token.objects.filter(player=player, token_hash=hash_token(token)).delete()
