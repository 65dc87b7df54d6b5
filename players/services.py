import uuid
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from players.models import Player, StreamTicket, Token
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
def token_rotate(*, player: Player, token: str) -> str | None:
    """A new token in place of `token`, which stops working at once; None, and nothing
    changed, if `token` had stopped working already. Of any number of rotations and
    revocations of one token at once exactly one wins (see token_revoke), so whoever races
    the owner with a stolen token cannot come away with a live token too."""
    if not token_revoke(player=player, token=token):
        return None
    return _token_add(player)


@transaction.atomic
def token_revoke(*, player: Player, token: str) -> bool:
    """`token` stops working at once; False if it had stopped working already. Revoking the
    last one locks the player out for good: only hashes are kept, so nothing can issue a
    token without one.

    The row count of the DELETE decides: a request that checked the token before another
    deleted it waits on the row's lock and then deletes nothing."""
    deleted, _ = Token.objects.filter(player=player, token_hash=hash_token(token)).delete()
    return deleted == 1


_REDEEM = (
    f"DELETE FROM {StreamTicket._meta.db_table} WHERE ticket_hash = %s"
    " RETURNING player_id, match_id, expires_at"
)


def stream_ticket_redeem(*, ticket: str, match_id: uuid.UUID | None) -> Player | None:
    """The player `ticket` was issued to, if it is good for the stream of `match_id` (None:
    the player's own); None otherwise. Used up either way: the DELETE lets exactly one of
    any number of servers redeem it."""
    with connection.cursor() as cursor:
        cursor.execute(_REDEEM, [hash_token(ticket)])
        row = cursor.fetchone()
    if row is None:
        return None
    player_id, ticket_match, expires_at = row
    if expires_at <= timezone.now() or ticket_match != match_id:
        return None
    return Player.objects.get(pk=player_id)


def stream_tickets_purge(*, now: datetime) -> int:
    """Delete the tickets expired before `now`; return how many."""
    return StreamTicket.objects.filter(expires_at__lt=now).delete()[0]


def player_ai_personas(*, names: tuple[str, ...]) -> list[Player]:
    """The AI players of these names, in order, created the first time they are needed."""
    found = {p.name: p for p in Player.objects.filter(kind=Player.Kind.AI, name__in=names)}
    return [
        found.get(name) or Player.objects.get_or_create(name=name, kind=Player.Kind.AI)[0]
        for name in names
    ]


def stream_ticket_issue(
    *, player: Player, match_id: uuid.UUID | None, seconds: int
) -> tuple[str, datetime]:
    """A new single-use stream ticket, good for `seconds`, with the moment it expires; only
    its hash is stored."""
    ticket = new_token()
    expires_at = timezone.now() + timedelta(seconds=seconds)
    StreamTicket.objects.create(
        ticket_hash=hash_token(ticket), player=player, match_id=match_id, expires_at=expires_at
    )
    return ticket, expires_at
