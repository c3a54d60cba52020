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
from langchain_contextchef.memory import MEMORY_NAMESPACE, clear_cache
from langchain_contextchef.store import FileSystemStore

STORE_KINDS = ("memory", "filesystem", "sqlite")
"""The server-less backends every bench runs on."""

ALL_KINDS = (*STORE_KINDS, "postgres")
"""With PostgreSQL, for the benches that take a server (`--pg URI` or `CONTEXTCHEF_PG_URI`)."""

MEMORY_NS = (MEMORY_NAMESPACE,)
"""The memory namespace of a chef with the default (empty) scope."""

_EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


@contextmanager
def open_store(kind: str, folder: str, pg_uri: str | None = None) -> Iterator[BaseStore]:
    """A store of `kind` inside `folder`: `InMemoryStore`, `FileSystemStore`, a file-backed
    `SqliteStore` (WAL off, autocommit, as in the test fixtures), or `PostgresStore` on the
    database `pg_uri` (a scratch database of the bench's own; see `benchmarks._pg`).

    Opening the same folder (or database) twice gives two store objects over the same data,
    as two processes would have."""
    if kind == "postgres":
        if pg_uri is None:
            raise ValueError("a PostgreSQL store needs pg_uri (see benchmarks._pg.pg_uri)")
        from langgraph.store.postgres import PostgresStore

        with PostgresStore.from_conn_string(pg_uri) as pg_store:
            pg_store.setup()
            yield pg_store
    elif kind == "memory":
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


def fill(
    store: BaseStore,
    start: int,
    stop: int,
    *,
    chunk: int = 1000,
    namespace: tuple[str, ...] = MEMORY_NS,
) -> None:
    """Write entries `start..stop-1` straight into a memory namespace, in batches.

    This bypasses the package (no stamp advances), as data written before a process starts
    would; the process's cache of the store is cleared afterwards, as `clear_cache` asks of
    any write by other means, so the next compile reads the scope whole either way."""
    for low in range(start, stop, chunk):
        ops = [
            PutOp(namespace, e.key, e.to_stored(), index=["value"])
            for e in (entry(i) for i in range(low, min(stop, low + chunk)))
        ]
        store.batch(ops)
    clear_cache(store)
