"""Compile at production scale: a compile follows changes, not stored size (issue 16).

One child process per backend and size, so no size inherits another's heap, caches or
collector state. Each child fills one scope with `n` entries and a reference scope with 100,
in the same store, and compiles them with a 2,000-token memory budget, garbage collector on:

* **unchanged**: a compile of a scope that nothing changed since the previous compile,
  interleaved with the same compile of the 100-entry scope; the ratio is `n` against 100.
  Two cadences: back to back, and "1 s apart" (a model call takes seconds, so in a real
  agent a compile is often due for the package's look for writes that bypassed it: once a
  second, and once per second per thousand entries in larger scopes; the bench ages each
  scope's last look by a second before each compile instead of sleeping).
* **after a write**: a write through the package (untimed), then the timed compile; by this
  process's store object, and by another store object over the same data (what another
  process's write looks like; `InMemoryStore` has no second view). Ratio against the
  unchanged compile interleaved with it.
* **cold**: a compile that must read the whole scope (a fresh store object, as a new process
  has, or the scope dropped from the process's cache on `InMemoryStore`) against the floor:
  one bulk `store.search` of the namespace plus joining the values, on a fresh store object
  too. At 100,000 entries the cold pair is skipped (it is the 10,000 figure times ten).
* **retained memory**: tracemalloc bytes still held after the first compile of the `n`-entry
  scope (the process's cache of it, counted after a full `gc.collect()`), against the stored
  JSON: the UTF-8 bytes of `json.dumps` of each stored value, summed (what the scope weighs
  at rest). The store's own caches are warmed before, so they are not counted as the
  compile's. The in-memory size of the parsed value dicts is reported beside it.

Entries are written straight into the store (fast), then one entry through the package, as
in any scope the package has written to: that write creates the scope's stamp. (A scope that
was only ever written behind the package's back gets its stamp at its first compile.)

PostgreSQL rows need a server (`pg` argument, `--pg URI`, or `CONTEXTCHEF_PG_URI`); each
child gets a scratch database of its own, dropped afterwards.

Goals (issue 16): unchanged at 10,000 entries <= 2x the same at 100 on every backend; after
one write <= 2x the unchanged compile (10,000 entries); cold <= 1.5x the floor at 1,000 and
10,000; retained <= 1.5x the stored JSON at 10,000 and 100,000.
"""

from __future__ import annotations

import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.store.base import BaseStore

from benchmarks._fixtures import ALL_KINDS, fill, open_store
from benchmarks._pg import NO_SERVER_NOTE, pg_uri, scratch_database
from benchmarks._timing import (
    fmt_bytes,
    fmt_ratio,
    fmt_seconds,
    goal,
    paired_samples,
    print_goals,
    print_table,
    ratio,
)

FULL_SIZES = (10, 1_000, 10_000, 100_000)
QUICK_SIZES = (200,)
REFERENCE = 100
BUDGET = 2_000
GROWTH_GOAL = 2.0
AFTER_WRITE_GOAL = 2.0
COLD_GOAL = 1.5
RETAINED_GOAL = 1.5
_BULK = 1_000_000
_AT_REST_S = 2.1  # FileSystemStore trusts its record cache for files older than 2 s
_ROOT = Path(__file__).resolve().parents[1]

MESSAGES: list[BaseMessage] = [
    SystemMessage("You are a careful coding assistant."),
    HumanMessage("Add a test for the date parser."),
]


def _scope(name: str) -> tuple[str, ...]:
    return ("bench", name)


def _ns(name: str) -> tuple[str, ...]:
    from langchain_contextchef.memory import MEMORY_NAMESPACE

    return (*_scope(name), MEMORY_NAMESPACE)


def floor_read(store: BaseStore, namespace: tuple[str, ...]) -> str:
    """The floor: one bulk search of the namespace, values joined into one string."""
    items = store.search(namespace, limit=_BULK, refresh_ttl=False)
    return "\n".join(str(item.value.get("value", "")) for item in items)


