"""Bearer tokens as a request carries them and as the database finds them (the authentication
itself, which also counts the request, is asnas_api.gate's); and the streams' single-use
tickets, `?ticket=`, for clients that cannot send headers."""

from dataclasses import dataclass

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from players.models import Player, Token
from players.services import stream_ticket_redeem
from players.tokens import NOT_VALID, hash_token

BEARER = "Bearer"

# Raw SQL: every request runs it, and the ORM takes longer to compile it than Postgres takes to
# run it (docs/performance.md). asnas_api.gate runs it inside the statement that counts the
# request against its rate limits: params (token hash, Player.Kind.AI: humans and bots
# hold tokens, AI personas never do).
_PLAYER_FIELDS = [field.attname for field in Player._meta.concrete_fields]
PLAYER_BY_TOKEN = (
    f"SELECT {', '.join(f'p.{field.column}' for field in Player._meta.concrete_fields)}"
    f" FROM {Player._meta.db_table} p JOIN {Token._meta.db_table} t"
    " ON t.player_id = p.id WHERE t.token_hash = %s AND p.kind <> %s"
)


class InvalidToken(exceptions.AuthenticationFailed):
    """Credentials that are not a valid bearer token: unknown, rotated away, revoked, or not
    `Bearer <token>` at all. (No credentials at all is DRF's `not_authenticated`.)"""

    default_detail = NOT_VALID
    default_code = "invalid_token"


@dataclass(frozen=True, slots=True)
class TicketIssuer:
    """`request.auth` of a request let in by a stream ticket: the hash of the token that
    issued the ticket (the stream lives as long as that token)."""

    token_hash: str


def credential_hash(auth: str | TicketIssuer) -> str:
    """The hash of the token behind a request's `auth`: the bearer token itself, or the one
    that issued its stream ticket."""
    return auth.token_hash if isinstance(auth, TicketIssuer) else hash_token(auth)


def player_from_row(alias: str, row: tuple) -> Player:
    """The Player of a row that PLAYER_BY_TOKEN selected."""
    return Player.from_db(alias, _PLAYER_FIELDS, row)


def bearer_token(request) -> str | None:
    """The token of `Authorization: Bearer <token>`; None without the header; any other
    scheme or shape is refused."""
    header = authentication.get_authorization_header(request).split()
    if not header:
        return None
    if header[0].lower() != BEARER.lower().encode():
        scheme = header[0].decode("ascii", "replace")
        raise InvalidToken(
            f"Use 'Authorization: Bearer <token>'; the scheme '{scheme}' is not accepted."
        )
    if len(header) != 2:
        raise InvalidToken("The Authorization header must be 'Bearer <token>'.")
    try:
        return header[1].decode("ascii")
    except UnicodeDecodeError as error:
        raise InvalidToken from error


class StreamTicketAuthentication(authentication.BaseAuthentication):
    """`?ticket=` (from POST /stream-tickets) on the stream it was issued for; without one,
    the next authenticator (the bearer token) decides."""

    def authenticate(self, request):
        ticket = request.query_params.get("ticket")
        if ticket is None:
            return None
        redeemed = stream_ticket_redeem(
            ticket=ticket, match_id=request.parser_context["kwargs"].get("match_id")
        )
        if redeemed is None:
            raise exceptions.AuthenticationFailed(
                "The ticket was used already, has expired, or is for another stream.",
                code="invalid_ticket",
            )
        player, token_hash = redeemed
        return player, TicketIssuer(token_hash)

    def authenticate_header(self, request) -> str:
        return BEARER


class StreamTicketScheme(OpenApiAuthenticationExtension):
    target_class = StreamTicketAuthentication
    name = "streamTicket"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "query",
            "name": "ticket",
            "description": "A single-use ticket from POST /stream-tickets, good for 60 s.",
        }
