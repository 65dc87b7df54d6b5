"""A bot's benchmark figure (docs/bots.md): the mean of its play per deal, valued from its
seat's view alone, with a 95 % interval, beside the mean of its plain result with its own
interval, so that the variance taken out is there to see.

A deal's play (`seat_plays`) is the sum over the seat's own decisions of what the action
it chose is worth, minus what `hard`'s mix of actions would have been worth, at that
decision, both as the review values them (games/ai/review.py, the coach's exact values):
the seat's expected score if it takes the action and then plays on as `hard`, against
`hard` seats, over every deal its view leaves possible (its own hand once it has looked,
and the public betting). This is AIVAT's idea in poker: the other seats' hands, and its
own before it looked, are summed over, never read, so their luck is not in the figure.
Its expectation is the seat's expected result minus `hard`'s in the same seat (the sum of
advantages of the policies' difference, exact in a game of perfect recall against fixed
strategies), so over the seats a match passes round it estimates the mean result, as
docs/skill.md's play does; but that play values each decision with the four hands as
dealt, and keeps the luck of cards the seat never saw (docs/bots.md, "Measured").

- A look is worth 0: `hard` always looks first, so looking is its own mix there.
- Before a look, the values are over the hands the seat could hold (the review's blind
  values), and `hard`'s mix is the mean, over those hands, of its mix once it knows its
  hand: what a seat playing `hard` (looking first) expects there.

A deal's play is exact, but its denominator is the chance of the betting seen, a number of
up to a hundred digits that differs from deal to deal: a sum over a thousand deals would
have tens of thousands. So each deal's play is rounded once, to the nearest 10^-20 of a
point (`on_grid`), before it is added: the figure's mean is off the exact one by less than
5 x 10^-21. The result needs no rounding (twelfths).

The sums are kept exact (fractions), deal by deal, so that a benchmark of 12,000 deals keeps
five numbers, not 12,000. The means are exact; an interval's half-width is a square root,
which no fraction holds: it is worked out from the exact variance in decimal arithmetic and
rounded up (outwards) to `PLACES` places, so the interval printed is never narrower than the
true one.
"""

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, Context, Decimal
from fractions import Fraction

from games.engine import SEATS, ActionTaken, DealEnded, DealStarted, Event
from games.engine.state import hands_from_deck
from games.engine.vocabulary import Action

from . import coach_tables
from .coach import uniform
from .hands import hand_class
from .review import blind_values, looked_values
from .tree import TREE

PLAY_GRID = 10**20
"""A deal's play is summed rounded to the nearest 1/PLAY_GRID of a point (see the module)."""
AGAINST = uniform("hard")
"""The tables the values take every other seat to play: a benchmark's three AI seats'."""

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


def on_grid(value: Fraction) -> Fraction:
    """`value` rounded to the nearest 1/PLAY_GRID (half to even), exactly."""
    return Fraction(round(value * PLAY_GRID), PLAY_GRID)


def deal_play(
    dealer: int, seat: int, history: Sequence[tuple[int, str]], hand: Sequence[str]
) -> Fraction:
    """The play of `seat` in a deal dealt by `dealer` and played as `history` ((seat,
    action), looks included): per decision of its own, the chosen action's value minus
    `hard`'s mix of the values, from its view (see the module). `hand`: its cards, read
    only for its decisions after it looked; the other seats' are never asked for."""
    mapped = coach_tables.mapped()
    node, looked, play = 0, False, Fraction(0)
    for actor, action in history:
        if action == Action.LOOK:
            looked = looked or actor == seat
            continue  # worth 0: it is hard's own mix there
        if actor == seat:
            if looked:
                values = looked_values(AGAINST, node, hand_class(tuple(hand)), mapped)
            else:
                values = blind_values(AGAINST, node)
            play += values.of(action) - values.hard_mix
        if TREE.player[node] != (actor - dealer) % SEATS:
            raise ValueError(f"seat {actor} acted out of turn at {TREE.history[node]!r}")
        if action not in TREE.actions[node]:
            break  # a fold while matched: it ends the deal
        node = TREE.children[node][TREE.actions[node].index(action)]
    return play


def seat_plays(events: Iterable[Event], seat: int) -> Iterator[tuple[Fraction, Fraction]]:
    """Per ended deal of a match's `events`, in order: `seat`'s play (`deal_play`, rounded
    `on_grid`) and its plain result. The match must have ended: its deals' hands are read
    from the log, but only the seat's own, and only once it has looked."""
    dealt: DealStarted | None = None
    history: list[tuple[int, str]] = []
    for event in events:
        if isinstance(event, DealStarted):
            dealt, history = event, []
        elif isinstance(event, ActionTaken) and dealt is not None:
            history.append((event.seat, event.action))
        elif isinstance(event, DealEnded) and dealt is not None:
            hand = hands_from_deck(dealt.deck, dealt.dealer)[seat]
            play = on_grid(deal_play(dealt.dealer, seat, history, hand))
            yield play, event.seats[seat].delta
            dealt = None
