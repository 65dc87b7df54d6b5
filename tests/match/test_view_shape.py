"""MatchViewSerializer is the one definition of the MatchView: the API renders the selector's
data through it with `Rendered` (its fields bound once per process), which must write byte
for byte what the serializer itself writes."""

import json
import random

import pytest

from games.http.shapes import MATCH_VIEW, MatchViewSerializer
from games.match import queries as match_queries
from tests.http.play import play_match

pytestmark = pytest.mark.django_db


def test_match_view_is_what_its_serializer_writes(client, new_match):
    shapes = set()

    def check(body: dict) -> None:
        match = match_queries.match_get(match_id=body["id"], player=client.player)
        read = match_queries.match_view(match=match)
        assert json.dumps(MATCH_VIEW.render(read)) == json.dumps(MatchViewSerializer(read).data)
        # Every body here is a write's answer: the MatchView without the skill figures (a
        # write works none out), and the events it appended (test_write_events checks those).
        data = match_queries.match_view(match=match, figures=False)
        view = MATCH_VIEW.render(data)
        assert json.dumps(view) == json.dumps(MatchViewSerializer(data).data)
        assert view == {key: value for key, value in body.items() if key != "events"}
        shapes.add((body["status"], body["last_deal"] is not None, body["your_cards"] is None))

    view = new_match(seed=5)
    check(view)
    play_match(client, view, random.Random(5), on_view=check)
    assert len(shapes) >= 4, shapes
