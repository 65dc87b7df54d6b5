"""A match's record (format `asnas-record/3`, docs/record.md): its players, seats, how each
series was dealt, every deal's dealer, moves and result, and each series' end, as one
viewer may see them, with points as exact fraction strings. `check_record` plays a record
through the engine again and checks every result and total in it."""

from collections.abc import Sequence
from fractions import Fraction

from . import fairness
from .cards import SEATS
from .commands import Act
from .events import (
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    MatchCreated,
    MatchFinished,
    MatchRestarted,
    PlayerJoined,
    PlayerLeft,
    Resigned,
    SeedRevealed,
)
from .evolvers import evolve
from .rules import decide
from .state import DealState, MatchState, Status
from .views import Viewer, event_view, with_eyes

FORMAT = "asnas-record/3"
FORMATS = ("asnas-record/1", "asnas-record/2", FORMAT)
"""The formats `check_record` reads: /2 added each deal result seat's `skill` figures, /3 each
deal's `review` of its human seats' decisions (docs/review.md) in a series whose seed is
revealed."""


def build_record(
    events: Sequence[tuple[int, Event]],
    viewer: Viewer,
    match: dict,
    seats: list[dict],
    reviews: dict[tuple[int, int], list[dict]] | None = None,
) -> dict:
    """The record of a match's `events` (seq, event) as `viewer` (a seated player) may see
    each of them. `match` and `seats` are what the caller knows of the match beyond its
    events (id, times, level; names); `reviews`, by (series, deal number), the stored reviews
    of each deal's human seats, shown only where the series' seed is revealed (every hand
    may be seen then)."""
    series: list[dict] = []
    current: dict | None = None
    deal: dict | None = None
    for seq, event, seat in with_eyes(events, viewer):
        shown = event_view(event, seat)
        match event:
            case MatchCreated():
                current = _series(1, shown)
                series.append(current)
            case PlayerJoined():
                current["client_seeds"][event.seat] = shown["client_seed"]
            case DealStarted():
                deal = {
                    "deal_number": event.deal_number,
                    "dealer": event.dealer,
                    "moves": [],
                    "result": None,
                    "hands": [None] * SEATS,
                    "review": None,
                }
                current["deals"].append(deal)
            case ActionTaken():
                fields = ("seat", "action", "by", "stake", "high_stake", "pot")
                deal["moves"].append({"seq": seq, **{name: shown[name] for name in fields}})
            case DealEnded():
                result = {name: shown[name] for name in ("outcome", "winners", "seats")}
                deal["result"] = result
                deal["hands"] = [seat["hand"] for seat in result["seats"]]
            case Resigned():
                current["end"] = {"how": "resigned", "seat": event.seat}
            case MatchFinished():
                end = current["end"] or {"how": "finished"}
                current["end"] = {**end, "winners": shown["winners"], "totals": shown["totals"]}
                _reveal(current, shown["server_seed"])
            case PlayerLeft() if event.abandoned:
                current["end"] = {"how": "abandoned", "seat": event.seat}
                _reveal(current, shown["server_seed"])
            case MatchRestarted():
                if current["end"] is None:
                    current["end"] = {"how": "restarted"}
                _reveal(current, shown["server_seed"])
                current = _series(event.series, shown)
                series.append(current)
            case SeedRevealed():  # a tournament's close: the series it names, the only one
                _reveal(next(s for s in series if s["series"] == event.series), event.server_seed)
    for each in series:
        for deal in each["deals"] if each["server_seed"] else ():
            deal["review"] = (reviews or {}).get((each["series"], deal["deal_number"]))
    return {
        "format": FORMAT,
        "match": match,
        "viewer_seat": viewer.seat,
        "seats": seats,
        "series": series,
    }


def _series(number: int, shown: dict) -> dict:
    """A series as its first event (match_created or match_restarted) announces it."""
    return {
        "series": number,
        "commitment": shown["commitment"],
        "next_commitment": shown["next_commitment"],
        "client_seeds": [shown["client_seed"], "", "", ""],
        "server_seed": None,
        "deals": [],
        "end": None,
    }


