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
from collections.abc import Sequence
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


def table_bytes(int_table) -> bytes:
    values = array("H", (x for rows in int_table if rows is not None for row in rows for x in row))
    if sys.byteorder == "little":
        values.byteswap()  # the file is big-endian
    return values.tobytes()


def write_asset(path: Path, table, meta: dict, tree: Tree = TREE) -> dict:
    """Quantize `table`, and write it with `meta` (seed, iterations, exploitability...)."""
    int_table = quantize_table(table, tree)
    payload = table_bytes(int_table)
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


def read_checked(
    path: Path, *, asset_format: str, command: str, field: str, tree: Tree = TREE
) -> tuple[dict, bytes]:
    """An AI asset's header (without `field`) and its payload (`field`, compressed), checked:
    readable, the format, the rules version and the checksum. `command` makes a new one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise StrategyError(
            f"the AI asset {path} is missing; make one with `uv run manage.py {command}` "
            "(see docs/ai.md)"
        ) from None
    except (OSError, ValueError) as error:
        raise StrategyError(f"the AI asset {path} is unreadable: {error}") from None
    if data.get("format") != asset_format:
        raise StrategyError(f"{path}: format {data.get('format')!r}, expected {asset_format!r}")
    expected = rules_version(tree)
    if data.get("rules_version") != expected:
        raise StrategyError(
            f"{path} was made for rules version {data.get('rules_version')!r}, but the "
            f"engine's rules are {expected!r}; make it again with `uv run manage.py {command}`"
        )
    try:
        payload = zlib.decompress(base64.b64decode(data[field]))
    except (KeyError, ValueError, zlib.error) as error:
        raise StrategyError(f"{path}: the {field} are damaged: {error}") from None
    if hashlib.sha256(payload).hexdigest() != data.get("sha256"):
        raise StrategyError(f"{path}: the {field} do not match the checksum")
    return {key: value for key, value in data.items() if key != field}, payload


def read_asset(path: Path, tree: Tree = TREE) -> Strategy:
    """Load and check an asset; raises StrategyError saying what is wrong."""
    header, payload = read_checked(
        path, asset_format=FORMAT, command="train_ai", field="table", tree=tree
    )
    return Strategy(header, table_rows(payload, path, tree))


def table_rows(payload: bytes, path: Path, tree: Tree = TREE) -> list:
    """An integer table from its bytes (`table_bytes`), every row checked: per node, None at
    terminal nodes, else its `NodeRows`."""
    values = array("H")
    values.frombytes(payload)
    if sys.byteorder == "little":
        values.byteswap()
    view = memoryview(values)
    rows: list = []
    at = 0
    for n in range(tree.size):
        if tree.player[n] < 0:
            rows.append(None)
            continue
        k = len(tree.actions[n])
        values_of_node = view[at : at + k * N_HANDS]
        at += k * N_HANDS
        # Each hand's row is k values in a row: zip over one iterator k times groups them
        # (an eighth of the CPU of reading each row as a tuple; every process checks at start).
        row_sums = map(sum, zip(*[iter(values_of_node)] * k, strict=True))
        if len(values_of_node) != k * N_HANDS or any(total != SCALE for total in row_sums):
            raise StrategyError(f"{path}: a row of node {n} is not a distribution")
        rows.append(NodeRows(values_of_node, k))
    if at != len(values):
        raise StrategyError(f"{path}: the table has {len(values) - at} values too many")
    return rows


class NodeRows(Sequence):
    """One decision node's rows, per hand class the tuple of its actions' integers (out of
    SCALE), read from 16-bit integers in one array: as a list of tuples of Python integers
    the three AI tables took about 40 MB in every process, now about 2 MB."""

    __slots__ = ("_values", "_width")

    def __init__(self, values: memoryview, width: int):
        self._values = values
        self._width = width

    def __len__(self) -> int:
        return len(self._values) // self._width

    def __getitem__(self, hand):
        if isinstance(hand, slice):
            return [self[i] for i in range(len(self))[hand]]
        at = range(len(self))[hand] * self._width  # raises IndexError past the end
        return tuple(self._values[at : at + self._width])

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


@cache
def load_strategy() -> Strategy:
    """The shipped strategy, loaded and checked once. Call it at start-up to fail early."""
    return read_asset(ASSET_PATH)
