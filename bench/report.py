"""Turn the samples and CPU readings of a bench run into its report: a dict for JSON, and
rich tables for people."""

import math
import statistics

from rich.console import Console
from rich.table import Table

from bench.players import Sample
from games.engine import MATCH_DEALS

KINDS = ("create", "action", "next_deal", "view")
DEALS = range(1, MATCH_DEALS + 1)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile: a value that was actually measured."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def _latency(samples: list[Sample]) -> dict:
    ms = [sample.seconds * 1000 for sample in samples]
    return {
        "count": len(ms),
        "p50_ms": percentile(ms, 50),
        "p95_ms": percentile(ms, 95),
        "p99_ms": percentile(ms, 99),
        "mean_ms": statistics.fmean(ms),
    }


def _queries(samples: list[Sample]) -> dict:
    queries = [sample.queries for sample in samples]
    return {"queries_mean": statistics.fmean(queries), "queries_max": max(queries)}


def _cpu_ms(samples: list[Sample], overhead_ns: float) -> dict:
    """Server CPU per request: what the worker and its Postgres backend spent on it (measured
    per request), plus an equal share of the rest of the phase's server CPU (HTTP parsing
    outside Django, gunicorn's master, Postgres's background writers)."""
    app = statistics.fmean(sample.app_ns for sample in samples)
    db = statistics.fmean(sample.db_ns for sample in samples)
    return {
        "cpu_ms": (app + db + overhead_ns) / 1e6,
        "app_cpu_ms": app / 1e6,
        "db_cpu_ms": db / 1e6,
        "other_cpu_ms": overhead_ns / 1e6,
    }


def _phase(samples: list[Sample], seconds: float, server_ns: dict[str, int]) -> dict:
    total_ns = sum(server_ns.values())
    attributed_ns = sum(sample.app_ns + sample.db_ns for sample in samples)
    return {
        "requests": len(samples),
        "seconds": seconds,
        "requests_per_s": len(samples) / seconds,
        "server_cpu_s": {name: ns / 1e9 for name, ns in server_ns.items()},
        "server_cpu_ms_per_request": total_ns / len(samples) / 1e6,
        "overhead_ns_per_request": (total_ns - attributed_ns) / len(samples),
    }


WRITES = ("create", "action", "next_deal")
FLOORS = {"floor_read": "floor: bare DRF GET", "floor_write": "floor: least write"}


def build(*, config: dict, yardsticks: dict[str, dict], play: dict) -> dict:
    """`yardsticks` (/healthz and the floors, by name) and `play` each hold a phase's samples,
    seconds, server_ns and client_ns."""
    phases = {}
    for name, phase in yardsticks.items():
        phases[name] = _phase(phase["samples"], phase["seconds"], phase["server_ns"])
        phases[name].update(_latency(phase["samples"]))
    health = phases.pop("healthz")
    for floor in phases.values():
        floor["cpu_over_healthz_ms"] = (
            floor["server_cpu_ms_per_request"] - health["server_cpu_ms_per_request"]
        )
    game = _phase(play["samples"], play["seconds"], play["server_ns"])
    game["client_cpu_ms_per_request"] = play["client_ns"] / len(play["samples"]) / 1e6
    # Every server and Postgres CPU of the play phase, views too, shared over its writes only.
    writes = sum(sample.kind in WRITES for sample in play["samples"])
    game["server_cpu_ms_per_write"] = sum(play["server_ns"].values()) / writes / 1e6
    overhead = game["overhead_ns_per_request"]
    endpoints = {}
    for kind in KINDS:
        samples = [sample for sample in play["samples"] if sample.kind == kind]
        endpoints[kind] = {**_latency(samples), **_queries(samples), **_cpu_ms(samples, overhead)}
        # A difference, not a ratio: a cheaper /healthz would worsen every ratio to it.
        endpoints[kind]["cpu_over_healthz_ms"] = (
            endpoints[kind]["cpu_ms"] - health["server_cpu_ms_per_request"]
        )
    actions = [sample for sample in play["samples"] if sample.kind == "action"]
    by_deal = {}
    for deal in DEALS:
        samples = [sample for sample in actions if sample.deal == deal]
        if samples:
            by_deal[deal] = {**_latency(samples), **_queries(samples), **_cpu_ms(samples, overhead)}
    game["actions"] = len(actions)
    game["actions_per_s"] = len(actions) / play["seconds"]
    return {
        "config": config,
        "healthz": health,
        "floors": phases,
        "play": game,
        "endpoints": endpoints,
        "action_vs_healthz": {
            "cpu_over_ms": endpoints["action"]["cpu_over_healthz_ms"],
            "actions_per_s_ratio": game["actions_per_s"] / health["requests_per_s"],
            "play_requests_per_s_ratio": game["requests_per_s"] / health["requests_per_s"],
        },
        "by_deal": by_deal,
    }