def _reveal(series: dict, server_seed: str | None) -> None:
    """With its seed revealed, a verifiable series' every hand may be seen (docs/rules.md,
    Secrecy): the record shows them all, dealt again from the seeds."""
    if not server_seed:
        return
    series["server_seed"] = server_seed
    key = bytes.fromhex(server_seed)
    for deal in series["deals"]:
        cards = fairness.deck(key, series["client_seeds"], series["series"], deal["deal_number"])
        deal["hands"] = [list(hand) for hand in fairness.hands_of(cards, deal["dealer"])]


def check_record(record: dict) -> list[str]:
    """Every disagreement found by playing the record again: each deal of a series whose
    seed is revealed is dealt from the seeds and its moves are decided by the engine, which
    must give the record's results; in every series, the deals' deltas must add up to the
    totals at its end. An empty list: the record holds."""
    if record.get("format") not in FORMATS:
        return [f"not an {' or '.join(FORMATS)} record"]
    problems = []
    for series in record["series"]:
        problems += _check_totals(series) + _check_skill(series) + _check_review(series)
        if series["server_seed"]:
            problems += _replay(series)
    return problems


def _check_totals(series: dict) -> list[str]:
    totals = [Fraction(0)] * SEATS
    for deal in series["deals"]:
        if deal["result"]:
            for seat in deal["result"]["seats"]:
                totals[seat["seat"]] += Fraction(seat["delta"])
    end = series["end"] or {}
    if "totals" in end and [Fraction(t) for t in end["totals"]] != totals:
        return [f"series {series['series']}: the deals add up to {list(map(str, totals))}"]
    return []


def _check_skill(series: dict) -> list[str]:
    """Where a seat's skill figures are given, they add up to its result exactly."""
    problems = []
    for deal in series["deals"]:
        for seat in deal["result"]["seats"] if deal["result"] else ():
            figures = seat.get("skill")
            if figures and sum(map(Fraction, figures.values())) != Fraction(seat["delta"]):
                number = f"series {series['series']} deal {deal['deal_number']}"
                problems.append(f"{number}: seat {seat['seat']}'s skill figures miss its result")
    return problems


def _check_review(series: dict) -> list[str]:
    """Where a deal's review is given, each decision's points lost are its best action's value
    minus the chosen one's, and each seat's deal loses the sum of its classed decisions'."""
    problems = []
    for deal in series["deals"]:
        for seat in deal.get("review") or ():
            lost = Fraction(0)
            for decision in seat["decisions"]:
                values = {v["action"]: Fraction(v["value"]) for v in decision["values"]}
                if values and Fraction(decision["lost"]) != max(values.values()) - values.get(
                    decision["action"], Fraction(0)
                ):
                    lost = None
                    break
                if decision["grade"] is not None:
                    lost += Fraction(decision["lost"])
            if lost is None or lost != Fraction(seat["lost"]):
                number = f"series {series['series']} deal {deal['deal_number']}"
                problems.append(f"{number}: seat {seat['seat']}'s review does not add up")
    return problems


def _replay(series: dict) -> list[str]:
    problems, number = [], series["series"]
    key = bytes.fromhex(series["server_seed"])
    for deal in series["deals"]:
        cards = fairness.deck(key, series["client_seeds"], number, deal["deal_number"])
        state = MatchState(status=Status.IN_DEAL, series=number)
        state.deal = DealState.opening(number, deal["deal_number"], deal["dealer"], cards)
        ended = None
        try:
            for move in deal["moves"]:
                for event in decide(state, Act(move["seat"], move["action"], move["by"])):
                    evolve(state, event)
                    ended = event if isinstance(event, DealEnded) else ended
        except Exception as error:  # a refused move is a record that does not hold
            problems.append(f"series {number} deal {deal['deal_number']}: {error}")
            continue
        if deal["result"] is not None:
            recorded = [(s["seat"], s["payout"], s["delta"]) for s in deal["result"]["seats"]]
            replayed = ended and [(s.seat, str(s.payout), str(s.delta)) for s in ended.seats]
            if recorded != replayed:
                problems.append(f"series {number} deal {deal['deal_number']}: the result differs")
    return problems
