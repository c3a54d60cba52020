"""A server-like run: many tenants in one store, compiled round-robin (issue 16).

One child process per backend holds one store with 200 tenants x 1,000 entries (one scope
each, `("tenants", "{tenant}")`, filled straight into the store and then written once through
the package, which creates each scope's stamp). It compiles every tenant in turn with a
2,000-token budget, garbage collector on: the first round reads each scope whole (cold), the
following rounds find each scope unchanged. The second round is reported apart: the second
compile of a scope after a whole read still builds what later compiles reuse.

The figure that matters is whether a compile gets slower as the process holds more tenants:
the median warm compile of the last 20 tenants against the first 20 (the "no cliff" goal:
within 20%), and the last warm round against the first. The process's cached scopes and its
resident memory are reported at the end.

`FileSystemStore` is left out: 200,000 entry files take minutes to write. PostgreSQL rows
need a server (`pg`, `--pg URI` or `CONTEXTCHEF_PG_URI`) and use a scratch database.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks._fixtures import fill, open_store
from benchmarks._pg import NO_SERVER_NOTE, pg_uri, scratch_database
from benchmarks._timing import fmt_bytes, fmt_ratio, fmt_seconds, goal, print_goals, print_table
from benchmarks.bench_scale import BUDGET, MESSAGES

TENANTS = 200
ENTRIES = 1_000
ROUNDS = 6  # rounds after the cold one: the second compile of each scope, then warm ones
EDGE = 20  # tenants at each end compared
FLAT_GOAL = 0.20
QUICK = {"tenants": 6, "entries": 50, "rounds": 3, "edge": 2}
KINDS = ("memory", "sqlite", "postgres")
_ROOT = Path(__file__).resolve().parents[1]


def _rss_bytes() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _child(kind: str, folder: str, db: str | None, shape: dict[str, int]) -> dict[str, Any]:
    from langchain_contextchef import ContextChef, MemoryConfig
    from langchain_contextchef.memory import MEMORY_NAMESPACE, cache_stats

    tenants, entries, rounds = shape["tenants"], shape["entries"], shape["rounds"]
    names = [f"t{i:03d}" for i in range(tenants)]
    with open_store(kind, folder, db) as store:
        chef = ContextChef(
            store=store,
            scope=("tenants", "{tenant}"),
            memory=MemoryConfig(token_budget=BUDGET),
        )
        configs = [{"configurable": {"tenant": name}} for name in names]
        started = time.perf_counter()
        for name, config in zip(names, configs, strict=True):
            fill(store, 0, entries - 1, namespace=("tenants", name, MEMORY_NAMESPACE))
            chef.get_memory(config).set("seed", "The seed entry, written through the package.")
        fill_s = time.perf_counter() - started
        rss_before = _rss_bytes()
        times: list[list[float]] = []  # times[round][tenant]
        for _ in range(rounds + 1):
            row = []
            for config in configs:
                start = time.perf_counter()
                chef.compile(MESSAGES, config=config)  # type: ignore[arg-type]
                row.append(time.perf_counter() - start)
            times.append(row)
        stats = cache_stats()
    return {
        "store": kind,
        "fill_s": fill_s,
        "times": times,
        "cache": stats,
        "rss_before": rss_before,
        "rss_after": _rss_bytes(),
    }


def _spawn(kind: str, shape: dict[str, int], server: str | None) -> dict[str, Any]:
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        db = stack.enter_context(scratch_database(server)) if kind == "postgres" else None
        assert kind != "postgres" or server is not None
        spec = json.dumps({"kind": kind, "folder": folder, "db": db, "shape": shape})
        args = [sys.executable, "-m", "benchmarks.bench_tenants", "--child", spec]
        done = subprocess.run(args, cwd=_ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"tenants child {kind} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _row(child: dict[str, Any], edge: int) -> dict[str, Any]:
    cold, second, warm = child["times"][0], child["times"][1], child["times"][2:]
    per_tenant = [statistics.median(column) for column in zip(*warm, strict=True)]
    first = statistics.median(per_tenant[:edge])
    last = statistics.median(per_tenant[-edge:])
    return {
        "store": child["store"],
        "tenants": len(cold),
        "cold_first_s": statistics.median(cold[:edge]),
        "cold_last_s": statistics.median(cold[-edge:]),
        "second_s": statistics.median(second),
        "warm_first_s": first,
        "warm_last_s": last,
        "last_vs_first": last / first,
        "round_medians_s": [statistics.median(r) for r in warm],
        "round_means_s": [statistics.fmean(r) for r in warm],
        "last_vs_first_round": statistics.median(warm[-1]) / statistics.median(warm[0]),
        "cached_scopes": child["cache"]["slots"],
        "cached_entries": child["cache"]["entries"],
        "cache_estimate_bytes": child["cache"]["bytes"],
        "rss_growth_bytes": child["rss_after"] - child["rss_before"],
        "fill_s": child["fill_s"],
    }


def run(
    quick: bool = False, pg: str | None = None, kinds: Sequence[str] | None = None
) -> dict[str, Any]:
    """Compile 200 tenants round-robin in one store per backend; print a table.

    Args:
        quick: 6 tenants x 50 entries, 2 warm rounds: a smoke run, not a measurement.
        pg: A PostgreSQL server URI (else `CONTEXTCHEF_PG_URI`; without either the
            PostgreSQL row is skipped with a note).

    Returns:
        `{"name", "tenants", "entries", "rows", "goals", "notes", "skipped"}`; each row has
        the cold and warm per-compile medians of the first and last tenants and their ratio.
    """
    shape = (
        QUICK if quick else {"tenants": TENANTS, "entries": ENTRIES, "rounds": ROUNDS, "edge": EDGE}
    )
    server = pg_uri(pg)
    requested = list(kinds or KINDS)
    skipped = [NO_SERVER_NOTE] if server is None and "postgres" in requested else []
    measured = [k for k in requested if k != "postgres" or server is not None]
    rows = [_row(_spawn(kind, shape, server), shape["edge"]) for kind in measured]
    goals = (
        []
        if quick
        else [
            goal(
                f"warm compile, last {EDGE} tenants / first {EDGE} ({r['store']})",
                r["last_vs_first"],
                f"within 1 +/- {FLAT_GOAL:.2f}",
                abs(r["last_vs_first"] - 1) <= FLAT_GOAL,
            )
            for r in rows
        ]
    )
    notes = [
        f"{shape['tenants']} tenants x {shape['entries']:,} entries in one store, one child "
        f"process per backend; round 1 is cold (each scope read whole), round 2 the second "
        f"compile of each scope, then {shape['rounds'] - 1} warm rounds; medians, garbage "
        "collector on.",
        "first/last: median over the first and last tenants of each tenant's median warm "
        "compile; rounds: the last warm round's median against the first's.",
        "FileSystemStore left out: 200,000 entry files take minutes to write.",
        *skipped,
    ]
    edge = shape["edge"]
    print_table(
        f"Round-robin compiles, {shape['tenants']} tenants x {shape['entries']:,} entries",
        [
            "store",
            f"cold first {edge}",
            f"cold last {edge}",
            "second",
            f"warm first {edge}",
            f"warm last {edge}",
            "last/first",
            "last/first round",
            "cached scopes",
            "cache estimate",
            "RSS growth",
        ],
        [
            [
                r["store"],
                fmt_seconds(r["cold_first_s"]),
                fmt_seconds(r["cold_last_s"]),
                fmt_seconds(r["second_s"]),
                fmt_seconds(r["warm_first_s"]),
                fmt_seconds(r["warm_last_s"]),
                fmt_ratio(r["last_vs_first"]),
                fmt_ratio(r["last_vs_first_round"]),
                r["cached_scopes"],
                fmt_bytes(r["cache_estimate_bytes"]),
                fmt_bytes(r["rss_growth_bytes"]),
            ]
            for r in rows
        ],
    )
    for note in notes:
        print(f"- {note}")
    print_goals(goals)
    return {
        "name": "tenants",
        "tenants": shape["tenants"],
        "entries": shape["entries"],
        "rows": rows,
        "goals": goals,
        "notes": notes,
        "skipped": skipped,
    }


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        spec = json.loads(sys.argv[2])
        print(json.dumps(_child(spec["kind"], spec["folder"], spec["db"], spec["shape"])))
    else:
        run(quick="--quick" in sys.argv)