def _repeats(size: int, quick: bool) -> dict[str, int]:
    if quick:
        return {"unchanged": 3, "write": 3, "cold": 2}
    if size >= 100_000:
        return {"unchanged": 60, "write": 15, "cold": 0}
    if size >= 10_000:
        return {"unchanged": 150, "write": 30, "cold": 7}
    return {"unchanged": 300, "write": 60, "cold": 15}


def _stats(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "mean": statistics.fmean(values)}


# ---- the child: one backend, one size -------------------------------------------------------


def _chef(store: BaseStore, name: str) -> Any:
    from langchain_contextchef import ContextChef, MemoryConfig

    return ContextChef(store=store, scope=_scope(name), memory=MemoryConfig(token_budget=BUDGET))


def _populate(store: BaseStore, name: str, size: int) -> None:
    fill(store, 0, size - 1, namespace=_ns(name))
    # One write through the package: it creates the scope's stamp, as any package write does.
    _chef(store, name).get_memory().set("seed", "The seed entry, written through the package.")


def _retained(store: BaseStore, chef: Any, namespace: tuple[str, ...]) -> dict[str, int]:
    """Bytes the first compile leaves held, and the stored JSON and parsed values it is set against."""
    from langchain_contextchef.memory import cache_stats

    floor_read(store, namespace)  # the store's own caches are the store's, not the compile's
    estimate = cache_stats()["bytes"]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        payload = chef.compile(MESSAGES)
        peak = tracemalloc.get_traced_memory()[1] - before
        del payload
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - before
        items = store.search(namespace, limit=_BULK, refresh_ttl=False)
        gc.collect()
        mark = tracemalloc.get_traced_memory()[0]
        # The values as a search on SQLite or PostgreSQL returns them: parsed from JSON, so
        # every dict and string is the search's own (InMemoryStore would share its own).
        values = [json.loads(json.dumps(item.value)) for item in items]
        gc.collect()
        value_bytes = tracemalloc.get_traced_memory()[0] - mark
        count = len(values)
        del values
        # The denominator: the scope at rest, one JSON document per stored value.
        json_bytes = sum(len(json.dumps(item.value).encode("utf-8")) for item in items)
        del items
    finally:
        tracemalloc.stop()
    return {
        "retained": retained,
        "peak": peak,
        "values": value_bytes,
        "json": json_bytes,
        "stored_items": count,
        "cache_estimate": cache_stats()["bytes"] - estimate,
    }


@contextmanager
def _second_view(kind: str, folder: str, db: str | None) -> Iterator[BaseStore | None]:
    if kind == "memory":
        yield None
        return
    with open_store(kind, folder, db) as other:
        yield other


def _after_writes(
    chef: Any, writer: Any, repeats: int, tag: str
) -> tuple[list[float], list[float]]:
    """(after-write, unchanged) compile times: a write, a timed compile, a timed compile."""
    after: list[float] = []
    unchanged: list[float] = []
    memory = writer.get_memory()
    for i in range(repeats + 1):
        memory.set(f"{tag}_{i}", f"Written by the bench ({tag}, round {i}).")
        start = time.perf_counter()
        chef.compile(MESSAGES)
        middle = time.perf_counter()
        chef.compile(MESSAGES)
        end = time.perf_counter()
        if i:  # the first round warms the write path
            after.append(middle - start)
            unchanged.append(end - middle)
    return after, unchanged


def _cold_pairs(
    kind: str, folder: str, db: str | None, store: BaseStore, repeats: int
) -> tuple[list[float], list[float]]:
    """(floor, cold compile) times, interleaved, each side on a fresh view of the data."""
    from langchain_contextchef.memory._cache import slot_for

    floors: list[float] = []
    colds: list[float] = []
    namespace = _ns("big")
    for _ in range(repeats):
        if kind == "memory":
            # One object holds the data: the cold compile is the scope dropped from the cache.
            start = time.perf_counter()
            floor_read(store, namespace)
            floors.append(time.perf_counter() - start)
            chef = _chef(store, "big")
            slot_for(store, _scope("big")).invalidate()
            start = time.perf_counter()
            chef.compile(MESSAGES)
            colds.append(time.perf_counter() - start)
            continue
        with open_store(kind, folder, db) as fresh:
            start = time.perf_counter()
            floor_read(fresh, namespace)
            floors.append(time.perf_counter() - start)
        with open_store(kind, folder, db) as fresh:
            chef = _chef(fresh, "big")
            start = time.perf_counter()
            chef.compile(MESSAGES)
            colds.append(time.perf_counter() - start)
    return floors, colds


