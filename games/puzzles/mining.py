"""What a match's events say of which hands may be seen (docs/puzzles.md, "Which
decisions"): each deal's seats whose hand its showdown showed, and the series whose seed was
revealed at its end (verifiable), in which every hand may be seen. No Django."""

from collections.abc import Iterable

from games.engine import DealEnded, Event, MatchState, evolve

Key = tuple[int, int]


def seen_hands(events: Iterable[Event]) -> tuple[dict[Key, set[int]], int | None]:
    """({(series, deal number): seats shown at its end}, the series whose seed is revealed
    or None), from the events of an ended match."""
    state = MatchState()
    shown: dict[Key, set[int]] = {}
    for event in events:
        evolve(state, event)
        if isinstance(event, DealEnded):
            key = (event.series, event.deal_number)
            shown[key] = {result.seat for result in event.seats if result.shown}
    seeds = state.seeds
    revealed = state.series if seeds and seeds.verifiable and seeds.revealed else None
    return shown, revealed


def may_show(seat: int, key: Key, shown: dict[Key, set[int]], revealed: int | None) -> bool:
    """Whether a puzzle may show the seat's decisions of the deal `key`: its hand was shown
    at the deal's showdown, or the deal is of the series whose seed was revealed."""
    return key[0] == revealed or seat in shown.get(key, set())
