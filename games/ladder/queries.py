"""The ladder room's reads: a benchmark as its bot sees it, and the bots' leaderboard. The
figures count only the deals of matches that ended, whose seeds (and so every hand) are
revealed to the bot by then: a figure says nothing of a card the bot may not see."""

from decimal import Decimal
from fractions import Fraction

from django.utils import timezone

from games.ai.benchmark import Estimate, Sums, figure
from games.engine import BenchmarkStatus
from games.ladder import store
from games.models import Benchmark

LEADERBOARD_WIDTH = Decimal("0.2")
"""A bot is on the leaderboard once its latest finished benchmark's interval of play is at
most this wide (0.2 points a deal, ±0.1): 1,200 deals are enough for the bots measured in
docs/bots.md."""
LEADERBOARD_SIZE = 100


def estimate_view(estimate: Estimate | None) -> dict | None:
    """An estimate as the API shows it: the exact mean, a rounded one beside it for display,
    and the 95 % interval's half-width and ends, rounded (a square root is no fraction)."""
    if estimate is None:
        return None
    half = estimate.half_width
    return {
        "mean": str(estimate.mean),
        "mean_rounded": _rounded(estimate.mean),
        "half_width": None if half is None else str(half),
        "low_rounded": None if half is None else _rounded(estimate.mean - Fraction(half)),
        "high_rounded": None if half is None else _rounded(estimate.mean + Fraction(half)),
    }


def _rounded(value: Fraction) -> float:
    return float(round(value, 4))


def _figures(sums: Sums) -> dict:
    play, result = figure(sums)
    ratio = None
    if play is not None and play.half_width is not None and result.half_width:
        ratio = float(round(Fraction(play.half_width) / Fraction(result.half_width), 3))
    return {
        "play": estimate_view(play),
        "result": estimate_view(result),
        "width_ratio": ratio,
    }


def benchmark_view(*, benchmark: Benchmark) -> dict:
    """The benchmark as its bot sees it: its progress, the match in play, and the figure
    over the deals of the matches that ended."""
    sums = Sums.from_dict(benchmark.sums)
    until = benchmark.finished_at or timezone.now()
    seconds = (until - benchmark.created_at).total_seconds()
    play, _ = figure(sums)
    return {
        "id": benchmark.id,
        "status": benchmark.status,
        "deals": benchmark.deals,
        "deals_counted": sums.deals,
        "matches_dealt": benchmark.matches,
        "current_match": benchmark.current_match,
        **_figures(sums),
        "ranked": benchmark.status == BenchmarkStatus.FINISHED and _narrow_enough(play),
        "deals_per_second": round(sums.deals / seconds, 2) if seconds > 0 else None,
        "created_at": benchmark.created_at,
        "finished_at": benchmark.finished_at,
    }


def _narrow_enough(play: Estimate | None) -> bool:
    return play is not None and play.width is not None and play.width <= LEADERBOARD_WIDTH


def bot_leaderboard() -> dict:
    """The bots ranked by the figure of their latest finished benchmark (best mean play
    first), those whose interval is at most LEADERBOARD_WIDTH wide; apart from the humans'
    leaderboard, which no bot is on."""
    rows = []
    for name, kept, finished_at in store.finished_benchmarks():
        sums = Sums.from_dict(kept)
        play, _ = figure(sums)
        if _narrow_enough(play):
            rows.append((play.mean, name, sums, finished_at))
    rows.sort(key=lambda row: (-row[0], row[1]))
    return {
        "width": str(LEADERBOARD_WIDTH),
        "bots": [
            {"rank": rank, "name": name, "deals": sums.deals, **_figures(sums), "finished_at": at}
            for rank, (_, name, sums, at) in enumerate(rows[:LEADERBOARD_SIZE], start=1)
        ],
    }
