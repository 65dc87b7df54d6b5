"""What the API's views share: the content negotiation of the streams, a match found for its
player, and the idempotent write. Views only translate: validate input, make one service or
selector call, serialize the output. Errors are mapped in asnas_api.errors; a view's stricter
rate limits are its `extra_rate_scopes` per method, which the gate (asnas_api.gate) reads."""

from rest_framework import status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from edge.api import valid
from games.engine import DomainError
from games.http.idempotency import idempotent_response
from games.match import queries as match_queries
from games.match.loaded import LoadedMatch
from players.auth import StreamTicketAuthentication

# A ticket, else the bearer token as everywhere (asnas_api.gate, named by the settings).
STREAM_AUTHENTICATION = [StreamTicketAuthentication, *api_settings.DEFAULT_AUTHENTICATION_CLASSES]


class EventStream(APIView):
    # A browser's EventSource asks for text/event-stream only; the errors it may get before
    # the stream starts are JSON problem bodies all the same, so never answer 406.

    def perform_content_negotiation(self, request, force=False):
        return super().perform_content_negotiation(request, force=True)


def found_match(*, match_id, player) -> LoadedMatch:
    """The match as `player` may see it; 404 when there is none they may see."""
    match = match_queries.match_get(match_id=match_id, player=player)
    if match is None:
        raise DomainError("not_found", "No such match.")
    return match


class MatchWrite(APIView):
    # What every write to a match shares: a validated body (the view's InputSerializer), an
    # optional Idempotency-Key (a repeat answers the first outcome and changes nothing), and
    # the body `answer` makes of the write's one command call (mostly the MatchWriteView: the
    # match as its player may see it, with the events the write appended). `one_shot` names
    # the answer's fields the stored reply leaves out: a watch code is stored only hashed, so
    # only the first answer shows it.
    InputSerializer: type
    status_code = status.HTTP_200_OK
    one_shot: tuple[str, ...] = ("watch_code",)

    def post(self, request, **kwargs) -> Response:
        data = valid(self.InputSerializer, request.data)
        return idempotent_response(
            request, lambda: (self.status_code, self.answer(data, **kwargs)), one_shot=self.one_shot
        )

    def answer(self, data: dict, **kwargs) -> dict:
        raise NotImplementedError
