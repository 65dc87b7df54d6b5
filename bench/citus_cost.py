"""A write's and a match GET's cost on a three-node Citus cluster (asnas_api.citus: a
coordinator and two workers, Citus's default 32 shards a table) beside one plain Postgres,
in the same run, the two sides alternated round by round (docs/scaling.md).

    uv run python -m bench.citus_cost [--rounds 3] [--matches 3]

Each side gets a fresh database, migrated (and on Citus distributed by `citus_distribute`).
Each round, on each side, a fresh process plays `--matches` whole matches against the AI
through the API in process (Django's test client: the views, the serializers, the queries,
no HTTP server), then reads each match `--gets` times. It reports, per request, the median
wall time, and the CPU of the app (this process) and of every Postgres process of the side
(all three nodes on Citus), from /proc, for the writes and for the GETs apart. In process,
so the app's part is the same code on both sides; the database's part is what differs."""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def _postgres_cpu(postmasters: list[int]) -> float:
    """CPU seconds of the postmasters and all their backends so far (live ones only: a
    backend that ended took its time with it, so each phase keeps its connection open)."""
    total = 0.0
    for pid in postmasters:
        process = psutil.Process(pid)
        for one in [process, *process.children(recursive=True)]:
            try:
                times = one.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                continue
    return total


def measure(postmasters: list[int], matches: int, gets: int, seed: int) -> dict:
    """One side's round, in this process (DATABASE_URL names the side)."""
    import django

    django.setup()
    from django.db import connection
    from rest_framework.test import APIClient

    from players.services import player_create
    from tests.http.play import play_match

    player, token = player_create(name=f"Bench {seed}")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    connection.ensure_connection()
    rng = random.Random(seed)
    write_times: list[float] = []
    get_times: list[float] = []
    original = client.post

    def timed_post(*args, **kwargs):
        started = time.perf_counter()
        response = original(*args, **kwargs)
        write_times.append(time.perf_counter() - started)
        return response

    client.post = timed_post
    cpu, db = time.process_time(), _postgres_cpu(postmasters)
    ids = []
    for number in range(matches):
        view = client.post("/api/v1/matches", {"seed": seed * 100 + number}, format="json").json()
        ids.append(view["id"])
        play_match(client, view, rng)
    writes = {"cpu": time.process_time() - cpu, "db": _postgres_cpu(postmasters) - db}
    cpu, db = time.process_time(), _postgres_cpu(postmasters)
    for _ in range(gets):
        for match_id in ids:
            started = time.perf_counter()
            assert client.get(f"/api/v1/matches/{match_id}").status_code == 200
            get_times.append(time.perf_counter() - started)
    reads = {"cpu": time.process_time() - cpu, "db": _postgres_cpu(postmasters) - db}
    ms = 1000
    return {
        "writes": len(write_times),
        "write_wall_ms": statistics.median(write_times) * ms,
        "write_app_cpu_ms": writes["cpu"] / len(write_times) * ms,
        "write_db_cpu_ms": writes["db"] / len(write_times) * ms,
        "gets": len(get_times),
        "get_wall_ms": statistics.median(get_times) * ms,
        "get_app_cpu_ms": reads["cpu"] / len(get_times) * ms,
        "get_db_cpu_ms": reads["db"] / len(get_times) * ms,
    }


def _manage(url: str, *command: str) -> None:
    env = {**os.environ, "DATABASE_URL": url}
    subprocess.run(
        [sys.executable, "manage.py", *command, "-v", "0"], cwd=ROOT, env=env, check=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--gets", type=int, default=20, help="GETs of each match a round")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        postmasters, seed = json.loads(args.measure)
        print(json.dumps(measure(postmasters, args.matches, args.gets, seed)))
        return

    from asnas_api import embedded_db
    from asnas_api.citus import Cluster

    os.environ.setdefault("SECRET_KEY", "bench")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"  # Django's test client's host
    os.environ.setdefault("ASNAS_ALLOW_CLIENT_SEED", "1")
    for scope in ("TOKEN", "IP", "PLAYER_CREATE", "MATCH_CREATE"):
        os.environ.setdefault(f"ASNAS_RATE_{scope}", "1000000/min")
    work = Path(tempfile.mkdtemp(prefix="asnas-citus-cost-"))
    work.chmod(0o755)
    plain = embedded_db.start(work / "plain", cleanup_mode="delete")
    cluster = Cluster(work / "citus")
    try:
        citus = cluster.start()
        _manage(plain, "migrate")
        _manage(citus, "migrate")
        _manage(citus, "citus_distribute")
        sides = {
            "plain Postgres": (plain, [psutil.Process(embedded_db._server.get_pid()).pid]),
            "Citus, 3 nodes": (citus, cluster.postmasters()),
        }
        results: dict[str, list[dict]] = {side: [] for side in sides}
        for round_number in range(args.rounds):
            for side, (url, postmasters) in sides.items():
                child = subprocess.run(
                    [sys.executable, "-m", "bench.citus_cost", "--matches", str(args.matches)]
                    + [
                        "--gets",
                        str(args.gets),
                        "--measure",
                        json.dumps([postmasters, round_number + 1]),
                    ],
                    cwd=ROOT,
                    env={**os.environ, "DATABASE_URL": url},
                    capture_output=True,
                    text=True,
                )
                if child.returncode:
                    sys.exit(f"the {side} round failed:\n{child.stderr}")
                results[side].append(json.loads(child.stdout.strip().splitlines()[-1]))
                print(f"round {round_number + 1}, {side}: {results[side][-1]}", flush=True)
        _report(results)
    finally:
        cluster.stop()
        embedded_db.stop()


def _report(results: dict[str, list[dict]]) -> None:
    figures = [
        ("write, wall (median)", "write_wall_ms"),
        ("write, app CPU", "write_app_cpu_ms"),
        ("write, Postgres CPU (all nodes)", "write_db_cpu_ms"),
        ("GET, wall (median)", "get_wall_ms"),
        ("GET, app CPU", "get_app_cpu_ms"),
        ("GET, Postgres CPU (all nodes)", "get_db_cpu_ms"),
    ]
    sides = list(results)
    print(
        f"\n| ms per request, median of {len(results[sides[0]])} rounds | "
        + " | ".join(sides)
        + " |"
    )
    print("| --- |" + " ---: |" * len(sides))
    for label, key in figures:
        values = [statistics.median(r[key] for r in results[side]) for side in sides]
        print(f"| {label} | " + " | ".join(f"{v:.2f}" for v in values) + " |")
    counts = {side: (results[side][0]["writes"], results[side][0]["gets"]) for side in sides}
    print(f"\nwrites and GETs a round: {counts}")


if __name__ == "__main__":
    main()
