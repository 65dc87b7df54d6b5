"""The schema's success examples: one real seeded match played to its end, and one resigned,
by a script that drives any `Table`. The schema plays it on `InMemoryTable`, which plays
through the engine's turn loop with the commands' AI and the match queries, without a database;
tests/http/test_schema_examples.py plays it through the HTTP API and checks that both answer
alike, so the examples cannot drift from what the API answers."""

import json
import uuid
from collections import defaultdict
from datetime import UTC, datetime
from functools import cache
from typing import Protocol

from games import ai
from games.ai.skill import stored_figures
from games.engine import (
    HUMAN_SEAT,
    Act,
    Command,
    MatchState,
    NextDeal,
    Resign,
    Restart,
    StartMatch,
    Step,
)
from games.fairness.commands import seeded_next_server_seed, seeded_seeds
from games.http.shapes import MATCH_VIEW, MATCH_WRITE_VIEW, MatchSummarySerializer
from games.match.commands import AI_PERSONAS
from games.match.loaded import LoadedMatch, SeatInfo
from games.match.projection import match_columns
from games.match.queries import events_seen, match_summary, match_view, match_write_view
from games.models import Match
from players.models import Player

EXAMPLE_SEED = 2026
EXAMPLE_AI_LEVEL = "hard"
EXAMPLE_PLAYER = "Roya"
# What differs from one real run to the next: each match's id and its timestamps.
EXAMPLE_TIME = datetime(2026, 11, 30, 18, 0, 0, tzinfo=UTC)
EXAMPLE_IDS = (
    uuid.UUID("3f6d1c2e-8a4b-4f7e-9c21-5b0a7d9e4c18"),
    uuid.UUID("a1c9e07b-52d3-4c6f-8e1a-0b7d3f9c2e64"),
)


class Table(Protocol):
    """Where the script plays: each method answers the JSON body of one API operation."""

    def create(self) -> tuple[object, dict]: ...
    def act(self, match: object, action: str) -> dict: ...
    def next_deal(self, match: object) -> dict: ...
    def restart(self, match: object) -> dict: ...
    def resign(self, match: object) -> dict: ...
    def retrieve(self, match: object) -> dict: ...
    def events(self, match: object) -> dict: ...
    def list(self) -> dict: ...


def choose(legal_actions: list[str]) -> str:
    """The example player: looks first, then calls or holds, and never folds."""
    return next(
        action for action in ("look", "call", "hold", *legal_actions) if action in legal_actions
    )


def play_examples(table: Table) -> dict[str, dict[str, dict]]:
    """The examples, by operation id and example name: a match created, played to its end and
    restarted, and a second match resigned at once."""
    examples: dict[str, dict[str, dict]] = defaultdict(dict)
    match, view = table.create()
    examples["matches_create"]["in progress"] = view
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = table.next_deal(match)
            examples["matches_next_deal"].setdefault("next deal", view)
            continue
        action = choose(view["legal_actions"])
        view = table.act(match, action)
        in_progress = view["status"] == "in_deal" and view["events"][-1]["seat"] != HUMAN_SEAT
        if action != "look" and in_progress and "in progress" not in examples["matches_act"]:
            examples["matches_act"]["in progress"] = view
            examples["matches_retrieve"]["in progress"] = table.retrieve(match)
            examples["matches_events"]["in progress"] = table.events(match)
    examples["matches_act"]["finished"] = view
    examples["matches_retrieve"]["finished"] = table.retrieve(match)
    examples["matches_restart"]["new series"] = table.restart(match)
    resigned, _ = table.create()
    examples["matches_resign"]["resigned"] = table.resign(resigned)
    examples["matches_list"]["your matches"] = table.list()
    return dict(examples)


def _json(value) -> dict:
    """`value` as the API's JSON would read back: plain data, copied."""
    return json.loads(json.dumps(value, default=str))


class InMemoryTable:
    """Matches held in memory, played through the engine's turn loop with the AI the
    match commands use: no database, fixed ids and times."""

    def __init__(self) -> None:
        self.matches: list[tuple[LoadedMatch, list]] = []

    def create(self) -> tuple[object, dict]:
        row = Match(
            id=EXAMPLE_IDS[len(self.matches)],
            ai_level=EXAMPLE_AI_LEVEL,
            seed=EXAMPLE_SEED,
            seeded=True,
            created_at=EXAMPLE_TIME,
        )
        seats = [SeatInfo(EXAMPLE_PLAYER, Player.Kind.HUMAN, None)]
        seats += [SeatInfo(name, Player.Kind.AI, None) for name in AI_PERSONAS]
        match = LoadedMatch(row, MatchState(), seats, viewer_seat=HUMAN_SEAT)
        self.matches.append((match, []))
        start = StartMatch(EXAMPLE_SEED, seeds=seeded_seeds(EXAMPLE_SEED))
        return len(self.matches) - 1, self._apply(len(self.matches) - 1, start)

    def _apply(self, index: int, command: Command) -> dict:
        match, history = self.matches[index]
        step = Step(match.state)
        step.play(command, ai.chooser(match.row.ai_level))
        match.appended = list(enumerate(step.events, start=len(history) + 1))
        history.extend(match.appended)
        for name, value in match_columns(step.state).items():
            setattr(match.row, name, value)
        match.row.updated_at = EXAMPLE_TIME
        return _json(MATCH_WRITE_VIEW.render(match_write_view(match=match)))

    def act(self, match: int, action: str) -> dict:
        return self._apply(match, Act(HUMAN_SEAT, action))

    def next_deal(self, match: int) -> dict:
        return self._apply(match, NextDeal())

    def restart(self, match: int) -> dict:
        series = self.matches[match][0].state.series
        following = seeded_next_server_seed(EXAMPLE_SEED, series)
        return self._apply(match, Restart(next_server_seed=following))

    def resign(self, match: int) -> dict:
        return self._apply(match, Resign(HUMAN_SEAT))

    def retrieve(self, match: int) -> dict:
        loaded, history = self.matches[match]

        def deal_figures(_match, series: int, last: int) -> dict[int, dict]:
            figures = stored_figures((event for _, event in history), series)
            return {number: f for number, f in figures.items() if number <= last}

        return _json(MATCH_VIEW.render(match_view(match=loaded, deal_figures=deal_figures)))

    def events(self, match: int) -> dict:
        loaded, history = self.matches[match]
        events = events_seen(history, loaded)
        return _json({"version": loaded.row.version, "has_more": False, "events": events})

    def list(self) -> dict:
        rows = [
            match_summary(row=match.row, seats=match.seats, your_seat=HUMAN_SEAT)
            for match, _ in reversed(self.matches)
        ]
        results = _json(MatchSummarySerializer(rows, many=True).data)
        return {"count": len(rows), "next": None, "previous": None, "results": results}


@cache
def success_examples() -> dict[str, dict[str, dict]]:
    return play_examples(InMemoryTable())


def add_success_examples(result, generator, request, public):
    """drf-spectacular postprocessing hook: each match operation's success answer gets the
    examples of the real seeded matches above, in progress and finished."""
    examples = success_examples()
    for operations in result["paths"].values():
        for operation in operations.values():
            named = examples.get(operation["operationId"])
            if not named:
                continue
            success = next(code for code in operation["responses"] if code.startswith("2"))
            content = operation["responses"][success]["content"]["application/json"]
            content["examples"] = {
                name.title().replace(" ", ""): {"value": value, "summary": name}
                for name, value in named.items()
            }
    return result
