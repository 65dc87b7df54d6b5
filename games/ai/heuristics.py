"""The hand-written levels: `easy` (loose, human-feeling, sometimes blind) and `normal`
(tight: always looks, then weighs its hand against the opponents left and the price).

Each returns a probability for each action it may take; `choose_action` samples one
with the decision's random source. Both read only the seat's own `SeatView`, and both
pass through `sensible`, which takes out the moves a beginner would call absurd.
"""

from games.engine import SeatView

from .hands import EQUITY_VS_ONE, PERCENTILE, hand_class

Distribution = dict[str, float]

WEAKEST = 0.10
"""A looked-at hand that beats fewer than this share of hands never pays to go on."""
BLUFF_FLOOR = 0.25
"""A looked-at hand that beats fewer than this share of hands never raises."""
STRONGEST = 0.90
"""A looked-at hand that beats at least this share of hands never folds."""


def absurd_moves(view: SeatView, legal: tuple[str, ...]) -> set[str]:
    """The moves a beginner would call absurd here:
    - folding when holding is free;
    - after looking: raising with a hand in the bottom quarter, calling with a hand in the
      bottom tenth (it almost never wins a showdown), folding a hand in the top tenth."""
    banned = {"fold"} if "hold" in legal else set()
    if view.your_cards is not None:
        beats = PERCENTILE[hand_class(view.your_cards)]
        if beats < BLUFF_FLOOR:
            banned.add("raise")
        if beats < WEAKEST:
            banned.add("call")
        if beats >= STRONGEST:
            banned.add("fold")
    return banned


def sensible(view: SeatView, legal: tuple[str, ...], distribution: Distribution) -> Distribution:
    """`distribution` with the absurd moves' probability moved to the first sensible one
    of hold, call, fold."""
    banned = absurd_moves(view, legal)
    moved = sum(p for action, p in distribution.items() if action in banned)
    if not moved:
        return distribution
    kept = {action: p for action, p in distribution.items() if action not in banned}
    fallback = next(a for a in ("hold", "call", "fold") if a in legal and a not in banned)
    kept[fallback] = kept.get(fallback, 0.0) + moved
    return kept


def _opponents(view: SeatView) -> int:
    return sum(1 for seat, folded in enumerate(view.folded) if not folded and seat != view.seat)


def _win_chance(view: SeatView) -> float:
    """A rough chance that the seat's looked-at hand beats every opponent still in."""
    return EQUITY_VS_ONE[hand_class(view.your_cards)] ** _opponents(view)


def normal(view: SeatView, legal: tuple[str, ...]) -> Distribution:
    """Tight equity play: look first; raise strong hands, call when the pot pays for the
    price with a safety margin, hold when matched, fold the rest."""
    if "look" in legal:
        return {"look": 1.0}
    return sensible(view, legal, _normal_looked(view, legal))


def _normal_looked(view: SeatView, legal: tuple[str, ...]) -> Distribution:
    chance = _win_chance(view)
    price = view.high_stake - view.stakes[view.seat]
    opponents = _opponents(view)
    # Raising needs a hand that is a favourite against everyone left, more so as the
    # stakes climb (a raise invites re-raises only from hands that beat us).
    if "raise" in legal and chance >= 0.55 + 0.05 * view.high_stake:
        return {"raise": 1.0}
    if "hold" in legal:
        return {"hold": 1.0}
    # Price vs reward: the pot after our call, discounted because more betting may come
    # and opponents who stay in are stronger than random (the more of them, the more so).
    if chance * (view.pot + price) >= price * (1.4 + 0.15 * opponents):
        return {"call": 1.0}
    return {"fold": 1.0}


LOOK_CHANCE = 0.65
"""How often `easy` looks when it may: it plays a turn blind a third of the time."""


def easy_blind(view: SeatView, legal: tuple[str, ...]) -> Distribution:
    """Blind: mostly go along, sometimes push, give up more as the stakes get high."""
    return sensible(view, legal, _easy_blind(view, legal))


def _easy_blind(view: SeatView, legal: tuple[str, ...]) -> Distribution:
    raise_p = 0.12 if "raise" in legal else 0.0
    if "hold" in legal:
        return {"raise": raise_p, "hold": 1.0 - raise_p}
    price = view.high_stake - view.stakes[view.seat]
    fold_p = min(0.5, 0.12 * price * view.high_stake / 4)
    return {"raise": raise_p, "fold": fold_p, "call": 1.0 - raise_p - fold_p}


def easy_looked(view: SeatView, legal: tuple[str, ...]) -> Distribution:
    """Looked: raise good hands (and now and then a middling one), call a lot, fold only
    bad hands facing a price."""
    return sensible(view, legal, _easy_looked(view, legal))


def _easy_looked(view: SeatView, legal: tuple[str, ...]) -> Distribution:
    strength = EQUITY_VS_ONE[hand_class(view.your_cards)]
    raise_p = (0.6 if strength > 0.85 else 0.08) if "raise" in legal else 0.0
    if "hold" in legal:
        return {"raise": raise_p, "hold": 1.0 - raise_p}
    price = view.high_stake - view.stakes[view.seat]
    fold_p = 0.0
    if _win_chance(view) < 0.15 and price >= 1:
        fold_p = (1.0 - raise_p) * min(1.0, 0.3 + 0.15 * view.high_stake)
    return {"raise": raise_p, "fold": fold_p, "call": 1.0 - raise_p - fold_p}


def easy(view: SeatView, legal: tuple[str, ...]) -> Distribution:
    """Loose, human-feeling play that often acts without looking."""
    if view.your_cards is None:
        blind = easy_blind(view, legal)
        if "look" not in legal:
            return blind
        return {"look": LOOK_CHANCE, **{a: (1 - LOOK_CHANCE) * p for a, p in blind.items()}}
    return easy_looked(view, legal)
