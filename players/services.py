import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from fractions import Fraction

from django.db import connection, transaction
from django.utils import timezone

from players import rating
from players.models import Player, Rating, RatingChange, StreamTicket, Token
from players.rating_anchors import ANCHORS
from players.tokens import hash_token, new_token


def _token_add(player: Player) -> str:
    token = new_token()
    Token.objects.create(player=player, token_hash=hash_token(token))
    return token


@transaction.atomic
def player_create(*, name: str, bot: bool = False) -> tuple[Player, str]:
    """A new player, a human or a `bot` for good, and its bearer token, which is returned
    only here."""
    player = Player.objects.create(name=name, kind=Player.Kind.BOT if bot else Player.Kind.HUMAN)
    return player, _token_add(player)


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    """The player's new name, shown from now on at every table it sits at (a match reads its
    seats' names from the players' rows)."""
    player.name = name
    player.save(update_fields=["name"])
    return player


@transaction.atomic
def player_declare_bot(*, player: Player) -> bool:
    """Make `player` a bot, for good, before their first match; False, and nothing changed,
    for a human who has sat at a match: others met them as a human. The row's lock makes a
    declaration and a first seat at once come one after the other (a seat's command locks the
    player's row first: player_kind_locked)."""
    with connection.cursor() as cursor:
        # On Citus the seats' check asks every shard, and Citus refuses the write of a
        # reference table (players_player) after a search over several connections a node:
        # one a node for the transaction (Postgres alone ignores the setting).
        cursor.execute("SELECT set_config('citus.multi_shard_modify_mode', 'sequential', true)")
    row = Player.objects.select_for_update().get(pk=player.pk)
    if row.kind == Player.Kind.BOT:
        return True
    # Through the reverse relation: players knows nothing of games, whose seats point here.
    if row.seats.exists():
        return False
    row.kind = Player.Kind.BOT
    row.save(update_fields=["kind"])
    player.kind = row.kind
    return True


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
    token_hash = hash_token(token)
    # The table's trigger (players migration 0006) tells the streams this token opened, at
    # commit: they wake, find it gone and end.
    deleted, _ = Token.objects.filter(player=player, token_hash=token_hash).delete()
    return deleted == 1


_REDEEM = (
    f"DELETE FROM {StreamTicket._meta.db_table} ticket WHERE ticket_hash = %s"
    " RETURNING player_id, match_id, expires_at, token_hash,"
    f" EXISTS (SELECT 1 FROM {Token._meta.db_table} t WHERE t.token_hash = ticket.token_hash)"
)


def stream_ticket_redeem(*, ticket: str, match_id: uuid.UUID | None) -> tuple[Player, str] | None:
    """The player `ticket` was issued to and the hash of the token that issued it, if the
    ticket is good for the stream of `match_id` (None: the player's own) and that token still
    works; None otherwise. Used up either way: the DELETE lets exactly one of any number of
    servers redeem it."""
    with connection.cursor() as cursor:
        cursor.execute(_REDEEM, [hash_token(ticket)])
        row = cursor.fetchone()
    if row is None:
        return None
    player_id, ticket_match, expires_at, token_hash, token_works = row
    if expires_at <= timezone.now() or ticket_match != match_id or not token_works:
        return None
    return Player.objects.get(pk=player_id), token_hash


def stream_tickets_purge(*, now: datetime) -> int:
    """Delete the tickets expired before `now`; return how many."""
    return StreamTicket.objects.filter(expires_at__lt=now).delete()[0]


# FOR NO KEY UPDATE, not FOR SHARE: on Citus a row lock of a reference table locks the whole
# table's shard, shared for FOR SHARE, and two seats that both held it shared then each
# inserted a seat (which takes it for writing) deadlocked (CI, a join racing quick plays).
# Exclusive, it makes them one after the other; on Postgres it still blocks no foreign key.
_KIND_LOCKED = f"SELECT kind FROM {Player._meta.db_table} WHERE id = %s FOR NO KEY UPDATE"


def player_kind_locked(*, player: Player) -> str:
    """The player's kind as the database holds it now, its row locked until the transaction
    ends: a command that seats the player reads it so, before it takes any other lock, and a
    bot declaration at once (player_declare_bot) waits for the seat or the seat for it.
    `player.kind` follows it."""
    with connection.cursor() as cursor:
        cursor.execute(_KIND_LOCKED, [player.pk])
        (player.kind,) = cursor.fetchone()
    return player.kind


def player_ai_personas(*, names: tuple[str, ...]) -> list[Player]:
    """The AI players of these names, in order, created the first time they are needed."""
    found = {p.name: p for p in Player.objects.filter(kind=Player.Kind.AI, name__in=names)}
    return [
        found.get(name) or Player.objects.get_or_create(name=name, kind=Player.Kind.AI)[0]
        for name in names
    ]


