"""The `expert` level: the `hard` blueprint, shifted a certified share toward a best
response against a model of the opponents at the table.

The model. Each opponent seat is taken to play one archetype - `hard` (the blueprint),
`normal` or `easy` - and the expert keeps a posterior over the three from the match's
public record: every finished deal's betting and the hands shown at its showdown (only
what a human in the expert's seat saw; see `public_record`). A seat's deal has the
likelihood of its actions under the archetype's table, at its shown hand or averaged
over the hands it could hold; each table is first blended with 5% uniform play, so no
single odd move rules an archetype out. The prior favours the blueprint. The model is
fixed for the length of a deal: it changes only between deals. A seat counts as `normal`
or `easy` only once that archetype's chance reaches 80%.

The play. Each assignment A of archetypes to the seats 1, 2 and 3 after the expert,
except all `hard`, has an exploiting strategy T_A (an exact best response against them,
kept equal to the blueprint wherever the best response gains nothing) and a share eps_A.
The expert draws the blueprint's action with the decision's random source exactly as
`hard` does, then replaces it by T_A's action with chance eps_A: it plays
(1 - eps_A) blueprint + eps_A T_A. All `hard`: it is the blueprint.

The bound. For every A, the table the expert then plays was measured exactly (exact
exploitability over all 261,331 deals, `exploit.py`'s definition) when the asset was
built, and eps_A is the largest share on a grid of thousandths whose mix is at most
0.02 pts/deal exploitable; the header records each figure and `tests/ai/test_expert.py`
recomputes them. Since the model changes only between deals, in any deal the expert
plays one of these 26 certified tables or the blueprint (0.00038).

The asset `expert_strategy.json` (built by `manage.py train_expert`, numpy, offline)
holds the shares and the T_A tables; this module needs only the standard library.
"""

import base64
import hashlib
import json
import math
import random
import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from games.engine import SEATS, ActionTaken, DealEnded, DealStarted, Event, SeatView, event_view

from .exploit import action_columns
from .hands import CARD_LEVEL_HANDS, MULTIPLICITY, N_HANDS, hand_class
from .strategy import (
    SCALE,
    StrategyError,
    load_strategy,
    quantize_table,
    read_checked,
    rules_version,
    table_bytes,
    table_rows,
)
from .tables import level_table
from .tree import TREE

ASSET_PATH = Path(__file__).with_name("expert_strategy.json")
FORMAT = "asnas-ai-expert/1"
ARCHETYPES: tuple[str, ...] = ("hard", "normal", "easy")
BLUEPRINT = "hard"
MODELLED = ("normal", "easy")
"""The archetypes whose tables the asset carries (the blueprint has its own)."""
PRIOR = {"hard": 0.6, "normal": 0.2, "easy": 0.2}
"""Before any deal, an opponent is taken to play the blueprint."""
CONFIDENCE = 0.8
"""An opponent is exploited as `normal` or `easy` only once that archetype's chance is
at least this; until then the expert takes it for the blueprint."""
UNIFORM_BLEND = 0.05
"""Each archetype's table is blended with this share of uniform play for the model."""
EPS_DENOMINATOR = 1000
"""Shares are thousandths."""
FOLLOW_BLUEPRINT = 255
"""In a T_A table: the best response keeps the blueprint's row here."""

DECISION_INDEX = {n: i for i, n in enumerate(TREE.decision_nodes())}
_HAND_PRIOR = tuple(m / CARD_LEVEL_HANDS for m in MULTIPLICITY)

Assignment = tuple[str, str, str]
"""Archetypes of the seats 1, 2 and 3 after the expert's (in turn order)."""


@dataclass(frozen=True)
class DealRecord:
    """One finished deal as a seat saw it: the dealer, the actions (seat, action) with
    looks, and per seat its hand if the seat saw it (shown at the showdown, or its own)."""

    dealer: int
    actions: tuple[tuple[int, str], ...]
    hands: tuple[tuple[str, ...] | None, ...]


def public_record(events: list[Event], seat: int) -> tuple[DealRecord, ...]:
    """The finished deals of `events` as `seat` saw them: built from `event_view`, the
    very view the seat's player gets, so it holds no card that seat may not see."""
    return record_seen(event_view(event, seat) for event in events)


def record_seen(seen: Iterable[dict]) -> tuple[DealRecord, ...]:
    """The finished deals of events as one seat's `event_view` shows them."""
    deals = []
    dealer, actions = None, []
    for data in seen:
        kind = data["type"]
        if kind == DealStarted.type:
            dealer, actions = data["dealer"], []
        elif kind == ActionTaken.type and dealer is not None:
            actions.append((data["seat"], data["action"]))
        elif kind == DealEnded.type and dealer is not None:
            hands = [None] * SEATS
            for shown in data["seats"]:
                if shown["hand"] is not None:
                    hands[shown["seat"]] = tuple(shown["hand"])
            deals.append(DealRecord(dealer, tuple(actions), tuple(hands)))
            dealer = None
    return tuple(deals)


@dataclass(frozen=True)
class Expert:
    header: dict
    shares: dict[Assignment, int]
    """eps_A in thousandths."""
    choices: dict[Assignment, bytes]
    """T_A: per decision node (in order) and hand, an action index or FOLLOW_BLUEPRINT."""
    models: dict[str, list]
    """The tables of `normal` and `easy` as integer rows out of SCALE, for the model."""

    def choose(
        self,
        view: SeatView,
        legal: tuple[str, ...],
        rng: random.Random,
        record: tuple[DealRecord, ...],
    ) -> str:
        action = load_strategy().choose(view, legal, rng)  # also looks first
        if action == "look":
            return action
        assignment = opponent_model(record, view.seat)
        if assignment == (BLUEPRINT,) * 3:
            return action
        node = TREE.index[tuple(a for _, a in view.history if a != "look")]
        exploit = self.choices[assignment][
            DECISION_INDEX[node] * N_HANDS + hand_class(view.your_cards)
        ]
        if exploit != FOLLOW_BLUEPRINT and rng.randrange(EPS_DENOMINATOR) < self.shares[assignment]:
            return TREE.actions[node][exploit]
        return action


