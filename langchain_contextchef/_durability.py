"""Writes that need not reach the disk before they return, per backend.

Most writes of the package are durable: the store flushes them before `batch` returns. A
few may be lost in a power cut without harm (the turn clock's advance while no entry's
expiry counts turns; see the README's "What the turn clock guarantees"). For those,
`batch_unsynced` skips the flush where the backend lets it, and keeps everything else:
other threads and processes see the write at once, it survives a crash of the process,
and it runs inside the same exclusive section as before.

| store | what is skipped |
|---|---|
| `FileSystemStore` | the `fsync` of the file and its folder (`FileSystemStore.batch_unsynced`) |
| `SqliteStore` (sync) | the commit's `fsync`: the batch runs with `PRAGMA synchronous=OFF` |
| any store with `batch_unsynced`/`abatch_unsynced` | whatever that method skips |
| any other store | nothing: the batch is an ordinary, durable one |

Example:
    ```python
    from langgraph.store.base import GetOp, PutOp
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef._durability import batch_unsynced

    store = InMemoryStore()
    batch_unsynced(store, [PutOp(("meta",), "clock", {"turn": 3})])
    assert store.batch([GetOp(("meta",), "clock")])[0].value == {"turn": 3}
    ```
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from langgraph.store.base import BaseStore, Op, PutOp, Result

try:
    from langgraph.store.sqlite import SqliteStore
except ImportError:  # pragma: no cover - the sqlite extra is not installed
    SqliteStore = None  # type: ignore[assignment,misc]

__all__ = ["abatch_unsynced", "batch_unsynced"]

_SYNC_MODES = {"0": "OFF", "1": "NORMAL", "2": "FULL", "3": "EXTRA"}


def _sqlite_unsynced(store: Any, ops: Sequence[Op]) -> list[Result] | None:
    """Run a batch of puts on a sync `SqliteStore` without the commit's flush.

    Returns `None` when this store cannot (a connection in a transaction of its own, reads
    in the batch, or a LangGraph whose `SqliteStore` lacks what this relies on).
    """
    conn = getattr(store, "conn", None)
    lock = getattr(store, "lock", None)
    put = getattr(store, "_batch_put_ops", None)
    if conn is None or lock is None or not callable(put) or not store.is_setup:
        return None
    if not all(type(op) is PutOp for op in ops):
        return None
    with lock:
        if conn.in_transaction:
            return None
        (mode,) = conn.execute("PRAGMA synchronous").fetchone()
        conn.execute("PRAGMA synchronous=OFF")
        try:
            with _transaction(conn) as cur:
                put(list(enumerate(ops)), cur)
        finally:
            conn.execute(f"PRAGMA synchronous={_SYNC_MODES.get(str(mode), 'FULL')}")
    return [None] * len(ops)


@contextlib.contextmanager
def _transaction(conn: Any) -> Iterator[Any]:
    conn.execute("BEGIN")
    cur = conn.cursor()
    try:
        yield cur
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")
    finally:
        cur.close()


def batch_unsynced(store: BaseStore, ops: Sequence[Op]) -> list[Result]:
    """Run `ops` as one batch whose writes need not be flushed to disk (see the module).

    Returns:
        The batch's results, as `store.batch` returns them.
    """
    method = getattr(store, "batch_unsynced", None)
    if callable(method):
        return list(method(ops))
    if SqliteStore is not None and type(store) is SqliteStore:
        done = _sqlite_unsynced(store, ops)
        if done is not None:
            return done
    return store.batch(ops)


async def abatch_unsynced(store: BaseStore, ops: Sequence[Op]) -> list[Result]:
    """Async twin of `batch_unsynced`."""
    method = getattr(store, "abatch_unsynced", None)
    if callable(method):
        return list(await method(ops))
    return await store.abatch(ops)
