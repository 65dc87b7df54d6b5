"""The engine owns its refusals: no server module outside games/engine/ raises one of them
again in its own words (it calls the engine's check, as the hint calls `require_turn`)."""

import ast
import random
from pathlib import Path

from games.engine import (
    SEATS,
    Act,
    DomainError,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    require_turn,
)

ROOT = Path(__file__).resolve().parent.parent
SERVER_PACKAGES = ("asnas_api", "edge", "games", "players")
ERRORS = {"DomainError", "RuleError"}


def _refusals(paths) -> dict[tuple[str, str], str]:
    """(code, the detail's source) of each refusal raised in `paths`, with where it is."""
    found = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ERRORS):
                continue
            if len(node.args) >= 2 and isinstance(node.args[0], ast.Constant):
                key = (node.args[0].value, ast.dump(node.args[1]))
                found[key] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_no_server_module_repeats_an_engine_refusal():
    engine = _refusals(sorted((ROOT / "games" / "engine").rglob("*.py")))
    others = _refusals(
        path
        for package in SERVER_PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.relative_to(ROOT).parts[:2] != ("games", "engine")
        and "migrations" not in path.parts
    )
    repeated = {key: where for key, where in others.items() if key in engine}
    assert repeated == {}, f"say these through the engine: {sorted(repeated.values())}"


def _refusal(check) -> tuple[str, str] | None:
    try:
        check()
    except DomainError as error:
        return error.code, error.detail
    return None


def test_require_turn_refuses_as_an_action_would_be_refused():
    """At every point of a match, for every seat: the hint's check and an action by that
    seat (a legal one when it may act) are refused alike, in the same words."""
    rng, state = random.Random(5), MatchState()
    refused = set()

    def run(command) -> None:
        for event in decide(state, command):
            evolve(state, event)

    run(StartMatch(5))
    while True:
        for seat in range(SEATS):
            legal = legal_actions(state, seat) if state.status is Status.IN_DEAL else ()
            act = Act(seat, legal[0] if legal else "call")
            turn = _refusal(lambda seat=seat: require_turn(state, seat))
            assert turn == _refusal(lambda act=act: decide(state, act))
            refused.add(turn and turn[0])
        if state.status is Status.FINISHED:
            break
        if state.status is Status.DEAL_OVER:
            run(NextDeal())
        else:
            run(Act(state.deal.turn, rng.choice(legal_actions(state, state.deal.turn))))
    assert refused == {None, "not_your_turn", "deal_over", "match_finished"}
