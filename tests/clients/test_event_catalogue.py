"""Every event type of the engine's catalogue is sent by the API and shown by everyone who
shows events: the admin's timeline, the terminal table's log and the browser table's log in
every language. A type added to the catalogue fails here until each has it (the engine's own
parts, an evolver and a codec letter, are checked in tests/engine/test_engine_catalogue.py)."""

import json
import re
from pathlib import Path

import pytest

from games.admin.phrases import SHOWN, describe
from games.engine import EVENT_TYPES, SEAT_CHANGE_LINE, encode_event, event_view
from terminal.table import EVENT_LINES
from tests.engine.support import every_type_log
from tests.schema_file import committed_schema

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "es", "fr", "pl", "da", "fa")
NAMES = ["Roya", "Darius", "Shirin", "Kaveh"]


def _sent_types() -> set[str]:
    event = committed_schema()["components"]["schemas"]["MatchEvent"]
    return set(event["discriminator"]["mapping"])


def _log_lines(language: str) -> dict[str, str]:
    """The browser table's log line of each event type (`event_<type>`) in `language`."""
    text = (REPO / "table" / "i18n" / f"{language}.js").read_text()
    lines = re.findall(r'^  event_(\w+): ("(?:[^"\\]|\\.)*"),$', text, flags=re.MULTILINE)
    return {kind: json.loads(words) for kind, words in lines}


def test_the_api_sends_every_type_of_the_catalogue():
    assert _sent_types() == set(EVENT_TYPES)


def test_the_admin_has_a_phrase_for_every_type():
    assert sorted(shown.type for shown in SHOWN) == sorted(EVENT_TYPES)
    for event in every_type_log(3):
        assert describe(event, "deal 1", dict(enumerate(NAMES))).strip(), event.type
        # The seat timeline reads the lines of every type that changes who sits where.
        if re.fullmatch(SEAT_CHANGE_LINE, encode_event(event)):
            assert SHOWN[type(event)].seats is not None, event.type


def test_the_terminal_has_a_line_for_every_type():
    # The types the published schema names, as the browser table's come from its generated
    # types: a type added to the API shows here first.
    assert set(EVENT_LINES) == _sent_types()
    for event in every_type_log(4):
        lines = EVENT_LINES[event.type]({"seq": 1, **event_view(event, 0)}, NAMES)
        assert all(isinstance(line, str) and line for line in lines), event.type


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_browser_has_a_log_line_for_every_type_in_every_language(language):
    lines = _log_lines(language)
    assert sorted(lines) == sorted(_sent_types()), language
    # "" where the log shows no line for the type: alike in every language, so that a
    # language switch keeps the log as it was.
    shown = {kind for kind, words in _log_lines("en").items() if words}
    assert {kind for kind, words in lines.items() if words} == shown, language
