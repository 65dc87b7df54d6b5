"""The coach's tables: what every hint's exact values are sums of, computed once for all
spots, kept in a file and mapped read-only, so that a hint costs a walk down the betting
tree instead of a sum over thousands of deals, and every process shares one copy.

For an AI table, a position q and a hand class h of q, the file holds per node of the tree
(those that matter to q, `slots`):

- at each node where q's score is settled (the deal ended, or q just folded): X, the sum over
  the deals where q holds h of (the deal's shuffles) x (the opponents' table's chance, in
  whole 65,535ths, of every opponent action from the start to the node) x (q's score there,
  in twelfths of a point);
- at each decision of q: Y, the same sum without the score: how likely the opponents bet so.

Both leave out q's own actions, the factor F(h) of q's hand in the number of shuffles and
24^15 (see exploit.py's generating functions, which compute them for all 121 hands at
once). The coach's value of an action at a decision s of q, leading to child c, is then
exactly

    sum over settled nodes t below c of (q's own table's integers from c to t) x X_t
        x 65535^(depth(c) - depth(t)) / (12 Y_s)

the very fraction the coach got by summing over deals (tests/ai/test_coach.py compares it
with values recorded from that coach). Where Y_s is 0, the opponents' table never bets so,
and the coach sums over the deals alone, as it always did (`coach._slow_values`).

The file is named by a hash of everything it is computed from (the AI assets, the rules,
this code), lives in the cache directory (ASNAS_AI_CACHE_DIR, else ai-cache/ in
ASNAS_DATA_DIR, else in the project's .data/), and is built by a separate process (`python
-m games.ai.coach_tables PATH`) so that building (about a minute of CPU) holds neither a
server's interpreter nor its memory. Standard library only: no Django.
"""

import ctypes
import fcntl
import hashlib
import json
import mmap
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial, prod
from pathlib import Path

from games.engine import SEATS

from . import deals, expert, exploit, strategy
from .deals import all_deals
from .expert import ASSET_PATH as EXPERT_ASSET_PATH
from .expert import archetype_rows
from .exploit import _algebra, _masses, _product, _terminal_vectors, action_columns
from .hands import HAND_COUNTS, N_HANDS, STRENGTH
from .strategy import ASSET_PATH as STRATEGY_ASSET_PATH
from .strategy import rules_version
from .tree import TREE

TABLES: tuple[str, ...] = ("hard", "normal", "easy")
"""The AI tables the coach plays the AI seats with (expert's seats: its blueprint, hard)."""

