"""Run every benchmark and write `benchmarks/results.json`.

Usage (from the repository root)::

    python -m benchmarks            # the full run, a few minutes on 2 cores
    python -m benchmarks --quick    # a fast smoke run; its figures mean nothing
    python -m benchmarks --only compile cache
    python -m benchmarks --pg URI --baseline PATH   # PostgreSQL rows; the before/after table

Each bench module has `run(quick: bool = False, ...) -> dict`; a bench that takes `pg` or
`baseline` gets the command line's `--pg` (else `CONTEXTCHEF_PG_URI`) and `--baseline`.
Speed figures are ratios against a baseline measured in the same run, so they compare across
machines; absolute times do not. The machine's load average is recorded around every bench.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from benchmarks._pg import pg_uri
from benchmarks._timing import flatten, load_average, print_table

BENCHES = (
    "compile",
    "peers",
    "scale",
    "tenants",
    "cache",
    "dispatch",
    "memory",
    "store",
    "versions",
    "gate",
    "tokens",
    "relevance",
    "selection",
    "recall",
    "profiles",
)
"""Bench names, run in this order; `store` and `gate` are owned by their own modules."""

_SELF_PRINTING = set(BENCHES) - {"gate"}
_HERE = Path(__file__).resolve().parent


def _run_one(name: str, quick: bool, options: dict[str, Any]) -> dict[str, Any]:
    module = importlib.import_module(f"benchmarks.bench_{name}")
    accepted = inspect.signature(module.run).parameters
    extra = {key: value for key, value in options.items() if key in accepted}
    started = time.perf_counter()
    load_before = load_average()
    result: dict[str, Any] = module.run(quick=quick, **extra)
    if name not in _SELF_PRINTING:
        print_table(f"{name} (raw figures)", ["figure", "value"], flatten(result))
    result = dict(result)
    result["elapsed_s"] = round(time.perf_counter() - started, 2)
    result["load_average"] = {"before": load_before, "after": load_average()}
    return result


def _summary(results: dict[str, Any]) -> list[dict[str, Any]]:
    goals = []
    for name, result in results.items():
        for g in result.get("goals", []) if isinstance(result, dict) else []:
            goals.append({"bench": name, **g})
    return goals


def main(argv: list[str] | None = None) -> int:
    """Run the selected benches, print their tables, write the JSON results.

    Returns:
        0 when every bench ran (goals may still be missed: see the summary), 1 otherwise.
    """
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fast smoke run")
    parser.add_argument("--only", nargs="+", choices=BENCHES, help="run only these benches")
    parser.add_argument(
        "--output", type=Path, default=_HERE / "results.json", help="where to write the JSON"
    )
    parser.add_argument(
        "--pg", default=None, help="PostgreSQL server URI (default: $CONTEXTCHEF_PG_URI)"
    )
    parser.add_argument(
        "--baseline",
        default=None,
        help="folder holding an earlier langchain_contextchef, for the versions bench",
    )
    args = parser.parse_args(argv)
    options = {"pg": pg_uri(args.pg), "baseline": args.baseline}
    started = time.perf_counter()
    load_start = load_average()
    results: dict[str, Any] = {}
    failed = False
    for name in args.only or BENCHES:
        print(f"\n== bench {name} ==", flush=True)
        try:
            results[name] = _run_one(name, args.quick, options)
        except Exception as exc:  # one broken bench must not hide the others' figures
            failed = True
            traceback.print_exc()
            results[name] = {"name": name, "error": f"{type(exc).__name__}: {exc}"}
    goals = _summary(results)
    print_table(
        "Goals",
        ["bench", "goal", "value", "target", "verdict"],
        [
            [
                g["bench"],
                g["name"],
                f"{g['value']:.4g}",
                g["target"],
                "met" if g["met"] else "MISSED",
            ]
            for g in goals
        ],
    )
    document = {
        "quick": args.quick,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "elapsed_s": round(time.perf_counter() - started, 1),
        "load_average": {"start": load_start, "end": load_average()},
        "postgres": options["pg"] is not None,
        "baseline": args.baseline is not None,
        "benches": results,
        "goals": goals,
    }
    args.output.write_text(json.dumps(document, indent=2, default=str) + "\n", encoding="utf-8")
    print(
        f"\nwrote {args.output.name} ({len(results)} benches, "
        f"{document['elapsed_s']} s; load average at start {load_start}, at end "
        f"{document['load_average']['end']})"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
