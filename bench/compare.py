"""The report of `manage.py bench --baseline REV`: each side's figures over its rounds (the
median, and the range), and the working tree's over the baseline's."""

import statistics

from rich.console import Console
from rich.table import Table

BASELINE, WORKING = "baseline", "working tree"


def figures(round_: dict, players: int) -> list[tuple[str, str, float | None]]:
    """(key, label, value) of a round's headline figures; None where the side has no such
    thing (hints where its API has none)."""
    writes, gets, hints = round_["writes"], round_["gets"], round_["hints"]
    finished = round_["gets_finished"]
    warm, loaded = round_["pss_kib_after_warm_up"], round_["pss_kib_after_load"]
    return [
        (
            "write_cpu_ms",
            "server CPU per write, ms (serve and Postgres)",
            writes["server_cpu_ms_per_request"],
        ),
        (
            "write_postgres_cpu_ms",
            "  of which Postgres, ms",
            writes["postgres_cpu_ms_per_request"],
        ),
        (
            "write_ends_no_deal_cpu_ms",
            "  a write that ends no deal, ms (its own, and a share of the rest)",
            writes["ends_no_deal_cpu_ms_per_request"],
        ),
        (
            "write_ends_a_deal_cpu_ms",
            "  a write that ends a deal, ms (its own, and a share of the rest)",
            writes["ends_a_deal_cpu_ms_per_request"],
        ),
        (
            "write_ends_no_deal_own_cpu_ms",
            "  a write that ends no deal, its own only, ms (worker and its backend)",
            writes["ends_no_deal_own_cpu_ms_per_request"],
        ),
        (
            "write_ends_a_deal_own_cpu_ms",
            "  a write that ends a deal, its own only, ms (worker and its backend)",
            writes["ends_a_deal_own_cpu_ms_per_request"],
        ),
        (
            "get_cpu_ms",
            "server CPU per GET of a match in play, ms (serve and Postgres)",
            gets["server_cpu_ms_per_request"],
        ),
        ("get_postgres_cpu_ms", "  of which Postgres, ms", gets["postgres_cpu_ms_per_request"]),
        (
            "get_finished_cpu_ms",
            "server CPU per GET of a finished match, ms (serve and Postgres)",
            finished["server_cpu_ms_per_request"],
        ),
        (
            "get_finished_postgres_cpu_ms",
            "  of which Postgres, ms",
            finished["postgres_cpu_ms_per_request"],
        ),
        ("write_p50_ms", f"write p50, ms ({players} players)", writes["p50_ms"]),
        ("write_p99_ms", f"write p99, ms ({players} players)", writes["p99_ms"]),
        ("get_p50_ms", f"GET in play p50, ms ({players} players)", gets["p50_ms"]),
        ("get_p99_ms", f"GET in play p99, ms ({players} players)", gets["p99_ms"]),
        ("get_finished_p50_ms", f"GET finished p50, ms ({players} players)", finished["p50_ms"]),
        ("get_finished_p99_ms", f"GET finished p99, ms ({players} players)", finished["p99_ms"]),
        ("hint_cpu_p50_ms", "hint server CPU p50, ms (cold spots)", hints and hints["cpu_p50_ms"]),
        ("hint_cpu_p99_ms", "hint server CPU p99, ms (cold spots)", hints and hints["cpu_p99_ms"]),
        ("startup_s", "serve start-up to /readyz, s (existing data)", round_["startup_s"]),
        (
            "pss_warm_mib",
            "PSS of serve's processes after warm-up, MiB",
            _total_mib(warm),
        ),
        (
            "pss_load_mib",
            "PSS of serve's processes after the load, MiB",
            _total_mib(loaded),
        ),
    ]


def _total_mib(pss_kib: dict[str, int]) -> float:
    return sum(pss_kib.values()) / 1024


def _median(values: list[float | None]) -> float | None:
    """The median of the rounds, or None if any round has none (the side cannot do it)."""
    if not values or any(value is None for value in values):
        return None
    return statistics.median(values)


def ratio(working: float | None, baseline: float | None) -> float | None:
    if working is None or baseline is None or baseline == 0:
        return None
    return working / baseline


def summarize(results: dict[str, list[dict]], players: int) -> dict:
    """`results`: each side's rounds. Each figure's values by round, their median by side,
    and working tree / baseline; each process's PSS (median over the rounds) by side."""
    by_side = {
        side: [figures(round_, players) for round_ in rounds] for side, rounds in results.items()
    }
    summary = {}
    for index, (key, label, _) in enumerate(by_side[WORKING][0]):
        entry = {"label": label}
        for side, rounds in by_side.items():
            values = [round_figures[index][2] for round_figures in rounds]
            entry[side] = _median(values)
            entry[f"{side} rounds"] = values
        entry["ratio"] = ratio(entry[WORKING], entry[BASELINE])
        summary[key] = entry
    pss = {}
    for side, rounds in results.items():
        names = dict.fromkeys(name for round_ in rounds for name in round_["pss_kib_after_warm_up"])
        pss[side] = {
            name: {
                moment: _median([round_[f"pss_kib_after_{moment}"].get(name) for round_ in rounds])
                for moment in ("warm_up", "load")
            }
            for name in names
        }
    return {"figures": summary, "pss_kib": pss}


def _cell(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def _range(values: list[float | None]) -> str:
    if any(value is None for value in values):
        return ""
    return f" ({min(values):,.2f}-{max(values):,.2f})" if len(values) > 1 else ""


def show(console: Console, report: dict) -> None:
    config, summary = report["config"], report["summary"]
    console.print(
        f"[bold]bench --baseline: {config['rounds']} rounds each, alternated; "
        f"{config['players']} players, serve --workers {config['workers']}, writes "
        f"{config['seconds']:g} s, GETs {config['get_seconds']:g} s, {config['hints']} hints; "
        f"load average {config['load_before'][0]:.2f} before, {config['load_after'][0]:.2f} after"
    )
    table = Table(title="Baseline and working tree (median of the rounds, their range)")
    table.add_column("figure")
    table.add_column(f"baseline {config['baseline']}", justify="right")
    table.add_column(f"working tree {config['working_tree']}", justify="right")
    table.add_column("working / baseline", justify="right")
    for entry in summary["figures"].values():
        table.add_row(
            entry["label"],
            _cell(entry[BASELINE]) + _range(entry[f"{BASELINE} rounds"]),
            _cell(entry[WORKING]) + _range(entry[f"{WORKING} rounds"]),
            "n/a" if entry["ratio"] is None else f"x{entry['ratio']:.2f}",
        )
    console.print(table)

    table = Table(title="PSS per process, MiB (Postgres not counted; median of the rounds)")
    table.add_column("process")
    for side in (BASELINE, WORKING):
        table.add_column(f"{side}: after warm-up", justify="right")
        table.add_column(f"{side}: after load", justify="right")
    pss = summary["pss_kib"]
    names = dict.fromkeys([*pss[BASELINE], *pss[WORKING]])
    for name in names:
        cells = []
        for side in (BASELINE, WORKING):
            sizes = pss[side].get(name, {})
            cells += [_cell(_mib(sizes.get(moment)), 1) for moment in ("warm_up", "load")]
        table.add_row(name, *cells)
    totals = []
    for side in (BASELINE, WORKING):
        for moment in ("warm_up", "load"):
            sizes = [sizes[moment] for sizes in pss[side].values()]
            totals.append(_cell(_mib(sum(sizes) if None not in sizes else None), 1))
    table.add_row("all", *totals)
    console.print(table)


def _mib(kib: float | None) -> float | None:
    return None if kib is None else kib / 1024
