"""Stores for tests: the server-less backends by name, a recording wrapper, and dumps.

PostgreSQL lives in `tests.support.postgres`; the `store` fixtures that pick a backend live in
the conftest files (unit tests: `InMemoryStore` only; integration tests: the other backends).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import BaseStore, GetOp, Op, PutOp, Result, SearchOp
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef.memory import HISTORY_NAMESPACE
from langchain_contextchef.store import FileSystemStore

BACKENDS = ("memory", "sqlite", "filesystem", "postgres")
"""Every backend the memory, compile and tool suites run on."""

LOCAL_BACKENDS = ("memory", "sqlite", "filesystem")
"""The backends that need no server."""

Row = tuple[tuple[str, ...], str, str]


def make_local_store(kind: str, folder: Path) -> Any:
    """Build a server-less store of `kind` under `folder`; close it with `close_store`."""
    if kind == "memory":
        return InMemoryStore()
    if kind == "filesystem":
        return FileSystemStore(folder / ".context")
    if kind == "sqlite":
        conn = sqlite3.connect(folder / "store.db", check_same_thread=False, isolation_level=None)
        store = SqliteStore(conn)
        store.setup()
        return store
    msg = f"unknown local backend {kind!r}: expected one of {', '.join(LOCAL_BACKENDS)}"
    raise ValueError(msg)


def close_store(store: BaseStore) -> None:
    """Release what `make_local_store` opened (only the SQLite connection needs it)."""
    if isinstance(store, SqliteStore):
        store.conn.close()


def param_store(request: pytest.FixtureRequest, folder: Path) -> Iterator[BaseStore]:
    """The body of a store fixture parametrised by backend name: the store, closed after.

    `postgres` is the session's `pg_store` fixture; any other name is built under `folder`
    by `make_local_store`. Use it as `yield from param_store(request, tmp_path)`.
    """
    if request.param == "postgres":
        yield request.getfixturevalue("pg_store")
        return
    built = make_local_store(request.param, folder)
    yield built
    close_store(built)


def _rows(items: Iterable[Any]) -> list[Row]:
    return sorted(
        (tuple(item.namespace), item.key, json.dumps(item.value, sort_keys=True)) for item in items
    )


def dump(store: BaseStore) -> list[Row]:
    """Every item in the store, as sorted (namespace, key, value-json) rows."""
    return _rows(store.search((), limit=100_000))


async def adump(store: BaseStore) -> list[Row]:
    """Async `dump`."""
    return _rows(await store.asearch((), limit=100_000))


def describe(op: Op) -> str:
    """A short label for one store op, naming the clock and deletions explicitly."""
    if isinstance(op, SearchOp):
        return "search " + "/".join(op.namespace_prefix)
    if isinstance(op, GetOp):
        return f"get {op.key}"
    if isinstance(op, PutOp):
        if op.namespace[-1] == HISTORY_NAMESPACE:
            return f"history {op.key}"
        return f"delete {op.key}" if op.value is None else f"put {op.key}"
    return type(op).__name__


class RecordingStore(BaseStore):
    """Forwards to another store and records each `batch`/`abatch` call (one round trip each).

    `trips` holds one list of `describe` labels per round trip, so `len(store.trips)` counts
    the round trips a piece of code made; `batches` holds the ops themselves, for a test that
    checks which writes travelled together.
    """

    def __init__(self, inner: BaseStore) -> None:
        self.inner = inner
        self.trips: list[list[str]] = []
        self.batches: list[list[Op]] = []

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        self.trips.append([describe(op) for op in ops])
        self.batches.append(ops)
        return self.inner.batch(ops)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        self.trips.append([describe(op) for op in ops])
        self.batches.append(ops)
        return await self.inner.abatch(ops)


def process_backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """`(kind, location)` for a test whose worker processes each open the store themselves.

    `request.param` names the backend; the location is a folder, a SQLite file or a scratch
    PostgreSQL database (the `pg_database` fixture).
    """
    kind: str = request.param
    if kind == "filesystem":
        return kind, str(tmp_path / ".context")
    if kind == "sqlite":
        return kind, str(tmp_path / "store.db")
    return kind, request.getfixturevalue("pg_database")
