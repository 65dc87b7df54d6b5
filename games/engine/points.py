"""Exact points, fast: a deal's payouts and the match totals are Fractions, whose
arithmetic costs microseconds, so the few values they take are worked out once."""

from fractions import Fraction
from functools import cache


@cache
def amounts(pot: int, winners: int, stake: int, won: bool) -> tuple[Fraction, Fraction]:
    """A seat's exact (payout, delta): Fraction arithmetic is slow, and the deal's few
    possible values (pot up to 16, up to 4 winners, stake up to 4) repeat endlessly."""
    payout = Fraction(pot, winners) if won else Fraction(0)
    return payout, payout - stake


class Memo(dict):
    """A dict that makes a missing value as `make(*key)` and starts over when it holds
    `size` values, so that it stays small in a long-running server."""

    def __init__(self, make, size: int = 1 << 14):
        super().__init__()
        self.make, self.size = make, size

    def __missing__(self, key):
        if len(self) >= self.size:
            self.clear()
        value = self[key] = self.make(*key)
        return value


# Fraction addition costs microseconds, and the few totals a 12-deal match reaches meet the
# few deltas a deal pays again and again. Keyed by integers: hashing a Fraction is slow too.
_SUMS = Memo(lambda tn, td, dn, dd: Fraction(tn, td) + Fraction(dn, dd))


def plus(total: Fraction, delta: Fraction) -> Fraction:
    return _SUMS[total.numerator, total.denominator, delta.numerator, delta.denominator]
