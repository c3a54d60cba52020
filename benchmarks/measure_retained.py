"""What the first compile of a large scope leaves held, by the line that allocated it (issue 28).

A measurement, not a bench of the suite. Run from the repository root::

    python -m benchmarks.measure_retained filesystem sqlite
    python -m benchmarks.measure_retained postgres --pg URI   # or CONTEXTCHEF_PG_URI
    python -m benchmarks.measure_retained memory --entries 1000 --top 20

For each store, one child process (so no store inherits another's heap) fills a scope and a
100-entry reference scope exactly as `bench_scale` does, compiles the reference, reads the big
scope once (the store's own caches are the store's), then compiles the big scope under
tracemalloc. After a full collection it compares the heap with the one before the compile,
grouped by the source line that allocated each block still held: the same figure as
`bench_scale`'s retained memory, split by holder. Each row gives the bytes, the bytes per
entry of the scope, the number of blocks and the allocating line (package files relative to
the package, other files relative to their `site-packages` or standard-library folder).
"""

from __future__ import annotations

import argparse
import gc
import json
import linecache
import subprocess
import sys
import tempfile
import time
import tracemalloc
from contextlib import ExitStack
from typing import Any

from benchmarks import bench_scale
from benchmarks._fixtures import ALL_KINDS, open_store
from benchmarks._pg import pg_uri, scratch_database
from benchmarks._timing import print_table

_DEFAULT_ENTRIES = 10_000
_DEFAULT_TOP = 16


def _where(filename: str) -> str:
    """A file name without this machine's folders: from the package or `site-packages` on."""
    parts = filename.replace("\\", "/").split("/")
    for marker in ("langchain_contextchef", "site-packages"):
        if marker in parts:
            return "/".join(parts[parts.index(marker) :])
    return "/".join(parts[-2:])  # the standard library: `json/decoder.py`


def _child(kind: str, size: int, folder: str, db: str | None, top: int) -> dict[str, Any]:
    with open_store(kind, folder, db) as store:
        bench_scale._populate(store, "ref", bench_scale.REFERENCE)
        bench_scale._populate(store, "big", size)
        if kind == "filesystem":
            time.sleep(bench_scale._AT_REST_S)  # as `bench_scale`: files older than 2 s
        ref, big = bench_scale._chef(store, "ref"), bench_scale._chef(store, "big")
        ref.compile(bench_scale.MESSAGES)
        namespace = bench_scale._ns("big")
        bench_scale.floor_read(store, namespace)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot()
            start = tracemalloc.get_traced_memory()[0]
            payload = big.compile(bench_scale.MESSAGES)
            del payload
            gc.collect()
            retained = tracemalloc.get_traced_memory()[0] - start
            after = tracemalloc.take_snapshot()
        finally:
            tracemalloc.stop()
        own = [tracemalloc.Filter(False, tracemalloc.__file__)]
        diff = after.filter_traces(own).compare_to(before.filter_traces(own), "lineno")
        items = store.search(namespace, limit=1_000_000, refresh_ttl=False)
        stored = sum(len(json.dumps(item.value).encode("utf-8")) for item in items)
    rows = []
    for stat in sorted(diff, key=lambda s: s.size_diff, reverse=True)[:top]:
        frame = stat.traceback[0]
        rows.append(
            {
                "where": f"{_where(frame.filename)}:{frame.lineno}",
                "line": linecache.getline(frame.filename, frame.lineno).strip(),
                "bytes": stat.size_diff,
                "blocks": stat.count_diff,
            }
        )
    return {"store": kind, "entries": size, "retained": retained, "json": stored, "rows": rows}


def _spawn(kind: str, size: int, top: int, server: str | None) -> dict[str, Any]:
    with ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        db = None
        if kind == "postgres":
            if server is None:
                raise ValueError("a PostgreSQL row needs a server: --pg URI or CONTEXTCHEF_PG_URI")
            db = stack.enter_context(scratch_database(server))
        spec = json.dumps({"kind": kind, "size": size, "folder": folder, "db": db, "top": top})
        args = [sys.executable, "-m", "benchmarks.measure_retained", "--child", spec]
        done = subprocess.run(
            args, cwd=bench_scale._ROOT, capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        raise RuntimeError(f"child {kind}/{size} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _print(found: dict[str, Any]) -> None:
    size, retained, stored = found["entries"], found["retained"], found["json"]
    print_table(
        f"{found['store']}, {size:,} entries: {retained:,} B retained, "
        f"{retained / stored:.2f}x the stored JSON ({stored:,} B)",
        ["bytes", "per entry", "share", "blocks", "allocated at", "line"],
        [
            [
                f"{row['bytes']:,}",
                f"{row['bytes'] / size:.1f}",
                f"{row['bytes'] / retained:.1%}",
                f"{row['blocks']:,}",
                row["where"],
                row["line"][:60].replace("|", "\\|"),
            ]
            for row in found["rows"]
        ],
    )


def main(argv: list[str] | None = None) -> None:
    """Measure each store named on the command line and print its holders."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", nargs="+", choices=ALL_KINDS)
    parser.add_argument("--entries", type=int, default=_DEFAULT_ENTRIES)
    parser.add_argument("--top", type=int, default=_DEFAULT_TOP)
    parser.add_argument("--pg", default=None, help="PostgreSQL URI (else CONTEXTCHEF_PG_URI)")
    options = parser.parse_args(argv)
    server = pg_uri(options.pg)
    for kind in options.stores:
        if kind == "postgres" and server is None:
            print("postgres: skipped, no server (--pg URI or CONTEXTCHEF_PG_URI)")
            continue
        _print(_spawn(kind, options.entries, options.top, server))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        spec = json.loads(sys.argv[2])
        found = _child(spec["kind"], spec["size"], spec["folder"], spec["db"], spec["top"])
        print(json.dumps(found))
    else:
        main()
