"""Compile overhead: one `chef.compile(messages)` against the cheapest possible bulk read.

For each store and size, the FLOOR is what any memory-in-every-prompt design must do at
least: one bulk `store.search` of the memory namespace plus joining the values into one
string. `compile` does that read too, and also parses entries, sweeps expired ones, advances
the persisted turn clock (one write per compile: a real part of its cost, kept in the
measurement), selects, renders the `<memory>` block and splices it into the messages.

The compile is timed as an application calls it: back to back on one chef, so from the
second call on it finds the scope unchanged and reuses the process's cache of it (see
`bench_scale` for the unchanged, after-write and cold cases one by one, on PostgreSQL too).
Garbage collector on, interleaved with the floor.

Goals: ratio compile/floor at 1,000 entries within 1.5x on every store, and compile time
growing at most 12x from 1,000 to 10,000 entries.
"""

from __future__ import annotations

import tempfile
import time
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.store.base import BaseStore

from benchmarks._fixtures import MEMORY_NS, STORE_KINDS, fill, open_store
from benchmarks._timing import (
    fmt_ratio,
    fmt_seconds,
    goal,
    paired_medians,
    print_goals,
    print_table,
    ratio,
)
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.memory import MemoryConfig

FULL_SIZES = (10, 100, 1_000, 10_000)
QUICK_SIZES = (10, 100)
_BULK = 1_000_000
RATIO_GOAL = 1.5
GROWTH_GOAL = 12.0

MESSAGES: list[BaseMessage] = [
    SystemMessage("You are a careful coding assistant."),
    HumanMessage("Add a test for the date parser."),
]


def _repeats(size: int, quick: bool) -> int:
    if quick:
        return 3
    return {10: 60, 100: 40, 1_000: 15, 10_000: 5}.get(size, 5)


def floor_read(store: BaseStore) -> str:
    """The floor: one bulk search of the memory namespace, values joined into one string."""
    items = store.search(MEMORY_NS, limit=_BULK, refresh_ttl=False)
    return "\n".join(str(item.value.get("value", "")) for item in items)


def _measure_store(kind: str, sizes: tuple[int, ...], quick: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder, open_store(kind, folder) as store:
        # Everything in the block, as the floor reads everything (the default budget would
        # inject a ranked part and list the rest).
        chef = ContextChef(store=store, memory=MemoryConfig(token_budget=None))
        filled = 0
        for size in sizes:
            fill(store, filled, size)  # sizes grow, so each step only adds the difference
            filled = size
            if kind == "filesystem" and not quick:
                # FileSystemStore re-parses files changed in the last 2 s (coarse mtimes);
                # real memory is older than that, so measure once the fill has settled.
                time.sleep(2.1)
            payload = chef.compile(MESSAGES)
            if len(payload.meta.injected_keys) != size:
                raise RuntimeError(
                    f"compile injected {len(payload.meta.injected_keys)} entries on {kind}, "
                    f"expected {size}: the fixture or the chef is broken"
                )
            times = paired_medians(
                {"floor": lambda: floor_read(store), "compile": lambda: chef.compile(MESSAGES)},
                repeats=_repeats(size, quick),
            )
            rows.append(
                {
                    "store": kind,
                    "entries": size,
                    "floor_s": times["floor"],
                    "compile_s": times["compile"],
                    "ratio": ratio(times["compile"], times["floor"]),
                }
            )
    return rows


def run(quick: bool = False) -> dict[str, Any]:
    """Time compile against the bulk-read floor per store and size; print a table.

    Args:
        quick: Small sizes and few repetitions: a smoke run, not a measurement.

    Returns:
        `{"name", "rows", "growth", "goals", "notes"}`; each row has `store`, `entries`,
        `floor_s`, `compile_s` and `ratio`.
    """
    sizes = QUICK_SIZES if quick else FULL_SIZES
    rows = [row for kind in STORE_KINDS for row in _measure_store(kind, sizes, quick)]
    growth: dict[str, float] = {}
    goals: list[dict[str, Any]] = []
    low, high = sizes[-2], sizes[-1]
    for kind in STORE_KINDS:
        by_size = {r["entries"]: r for r in rows if r["store"] == kind}
        growth[kind] = ratio(by_size[high]["compile_s"], by_size[low]["compile_s"])
        if not quick:
            at_1000 = by_size[1_000]["ratio"]
            goals.append(
                goal(
                    f"compile/floor at 1,000 entries ({kind})",
                    at_1000,
                    f"<= {RATIO_GOAL}x",
                    at_1000 <= RATIO_GOAL,
                )
            )
            goals.append(
                goal(
                    f"compile growth 1,000 -> 10,000 ({kind})",
                    growth[kind],
                    f"<= {GROWTH_GOAL}x",
                    growth[kind] <= GROWTH_GOAL,
                )
            )
    notes = [
        "floor = one bulk store.search of the memory namespace + joining the values.",
        "compile includes its one write per call: advancing the persisted turn clock.",
        "ratio = median compile time / median floor time, measured interleaved, same store.",
    ]
    print_table(
        "Compile overhead (chef.compile vs bulk-read floor)",
        ["store", "entries", "floor", "compile", "ratio"],
        [
            [
                r["store"],
                f"{r['entries']:,}",
                fmt_seconds(r["floor_s"]),
                fmt_seconds(r["compile_s"]),
                fmt_ratio(r["ratio"]),
            ]
            for r in rows
        ],
    )
    print(
        f"\nGrowth of compile time {low:,} -> {high:,} entries: "
        + ", ".join(f"{k} {fmt_ratio(v)}" for k, v in growth.items())
    )
    for note in notes:
        print(f"- {note}")
    print_goals(goals)
    return {
        "name": "compile",
        "rows": rows,
        "growth": {"from": low, "to": high, "by_store": growth},
        "goals": goals,
        "notes": notes,
    }


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
