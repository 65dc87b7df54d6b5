"""A bot's benchmark figure (docs/bots.md): the mean of its "play" per deal (docs/skill.md,
the part of each deal's result its own decisions added against `hard` play) with a 95 %
interval, beside the mean of its plain result with its own interval, so that the variance
the split takes out is there to see.

The sums are kept exact (fractions), deal by deal, so that a benchmark of 12,000 deals keeps
five numbers, not 12,000. The means are exact; an interval's half-width is a square root,
which no fraction holds: it is worked out from the exact variance in decimal arithmetic and
rounded up (outwards) to `PLACES` places, so the interval printed is never narrower than the
true one.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_CEILING, Context, Decimal
from fractions import Fraction

Z95 = Decimal("1.96")
"""The normal quantile of a two-sided 95 % interval: with hundreds of deals and more, the
mean of independent deals is as near normal as makes no difference."""
PLACES = Decimal("0.0001")
"""The half-width's rounding: four decimal places, upwards."""
_DIGITS = Context(prec=40)


@dataclass(frozen=True, slots=True)
class Sums:
    """Over the deals counted so far: how many, and the exact sums of the seat's play and
    result and of their squares (which give the variances)."""

    deals: int = 0
    play: Fraction = Fraction(0)
    play_squares: Fraction = Fraction(0)
    result: Fraction = Fraction(0)
    result_squares: Fraction = Fraction(0)

    def add(self, *, play: Fraction, result: Fraction) -> "Sums":
        """These sums with one more deal, whose play and result are given."""
        return Sums(
            self.deals + 1,
            self.play + play,
            self.play_squares + play * play,
            self.result + result,
            self.result_squares + result * result,
        )

    def to_dict(self) -> dict:
        """As a row keeps them: the count, and each sum as an exact fraction string."""
        return {
            "deals": self.deals,
            "play": str(self.play),
            "play_squares": str(self.play_squares),
            "result": str(self.result),
            "result_squares": str(self.result_squares),
        }

    @classmethod
    def from_dict(cls, kept: Mapping) -> "Sums":
        return cls(
            int(kept["deals"]),
            Fraction(kept["play"]),
            Fraction(kept["play_squares"]),
            Fraction(kept["result"]),
            Fraction(kept["result_squares"]),
        )


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean per deal (exact) and the half-width of its 95 % interval (rounded up to
    `PLACES`; None below two deals, where no variance can be measured)."""

    mean: Fraction
    half_width: Decimal | None

    @property
    def width(self) -> Decimal | None:
        """The whole interval's width: twice the half-width."""
        return None if self.half_width is None else 2 * self.half_width


def estimate(deals: int, total: Fraction, squares: Fraction) -> Estimate | None:
    """The mean of `deals` values whose sum is `total` and sum of squares `squares`, with the
    half-width of its 95 % interval (1.96 standard errors, from the sample variance). None
    for no deals."""
    if deals == 0:
        return None
    mean = total / deals
    if deals < 2:
        return Estimate(mean, None)
    variance = (squares - deals * mean * mean) / (deals - 1)  # exact, never below 0
    of_the_mean = _DIGITS.divide(Decimal(variance.numerator), Decimal(variance.denominator) * deals)
    half = _DIGITS.multiply(Z95, _DIGITS.sqrt(of_the_mean))
    return Estimate(mean, half.quantize(PLACES, rounding=ROUND_CEILING))


def figure(sums: Sums) -> tuple[Estimate | None, Estimate | None]:
    """The benchmark's figure, the mean play with its interval, and beside it the plain mean
    result with its own: (play, result), None each before any deal counted."""
    return (
        estimate(sums.deals, sums.play, sums.play_squares),
        estimate(sums.deals, sums.result, sums.result_squares),
    )
