"""Memory use of one compile at 10,000 entries, against the bulk-read floor.

Two figures per store, for `chef.compile(messages)` and for the floor (one bulk
`store.search` plus joining the values, as in `bench_compile`):

* tracemalloc peak: the most Python heap the call held at once (a warm call);
* RSS delta: growth of the process's peak resident set over the first call (peak reset
  just before it; `VmHWM` on Linux, `resource.getrusage().ru_maxrss` elsewhere), each side
  in a fresh child process so neither inherits the other's caches or high-water mark.

The stores are filled once in this process; the children only open them. `InMemoryStore`
cannot be shared with a child, so the child fills its own copy before the peak is reset.
Where the peak cannot be reset (no /proc), an RSS delta only shows growth above the
child's earlier peak and may read 0.
"""

from __future__ import annotations

import gc
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks._fixtures import STORE_KINDS, fill, open_store
from benchmarks._timing import fmt_bytes, fmt_ratio, print_table, ratio

ENTRIES = 10_000
QUICK_ENTRIES = 200
_ROOT = Path(__file__).resolve().parents[1]


def _reset_peak_rss() -> None:
    # A child inherits its parent's peak RSS through fork+exec, which would hide the call's
    # growth; Linux lets a process reset its own peak (clear_refs "5", Linux >= 4.0).
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")
    except OSError:
        pass


def _peak_rss_bytes() -> int:
    """The process's peak resident set: `VmHWM` where /proc has it, else `ru_maxrss`."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024  # Linux reports kilobytes, macOS bytes
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def _child(kind: str, folder: str, side: str, entries: int) -> dict[str, int]:
    """Runs in a child process: open the store, then measure one side."""
    from benchmarks.bench_compile import MESSAGES, floor_read
    from langchain_contextchef.chef import ContextChef
    from langchain_contextchef.memory import MemoryConfig

    with open_store(kind, folder) as store:
        if kind == "memory":
            fill(store, 0, entries)
        chef = ContextChef(store=store, memory=MemoryConfig())

        def call() -> object:
            return chef.compile(MESSAGES) if side == "compile" else floor_read(store)

        gc.collect()
        _reset_peak_rss()
        before = _peak_rss_bytes()
        call()
        rss_delta = _peak_rss_bytes() - before
        gc.collect()
        tracemalloc.start()
        call()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return {"rss_delta": rss_delta, "tracemalloc_peak": peak}


def _spawn(kind: str, folder: str, side: str, entries: int) -> dict[str, int]:
    args = [sys.executable, "-m", "benchmarks.bench_memory", "--child", kind, folder, side]
    args.append(str(entries))
    done = subprocess.run(args, cwd=_ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"memory child for {kind}/{side} failed:\n{done.stderr[-2000:]}")
    result: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run(quick: bool = False) -> dict[str, Any]:
    """Measure compile vs floor memory per store in child processes; print a table.

    Args:
        quick: 200 entries instead of 10,000 (smoke run).

    Returns:
        `{"name", "entries", "rows", "goals", "notes"}`; each row has `store`, and for
        `floor` and `compile` the `*_peak` and `*_rss_delta` bytes, plus `peak_ratio`.
    """
    entries = QUICK_ENTRIES if quick else ENTRIES
    rows: list[dict[str, Any]] = []
    for kind in STORE_KINDS:
        with tempfile.TemporaryDirectory() as folder:
            if kind != "memory":
                with open_store(kind, folder) as store:
                    fill(store, 0, entries)
                if kind == "filesystem" and not quick:
                    time.sleep(2.1)  # past the store's 2 s re-parse window, as in bench_compile
            floor = _spawn(kind, folder, "floor", entries)
            compiled = _spawn(kind, folder, "compile", entries)
        rows.append(
            {
                "store": kind,
                "floor_peak": floor["tracemalloc_peak"],
                "compile_peak": compiled["tracemalloc_peak"],
                "peak_ratio": ratio(compiled["tracemalloc_peak"], floor["tracemalloc_peak"]),
                "floor_rss_delta": floor["rss_delta"],
                "compile_rss_delta": compiled["rss_delta"],
            }
        )
    notes = [
        "peak = tracemalloc peak of one warm call; RSS delta = peak-RSS growth over the "
        "first call in a fresh child process (peak reset just before the call).",
        "memory store: the child fills its own InMemoryStore before the peak is reset.",
    ]
    print_table(
        f"Memory of one call at {entries:,} entries (compile vs bulk-read floor)",
        ["store", "floor peak", "compile peak", "ratio", "floor RSS delta", "compile RSS delta"],
        [
            [
                r["store"],
                fmt_bytes(r["floor_peak"]),
                fmt_bytes(r["compile_peak"]),
                fmt_ratio(r["peak_ratio"]),
                fmt_bytes(r["floor_rss_delta"]),
                fmt_bytes(r["compile_rss_delta"]),
            ]
            for r in rows
        ],
    )
    for note in notes:
        print(f"- {note}")
    return {"name": "memory", "entries": entries, "rows": rows, "goals": [], "notes": notes}


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        _, _, kind_arg, folder_arg, side_arg, entries_arg = sys.argv
        print(json.dumps(_child(kind_arg, folder_arg, side_arg, int(entries_arg))))
    else:
        run(quick="--quick" in sys.argv)
