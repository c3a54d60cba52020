"""FileSystemStore against LangGraph's file-backed SqliteStore, measured in the same run.

Run: `python -m benchmarks.bench_store` (add `--quick` for a shorter run).

Figures are ratios FileSystemStore / SqliteStore of median timings (lower is better;
1.0 = as fast as SQLite). Goals: `get` <= 2x and `search` over 1,000 items <= 3x.

`search` reads the whole namespace (limit = item count): that is what every prompt compile
does. Reads are measured once the files are older than the store's 2-second "racy" window
(a cached parse of a file modified more recently is re-read on every access, because file
time stamps are too coarse to prove it unchanged); `search cold` uses a fresh store object
each time, i.e. a new process's first compile that must parse every file.
"""

from __future__ import annotations

import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore, PutOp
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.store import filesystem as fs_module

NS = ("bench", "memory")


def _median(fn: Callable[[], Any], repeats: int, inner: int = 1) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def _value(i: int) -> dict[str, Any]:
    return {
        "value": f"remembered fact number {i}",
        "description": "a benchmark entry",
        "importance": i % 5,
        "tags": ["bench", f"t{i % 7}"],
    }


def _fill(store: BaseStore, n: int) -> None:
    for start in range(0, n, 1000):
        store.batch([PutOp(NS, f"key-{i}", _value(i)) for i in range(start, min(n, start + 1000))])


def _measure(
    store: BaseStore, n: int, repeats: int, fresh: Callable[[], BaseStore]
) -> dict[str, float]:
    rng = random.Random(7)
    keys = [f"key-{rng.randrange(n)}" for _ in range(200)]
    counter = iter(range(10**9))
    return {
        "get": _median(lambda: [store.get(NS, k) for k in keys], repeats) / len(keys),
        "put": _median(lambda: store.put(NS, f"new-{next(counter)}", _value(0)), repeats * 5),
        "search": _median(lambda: store.search(NS, limit=n), repeats),
        "search limit=10": _median(lambda: store.search(NS, limit=10), repeats),
        "search cold": _median(lambda: fresh().search(NS, limit=n), max(3, repeats // 3)),
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Measure both stores at 1,000 and 10,000 items; return timings and ratios.

    Args:
        quick: Measure 1,000 items only, with fewer repetitions.

    Returns:
        `{"sizes": {n: {"fs": {...}, "sqlite": {...}, "ratio": {...}}}}`, times in seconds.
    """
    sizes = [1000] if quick else [1000, 10000]
    repeats = 7 if quick else 15
    report: dict[str, Any] = {"sizes": {}}
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / ".context"
            fs = FileSystemStore(root)
            conn = sqlite3.connect(
                Path(tmp) / "store.db", check_same_thread=False, isolation_level=None
            )
            sq = SqliteStore(conn)
            sq.setup()
            _fill(fs, n)
            _fill(sq, n)
            # Let the files age past the racy window so cached parses can be trusted.
            time.sleep(fs_module._RACY_WINDOW_NS / 1e9 + 0.1)
            fs.search(NS, limit=n)  # warm the parse cache, as a long-lived process would be
            fs_times = _measure(fs, n, repeats, lambda root=root: FileSystemStore(root))
            sq_times = _measure(sq, n, repeats, lambda sq=sq: sq)
            conn.close()
        ratios = {op: fs_times[op] / sq_times[op] for op in fs_times}
        report["sizes"][n] = {"fs": fs_times, "sqlite": sq_times, "ratio": ratios}
    return report


def _print(report: dict[str, Any]) -> None:
    print(f"{'items':>7} {'operation':<16} {'filesystem':>12} {'sqlite':>12} {'ratio':>7}")
    for n, row in report["sizes"].items():
        for op, ratio in row["ratio"].items():
            fs_ms = row["fs"][op] * 1e3
            sq_ms = row["sqlite"][op] * 1e3
            print(f"{n:>7} {op:<16} {fs_ms:>10.3f}ms {sq_ms:>10.3f}ms {ratio:>6.2f}x")


if __name__ == "__main__":
    _print(run(quick="--quick" in sys.argv))
