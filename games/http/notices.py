"""Which notices a player gets on their stream (docs/streams.md): your_turn, match_started,
match_finished and watchers_changed, from what happened in their matches, and their shapes.
Here, not in the match room: what it finds is each notice rendered as the stream sends it."""

from typing import TYPE_CHECKING

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from edge.serializers import PointsField, Rendered, UtcDateTimeField
from games.engine import MatchFinished, Notice, Status, starts_series, starts_turn
from games.match import queries as match_queries
from games.match.loaded import LoadedMatch

if TYPE_CHECKING:  # a player is handed in; the HTTP layer reads no player rows
    from players.models import Player


class YourTurnNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match where your turn began.")
    deadline = UtcDateTimeField(
        allow_null=True, help_text="The match's `turn_deadline`: null without a turn clock."
    )


class MatchStartedNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match whose deal 1 (of a series) started.")


class MatchFinishedNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match that finished.")
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats with the highest total."
    )
    totals = serializers.ListField(child=PointsField(), help_text="Each seat's total, exactly.")


class WatchersNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match whose spectators changed.")
    watchers = serializers.IntegerField(
        min_value=0, help_text="How many watch streams are open on it now."
    )


NOTICE_SHAPES = {
    Notice.YOUR_TURN: Rendered(YourTurnNoticeSerializer),
    Notice.MATCH_STARTED: Rendered(MatchStartedNoticeSerializer),
    Notice.MATCH_FINISHED: Rendered(MatchFinishedNoticeSerializer),
    Notice.WATCHERS_CHANGED: Rendered(WatchersNoticeSerializer),
}
"""Each notice of the player's stream, rendered by its serializer."""


def player_notice_field() -> PolymorphicProxySerializer:
    """What one `data:` line of the player's stream holds; its `event:` line names which."""
    return PolymorphicProxySerializer(
        component_name="PlayerNotice",
        serializers=[
            YourTurnNoticeSerializer,
            MatchStartedNoticeSerializer,
            MatchFinishedNoticeSerializer,
            WatchersNoticeSerializer,
        ],
        resource_type_field_name=None,
        many=False,
    )


OPEN_MATCHES_LIMIT = 100
"""The player's stream announces the turns of at most this many unfinished matches when it
opens (the newest); later turns in any match are announced as they come."""


class TurnWatch:
    """What the player's stream knows of one match: the last version read, and whether it
    was the player's turn then."""

    __slots__ = ("version", "my_turn", "watchers")

    def __init__(self) -> None:
        self.version = 0
        self.my_turn = False
        self.watchers = 0


def _is_my_turn(match: LoadedMatch) -> bool:
    state, seat = match.state, match.viewer_seat
    return state.status is Status.IN_DEAL and state.deal.turn == seat and not state.ai_plays(seat)


def notices_of(*, player: "Player", match_id: str, watch: TurnWatch) -> list[tuple[str, dict]]:
    """The player's notices from what happened in the match since `watch.version`, which
    this moves on: match_started, match_finished, your_turn."""
    match = match_queries.match_get(match_id=match_id, player=player)
    if match is None:
        return []
    found = []
    # Two reads, not one snapshot: a write that commits between them is left out here, so
    # that the events agree with the state read before them, and is read on its own notice.
    page = match_queries.events_page(match=match, after=watch.version)["events"]
    events = [event for event in page if event["seq"] <= match.row.version]
    new_turn = not watch.my_turn
    for event in events:
        # A turn that starts while it is the player's turn follows their own move: new.
        new_turn = new_turn or starts_turn(event)
        if starts_series(event):
            found.append(_notice(Notice.MATCH_STARTED, match_id=match.row.id))
        elif event["type"] == MatchFinished.type:
            found.append(
                _notice(
                    Notice.MATCH_FINISHED,
                    match_id=match.row.id,
                    winners=event["winners"],
                    totals=match.state.totals,
                )
            )
    watch.version = events[-1]["seq"] if events else watch.version
    if match.watchers != watch.watchers:
        watch.watchers = match.watchers
        found.append(
            _notice(Notice.WATCHERS_CHANGED, match_id=match.row.id, watchers=match.watchers)
        )
    watch.my_turn = _is_my_turn(match)
    if watch.my_turn and new_turn:
        found.append(_your_turn(match))
    return found


def _notice(name: Notice, **data) -> tuple[Notice, dict]:
    return name, NOTICE_SHAPES[name].render(data)


def _your_turn(match: LoadedMatch) -> tuple[Notice, dict]:
    return _notice(Notice.YOUR_TURN, match_id=match.row.id, deadline=match.row.turn_deadline)


def open_turns(*, player: "Player", watches: dict[str, TurnWatch]) -> list[tuple[str, dict]]:
    """your_turn for each of the player's unfinished matches where it is their turn now;
    fills `watches` with every one of them."""
    found = []
    for match_id in match_queries.match_ids_unfinished(player=player, limit=OPEN_MATCHES_LIMIT):
        match = match_queries.match_get(match_id=match_id, player=player)
        if match is None:
            continue
        watch = watches[str(match_id)] = TurnWatch()
        watch.version, watch.my_turn = match.row.version, _is_my_turn(match)
        watch.watchers = match.watchers
        if watch.my_turn:
            found.append(_your_turn(match))
    return found