def _child(kind: str, size: int, folder: str, db: str | None, quick: bool) -> dict[str, Any]:
    from langchain_contextchef.memory import _cache

    repeats = _repeats(size, quick)
    out: dict[str, Any] = {"store": kind, "entries": size}
    with open_store(kind, folder, db) as store:
        _populate(store, "ref", REFERENCE)
        _populate(store, "big", size)
        if kind == "filesystem" and not quick:
            time.sleep(_AT_REST_S)  # real memory is older than the store's 2 s re-parse window
        ref, big = _chef(store, "ref"), _chef(store, "big")
        payload = ref.compile(MESSAGES)
        out["retained"] = _retained(store, big, _ns("big"))
        payload = big.compile(MESSAGES)
        out["injected"] = len(payload.meta.injected_keys)
        del payload

        def compile_ref() -> object:
            return ref.compile(MESSAGES)

        def compile_big() -> object:
            return big.compile(MESSAGES)

        fns = {"ref": compile_ref, "big": compile_big}
        samples = paired_samples(fns, repeats=repeats["unchanged"], warmup=2)
        out["unchanged"] = {name: _stats(values) for name, values in samples.items()}

        def a_second_later(name: str) -> Callable[[], object]:
            # Age the scope's last check by a second instead of sleeping: the compile then
            # finds the outside-write check due exactly as it would one second later.
            slot = _cache.slot_for(store, _scope(name))

            def compile_later() -> object:
                slot.checked_at -= 1.0
                return fns[name]()

            return compile_later

        later = {name: a_second_later(name) for name in fns}
        samples = paired_samples(later, repeats=max(3, repeats["unchanged"] // 2), warmup=2)
        out["probed"] = {name: _stats(values) for name, values in samples.items()}
        after, unchanged = _after_writes(big, big, repeats["write"], "own")
        out["after_own_write"] = {"after": _stats(after), "unchanged": _stats(unchanged)}
        with _second_view(kind, folder, db) as other:
            if other is not None:
                after, unchanged = _after_writes(
                    big, _chef(other, "big"), repeats["write"], "other"
                )
                out["after_other_write"] = {"after": _stats(after), "unchanged": _stats(unchanged)}
        if repeats["cold"]:
            floors, colds = _cold_pairs(kind, folder, db, store, repeats["cold"])
            out["cold"] = {"floor": _stats(floors), "compile": _stats(colds)}
    return out


# ---- the parent --------------------------------------------------------------------------------


def _spawn(kind: str, size: int, quick: bool, server: str | None) -> dict[str, Any]:
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        db = stack.enter_context(scratch_database(server)) if kind == "postgres" else None
        assert kind != "postgres" or server is not None
        spec = json.dumps({"kind": kind, "size": size, "folder": folder, "db": db, "quick": quick})
        args = [sys.executable, "-m", "benchmarks.bench_scale", "--child", spec]
        done = subprocess.run(args, cwd=_ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"scale child {kind}/{size} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _row(child: dict[str, Any]) -> dict[str, Any]:
    u, p = child["unchanged"], child["probed"]
    row: dict[str, Any] = {
        "store": child["store"],
        "entries": child["entries"],
        "injected": child["injected"],
        "unchanged_s": u["big"]["median"],
        "unchanged_mean_s": u["big"]["mean"],
        "reference_s": u["ref"]["median"],
        "growth": ratio(u["big"]["median"], u["ref"]["median"]),
        "probed_s": p["big"]["median"],
        "probed_reference_s": p["ref"]["median"],
        "probed_growth": ratio(p["big"]["median"], p["ref"]["median"]),
    }
    for side in ("after_own_write", "after_other_write"):
        figures = child.get(side)
        if figures is not None:
            row[f"{side}_s"] = figures["after"]["median"]
            row[f"{side}_ratio"] = ratio(figures["after"]["median"], figures["unchanged"]["median"])
    cold = child.get("cold")
    if cold is not None:
        row["floor_s"] = cold["floor"]["median"]
        row["cold_s"] = cold["compile"]["median"]
        row["cold_ratio"] = ratio(cold["compile"]["median"], cold["floor"]["median"])
    kept = child["retained"]
    row["retained_bytes"] = kept["retained"]
    row["values_bytes"] = kept["values"]
    row["json_bytes"] = kept["json"]
    row["retained_ratio"] = ratio(kept["retained"], kept["json"])
    row["cache_estimate_bytes"] = kept["cache_estimate"]
    row["first_compile_peak_bytes"] = kept["peak"]
    return row


def _goals(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    goals: list[dict[str, Any]] = []
    by = {(r["store"], r["entries"]): r for r in rows}
    kinds = list(dict.fromkeys(r["store"] for r in rows))
    for kind in kinds:
        big = by.get((kind, 10_000))
        if big is not None:
            for field, label in (("growth", "back to back"), ("probed_growth", "1 s apart")):
                goals.append(
                    goal(
                        f"unchanged compile 10,000 / 100 entries, {label} ({kind})",
                        big[field],
                        f"<= {GROWTH_GOAL}x",
                        big[field] <= GROWTH_GOAL,
                    )
                )
            for side, label in (("after_own_write", "own"), ("after_other_write", "other's")):
                value = big.get(f"{side}_ratio")
                if value is not None:
                    goals.append(
                        goal(
                            f"compile after {label} write / unchanged at 10,000 ({kind})",
                            value,
                            f"<= {AFTER_WRITE_GOAL}x",
                            value <= AFTER_WRITE_GOAL,
                        )
                    )
        for size in (1_000, 10_000):
            row = by.get((kind, size))
            if row is not None and "cold_ratio" in row:
                goals.append(
                    goal(
                        f"cold compile / floor at {size:,} ({kind})",
                        row["cold_ratio"],
                        f"<= {COLD_GOAL}x",
                        row["cold_ratio"] <= COLD_GOAL,
                    )
                )
        for size in (10_000, 100_000):
            row = by.get((kind, size))
            if row is not None:
                goals.append(
                    goal(
                        f"retained after compile / stored JSON at {size:,} ({kind})",
                        row["retained_ratio"],
                        f"<= {RETAINED_GOAL}x",
                        row["retained_ratio"] <= RETAINED_GOAL,
                    )
                )
    return goals


def _opt(row: dict[str, Any], key: str, fmt: Callable[[float], str]) -> str:
    return fmt(row[key]) if key in row else "n/a"


def _print(rows: list[dict[str, Any]], notes: list[str], goals: list[dict[str, Any]]) -> None:
    print_table(
        f"Unchanged compile vs the same compile at {REFERENCE} entries (budget {BUDGET:,} tokens)",
        ["store", "entries", "at 100", "unchanged", "ratio", "mean", "1 s apart", "ratio"],
        [
            [
                r["store"],
                f"{r['entries']:,}",
                fmt_seconds(r["reference_s"]),
                fmt_seconds(r["unchanged_s"]),
                fmt_ratio(r["growth"]),
                fmt_seconds(r["unchanged_mean_s"]),
                fmt_seconds(r["probed_s"]),
                fmt_ratio(r["probed_growth"]),
            ]
            for r in rows
        ],
    )
    print_table(
        "Compile right after one write vs the unchanged compile",
        ["store", "entries", "after own write", "ratio", "after other's write", "ratio"],
        [
            [
                r["store"],
                f"{r['entries']:,}",
                _opt(r, "after_own_write_s", fmt_seconds),
                _opt(r, "after_own_write_ratio", fmt_ratio),
                _opt(r, "after_other_write_s", fmt_seconds),
                _opt(r, "after_other_write_ratio", fmt_ratio),
            ]
            for r in rows
        ],
    )
    print_table(
        "Cold compile (whole scope read) vs the bulk-read floor",
        ["store", "entries", "floor", "cold compile", "ratio"],
        [
            [
                r["store"],
                f"{r['entries']:,}",
                fmt_seconds(r["floor_s"]),
                fmt_seconds(r["cold_s"]),
                fmt_ratio(r["cold_ratio"]),
            ]
            for r in rows
            if "cold_ratio" in r
        ],
    )
    print_table(
        "Memory retained after compiling vs the stored JSON",
        [
            "store",
            "entries",
            "stored JSON",
            "retained",
            "ratio",
            "parsed values",
            "cache estimate",
            "peak",
        ],
        [
            [
                r["store"],
                f"{r['entries']:,}",
                fmt_bytes(r["json_bytes"]),
                fmt_bytes(r["retained_bytes"]),
                fmt_ratio(r["retained_ratio"]),
                fmt_bytes(r["values_bytes"]),
                fmt_bytes(r["cache_estimate_bytes"]),
                fmt_bytes(r["first_compile_peak_bytes"]),
            ]
            for r in rows
        ],
    )
    for note in notes:
        print(f"- {note}")
    print_goals(goals)


def run(
    quick: bool = False, pg: str | None = None, kinds: Sequence[str] | None = None
) -> dict[str, Any]:
    """Measure compile at scale per backend and size, one child process each; print tables.

    Args:
        quick: Two small sizes and a few repetitions: a smoke run, not a measurement.
        pg: A PostgreSQL server URI (else `CONTEXTCHEF_PG_URI`; without either the
            PostgreSQL rows are skipped with a note).
        kinds: The backends to measure (default: all; PostgreSQL only with a server).

    Returns:
        `{"name", "rows", "goals", "notes", "skipped"}`; each row has `store`, `entries`,
        the unchanged, after-write and cold timings with their ratios, and the retained bytes.
    """
    server = pg_uri(pg)
    requested = list(kinds or ALL_KINDS)
    skipped = [NO_SERVER_NOTE] if server is None and "postgres" in requested else []
    measured = [k for k in requested if k != "postgres" or server is not None]
    sizes = QUICK_SIZES if quick else FULL_SIZES
    rows = [_row(_spawn(kind, size, quick, server)) for kind in measured for size in sizes]
    goals = [] if quick else _goals(rows)
    notes = [
        f"each row is one child process; the {REFERENCE}-entry scope shares its store and is "
        "compiled interleaved with it; medians, garbage collector on.",
        "1 s apart: each compile comes a second after the previous one, so it runs the "
        "probe for writes that bypassed the package (a search with limit 1) when it is due: "
        "every second, or every n/1000 seconds for a scope of n > 1,000 entries.",
        "after a write: the write is untimed; other's write comes from a second store "
        "object over the same files or database (InMemoryStore has none).",
        "cold: fresh store objects for both sides (InMemoryStore: the scope dropped from the "
        "cache); skipped at 100,000.",
        "retained: tracemalloc bytes held after the first compile and a full gc.collect(); "
        "stored JSON: the UTF-8 bytes of json.dumps of each stored value, summed; parsed "
        "values: the value dicts of a bulk search, parsed from JSON, in the same process.",
        *skipped,
    ]
    _print(rows, notes, goals)
    return {"name": "scale", "rows": rows, "goals": goals, "notes": notes, "skipped": skipped}


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        spec = json.loads(sys.argv[2])
        print(
            json.dumps(
                _child(spec["kind"], spec["size"], spec["folder"], spec["db"], spec["quick"])
            )
        )
    else:
        run(quick="--quick" in sys.argv)