@lru_cache(maxsize=4096)
def opponent_model(record: tuple[DealRecord, ...], seat: int) -> Assignment:
    """The most likely archetype of each of the seats after `seat`, given `record`."""
    return tuple(_most_likely(record, (seat + offset) % SEATS) for offset in (1, 2, 3))


def posterior(record: tuple[DealRecord, ...], seat: int) -> dict[str, float]:
    """The chance of each archetype for `seat`, given the record (the prior, then every
    finished deal's likelihood)."""
    logs = {k: math.log(PRIOR[k]) for k in ARCHETYPES}
    for deal in record:
        for k, value in zip(ARCHETYPES, _deal_log_likelihoods(deal, seat), strict=True):
            logs[k] += value
    top = max(logs.values())
    weights = {k: math.exp(v - top) for k, v in logs.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def _most_likely(record, seat: int) -> str:
    chances = posterior(record, seat)
    best = max(ARCHETYPES, key=chances.__getitem__)
    return best if chances[best] >= CONFIDENCE else BLUEPRINT


@lru_cache(maxsize=65536)
def _deal_log_likelihoods(deal: DealRecord, seat: int) -> tuple[float, ...]:
    """Per archetype: the log chance that `seat` bet as it did in `deal`."""
    columns = _model_columns()
    position = (seat - deal.dealer) % SEATS
    per_hand = {k: [1.0] * N_HANDS for k in ARCHETYPES}
    node = 0
    for actor, action in deal.actions:
        if action == "look":
            continue
        if TREE.player[node] < 0 or action not in TREE.actions[node]:
            break  # a move the model's tree leaves out (folding while matched): stop here
        i = TREE.actions[node].index(action)
        if TREE.player[node] == position and actor == seat:
            for k in ARCHETYPES:
                column = columns[k][node][i]
                per_hand[k] = [x * c for x, c in zip(per_hand[k], column, strict=True)]
        node = TREE.children[node][i]
    hand = deal.hands[seat]
    if hand is not None:
        h = hand_class(hand)
        return tuple(math.log(per_hand[k][h]) for k in ARCHETYPES)
    return tuple(
        math.log(sum(p * x for p, x in zip(_HAND_PRIOR, per_hand[k], strict=True)))
        for k in ARCHETYPES
    )


@cache
def _model_columns():
    """Per archetype, node and action: the action's chance for each hand, blended with
    uniform play."""
    out = {}
    for k in ARCHETYPES:
        columns = action_columns(archetype_rows(k))
        out[k] = [
            None
            if node_columns is None
            else [
                array(
                    "d",
                    [
                        (1 - UNIFORM_BLEND) * x / SCALE + UNIFORM_BLEND / len(node_columns)
                        for x in column
                    ],
                )
                for column in node_columns
            ]
            for node_columns in columns
        ]
    return out


def archetype_rows(level: str) -> list:
    """A level's table as integer rows out of SCALE: hard's as shipped, normal's and easy's
    from the expert's asset (rounded to 65,535ths as hard's were)."""
    return load_strategy().rows if level == BLUEPRINT else load_expert().models[level]


def _key(assignment: Assignment) -> str:
    return ",".join(assignment)


def write_asset(path: Path, shares: dict, choices: dict, meta: dict) -> dict:
    """`shares`: eps_A in thousandths; `choices`: T_A as bytes; `meta`: measurements.
    The model's tables of `normal` and `easy` follow the T_A tables, as rows of 65,535ths
    (the form of hard's): computing them at run time would cost seconds."""
    models = [table_bytes(quantize_table(level_table(k))) for k in MODELLED]
    payload = b"".join(choices[a] for a in sorted(choices)) + b"".join(models)
    header = {
        "format": FORMAT,
        "rules_version": rules_version(),
        "blueprint_sha256": load_strategy().header["sha256"],
        **meta,
        "shares": {_key(a): shares[a] for a in sorted(shares)},
        "model_bytes": [len(m) for m in models],
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    blob = base64.b64encode(zlib.compress(payload, 9)).decode()
    Path(path).write_text(json.dumps({**header, "tables": blob}, indent=1) + "\n")
    return header


def read_asset(path: Path) -> Expert:
    """Load and check the expert's asset; raises StrategyError saying what is wrong."""
    header, payload = read_checked(
        path, asset_format=FORMAT, command="train_expert", field="tables"
    )
    if header.get("blueprint_sha256") != load_strategy().header["sha256"]:
        raise StrategyError(
            f"{path} was built for another hard table; `uv run manage.py train_expert`"
        )
    size = len(DECISION_INDEX) * N_HANDS
    keys = sorted(tuple(key.split(",")) for key in header["shares"])
    lengths = header.get("model_bytes", [])
    at = size * len(keys)
    if len(lengths) != len(MODELLED) or len(payload) != at + sum(lengths):
        raise StrategyError(f"{path}: the tables have the wrong size")
    choices = {a: payload[i * size : (i + 1) * size] for i, a in enumerate(keys)}
    models = {}
    for k, length in zip(MODELLED, lengths, strict=True):
        models[k] = table_rows(payload[at : at + length], path)
        at += length
    shares = {tuple(key.split(",")): value for key, value in header["shares"].items()}
    return Expert(header, shares, choices, models)


@cache
def load_expert() -> Expert:
    """The shipped expert asset, loaded and checked once."""
    return read_asset(ASSET_PATH)