MAGIC = b"asnas-coach-tables/1\n"
ROOT = Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    explicit = os.environ.get("ASNAS_AI_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    data = os.environ.get("ASNAS_DATA_DIR")
    return Path(data).expanduser() / "ai-cache" if data else ROOT / ".data" / "ai-cache"


@cache
def inputs_hash() -> str:
    """A hash of everything the tables are computed from: a change to any of them names
    another file, so a stale one is never read."""
    digest = hashlib.sha256(MAGIC)
    digest.update(rules_version().encode())
    for path in (
        STRATEGY_ASSET_PATH,
        EXPERT_ASSET_PATH,
        Path(__file__),
        *(Path(module.__file__) for module in (deals, exploit, expert, strategy)),
    ):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def table_path() -> Path:
    return cache_dir() / f"coach-{inputs_hash()}.bin"


@cache
def slots(q: int) -> tuple[int, ...]:
    """The nodes whose sums the file holds for position q, in node order: q's decisions and
    the nodes where q's score is settled (below those, nothing changes q's score)."""
    out = []

    def walk(n):
        out.append(n)
        if TREE.player[n] < 0 or TREE.folded[n][q]:
            return
        for child in TREE.children[n]:
            walk(child)

    walk(0)
    return tuple(n for n in sorted(out) if TREE.player[n] == q or _settled(n, q))


def _settled(n: int, q: int) -> bool:
    return TREE.player[n] < 0 or TREE.folded[n][q]


@cache
def _slot_index(q: int) -> dict[int, int]:
    return {n: i for i, n in enumerate(slots(q))}


def whole_g() -> list[int]:
    """Per hand class, 24^5 / prod(count!) over ranks: exploit's G(c) in whole numbers
    (three of them make 24^15 G G G)."""
    return [prod(24 // factorial(c) for c in counts) for counts in HAND_COUNTS]


def _sums(table: str, q: int) -> list[list[int]]:
    """Per slot of q: the sum (X or Y, see the module) for each of q's hand classes."""
    return position_sums(archetype_rows(table), q)


def position_sums(rows, q: int) -> list[list[int]]:
    """`_sums` against opponents who play `rows` (integer rows out of SCALE per node, as
    `archetype_rows` gives them; q's own rows are not read): a row may come from a different
    table at each node, as when the opponents play different tables (a review at a table of
    several humans, games/ai/review.py), which the file does not hold."""
    columns = action_columns(rows)
    index = _slot_index(q)
    out: list = [None] * len(index)
    masses = _Masses(q)

    def walk(n, reach):
        p = TREE.player[n]
        if _settled(n, q):
            if not all(any(reach[o]) for o in range(SEATS) if o != q):
                out[index[n]] = [0] * N_HANDS  # the opponents never bet so
                return
            polys, mass = masses.of(reach)
            out[index[n]] = _terminal_vectors(
                q, polys, TREE.pot[n], TREE.stakes[n][q], TREE.folded[n], TREE.showdown[n], 12, mass
            )
            return
        if p == q:
            out[index[n]] = masses.of(reach)[1]
            for child in TREE.children[n]:
                walk(child, reach)
            return
        for child, column in zip(TREE.children[n], columns[n], strict=True):
            moved = list(reach)
            moved[p] = [r * x for r, x in zip(reach[p], column, strict=True)]
            walk(child, moved)

    walk(0, [[1] * N_HANDS for _ in range(SEATS)])
    return out


class _Masses:
    """`exploit._masses` of q at the nodes of one walk, each worked out once: q's own bets and
    the end of a deal leave the opponents' reach as it was (the same list), so a node often
    has its parent's masses, and the product of two opponents' polynomials is shared wider
    still (in a mixed review's walk, 1,011 masses from 665 distinct reaches, and 440 distinct
    products). Keyed by the identity of the reach lists, which it keeps, so that no id is
    reused while it lives."""

    def __init__(self, q: int):
        self.q, self.g, self.algebra = q, whole_g(), _algebra()
        self.others = [o for o in range(SEATS) if o != q]
        self.polys: dict[int, tuple[list, list]] = {}
        self.products: dict[tuple[int, int], list] = {}
        self.masses: dict[tuple[int, ...], list] = {}

    def poly(self, reach: list) -> list:
        kept = self.polys.get(id(reach))
        if kept is None:
            kept = self.polys[id(reach)] = (
                reach,
                [x * r for x, r in zip(self.g, reach, strict=True)],
            )
        return kept[1]

    def of(self, reach: list) -> tuple[list, list]:
        """The four seats' polynomials (q's own unread) and q's masses, given the reaches."""
        polys = [self.poly(r) for r in reach]
        key = tuple(id(reach[o]) for o in self.others)
        mass = self.masses.get(key)
        if mass is None:
            a, b, c = self.others
            pair = (id(reach[a]), id(reach[b]))
            full = self.products.get(pair)
            if full is None:
                full = self.products[pair] = _product(self.algebra, polys[a], polys[b])
            mass = self.masses[key] = _masses(self.q, polys, full)
        return polys, mass


def _showdown_counts() -> list[tuple[int, int, int]]:
    """Per hand class h: (deals won outright, tied for best, all), each weighted by its
    shuffles, when h meets three random hands."""
    counts = [[0, 0, 0] for _ in range(N_HANDS)]
    for deal, weight in zip(*all_deals(), strict=True):
        mine = STRENGTH[deal[0]]
        best = max(STRENGTH[deal[1]], STRENGTH[deal[2]], STRENGTH[deal[3]])
        row = counts[deal[0]]
        row[2] += weight
        if best < mine:
            row[0] += weight
        elif best == mine:
            row[1] += weight
    return [tuple(row) for row in counts]


def build(path: Path) -> None:
    """Compute every table and write the file atomically (a reader never sees half of it).
    Layout: MAGIC, a JSON header line (offset and byte width of every chunk), then per AI
    table, position and hand a chunk of its slots' sums, each a signed little-endian integer
    of the chunk's width."""
    path = Path(path)
    chunks = []
    body = bytearray()
    for table in TABLES:
        for q in range(SEATS):
            sums = _sums(table, q)
            for h in range(N_HANDS):
                values = [slot[h] for slot in sums]
                width = max((abs(v).bit_length() + 8) // 8 for v in values)
                chunks.append((len(body), width))
                for v in values:
                    body += v.to_bytes(width, "little", signed=True)
    header = {
        "inputs": inputs_hash(),
        "tables": list(TABLES),
        "chunks": chunks,
        "showdown": [[str(x) for x in row] for row in _showdown_counts()],
    }
    head = MAGIC + json.dumps(header, separators=(",", ":")).encode() + b"\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    with open(partial, "wb") as out:
        out.write(head)
        out.write(body)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)


@dataclass(frozen=True)
class CoachTables:
    """The file, mapped read-only: its pages are the page cache's, shared by every process
    that maps it, and only those a hint reads are ever loaded."""

    view: memoryview
    start: int
    chunks: list
    showdown: list

    def sums(self, table: str, q: int, h: int) -> "Sums":
        offset, width = self.chunks[(TABLES.index(table) * SEATS + q) * N_HANDS + h]
        return Sums(self.view, self.start + offset, width, _slot_index(q))

    def showdown_chances(self, h: int) -> tuple[Fraction, Fraction]:
        win, tie, total = self.showdown[h]
        return Fraction(win, total), Fraction(tie, total)


@dataclass(frozen=True)
class Sums:
    view: memoryview
    start: int
    width: int
    index: dict

    def __getitem__(self, node: int) -> int:
        at = self.start + self.index[node] * self.width
        return int.from_bytes(self.view[at : at + self.width], "little", signed=True)


@dataclass(frozen=True)
class HeldSums:
    """One hand's sums from `position_sums`, held in memory, read as the file's `Sums` are."""

    slots: list
    hand: int
    index: dict

    def __getitem__(self, node: int) -> int:
        return self.slots[self.index[node]][self.hand]


def held_sums(slots: list, q: int, h: int) -> HeldSums:
    return HeldSums(slots, h, _slot_index(q))


def open_tables(path: Path) -> CoachTables:
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    view = memoryview(mapped)
    if view[: len(MAGIC)] != MAGIC:
        raise ValueError(f"{path} is not a coach tables file")
    end = mapped.find(b"\n", len(MAGIC))
    header = json.loads(bytes(view[len(MAGIC) : end]))
    if header["inputs"] != inputs_hash() or header["tables"] != list(TABLES):
        raise ValueError(f"{path} was built from other inputs")
    showdown = [tuple(int(x) for x in row) for row in header["showdown"]]
    return CoachTables(view, end + 1, header["chunks"], showdown)


_mapped: CoachTables | None = None
_ready = threading.Event()
_loading = threading.Lock()


def mapped() -> CoachTables | None:
    """The tables if this process has mapped them (see `load`), else None: a hint then sums
    over the deals, as the coach always did, rather than wait."""
    return _mapped


def load() -> CoachTables:
    """Map the tables, building the file first in a separate process if it is missing (one
    builder at a time, by a lock on the cache directory; the others wait for its file).
    Blocks for as long as that takes: call it in a background thread (`coach.warm`)."""
    global _mapped
    with _loading:
        if _mapped is None:
            _mapped = open_tables(ensure_built())
            _ready.set()
    return _mapped


def ensure_built() -> Path:
    """The tables' file, built first in a separate process if it is missing (one builder at
    a time, by a lock on the cache directory; the others wait for its file)."""
    path = table_path()
    if not path.exists():
        _build_in_a_process(path)
    return path


# Loaded before any fork: a forked child of a process with threads must not dlopen.
_libc = ctypes.CDLL(None, use_errno=True)


def _die_with_parent() -> None:
    # The builder is stopped with the process that waits for it (PR_SET_PDEATHSIG): a server
    # stopped or killed mid-build leaves no minute of CPU running behind it.
    _libc.prctl(1, signal.SIGTERM)


def _build_in_a_process(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building it: wait for it
        if path.exists():
            return
        subprocess.run(
            [sys.executable, "-m", "games.ai.coach_tables", str(path)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": _with_root(os.environ.get("PYTHONPATH"))},
            check=True,
            preexec_fn=_die_with_parent,
        )
    lock_name = path.name + ".lock"
    for stale in path.parent.glob("coach-*.bin*"):
        if stale.name not in (path.name, lock_name) and not stale.name.startswith("."):
            # built from inputs that changed since; a process mapping it keeps its pages
            stale.unlink(missing_ok=True)


def _with_root(python_path: str | None) -> str:
    return os.pathsep.join(filter(None, [str(ROOT), python_path]))


if __name__ == "__main__":
    # `python -m games.ai.coach_tables [PATH]`: build the file (by default where the coach
    # looks for it), e.g. in an image's build, so that no server ever has to.
    os.nice(10)  # a background job: requests come first
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else table_path())