def show(console: Console, report: dict) -> None:
    health, game = report["healthz"], report["play"]
    config = report["config"]
    console.print(
        f"[bold]{config['players']} players x {config['matches_per_player']} matches, "
        f"{config['workers']} workers, {config['seed_matches']:,} finished matches stored; "
        f"load average {config['load_before'][0]:.2f} before, {config['load_after'][0]:.2f} after"
    )
    console.print(
        f"play: {game['actions']:,} actions in {game['seconds']:.1f} s = "
        f"[bold]{game['actions_per_s']:.0f} actions/s[/] ({game['requests_per_s']:.0f} requests/s)"
        f"; server CPU {game['server_cpu_ms_per_request']:.2f} ms/request, client "
        f"{game['client_cpu_ms_per_request']:.2f} ms/request; all of it over the writes "
        f"{game['server_cpu_ms_per_write']:.2f} ms/write"
    )
    console.print(
        f"/healthz: {health['requests_per_s']:.0f} req/s, server CPU "
        f"{health['server_cpu_ms_per_request']:.2f} ms/request, p50 {health['p50_ms']:.1f} ms"
    )
    if "streams" in report:
        streams = report["streams"]
        console.print(
            f"streams: {streams['open']} held open; server RSS "
            f"{streams['server_rss_mib_before']:.1f} -> {streams['server_rss_mib_after']:.1f} MiB"
            f" = [bold]{streams['kib_per_stream']:.1f} KiB per open stream[/]; server threads"
            f" {streams['server_threads_before']} -> {streams['server_threads_after']}"
        )
    ratios = report["action_vs_healthz"]
    console.print(
        f"action vs /healthz: CPU +{ratios['cpu_over_ms']:.2f} ms, throughput "
        f"x{ratios['actions_per_s_ratio']:.2f} (all play requests x"
        f"{ratios['play_requests_per_s_ratio']:.2f})"
    )

    table = Table(title="Endpoints (play phase)")
    for column in ("endpoint", "count", "p50 ms", "p95 ms", "p99 ms", "queries", "CPU ms"):
        table.add_column(column, justify="left" if column == "endpoint" else "right")
    table.add_column("CPU ms over /healthz", justify="right")
    for kind, row in report["endpoints"].items():
        table.add_row(kind, *_cells(row), f"{row['cpu_over_healthz_ms']:.2f}")
    for name, floor in report["floors"].items():
        row = {**floor, "cpu_ms": floor["server_cpu_ms_per_request"]}
        table.add_row(FLOORS[name], *_cells(row), f"{floor['cpu_over_healthz_ms']:.2f}")
    table.add_row("healthz", *_cells({**health, "cpu_ms": health["server_cpu_ms_per_request"]}))
    console.print(table)

    table = Table(title="Actions by deal number")
    for column in ("deal", "count", "p50 ms", "p95 ms", "p99 ms", "queries", "CPU ms"):
        table.add_column(column, justify="right")
    for deal, row in report["by_deal"].items():
        table.add_row(str(deal), *_cells(row))
    console.print(table)


