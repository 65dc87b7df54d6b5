"""The coach's CPU per hint on cold, random positions, and the memory its tables take per
process: this checkout against another (`--baseline DIR`, e.g. `git archive main | tar -x -C
DIR`), alternated in the same run, each side in fresh processes with the same spots.

    uv run python -m bench.hint_cpu --baseline /tmp/hints-old [--spots 300] [--rounds 2]

The spots are what play meets: random deals, the AI seats betting from their level's table
(expert's seats from hard's, as the coach plays them), the human from a random legal action
(rarely folding), a hint at each of the human's decisions after looking; every spot is
distinct, so none is answered from a cache. A process warms the coach first, as a server's
worker does when it starts, then asks each spot once and reports the thread's CPU per hint.
Memory is read from /proc/self/smaps_rollup (Rss, Pss; anonymous and file-backed) before
and after; for the coach's mapped file, from /proc/self/smaps, in a process that maps it
while another one (which asked the same hints) still does: its pages are shared."""

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from games.ai import AI_LEVELS
from games.ai.expert import archetype_rows
from games.ai.hands import N_HANDS
from games.ai.strategy import SCALE
from games.ai.tree import TREE
from games.engine import SEATS

ROOT = Path(__file__).resolve().parents[1]

# Runs in the checkout under test (its games.ai on PYTHONPATH): only what both sides have.
CHILD = r"""
import json, sys, time
spots = json.loads(sys.argv[1])
hold = sys.argv[2] == "hold"

def rollup():
    out = {}
    for line in open("/proc/self/smaps_rollup"):
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss", "Pss_Anon", "Pss_File"):
            out[key] = int(rest.split()[0]) // 1024
    return out

def coach_file():
    out, inside = {}, False
    for line in open("/proc/self/smaps"):
        if "-" in line.split()[0] and len(line.split()) >= 5:
            inside = "coach-" in line and line.rstrip().endswith(".bin")
        elif inside:
            key, _, rest = line.partition(":")
            if key in ("Rss", "Pss", "Shared_Clean", "Private_Clean"):
                out[key] = out.get(key, 0) + int(rest.split()[0])
    return out

from games.ai import load_expert, load_strategy
from games.ai.tables import engine_legal, view_at
from games.ai.tree import TREE
load_strategy(); load_expert()  # what every process loads at start-up (games.apps)
import games.ai.coach as coach
before = rollup()
start = time.process_time()
coach.warm()
warm_cpu = time.process_time() - start
warmed = rollup()
cpu = []
for level, node, hand in spots:
    legal = tuple(a for a in engine_legal(TREE, node, looked=True) if a != "look")
    view = view_at(TREE, node, hand)
    start = time.thread_time()
    coach.coach(view, legal, level)
    cpu.append(time.thread_time() - start)
print(json.dumps({"before": before, "warmed": warmed, "after": rollup(),
                  "warm_cpu": warm_cpu, "cpu": cpu, "file": coach_file()}), flush=True)
if hold:
    sys.stdin.read()
"""


def spots(count: int, seed: int) -> list[tuple[str, int, int]]:
    """`count` distinct (level, node, hand) spots that play reaches (see the module)."""
    rng = random.Random(seed)
    rows = {level: archetype_rows("hard" if level == "expert" else level) for level in AI_LEVELS}
    seen: set = set()
    out = []
    while len(out) < count:
        level = rng.choice(AI_LEVELS)
        human = rng.randrange(SEATS)
        hands = [rng.randrange(N_HANDS) for _ in range(SEATS)]
        node = 0
        while TREE.player[node] >= 0 and not TREE.folded[node][human]:
            p = TREE.player[node]
            actions = TREE.actions[node]
            if p == human:
                key = ("hard" if level == "expert" else level, node, hands[p])
                if key not in seen and len(out) < count:
                    seen.add(key)
                    out.append((level, node, hands[p]))
                stay = [a for a in actions if a != "fold"]
                action = rng.choice(stay if stay and rng.random() < 0.9 else actions)
                i = actions.index(action)
            else:
                i = _draw(rows[level][node][hands[p]], rng.randrange(SCALE))
            node = TREE.children[node][i]
    return out


def _draw(row, x: int) -> int:
    """The action a row of 65,535ths takes for the uniform draw `x`."""
    for i, weight in enumerate(row):
        if x < weight:
            return i
        x -= weight
    raise AssertionError("a strategy row sums to SCALE")


def run_side(checkout: Path, chosen, *, hold: bool = False):
    """One fresh process of `checkout`: its report, and the process if held open."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    process = subprocess.Popen(
        [sys.executable, "-c", CHILD, json.dumps(chosen), "hold" if hold else "once"],
        cwd=checkout,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    report = json.loads(process.stdout.readline())
    if not hold:
        process.wait()
        return report, None
    return report, process


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def describe(name: str, report: dict) -> str:
    cpu = [x * 1000 for x in report["cpu"]]
    before, after = report["before"], report["after"]
    return (
        f"{name:9} hint CPU p50 {percentile(cpu, 0.5):7.2f} ms  p99 {percentile(cpu, 0.99):7.2f}"
        f" ms  max {max(cpu):7.2f} ms  mean {sum(cpu) / len(cpu):6.2f} ms | warm-up CPU"
        f" {report['warm_cpu']:5.2f} s | PSS {before['Pss']} -> {after['Pss']} MB (anon"
        f" {before['Pss_Anon']} -> {after['Pss_Anon']}, file {before['Pss_File']} ->"
        f" {after['Pss_File']}), RSS {before['Rss']} -> {after['Rss']} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout")
    parser.add_argument("--spots", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    chosen = spots(args.spots, args.seed)
    sides = {"baseline": args.baseline.resolve(), "this": ROOT}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            report, _ = run_side(sides[name], chosen)
            print(f"round {r + 1} {describe(name, report)}", flush=True)
    # Two processes of this checkout at once: the second's view of the mapped file.
    first, holder = run_side(ROOT, chosen, hold=True)
    try:
        second, _ = run_side(ROOT, chosen)
    finally:
        holder.stdin.close()
        holder.wait()
    for name, report in (("first", first), ("second", second)):
        mapped = report["file"]
        print(
            f"{name} of two processes at once: {describe('this', report)}\n"
            f"  the coach's file: Rss {mapped.get('Rss', 0) // 1024} MB, Pss"
            f" {mapped.get('Pss', 0) // 1024} MB, shared {mapped.get('Shared_Clean', 0) // 1024}"
            f" MB, private {mapped.get('Private_Clean', 0) // 1024} MB"
        )


if __name__ == "__main__":
    main()
