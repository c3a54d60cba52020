"""Compare the ratios of two `results.json` files: the figures both runs report, side by side.

Usage (from the repository root)::

    python -m benchmarks.compare BEFORE.json AFTER.json

`BEFORE.json` is typically written by an earlier checkout's own `python -m benchmarks
--output ...`, run on the same machine right before this one. Only figures that are ratios
against a baseline of the same run are compared (absolute times do not travel); a figure
that one run lacks is left out. Prints a Markdown table: bench, figure, before, after.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

Figure = tuple[str, str, float, str]
"""(bench, figure, value, unit): unit is `x` for a ratio, `%` for a share."""


def figures(document: dict[str, Any]) -> Iterator[Figure]:
    """Every comparable figure of one results document."""
    benches = document.get("benches", {})
    compile_ = benches.get("compile", {})
    for row in compile_.get("rows", []):
        yield (
            "compile",
            f"compile / floor, {row['store']}, {row['entries']:,} entries",
            row["ratio"],
            "x",
        )
    for store, value in compile_.get("growth", {}).get("by_store", {}).items():
        yield "compile", f"growth 1,000 -> 10,000 entries, {store}", value, "x"
    for row in benches.get("cache", {}).get("rows", []):
        yield "cache", f"reuse, {row['strategy']}, {row['provider']}", row["reuse"] * 100, "%"
    for row in benches.get("dispatch", {}).get("rows", []):
        yield (
            "dispatch",
            f"handle_tool / raw write, {row['store']} {row['operation']}",
            row["ratio"],
            "x",
        )
    for row in benches.get("memory", {}).get("rows", []):
        yield "memory", f"compile / floor tracemalloc peak, {row['store']}", row["peak_ratio"], "x"
    store = benches.get("store", {})
    for section in ("sizes", "more"):
        for size, row in store.get(section, {}).items():
            for op, value in row.get("ratio", {}).items():
                yield "store", f"FileSystemStore / SQLite, {op}, {int(size):,} items", value, "x"
    gate = benches.get("gate", {})
    if "ratio" in gate:
        yield "gate", "gate check / baseline, corpus", gate["ratio"], "x"
    if "ratio_4000_chars" in gate:
        yield "gate", "gate check / baseline, 4,000 characters", gate["ratio_4000_chars"], "x"


def _fmt(value: float, unit: str) -> str:
    return f"{value:.2f}%" if unit == "%" else f"{value:.2f}x"


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[list[str]]:
    """Rows (bench, figure, before, after) for the figures both documents have."""
    old = {(bench, name): (value, unit) for bench, name, value, unit in figures(before)}
    rows = []
    for bench, name, value, unit in figures(after):
        if (bench, name) in old:
            rows.append([bench, name, _fmt(old[bench, name][0], unit), _fmt(value, unit)])
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the comparison table of two results files."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare", description=__doc__)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    before = json.loads(args.before.read_text(encoding="utf-8"))
    after = json.loads(args.after.read_text(encoding="utf-8"))
    rows = compare(before, after)
    print("| bench | figure | before | after |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
