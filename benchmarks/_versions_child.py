"""One side of `bench_versions`: time model writes and compiles with whichever package is first
on `sys.path`.

Run as a script (`python benchmarks/_versions_child.py SPEC`), never imported: the parent sets
`PYTHONPATH` to the root of the package version to measure, and this file imports nothing from
`benchmarks`, so the same code drives both versions. It only uses the public API that both
versions share (`ContextChef`, `MemoryConfig`, `get_memory().set`, `handle_tool`, `compile`).
Prints one JSON line: the median seconds of each operation and where the package came from.
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def _store(kind: str, folder: str, db: str | None) -> Iterator[Any]:
    if kind == "memory":
        from langgraph.store.memory import InMemoryStore

        yield InMemoryStore()
    elif kind == "filesystem":
        from langchain_contextchef.store import FileSystemStore

        yield FileSystemStore(os.path.join(folder, ".context"))
    elif kind == "sqlite":
        from langgraph.store.sqlite import SqliteStore

        conn = sqlite3.connect(
            os.path.join(folder, "store.db"), check_same_thread=False, isolation_level=None
        )
        try:
            store = SqliteStore(conn)
            store.setup()
            yield store
        finally:
            conn.close()
    elif kind == "postgres":
        from langgraph.store.postgres import PostgresStore

        assert db is not None
        with PostgresStore.from_conn_string(db) as store:
            store.setup()
            yield store
    else:
        raise ValueError(f"unknown store kind {kind!r}")


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _check(result: Any, what: str) -> None:
    status = getattr(result, "status", "success")
    if status != "success":
        raise RuntimeError(f"{what} failed: {result!r}")


def _fill_behind(store: Any, scope: tuple[str, ...], count: int) -> None:
    """Write `count` entries straight into the store, as data from before the package would be."""
    from datetime import datetime, timedelta, timezone

    from langgraph.store.base import PutOp

    from langchain_contextchef.entry import MemoryEntry
    from langchain_contextchef.memory import MEMORY_NAMESPACE

    epoch = datetime(2026, 1, 1, tzinfo=timezone.utc)
    ops = []
    for i in range(count):
        moment = epoch + timedelta(seconds=i)
        entry = MemoryEntry(
            key=f"fact_{i:05d}",
            value=f"Fact {i}: the team prefers small pull requests.",
            description="A project convention stated by the user.",
            created_at=moment,
            updated_at=moment,
        )
        ops.append(PutOp((*scope, MEMORY_NAMESPACE), entry.key, entry.to_stored(), index=False))
    store.batch(ops)


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    """Fill a scope with `entries` entries through the package, and another straight into the
    store, then time `rounds` rounds."""
    from langchain_core.messages import HumanMessage, SystemMessage

    import langchain_contextchef
    from langchain_contextchef import ContextChef, MemoryConfig

    messages = [SystemMessage("You are a careful coding assistant."), HumanMessage("Hi.")]
    samples: dict[str, list[float]] = {
        "create": [],
        "update": [],
        "compile after write": [],
        "compile unchanged": [],
        "compile, written behind": [],
    }
    with _store(spec["kind"], spec["folder"], spec["db"]) as store:
        chef = ContextChef(store=store, scope=("bench", "versions"), memory=MemoryConfig())
        memory = chef.get_memory()
        for i in range(spec["entries"]):
            memory.set(f"fact_{i:05d}", f"Fact {i}: the team prefers small pull requests.")
        chef.compile(messages)
        behind = ContextChef(store=store, scope=("bench", "behind"), memory=MemoryConfig())
        _fill_behind(store, ("bench", "behind"), spec["entries"])
        behind.compile(messages)
        for i in range(-3, spec["rounds"]):  # three warm-up rounds
            key = f"new_{i + 3}"
            call = {"key": key, "value": f"Round {i}: tabs in Makefiles, spaces elsewhere."}
            created = _timed(
                lambda c=call: _check(
                    chef.handle_tool({"name": "create_memory", "args": c, "id": "bench"}),
                    "create_memory",
                )
            )
            update = {"action": "update", "key": key, "value": f"Round {i}: confirmed."}
            updated = _timed(
                lambda u=update: _check(
                    chef.handle_tool({"name": "modify_memory", "args": u, "id": "bench"}),
                    "modify_memory",
                )
            )
            after = _timed(lambda: chef.compile(messages))
            unchanged = _timed(lambda: chef.compile(messages))
            written_behind = _timed(lambda: behind.compile(messages))
            if i >= 0:
                for name, seconds in (
                    ("create", created),
                    ("update", updated),
                    ("compile after write", after),
                    ("compile unchanged", unchanged),
                    ("compile, written behind", written_behind),
                ):
                    samples[name].append(seconds)
    return {
        "package": os.path.dirname(os.path.dirname(langchain_contextchef.__file__)),
        "medians": {name: statistics.median(values) for name, values in samples.items()},
    }


if __name__ == "__main__":
    print(json.dumps(measure(json.loads(sys.argv[1]))))
