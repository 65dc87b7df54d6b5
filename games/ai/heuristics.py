"""The hand-written levels: `easy` (loose, human-feeling, sometimes blind) and `normal`
(tight: always looks, then weighs its hand against the opponents left and the price).

Both read only the seat's own `SeatView` and its legal actions.
"""

import random

from games.engine import SeatView

from .hands import EQUITY_VS_ONE, hand_class


def _opponents(view: SeatView) -> int:
    return sum(1 for seat, folded in enumerate(view.folded) if not folded and seat != view.seat)


def _win_chance(view: SeatView) -> float:
    """A rough chance that the seat's looked-at hand beats every opponent still in."""
    return EQUITY_VS_ONE[hand_class(view.your_cards)] ** _opponents(view)


def normal(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """Tight equity play: look first; raise strong hands, call when the pot pays for the
    price with a safety margin, hold when matched, fold the rest. Never folds when it
    could hold for free."""
    if "look" in legal:
        return "look"
    chance = _win_chance(view)
    price = view.high_stake - view.stakes[view.seat]
    opponents = _opponents(view)
    # Raising needs a hand that is a favourite against everyone left, more so as the
    # stakes climb (a raise invites re-raises only from hands that beat us).
    if "raise" in legal and chance >= 0.55 + 0.05 * view.high_stake:
        return "raise"
    if "hold" in legal:
        return "hold"
    # Price vs reward: the pot after our call, discounted because more betting may come
    # and opponents who stay in are stronger than random (the more of them, the more so).
    reward = view.pot + price
    if chance * reward >= price * (1.4 + 0.15 * opponents):
        return "call"
    return "fold"


def easy(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """Loose, human-feeling play: often plays a turn blind, calls a lot, raises on a whim
    or a good hand, and folds only bad hands facing a big price."""
    if "look" in legal and rng.random() < 0.65:
        return "look"
    price = view.high_stake - view.stakes[view.seat]
    if view.your_cards is None:
        # Blind: mostly go along, sometimes push, give up when the stakes get high.
        roll = rng.random()
        if "raise" in legal and roll < 0.12:
            return "raise"
        if "hold" in legal:
            return "hold"
        if roll < 0.12 + 0.12 * price * view.high_stake / 4:
            return "fold"
        return "call"
    chance = _win_chance(view)
    strength = EQUITY_VS_ONE[hand_class(view.your_cards)]
    roll = rng.random()
    if "raise" in legal and (strength > 0.85 and roll < 0.6 or roll < 0.08):
        return "raise"
    if "hold" in legal:
        return "hold"
    if chance < 0.15 and price >= 1 and roll < 0.3 + 0.15 * view.high_stake:
        return "fold"
    return "call"
