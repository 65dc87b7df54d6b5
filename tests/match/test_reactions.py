"""Reactions, not scans (#32 item 3): what follows an event beside its projection (a
series' rating) sits in games/match/reactions.py's table, keyed by event type, which the append of
every write calls with the state just before the event; no command looks through the events
it made."""

import ast
import inspect

import pytest

from games.engine import EVENT_TYPES, DealStarted, MatchFinished, Status
from games.fairness import commands as fairness_commands
from games.match import commands as match_commands
from games.match import reactions
from games.match.commands import match_move
from games.spectating import commands as spectating_commands
from games.tables import commands as tables_commands
from players.models import RatingChange
from players.services import player_create
from tests.matches import play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "commands", [match_commands, tables_commands, fairness_commands, spectating_commands]
)
def test_no_command_names_an_event_type(commands):
    tree = ast.parse(inspect.getsource(commands))
    named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    named |= {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert not named & {event_type.__name__ for event_type in EVENT_TYPES.values()}


def test_the_append_calls_each_event_s_reaction_with_the_state_before_it(monkeypatch):
    heard = []

    def hear(write, before, event):
        heard.append((type(event), before.status, before.deal_number, write.ai_level))

    monkeypatch.setitem(reactions.REACTIONS, DealStarted, hear)
    owner, _ = player_create(name="Roya")
    match = play(match_commands.match_create(owner=owner, ai_level="easy", seed=3), deals=1, seed=3)
    assert heard == [(DealStarted, Status.NOT_STARTED, 0, "easy")]  # the creation's, once
    heard.clear()
    match_move(move="next_deal", match_id=match.id, player=owner)
    assert heard == [(DealStarted, Status.DEAL_OVER, 1, "easy")]


def test_a_resignation_rates_its_series_once_though_match_finished_follows(monkeypatch):
    rated = []
    monkeypatch.setattr(reactions, "rate_series", lambda match, ends, ai_level: rated.append(ends))
    owner, _ = player_create(name="Roya")
    match = play(match_commands.match_create(owner=owner, ai_level="easy"), deals=1)
    finished = match_move(move="resign", match_id=match.id, player=owner)
    assert [type(event) for _, event in finished.appended][-1] is MatchFinished
    assert [[end.series for end in ends] for ends in rated] == [[1]]
    assert [end.quit for (end,) in rated] == [(True, False, False, False)]
    assert not RatingChange.objects.exists()  # rate_series itself was replaced