def _cells(row: dict) -> list[str]:
    queries = (
        f"{row['queries_mean']:.2f} (max {row['queries_max']})" if "queries_mean" in row else "0"
    )
    return [
        f"{row['count']:,}",
        f"{row['p50_ms']:.1f}",
        f"{row['p95_ms']:.1f}",
        f"{row['p99_ms']:.1f}",
        queries,
        f"{row['cpu_ms']:.2f}",
    ]


def show_hint_burst(console: Console, result: dict) -> None:
    """The report of `bench --hint-burst` (bench/hint_burst.py)."""
    config, quiet, burst = result["config"], result["quiet"], result["burst"]
    console.print(
        f"[bold]hint burst: {result['players']} players from {result['addresses']} "
        f"address(es), {result['repeats']} hint(s) a spot, {result['seconds']:.0f} s; "
        f"{config['workers']} workers; load average {config['load_before'][0]:.2f} before, "
        f"{config['load_after'][0]:.2f} after"
    )
    refused = result["hints_refused"]
    per_hint = result["server_cpu_ms_per_hint"]
    console.print(
        f"hints: {result['hints_answered']:,} answered, {refused['429']:,} refused 429, "
        f"{refused['503']:,} refused 503; server CPU {result['server_cpu_s']:.1f} s, "
        + (
            f"{per_hint:.1f} ms per hint answered"
            if per_hint is not None
            else "no hint answered"
            if not result["hints_answered"]
            else "CPU per hint not known (the quiet phase's reads cost more than the burst's)"
        )
        + f" (the reads' share out: {result['server_cpu_ms_per_get']:.2f} ms each)"
    )
    table = Table(title="Another player's GET of its match")
    for column in ("phase", "count", "p50 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "phase" else "right")
    for name, row in (("quiet", quiet), ("hint burst", burst)):
        table.add_row(name, f"{row['count']:,}", f"{row['p50_ms']:.1f}", f"{row['p99_ms']:.1f}")
    table.add_row("burst / quiet", "", f"x{result['p50_ratio']:.2f}", f"x{result['p99_ratio']:.2f}")
    console.print(table)


def show_watchers(console: Console, result: dict) -> None:
    """`bench --watchers`: each side's cost of a write at each number of watchers."""
    config = result["config"]
    sides = ", ".join(f"{name} {commit}" for name, commit in config["sides"].items())
    console.print(
        f"watchers of one match, one worker: {sides}; {config['writes']} writes a size, "
        f"{config['rounds']} round(s), medians over rounds; load {config['load_before'][0]:.1f}"
        f" -> {config['load_after'][0]:.1f} on {config['cpus']} CPUs"
    )
    table = Table()
    columns = (
        "side",
        "watchers",
        "statements/write",
        "streams' statements/write",
        "messages",
        "openings refused",
        "serve CPU ms/write",
        "streams' CPU ms/message",
        "write p50 ms",
        "write max ms",
        "fan-out p50 ms",
        "fan-out max ms",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "side" else "right")
    for row in result["summary"]:
        table.add_row(
            row["side"],
            str(row["watchers"]),
            # *: Postgres was not quiet around the writes; the count may hold other reads.
            _figure(row["statements_per_write"], 1) + ("" if row.get("quiet", True) else " *"),
            _figure(row.get("stream_statements_per_write"), 1),
            str(row["messages"]),
            str(row.get("openings_refused", 0)),
            _figure(row["serve_cpu_ms_per_write"], 1),
            _figure(row.get("stream_cpu_ms_per_message"), 3),
            _figure(row["write_p50_ms"], 1),
            _figure(row["write_max_ms"], 1),
            _figure(row["fan_out_p50_ms"], 1),
            _figure(row["fan_out_max_ms"], 1),
        )
    console.print(table)


def _figure(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
