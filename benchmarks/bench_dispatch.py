"""Tool dispatch: `chef.handle_tool` for create, update and delete vs the store's own write.

Each round uses a fresh key and times, interleaved, the raw store operation and the matching
tool call on the same store:

* create: `store.put` of the same stored value at a new key vs `create_memory`;
* update: `store.put` overwriting an existing key vs `modify_memory(action="update")`;
* delete: `store.delete` of an existing key vs `modify_memory(action="delete")`.

A model write is more than a put: it validates the arguments, reads the current entry (to
refuse a create over an existing key, or an update of a missing one), writes, and wraps the
result in a `ToolMessage`. Those reads are part of the measured cost on purpose.

Goal: every tool call within 1.5x of the raw store write.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from typing import Any

from langchain_core.messages import ToolMessage
from langgraph.store.base import BaseStore

from benchmarks._fixtures import MEMORY_NS, fill, open_store
from benchmarks._timing import fmt_ratio, fmt_seconds, goal, print_goals, print_table, ratio
from langchain_contextchef.chef import ContextChef
from langchain_contextchef.memory import MemoryConfig

STORES = ("memory", "filesystem")
OPERATIONS = ("create", "update", "delete")
RATIO_GOAL = 1.5
BACKGROUND = 100  # entries already in memory, so lookups run in a populated namespace


def _repeats(kind: str, quick: bool) -> int:
    if quick:
        return 5
    return 400 if kind == "memory" else 120


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _tool(chef: ContextChef, name: str, args: dict[str, Any]) -> None:
    result = chef.handle_tool({"name": name, "args": args, "id": "bench"})
    if not isinstance(result, ToolMessage) or result.status != "success":
        raise RuntimeError(f"{name}({args}) failed in the benchmark: {result!r}")


def _round(store: BaseStore, chef: ContextChef, i: int) -> dict[str, tuple[float, float]]:
    """One create/update/delete cycle; returns (raw seconds, tool seconds) per operation."""
    key, raw_key = f"bench_{i}", f"raw_{i}"
    value = f"Round {i}: the user prefers tabs in Makefiles and spaces elsewhere."
    created = _timed(lambda: _tool(chef, "create_memory", {"key": key, "value": value}))
    item = store.get(MEMORY_NS, key, refresh_ttl=False)
    if item is None:
        raise RuntimeError("create_memory reported success but wrote nothing")
    stored = dict(item.value)  # exactly what the tool wrote, so both sides write the same bytes
    raw_create = _timed(lambda: store.put(MEMORY_NS, raw_key, stored, index=["value"]))

    new_value = value + " Confirmed."
    raw_update = _timed(lambda: store.put(MEMORY_NS, raw_key, stored, index=["value"]))
    updated = _timed(
        lambda: _tool(chef, "modify_memory", {"action": "update", "key": key, "value": new_value})
    )
    raw_delete = _timed(lambda: store.delete(MEMORY_NS, raw_key))
    deleted = _timed(lambda: _tool(chef, "modify_memory", {"action": "delete", "key": key}))
    return {
        "create": (raw_create, created),
        "update": (raw_update, updated),
        "delete": (raw_delete, deleted),
    }


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _measure(kind: str, quick: bool) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder, open_store(kind, folder) as store:
        fill(store, 0, BACKGROUND)
        chef = ContextChef(store=store, memory=MemoryConfig())
        samples: dict[str, tuple[list[float], list[float]]] = {op: ([], []) for op in OPERATIONS}
        for i in range(-3, _repeats(kind, quick)):  # three warm-up rounds
            timings = _round(store, chef, i)
            if i < 0:
                continue
            for op, (raw, tool) in timings.items():
                samples[op][0].append(raw)
                samples[op][1].append(tool)
    rows = []
    for op in OPERATIONS:
        raw, tool = (_median(v) for v in samples[op])
        rows.append(
            {
                "store": kind,
                "operation": op,
                "raw_s": raw,
                "tool_s": tool,
                "ratio": ratio(tool, raw),
            }
        )
    return rows


def run(quick: bool = False) -> dict[str, Any]:
    """Time handle_tool create/update/delete against raw store writes; print a table.

    Args:
        quick: A handful of rounds (smoke run).

    Returns:
        `{"name", "rows", "goals", "notes"}`; each row has `store`, `operation`, `raw_s`,
        `tool_s` and `ratio`.
    """
    rows = [row for kind in STORES for row in _measure(kind, quick)]
    goals = (
        []
        if quick
        else [
            goal(
                f"handle_tool {r['operation']} / raw write ({r['store']})",
                r["ratio"],
                f"<= {RATIO_GOAL}x",
                r["ratio"] <= RATIO_GOAL,
            )
            for r in rows
        ]
    )
    notes = [
        "raw = the store's own put (create: new key; update: overwrite) or delete of the same value.",
        "tool = chef.handle_tool(ToolCall) -> ToolMessage: argument checks, a read of the "
        "current entry, the write, the result message.",
    ]
    print_table(
        "Tool dispatch (chef.handle_tool vs the store's own write)",
        ["store", "operation", "raw write", "handle_tool", "ratio"],
        [
            [
                r["store"],
                r["operation"],
                fmt_seconds(r["raw_s"]),
                fmt_seconds(r["tool_s"]),
                fmt_ratio(r["ratio"]),
            ]
            for r in rows
        ],
    )
    for note in notes:
        print(f"- {note}")
    print_goals(goals)
    return {"name": "dispatch", "rows": rows, "goals": goals, "notes": notes}


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
