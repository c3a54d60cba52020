"""The embeddings a store already holds for some items, read where each backend keeps them.

A compile's relevance selectors compare their best entries with each other by meaning (two
versions of one subject that share no word); the vectors they compare are the ones the store
computed when the entries were written, never computed again. One small reader per backend:

* LangGraph's `InMemoryStore`: its in-memory table of vectors (a lookup);
* LangGraph's `SqliteStore` / `AsyncSqliteStore`: one query on its `store_vectors` table for
  the keys asked (float32 blobs);
* LangGraph's `PostgresStore` / `AsyncPostgresStore`: one query on its `store_vectors` table
  for the keys asked (pgvector's `vector` or `halfvec`, read as `real[]`);
* a store with `stored_vectors` / `astored_vectors` methods (this package's
  `FileSystemStore`: the vectors kept in each item's file).

Any other store (a wrapper such as `EncryptedStore`, which keeps no index, or a custom
store) answers `{}`, and so does a backend whose vectors cannot be read (no vector table, an
error from the database): the selectors then fall back to words and the question's
similarity, as without an index. Only the plan drivers call this module (the `Vectors` step).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import sys
from array import array
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import Any

__all__ = ["FieldVectors", "astored_vectors", "stored_vectors"]

logger = logging.getLogger(__name__)

FieldVectors = dict[str, dict[str, list[float]]]
"""Vectors by key, then by the field path the store embedded (`"$"`: the whole value)."""

_CHUNK = 500
"""Keys per query (SQLite's host parameters are limited; one query for a compile's hits)."""

_SQLITE_QUERY = (
    "SELECT key, field_name, embedding FROM store_vectors WHERE prefix = ? AND key IN ({})"
)
_POSTGRES_QUERY = (
    "SELECT key, field_name, embedding::real[] AS embedding FROM store_vectors "
    "WHERE prefix = %s AND key = ANY(%s)"
)


def _backend(store: Any, module: str, name: str) -> bool:
    # The class only when its module is loaded already: a store of it cannot exist otherwise,
    # and the optional backends (and their drivers) are never imported for the check.
    loaded = sys.modules.get(module)
    cls = getattr(loaded, name, None) if loaded is not None else None
    return isinstance(cls, type) and isinstance(store, cls)


def _prefix(namespace: Sequence[str]) -> str:
    return ".".join(namespace)  # how LangGraph's SQL stores spell a namespace


def _indexed(store: Any) -> bool:
    return bool(getattr(store, "index_config", None))


def _chunks(keys: Sequence[str]) -> list[list[str]]:
    unique = list(dict.fromkeys(keys))
    return [unique[i : i + _CHUNK] for i in range(0, len(unique), _CHUNK)]


def _add(out: FieldVectors, key: Any, field: Any, vector: list[float] | None) -> None:
    if isinstance(key, str) and isinstance(field, str) and vector:
        out.setdefault(key, {})[field] = vector


def _from_blob(blob: Any) -> list[float] | None:
    # sqlite-vec's float32 serialisation: little-endian 4-byte floats.
    if not isinstance(blob, bytes | bytearray | memoryview) or len(blob) % 4:
        return None
    values = array("f")
    values.frombytes(bytes(blob))
    if sys.byteorder != "little":
        values.byteswap()
    return values.tolist()


def _from_array(values: Any) -> list[float] | None:
    # pgvector's `vector` and `halfvec` cast to `real[]`: psycopg loads a list of floats
    # (about twice as fast as parsing the text form).
    if not isinstance(values, list) or not all(isinstance(x, int | float) for x in values):
        return None
    return [float(x) for x in values]


def _in_memory(store: Any, namespace: tuple[str, ...], keys: Sequence[str]) -> FieldVectors:
    held = getattr(store, "_vectors", None)
    found = held.get(namespace) if isinstance(held, Mapping) else None
    out: FieldVectors = {}
    if not isinstance(found, Mapping):
        return out
    for key in keys:
        fields = found.get(key)
        if isinstance(fields, Mapping):
            for field, vector in fields.items():
                _add(out, key, field, list(vector))  # the store's own lists of floats
    return out


def _sqlite(store: Any, namespace: tuple[str, ...], keys: Sequence[str]) -> FieldVectors:
    out: FieldVectors = {}
    with store._cursor(transaction=False) as cur:
        for chunk in _chunks(keys):
            query = _SQLITE_QUERY.format(", ".join("?" * len(chunk)))
            cur.execute(query, [_prefix(namespace), *chunk])
            for key, field, blob in cur.fetchall():
                _add(out, key, field, _from_blob(blob))
    return out


async def _asqlite(store: Any, namespace: tuple[str, ...], keys: Sequence[str]) -> FieldVectors:
    out: FieldVectors = {}
    async with store._cursor(transaction=False) as cur:
        for chunk in _chunks(keys):
            query = _SQLITE_QUERY.format(", ".join("?" * len(chunk)))
            await cur.execute(query, [_prefix(namespace), *chunk])
            for key, field, blob in await cur.fetchall():
                _add(out, key, field, _from_blob(blob))
    return out


def _lock_of(store: Any) -> Any:
    # The store's own lock, unless its connection runs a pipeline (which it serialises).
    lock = getattr(store, "lock", None)
    return lock if lock is not None and getattr(store, "pipe", None) is None else nullcontext()


def _postgres(store: Any, namespace: tuple[str, ...], keys: Sequence[str]) -> FieldVectors:
    out: FieldVectors = {}
    # One round trip: a plain cursor under the store's lock (the pipeline or transaction its
    # batches open would add round trips to a single read).
    with _lock_of(store), store._cursor() as cur:
        cur.execute(_POSTGRES_QUERY, (_prefix(namespace), list(dict.fromkeys(keys))))
        for row in cur.fetchall():
            _add(out, row["key"], row["field_name"], _from_array(row["embedding"]))
    return out


async def _apostgres(store: Any, namespace: tuple[str, ...], keys: Sequence[str]) -> FieldVectors:
    out: FieldVectors = {}
    async with store._cursor(pipeline=True) as cur:  # the store's lock, as its batches take it
        await cur.execute(_POSTGRES_QUERY, (_prefix(namespace), list(dict.fromkeys(keys))))
        for row in await cur.fetchall():
            _add(out, row["key"], row["field_name"], _from_array(row["embedding"]))
    return out


def _unreadable(store: Any, exc: Exception) -> FieldVectors:
    # A database error (a table missing, a server gone) costs the selection its vectors only;
    # the next store call reports a real problem where it matters.
    logger.debug("No entry vectors from %s: %s", type(store).__name__, exc)
    return {}


def _database_errors(store: Any) -> tuple[type[Exception], ...]:
    errors: list[type[Exception]] = [sqlite3.Error]
    # A SQLite connection of another DB-API module (pysqlite3, for extension loading) raises
    # its own module's errors.
    driver = sys.modules.get(type(getattr(store, "conn", None)).__module__)
    for module in (driver, sys.modules.get("psycopg")):
        error = getattr(module, "Error", None) if module is not None else None
        if isinstance(error, type) and issubclass(error, Exception):
            errors.append(error)
    return tuple(errors)


def stored_vectors(store: Any, namespace: tuple[str, ...], keys: Sequence[str]) -> FieldVectors:
    """The vectors `store` holds for `keys` of exactly `namespace`, read with its sync API.

    Args:
        store: Any store; only the backends in the module docstring answer.
        namespace: The items' namespace.
        keys: The items' keys (one query however many).

    Returns:
        `{key: {field path: vector}}` for the keys that have vectors; `{}` when the store
        keeps none or they cannot be read.
    """
    if not keys or not _indexed(store):
        return {}
    own = getattr(store, "stored_vectors", None)
    try:
        if callable(own):
            return dict(own(namespace, list(keys)))
        if _backend(store, "langgraph.store.memory", "InMemoryStore"):
            return _in_memory(store, namespace, keys)
        if _backend(store, "langgraph.store.sqlite.base", "SqliteStore"):
            return _sqlite(store, namespace, keys)
        if _backend(store, "langgraph.store.postgres.base", "PostgresStore"):
            return _postgres(store, namespace, keys)
        # An async store called from another thread: its reader on the store's own loop.
        reader = _async_reader(store)
        loop = getattr(store, "_loop", None)
        if reader is not None and loop is not None:
            future = asyncio.run_coroutine_threadsafe(reader(store, namespace, keys), loop)
            return dict(future.result())
    except _database_errors(store) as exc:
        return _unreadable(store, exc)
    return {}


def _async_reader(store: Any) -> Any:
    if _backend(store, "langgraph.store.sqlite.aio", "AsyncSqliteStore"):
        return _asqlite
    if _backend(store, "langgraph.store.postgres.aio", "AsyncPostgresStore"):
        return _apostgres
    return None


async def astored_vectors(
    store: Any, namespace: tuple[str, ...], keys: Sequence[str]
) -> FieldVectors:
    """Async twin of `stored_vectors`, with the store's async API where it has one."""
    if not keys or not _indexed(store):
        return {}
    own = getattr(store, "astored_vectors", None)
    try:
        if callable(own):
            return dict(await own(namespace, list(keys)))
        if _backend(store, "langgraph.store.memory", "InMemoryStore"):
            return _in_memory(store, namespace, keys)
        reader = _async_reader(store)
        if reader is not None:
            return dict(await reader(store, namespace, keys))
    except _database_errors(store) as exc:
        return _unreadable(store, exc)
    if not (
        _backend(store, "langgraph.store.sqlite.base", "SqliteStore")
        or _backend(store, "langgraph.store.postgres.base", "PostgresStore")
    ):
        return {}
    # A sync SQL store driven by the async API: its sync reader, off the event loop.
    call = functools.partial(stored_vectors, store, namespace, keys)
    return await asyncio.get_running_loop().run_in_executor(None, call)
