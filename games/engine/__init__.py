"""The As-Nas rules engine: pure Python, standard library only, no I/O.

State is built by replaying events. `decide(state, command)` validates a command and
returns the events it causes or raises a `RuleError`; `evolve(state, event)` applies
one event; `observe` and `legal_actions` are all that a seat may know.
"""

from .cards import DECK, HUMAN_SEAT, RANK_VALUE, RANKS, SEATS
from .codec import CLOCK_ACTION_LINE, SEAT_CHANGE_LINE
from .codec import decode as decode_event
from .codec import encode as encode_event
from .commands import Act, Action, Command, Join, Leave, NextDeal, Resign, Restart, StartMatch
from .errors import DomainError, RuleError
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
    SeatFreed,
    SeatResult,
    event_from_dict,
)
from .hands import ALL_HANDS, CATEGORIES, HandValue, InvalidHand, evaluate
from .rules import allowed_actions, deal_rng, decide, evolve, legal_actions, new_seed, replay
from .state import (
    MATCH_DEALS,
    MAX_STAKE,
    OPENING_STAKE,
    DealState,
    MatchState,
    Outcome,
    Status,
)
from .views import SeatView, event_view, observe, result_view

__all__ = [
    "ALL_HANDS",
    "CATEGORIES",
    "DECK",
    "HUMAN_SEAT",
    "MATCH_DEALS",
    "MAX_STAKE",
    "OPENING_STAKE",
    "RANKS",
    "RANK_VALUE",
    "SEATS",
    "Act",
    "Action",
    "ActionTaken",
    "Command",
    "DealEnded",
    "DealStarted",
    "DealState",
    "DomainError",
    "Event",
    "HandValue",
    "InvalidHand",
    "Join",
    "Leave",
    "MatchCreated",
    "MatchFinished",
    "MatchRestarted",
    "MatchState",
    "NextDeal",
    "Outcome",
    "PlayerJoined",
    "PlayerLeft",
    "Resign",
    "Resigned",
    "Restart",
    "RuleError",
    "SeatFreed",
    "SeatResult",
    "SeatView",
    "StartMatch",
    "Status",
    "allowed_actions",
    "deal_rng",
    "decide",
    "decode_event",
    "CLOCK_ACTION_LINE",
    "SEAT_CHANGE_LINE",
    "encode_event",
    "event_from_dict",
    "event_view",
    "evaluate",
    "evolve",
    "legal_actions",
    "new_seed",
    "observe",
    "replay",
    "result_view",
]