def stream_ticket_issue(
    *, player: Player, token: str, match_id: uuid.UUID | None, seconds: int
) -> tuple[str, datetime]:
    """A new single-use stream ticket issued with `token`, good for `seconds` and no longer
    than `token` works, with the moment it expires; only its hash is stored."""
    ticket = new_token()
    expires_at = timezone.now() + timedelta(seconds=seconds)
    StreamTicket.objects.create(
        ticket_hash=hash_token(ticket),
        player=player,
        match_id=match_id,
        expires_at=expires_at,
        token_hash=hash_token(token),
    )
    return ticket, expires_at


@transaction.atomic
def match_rate(
    *,
    match_id: uuid.UUID,
    series: int,
    ai_level: str,
    humans: Mapping[int, uuid.UUID],
    totals: Sequence[Fraction],
    quit: Sequence[bool],
    finished_at: datetime,
) -> bool:
    """Rate one series of a match as it ended, with OpenSkill (docs/ratings.md): each human
    seat of `humans` (seat -> player id) rated, the seats of those who stayed by the exact
    totals, those who `quit` behind every other seat; each AI seat the anchor of `ai_level`,
    which does not move. False, and nothing changed, if it was rated already.

    Locks the humans' rating rows in the order of their ids, so that two matches of one
    player finishing at once both count: the second waits, then reads the first's result."""
    rows = _ratings_locked(humans.values())
    if RatingChange.objects.filter(match_id=match_id, series=series).exists():
        return False
    before = {seat: rating.Rating(rows[pid].mu, rows[pid].sigma) for seat, pid in humans.items()}
    rated = rating.rate_match(totals=totals, humans=before, quit=quit, anchor=ANCHORS[ai_level])
    for seat, pid in sorted(humans.items()):
        _rating_save(rows[pid], rated[seat].after)
    RatingChange.objects.bulk_create(
        RatingChange(
            player_id=pid,
            match_id=match_id,
            series=series,
            finished_at=finished_at,
            place=rated[seat].place,
            mu_before=before[seat].mu,
            sigma_before=before[seat].sigma,
            mu_after=rated[seat].after.mu,
            sigma_after=rated[seat].after.sigma,
        )
        for seat, pid in humans.items()
    )
    return True


@transaction.atomic
def tournament_rate(
    *, entrants: Sequence[tuple[uuid.UUID, uuid.UUID, int]], finished_at: datetime
) -> bool:
    """Rate a closed tournament once, from its standings (docs/ratings.md, "Tournaments"):
    `entrants` are (player id, their match id, their place in the standings, 1 best, equal
    places tied), every entrant a team of one in one OpenSkill ranking; the AI seats are not
    entrants. Each entrant's match gets one RatingChange (series 1) with their place. False,
    and nothing changed, if one entrant alone (nobody to rank against) or if any of the
    matches was rated already.

    Locks the entrants' rating rows in the order of their ids, as `match_rate` does, so that
    an entrant's other match finishing at the same moment waits and reads this result."""
    if len(entrants) < 2:
        return False
    rows = _ratings_locked(pid for pid, _, _ in entrants)
    if RatingChange.objects.filter(match_id__in=[m for _, m, _ in entrants]).exists():
        return False
    before = [rating.Rating(rows[pid].mu, rows[pid].sigma) for pid, _, _ in entrants]
    after = rating.rate(
        [rating.Entrant(r, place) for r, (_, _, place) in zip(before, entrants, strict=True)]
    )
    for (pid, _, _), now in sorted(zip(entrants, after, strict=True), key=lambda e: e[0][0]):
        _rating_save(rows[pid], now)
    RatingChange.objects.bulk_create(
        RatingChange(
            player_id=pid,
            match_id=match_id,
            series=1,
            finished_at=finished_at,
            place=place,
            mu_before=was.mu,
            sigma_before=was.sigma,
            mu_after=now.mu,
            sigma_after=now.sigma,
        )
        for (pid, match_id, place), was, now in zip(entrants, before, after, strict=True)
    )
    return True


def _ratings_locked(player_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Rating]:
    """The players' rating rows, locked until the transaction ends, in the order of their
    ids (two ratings sharing players never deadlock). The rows must exist to be locked: a
    newcomer's is made at the starting rating; a concurrent insert of the same row waits for
    the other, then does nothing."""
    ids = sorted(set(player_ids))
    Rating.objects.bulk_create(
        [
            Rating(player_id=pid, mu=rating.START.mu, sigma=rating.START.sigma, displayed=0.0)
            for pid in ids
        ],
        ignore_conflicts=True,
    )
    return {
        row.player_id: row
        for row in Rating.objects.select_for_update()
        .filter(player_id__in=ids)
        .order_by("player_id")
    }


def _rating_save(row: Rating, after: rating.Rating) -> None:
    row.mu, row.sigma, row.displayed = after.mu, after.sigma, after.displayed
    row.matches += 1
    row.save(update_fields=["mu", "sigma", "displayed", "matches", "updated_at"])
