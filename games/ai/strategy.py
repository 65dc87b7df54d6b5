"""The trained strategy behind the `hard` level: the asset file, its checks, and play.

The asset (`hard_strategy.json`) is JSON: a header that records the rules version, the
training algorithm, seed, iterations, the measured exploitability and a SHA-256
checksum, and a `table` field holding the strategy itself, zlib-compressed and base64
encoded. The table lists, for each decision node of `tree.TREE` in node order and each
of the 121 hand classes in `ALL_HANDS` order, the probabilities of the node's actions
as unsigned 16-bit integers (big-endian) that sum to exactly 65,535.

The rules version is a fingerprint of everything the table depends on: the hand
classes and their strength order, the betting tree with its stakes and pots. A table
trained for other rules is refused.
"""

import base64
import hashlib
import json
import random
import sys
import zlib
from array import array
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.engine import MAX_STAKE, OPENING_STAKE, SEATS, SeatView

from .hands import HAND_INDEX, N_HANDS, STRENGTH, hand_class
from .tree import TREE, Tree

ASSET_PATH = Path(__file__).with_name("hard_strategy.json")
FORMAT = "asnas-ai-strategy/1"
SCALE = 65535
"""Each row of the table is integers summing to SCALE."""


class StrategyError(RuntimeError):
    """The trained strategy asset is missing, damaged, or made for other rules."""


def rules_version(tree: Tree = TREE) -> str:
    """A fingerprint of the rules the strategy depends on."""
    description = {
        "hands": [[list(hand), STRENGTH[index]] for hand, index in HAND_INDEX.items()],
        "opening_stake": OPENING_STAKE,
        "max_stake": MAX_STAKE,
        "tree": [
            [
                tree.player[n],
                list(tree.actions[n]),
                list(tree.children[n]),
                list(tree.stakes[n]),
                list(tree.folded[n]),
                tree.pot[n],
                tree.showdown[n],
            ]
            for n in range(tree.size)
        ],
    }
    blob = json.dumps(description, separators=(",", ":"), sort_keys=True).encode()
    return "asnas-" + hashlib.sha256(blob).hexdigest()[:16]


def quantize(probs) -> tuple[int, ...]:
    """Probabilities as integers summing to SCALE (largest remainders get the rest)."""
    total = sum(probs)
    exact = [p / total * SCALE for p in probs]
    ints = [int(x) for x in exact]
    order = sorted(range(len(probs)), key=lambda i: ints[i] - exact[i])
    for i in order[: SCALE - sum(ints)]:
        ints[i] += 1
    return tuple(ints)


def quantize_table(table, tree: Tree = TREE):
    """A float table (see `exploit`) as the integer rows the asset stores."""
    return [
        None if tree.player[n] < 0 else [quantize(row[h]) for h in range(N_HANDS)]
        for n, row in enumerate(table)
    ]


def dequantize(int_table):
    return [
        None if rows is None else [tuple(x / SCALE for x in row) for row in rows]
        for rows in int_table
    ]


def _payload(int_table) -> bytes:
    values = array("H", (x for rows in int_table if rows is not None for row in rows for x in row))
    if sys.byteorder == "little":
        values.byteswap()  # the file is big-endian
    return values.tobytes()


def write_asset(path: Path, table, meta: dict, tree: Tree = TREE) -> dict:
    """Quantize `table`, and write it with `meta` (seed, iterations, exploitability...)."""
    int_table = quantize_table(table, tree)
    payload = _payload(int_table)
    header = {
        "format": FORMAT,
        "rules_version": rules_version(tree),
        **meta,
        "decision_nodes": len(tree.decision_nodes()),
        "hand_classes": N_HANDS,
        "scale": SCALE,
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    blob = base64.b64encode(zlib.compress(payload, 9)).decode()
    Path(path).write_text(json.dumps({**header, "table": blob}, indent=1) + "\n")
    return header


@dataclass(frozen=True)
class Strategy:
    header: dict
    rows: list
    """rows[node][hand]: the integer row, or None at terminal nodes."""

    def table(self):
        """The strategy as a float table (see `exploit`)."""
        return dequantize(self.rows)

    def choose(self, view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
        if "look" in legal:
            return "look"  # free, and the table is for a seat that knows its hand
        node = TREE.index.get(tuple(action for _, action in view.history if action != "look"))
        if node is None or TREE.player[node] != (view.seat - view.dealer) % SEATS:
            raise StrategyError(f"betting history {view.history!r} is not in the tree")
        row = self.rows[node][hand_class(view.your_cards)]
        x = rng.randrange(SCALE)
        for action, weight in zip(TREE.actions[node], row, strict=True):
            if x < weight:
                return action
            x -= weight
        raise AssertionError("a strategy row sums to SCALE")


def read_asset(path: Path, tree: Tree = TREE) -> Strategy:
    """Load and check an asset; raises StrategyError saying what is wrong."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise StrategyError(
            f"the AI strategy asset {path} is missing; train one with "
            "`uv run manage.py train_ai` (see docs/ai.md)"
        ) from None
    except (OSError, ValueError) as error:
        raise StrategyError(f"the AI strategy asset {path} is unreadable: {error}") from None
    if data.get("format") != FORMAT:
        raise StrategyError(f"{path}: format {data.get('format')!r}, expected {FORMAT!r}")
    expected = rules_version(tree)
    if data.get("rules_version") != expected:
        raise StrategyError(
            f"{path} was trained for rules version {data.get('rules_version')!r}, but the "
            f"engine's rules are {expected!r}; retrain with `uv run manage.py train_ai`"
        )
    try:
        payload = zlib.decompress(base64.b64decode(data["table"]))
    except (KeyError, ValueError, zlib.error) as error:
        raise StrategyError(f"{path}: the table is damaged: {error}") from None
    if hashlib.sha256(payload).hexdigest() != data.get("sha256"):
        raise StrategyError(f"{path}: the table does not match its checksum")
    values = array("H")
    values.frombytes(payload)
    if sys.byteorder == "little":
        values.byteswap()
    rows = []
    at = 0
    for n in range(tree.size):
        if tree.player[n] < 0:
            rows.append(None)
            continue
        k = len(tree.actions[n])
        node_rows = []
        for _ in range(N_HANDS):
            row = tuple(values[at : at + k])
            at += k
            if len(row) != k or sum(row) != SCALE:
                raise StrategyError(f"{path}: a row of node {n} is not a distribution")
            node_rows.append(row)
        rows.append(node_rows)
    if at != len(values):
        raise StrategyError(f"{path}: the table has {len(values) - at} values too many")
    header = {key: value for key, value in data.items() if key != "table"}
    return Strategy(header, rows)


@cache
def load_strategy() -> Strategy:
    """The shipped strategy, loaded and checked once. Call it at start-up to fail early."""
    return read_asset(ASSET_PATH)
