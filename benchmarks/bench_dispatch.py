"""Tool dispatch: `chef.handle_tool` for create, update and delete vs the store's own write.

Each round uses a fresh key and times, interleaved, on the same store, garbage collector on:

* raw: the store's own operation: `store.put` of the same stored value at a new key
  (create), overwriting a key (update), `store.delete` (delete);
* floor: the least a checked write can do: `get` the entry (to refuse a create over an
  existing key or an update of a missing one), `get` the scope's version item, then the
  same put or delete;
* tool: `create_memory`, `modify_memory(action="update")`, `modify_memory(action="delete")`.

A model write is more than a put: it validates the arguments, holds the scope's exclusive
section, reads the current entry and the scope's stamp, writes the entry with its history
record and the stamp's advance, and wraps the result in a `ToolMessage`.

Goal (issue 16): `create` on `InMemoryStore` within 6x the floor. The other rows, and the
ratios against the raw write, are reported without a goal (a checked, versioned write can
never come near one bare put: an earlier 1.5x-of-a-put goal was retired for that reason).
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
from langchain_contextchef.memory import META_NAMESPACE, MemoryConfig

STORES = ("memory", "filesystem")
OPERATIONS = ("create", "update", "delete")
FLOOR_GOAL = 6.0
GOAL_ROWS = {("memory", "create")}  # issue 16's goal; the other rows are reported
META_NS = (META_NAMESPACE,)
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


def _floor(store: BaseStore, write: Callable[[], object]) -> Callable[[], object]:
    """The floor of a checked write: read the entry, read the scope's version, write."""

    def run() -> None:
        store.get(MEMORY_NS, "floor_probe", refresh_ttl=False)
        store.get(META_NS, "stamp", refresh_ttl=False)
        write()

    return run


def _round(store: BaseStore, chef: ContextChef, i: int) -> dict[str, tuple[float, float, float]]:
    """One create/update/delete cycle: (raw, floor, tool) seconds per operation."""
    key, raw_key, floor_key = f"bench_{i}", f"raw_{i}", f"floor_{i}"
    value = f"Round {i}: the user prefers tabs in Makefiles and spaces elsewhere."
    created = _timed(lambda: _tool(chef, "create_memory", {"key": key, "value": value}))
    item = store.get(MEMORY_NS, key, refresh_ttl=False)
    if item is None:
        raise RuntimeError("create_memory reported success but wrote nothing")
    stored = dict(item.value)  # exactly what the tool wrote, so both sides write the same bytes
    raw_create = _timed(lambda: store.put(MEMORY_NS, raw_key, stored, index=["value"]))
    floor_create = _timed(
        _floor(store, lambda: store.put(MEMORY_NS, floor_key, stored, index=["value"]))
    )

    new_value = value + " Confirmed."
    raw_update = _timed(lambda: store.put(MEMORY_NS, raw_key, stored, index=["value"]))
    floor_update = _timed(
        _floor(store, lambda: store.put(MEMORY_NS, floor_key, stored, index=["value"]))
    )
    updated = _timed(
        lambda: _tool(chef, "modify_memory", {"action": "update", "key": key, "value": new_value})
    )
    raw_delete = _timed(lambda: store.delete(MEMORY_NS, raw_key))
    floor_delete = _timed(_floor(store, lambda: store.delete(MEMORY_NS, floor_key)))
    deleted = _timed(lambda: _tool(chef, "modify_memory", {"action": "delete", "key": key}))
    return {
        "create": (raw_create, floor_create, created),
        "update": (raw_update, floor_update, updated),
        "delete": (raw_delete, floor_delete, deleted),
    }


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _measure(kind: str, quick: bool) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder, open_store(kind, folder) as store:
        fill(store, 0, BACKGROUND)
        chef = ContextChef(store=store, memory=MemoryConfig())
        samples: dict[str, tuple[list[float], ...]] = {op: ([], [], []) for op in OPERATIONS}
        for i in range(-3, _repeats(kind, quick)):  # three warm-up rounds
            timings = _round(store, chef, i)
            if i < 0:
                continue
            for op, figures in timings.items():
                for column, seconds in zip(samples[op], figures, strict=True):
                    column.append(seconds)
    rows = []
    for op in OPERATIONS:
        raw, floor, tool = (_median(v) for v in samples[op])
        rows.append(
            {
                "store": kind,
                "operation": op,
                "raw_s": raw,
                "floor_s": floor,
                "tool_s": tool,
                "ratio": ratio(tool, raw),
                "floor_ratio": ratio(tool, floor),
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
                f"handle_tool {r['operation']} / get + get + write ({r['store']})",
                r["floor_ratio"],
                f"<= {FLOOR_GOAL}x",
                r["floor_ratio"] <= FLOOR_GOAL,
            )
            for r in rows
            if (r["store"], r["operation"]) in GOAL_ROWS
        ]
    )
    notes = [
        "raw = the store's own put (create: new key; update: overwrite) or delete of the same value.",
        "floor = the least a checked write does: get the entry, get the scope's version "
        "item, then the same put or delete.",
        "tool = chef.handle_tool(ToolCall) -> ToolMessage: argument checks, the exclusive "
        "section, reads of the current entry and the scope's stamp, the write with its "
        "history record and stamp advance, the result message.",
    ]
    print_table(
        "Tool dispatch (chef.handle_tool vs the store's own write and the get + get + write floor)",
        ["store", "operation", "raw write", "floor", "handle_tool", "/ raw", "/ floor"],
        [
            [
                r["store"],
                r["operation"],
                fmt_seconds(r["raw_s"]),
                fmt_seconds(r["floor_s"]),
                fmt_seconds(r["tool_s"]),
                fmt_ratio(r["ratio"]),
                fmt_ratio(r["floor_ratio"]),
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
