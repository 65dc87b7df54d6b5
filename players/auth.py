"""Bearer-token authentication: `Authorization: Bearer <token>`, looked up by its hash; and
the streams' single-use tickets, `?ticket=`, for clients that cannot send headers."""

from django.db import DEFAULT_DB_ALIAS, connection
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from players.models import Player, Token
from players.services import stream_ticket_redeem
from players.tokens import NOT_VALID, hash_token

# Raw SQL: every request runs it, and the ORM takes longer to compile it than Postgres takes to
# run it (docs/performance.md).
_PLAYER_FIELDS = [field.attname for field in Player._meta.concrete_fields]
_PLAYER_BY_TOKEN = (
    f"SELECT {', '.join(f'p.{field.column}' for field in Player._meta.concrete_fields)}"
    f" FROM {Player._meta.db_table} p JOIN {Token._meta.db_table} t"
    " ON t.player_id = p.id WHERE t.token_hash = %s AND p.kind = %s"
)


def _player_row(request, params: list) -> tuple | None:
    """The player's row, found with the view's rate-limit counting in one round trip where
    the view's throttle offers it (asnas_api.throttling.RateLimit.count_with_player)."""
    view = request.parser_context["view"]
    for throttle in view.get_throttles():
        if hasattr(throttle, "count_with_player"):
            return throttle.count_with_player(request, view, _PLAYER_BY_TOKEN, params)
    with connection.cursor() as cursor:
        cursor.execute(_PLAYER_BY_TOKEN, params)
        return cursor.fetchone()


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header:
            return None
        if header[0].lower() != self.keyword.lower().encode():
            scheme = header[0].decode("ascii", "replace")
            raise exceptions.AuthenticationFailed(
                f"Use 'Authorization: Bearer <token>'; the scheme '{scheme}' is not accepted."
            )
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "The Authorization header must be 'Bearer <token>'."
            )
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError as error:
            raise exceptions.AuthenticationFailed(NOT_VALID) from error
        found = _player_row(request, [hash_token(token), Player.Kind.HUMAN])
        if found is None:
            raise exceptions.AuthenticationFailed(NOT_VALID)
        return Player.from_db(DEFAULT_DB_ALIAS, _PLAYER_FIELDS, found), token

    def authenticate_header(self, request) -> str:
        return self.keyword


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "The token from POST /players."}


class StreamTicketAuthentication(authentication.BaseAuthentication):
    """`?ticket=` (from POST /stream-tickets) on the stream it was issued for; without one,
    the next authenticator (the bearer token) decides."""

    def authenticate(self, request):
        ticket = request.query_params.get("ticket")
        if ticket is None:
            return None
        player = stream_ticket_redeem(
            ticket=ticket, match_id=request.parser_context["kwargs"].get("match_id")
        )
        if player is None:
            raise exceptions.AuthenticationFailed(
                "The ticket was used already, has expired, or is for another stream.",
                code="invalid_ticket",
            )
        return player, None

    def authenticate_header(self, request) -> str:
        return BearerTokenAuthentication.keyword


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
