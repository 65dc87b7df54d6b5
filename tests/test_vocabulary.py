"""Each word of the game's vocabulary is defined once, in the engine: no server-side Python
outside games/engine/ writes an event type's or a player notice's name as a string."""

import ast
from pathlib import Path

from games.ai import AI_LEVEL_MEANINGS, AI_LEVELS
from games.engine import EVENT_TYPES, Action, Actor, Notice, SpectatorMode
from games.models import SPECTATOR_CHOICES

ROOT = Path(__file__).resolve().parent.parent
SERVER_PACKAGES = ("asnas_api", "edge", "games", "players")
WORDS = set(EVENT_TYPES) | {notice.value for notice in Notice}
# "action" names an event type and also a field of requests and events ({"action": "call"}):
# only its uses as a type are flagged.
FIELD_NAMES = {"action"}
# Problem codes are a vocabulary of their own (edge/problems.py), one of which is spelled
# like an event type: "match_finished", the refusal to act in a finished match. These calls
# take problem codes.
ERROR_CALLS = {"DomainError", "RuleError", "Problem", "move_responses", "problem_response"}


def _server_modules():
    for package in SERVER_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if parts[:2] == ("games", "engine") or "migrations" in parts:
                continue
            yield path


def _type_uses(tree: ast.AST) -> list[ast.Constant]:
    """String constants that spell a word of the vocabulary where it is used as one."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ERROR_CALLS:
            exempt.update(id(arg) for arg in node.args)
        if isinstance(node, ast.Dict):  # the registry of problem codes: {"code": Problem(...)}
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "Problem":
                    exempt.add(id(key))
        if isinstance(node, ast.Dict | ast.Call):  # `action` as a field name
            keys = node.keys if isinstance(node, ast.Dict) else []
            exempt.update(id(key) for key in keys if getattr(key, "value", None) in FIELD_NAMES)
        if isinstance(node, ast.Subscript):  # data["action"]
            exempt.add(id(node.slice))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and node.value in WORDS) or id(node) in exempt:
            continue
        if node.value in FIELD_NAMES and not _used_as_a_type(tree, node):
            continue
        found.append(node)
    return found


def _used_as_a_type(tree: ast.AST, constant: ast.Constant) -> bool:
    """`x == "action"`, `"action" in kinds`, `{"type": "action"}`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and constant in [node.left, *node.comparators]:
            return True
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if value is constant and getattr(key, "value", None) == "type":
                    return True
    return False


def test_no_server_module_spells_out_an_event_type():
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for path in _server_modules()
        for node in _type_uses(ast.parse(path.read_text(), str(path)))
    ]
    assert not offenders, "use the engine's catalogue instead:\n" + "\n".join(offenders)


def test_the_check_finds_a_spelled_out_type():
    # The check itself can fail: each of these is the kind of line it must catch.
    for line in (
        'if event["type"] == "deal_started": pass',
        'kinds = ("match_finished", "player_left")',
        'sse("your_turn", {})',
        'if kind == "action": pass',
        'shown = {"type": "action"}',
    ):
        assert _type_uses(ast.parse(line)), line
    for line in (
        'body = {"action": "call"}',
        'move = data["action"]',
        'raise DomainError("match_finished", "The match is finished.")',
        'responses = move_responses("Not now.", "not_your_turn", "match_finished")',
    ):
        assert not _type_uses(ast.parse(line)), line


def test_each_word_says_what_it_means():
    # The schema and the docs show a word's meaning beside it: none may be missing.
    for words in (SpectatorMode, Actor, Action):
        assert words.__doc__, words
        for word in words:
            assert word.__doc__ and word.__doc__ != words.__doc__, word
            assert word == word.value and isinstance(word, str)


def test_the_stored_choices_are_the_engines_words():
    assert [value for value, _ in SPECTATOR_CHOICES] == list(SpectatorMode)
    assert set(AI_LEVEL_MEANINGS) == set(AI_LEVELS)
