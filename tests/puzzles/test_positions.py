"""Which decisions are clear enough to be puzzles, how a position is told relative to the
solver, and the themes a position says. No database."""

from fractions import Fraction

import pytest

from games.puzzles.positions import CLEAR_MARGIN, clear_best, puzzle_position, themes


def values(**worth):
    return [{"action": a, "value": str(v)} for a, v in worth.items()]


def test_one_action_must_beat_every_other_by_more_than_the_margin():
    assert clear_best(values(call=Fraction(1), fold=Fraction(-1))) == ("call", Fraction(2))
    close = Fraction(1) - CLEAR_MARGIN
    assert clear_best(values(call=Fraction(1), raise_=close, fold=Fraction(-1))) is None
    assert clear_best(values(call=Fraction(1), fold=Fraction(1))) is None
    assert clear_best(values(hold=Fraction(1))) is None


def position(*, me_looked=True, folded=(False, False, False), high_stake=2):
    return {
        "high_stake": high_stake,
        "seats": [
            {"position": 0, "stake": 1, "folded": False, "looked": me_looked},
            *(
                {"position": n + 1, "stake": 1, "folded": f, "looked": False}
                for n, f in enumerate(folded)
            ),
        ],
    }


@pytest.mark.parametrize(
    ("seen", "best", "said"),
    [
        (position(), "hold", ["free_hold"]),
        (position(), "raise", ["raise_into_three"]),
        (position(folded=(True, False, False)), "raise", []),
        (position(me_looked=False), "fold", ["fold_before_looking"]),
        (position(), "fold", []),
        (position(high_stake=4), "call", ["call_at_last_stake"]),
        (position(high_stake=3), "call", []),
    ],
)
def test_themes_say_what_the_position_says(seen, best, said):
    assert themes(seen, best) == said


def test_seats_are_told_by_their_place_after_the_solver():
    decision = {
        "position": {
            "hand": None,
            "pot": 4,
            "high_stake": 1,
            "seats": [{"seat": s, "stake": 1, "folded": False, "looked": s == 3} for s in range(4)],
            "moves": [{"seat": 2, "action": "call", "by": "ai"}],
        }
    }
    told = puzzle_position(decision, solver=3, dealer=1)
    assert told["dealer"] == 2
    assert [s["position"] for s in told["seats"]] == [0, 1, 2, 3]
    assert told["seats"][0]["looked"] is True
    assert told["moves"] == [{"position": 3, "action": "call"}]
