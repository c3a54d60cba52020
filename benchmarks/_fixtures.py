"""Stores and memory entries shared by the benchmarks (built in temporary folders)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import MEMORY_NAMESPACE
from langchain_contextchef.store import FileSystemStore

STORE_KINDS = ("memory", "filesystem", "sqlite")
"""The server-less backends every bench runs on."""

MEMORY_NS = (MEMORY_NAMESPACE,)
"""The memory namespace of a chef with the default (empty) scope."""

_EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


@contextmanager
def open_store(kind: str, folder: str) -> Iterator[BaseStore]:
    """A fresh store of `kind` inside `folder`: `InMemoryStore`, `FileSystemStore` or
    a file-backed `SqliteStore` (WAL off, autocommit, as in the test fixtures)."""
    if kind == "memory":
        yield InMemoryStore()
    elif kind == "filesystem":
        with FileSystemStore(os.path.join(folder, ".context")) as store:
            yield store
    elif kind == "sqlite":
        conn = sqlite3.connect(
            os.path.join(folder, "store.db"), check_same_thread=False, isolation_level=None
        )
        try:
            sqlite_store = SqliteStore(conn)
            sqlite_store.setup()
            yield sqlite_store
        finally:
            conn.close()
    else:
        raise ValueError(f"unknown store kind {kind!r}; use one of {STORE_KINDS}")


def entry(index: int) -> MemoryEntry:
    """A realistic entry: a short key, a one-line description and a ~100 character value."""
    moment = _EPOCH + timedelta(seconds=index)
    return MemoryEntry(
        key=f"fact_{index:05d}",
        value=f"Fact {index}: the team prefers small pull requests with a test for every fix.",
        description="A project convention stated by the user.",
        created_at=moment,
        updated_at=moment,
    )


def fill(store: BaseStore, start: int, stop: int, *, chunk: int = 1000) -> None:
    """Write entries `start..stop-1` straight into the memory namespace, in batches."""
    for low in range(start, stop, chunk):
        ops = [
            PutOp(MEMORY_NS, e.key, e.to_stored(), index=["value"])
            for e in (entry(i) for i in range(low, min(stop, low + chunk)))
        ]
        store.batch(ops)
