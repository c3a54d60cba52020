"""Exclusive sections per scope: one writer at a time, across threads and processes.

The package (this face holds the sections of every backend)::

    _pg_txn        the plan driver's sections on one PostgreSQL connection, as one transaction
    _pg_guess      guessed reads for those sections: lock, checks and writes in one statement
    _sqlite_lock   the SQLite sections' lock file beside the database, kept open per scope
    _side_clock    on a SQLite file, the turn clock's unflushed advances in a record beside it
    _waiting       what every backend's lock shares: polling pauses, the timeout error, the key

A memory write reads, checks and writes; a compile reads the clock, sweeps and advances it.
Run concurrently, such read-check-write cycles lose updates unless nothing else can write
the scope in between. `exclusive(store, scope)` (and `aexclusive`) holds that guarantee for
as long as the section runs, using what each backend offers:

| store | how the section is held | guarantee |
|---|---|---|
| `FileSystemStore` | its own `lock(namespace)`: a file lock under `.locks/` | threads and processes |
| `SqliteStore`, `AsyncSqliteStore` (file) | a file lock beside the database file | threads and processes on one machine |
| `PostgresStore`, `AsyncPostgresStore` | a PostgreSQL advisory lock on the scope | threads, processes and machines |
| `InMemoryStore`, other `BaseStore`s | a lock in this process | threads of one process only |

The same per-backend knowledge runs the few writes that need not be flushed to disk before
they return (`batch_unsynced`, for the turn clock's advance while nothing depends on it
surviving a power cut), and every batch of a plan (`run_batch`): on a SQLite file such an
advance goes to a small record beside the scope's lock file instead of a commit, and reads of
the clock count it (`_side_clock`).

Every section first takes a lock in this process (so threads queue cheaply), then the
backend's. Sections are re-entrant: a plan that runs inside a section for the same scope
(a hook that writes, a write inside a tool command) does not take it again.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef._sections import exclusive, guarantee

    store = InMemoryStore()
    with exclusive(store, ("users", "alice")):
        with exclusive(store, ("users", "alice")):  # re-entrant
            store.put(("users", "alice", "memory"), "k", {"v": 1})
    assert guarantee(store) == "process"
    ```
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import threading
import time
import weakref
from collections.abc import AsyncIterator, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

from langgraph.store.base import BaseStore, Op, PutOp, Result

from langchain_contextchef._sections import _pg_txn, _side_clock
from langchain_contextchef._sections._pg_txn import Mispredicted, settle, transaction_of
from langchain_contextchef._sections._side_clock import SIDE_FIELD
from langchain_contextchef._sections._sqlite_lock import (
    SQLITE_PATHS as _SQLITE_PATHS,
)
from langchain_contextchef._sections._sqlite_lock import (
    asqlite_path as _asqlite_path,
)
from langchain_contextchef._sections._sqlite_lock import (
    file_lock as _file_lock,
)
from langchain_contextchef._sections._sqlite_lock import (
    kept_file_lock as _kept_file_lock,
)
from langchain_contextchef._sections._sqlite_lock import (
    sqlite_path as _sqlite_path,
)
from langchain_contextchef._sections._waiting import POLL as _POLL
from langchain_contextchef._sections._waiting import scope_key as _scope_key
from langchain_contextchef._sections._waiting import timed_out as _timed_out

# The SQL backends are optional extras; without them there is no such store to lock either.
try:
    import psycopg
    from langgraph.store.postgres import AsyncPostgresStore, PostgresStore
except ImportError:  # pragma: no cover - the postgres extra is not installed
    psycopg = None  # type: ignore[assignment]
    PostgresStore = AsyncPostgresStore = None  # type: ignore[assignment,misc]
try:
    from langgraph.store.sqlite import AsyncSqliteStore, SqliteStore
except ImportError:  # pragma: no cover - the sqlite extra is not installed
    SqliteStore = AsyncSqliteStore = None  # type: ignore[assignment,misc]

__all__ = [
    "DEFAULT_TIMEOUT",
    "SIDE_FIELD",
    "Guarantee",
    "Mispredicted",
    "SupportsScopeLock",
    "abatch_unsynced",
    "aexclusive",
    "arun_batch",
    "batch_unsynced",
    "exclusive",
    "guarantee",
    "lists_newest_first",
    "run_batch",
    "settle",
    "transaction_of",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds a section waits for another writer before raising `TimeoutError`."""

Guarantee: TypeAlias = Literal["machines", "processes", "process"]
"""How far exclusive sections reach: other machines, other processes, or threads only."""


@runtime_checkable
class SupportsScopeLock(Protocol):
    """A store that can hold an exclusive lock on a namespace across threads and processes."""

    def lock(self, namespace: tuple[str, ...]) -> contextlib.AbstractContextManager[Any]:
        """Hold the namespace's lock for the `with` block."""
        ...

    def alock(self, namespace: tuple[str, ...]) -> contextlib.AbstractAsyncContextManager[Any]:
        """Async twin of `lock`."""
        ...


# ---- which backend ----------------------------------------------------------------------------


def _is(store: BaseStore, *classes: type | None) -> bool:
    return any(cls is not None and isinstance(store, cls) for cls in classes)


_KINDS: dict[type, str] = {}


def _kind(store: BaseStore) -> str:
    # By type, once: a runtime protocol check walks the class's members every time.
    kind = _KINDS.get(type(store))
    if kind is None:
        kind = _KINDS[type(store)] = _kind_of(store)
    return kind


def _kind_of(store: BaseStore) -> str:
    if isinstance(store, SupportsScopeLock):
        return "own"
    if _is(store, PostgresStore):
        return "postgres"
    if _is(store, AsyncPostgresStore):
        return "apostgres"
    if _is(store, SqliteStore):
        return "sqlite"
    if _is(store, AsyncSqliteStore):
        return "asqlite"
    return "local"


def lists_newest_first(store: BaseStore) -> bool:
    """Whether the store's `search` returns the most recently written item first.

    True for `FileSystemStore` and LangGraph's SQLite and PostgreSQL stores (they order by
    update time); `InMemoryStore` lists items in insertion order.
    """
    return _kind(store) in ("own", "postgres", "apostgres", "sqlite", "asqlite")


def guarantee(store: BaseStore) -> Guarantee:
    """How far the exclusive sections on `store` reach.

    Returns:
        `"machines"` (PostgreSQL), `"processes"` (file-backed stores on one machine), or
        `"process"` (threads of this process only: `InMemoryStore` and unknown stores).
    """
    kind = _kind(store)
    if kind in ("postgres", "apostgres"):
        return "machines"
    if kind in ("own", "asqlite") or (kind == "sqlite" and _sqlite_path(store)):
        return "processes"
    return "process"


# ---- this process -----------------------------------------------------------------------------

# Scopes this context (thread or task) holds, per store: nested sections do not re-acquire.
_HELD: ContextVar[frozenset[tuple[int, tuple[str, ...]]]] = ContextVar(
    "contextchef_held_scopes", default=frozenset()
)
_LOCAL: weakref.WeakKeyDictionary[BaseStore, dict[tuple[str, ...], threading.Lock]] = (
    weakref.WeakKeyDictionary()
)
_REGISTRY_LOCK = threading.Lock()


def _local_lock(store: BaseStore, scope: tuple[str, ...]) -> threading.Lock:
    # A plain Lock, not an RLock: the async path may release it from another thread.
    locks = _LOCAL.get(store)
    lock = locks.get(scope) if locks is not None else None
    if lock is not None:  # the common case, read without the registry lock
        return lock
    with _REGISTRY_LOCK:
        locks = _LOCAL.setdefault(store, {})
        lock = locks.get(scope)
        if lock is None:
            lock = locks[scope] = threading.Lock()
        return lock


def _lock_name(scope: tuple[str, ...]) -> tuple[str, ...]:
    # A store's own lock names a namespace, and the root scope `()` is none: lock the
    # namespace that holds the scope's memory instead (one name per scope all the same).
    return (*scope, "memory")


# ---- PostgreSQL: an advisory lock per scope ---------------------------------------------------


def _advisory_key(scope: tuple[str, ...]) -> int:
    digest = hashlib.blake2b(_scope_key(scope).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _first(row: Any) -> Any:
    return row["ok"] if isinstance(row, dict) else row[0]


# Pooled stores: one extra connection per store and process holds the session locks. Not
# one borrowed from the pool: a section's own reads and writes borrow pool connections too,
# so sections holding a borrowed connection each could starve a small pool of the
# connections their batches wait for. The lock connection is made the way the pool makes
# its own (its connection class, conninfo and connection kwargs, such as a password given
# as a kwarg); the pool's `configure` hook is not run, since this connection only ever
# takes and releases advisory locks. It is closed when the store is garbage collected.
_PG_HOLDERS: weakref.WeakKeyDictionary[BaseStore, tuple[Any, Any]] = weakref.WeakKeyDictionary()


def _is_pool(conn: Any) -> bool:
    return hasattr(conn, "connection") and hasattr(conn, "conninfo")


async def _resolved(value: Any) -> Any:
    # psycopg_pool 3.3 accepts a callable conninfo or kwargs (a coroutine for an async pool).
    if callable(value):
        value = value()
    if inspect.isawaitable(value):
        value = await value
    return value


def _lock_connect_args(conninfo: Any, kwargs: Any) -> tuple[str, dict[str, Any]]:
    return conninfo or "", {**(kwargs or {}), "autocommit": True}


def _pg_holder(store: BaseStore) -> tuple[Any, Any]:
    """The connection that takes the locks and the lock that serialises its use."""
    conn: Any = store.conn  # type: ignore[attr-defined]
    if _is_pool(conn):  # a ConnectionPool
        with _REGISTRY_LOCK:
            holder = _PG_HOLDERS.get(store)
            if holder is None:
                conninfo = conn.conninfo() if callable(conn.conninfo) else conn.conninfo
                kwargs = conn.kwargs() if callable(conn.kwargs) else conn.kwargs
                info, args = _lock_connect_args(conninfo, kwargs)
                factory = getattr(conn, "connection_class", None) or psycopg.Connection
                connection = factory.connect(info, **args)
                weakref.finalize(store, connection.close)
                holder = _PG_HOLDERS[store] = (connection, threading.Lock())
            return holder
    return conn, store.lock  # type: ignore[attr-defined]


@contextlib.contextmanager
def _pg_section(store: BaseStore, scope: tuple[str, ...], timeout: float) -> Iterator[None]:
    connection, guard = _pg_holder(store)
    key = _advisory_key(scope)
    deadline = time.monotonic() + timeout
    pause = _POLL[0]
    while True:
        # Try, never block, while holding the connection: other threads keep using it.
        with guard:
            row = connection.execute("SELECT pg_try_advisory_lock(%s) AS ok", (key,)).fetchone()
        if _first(row):
            break
        if time.monotonic() > deadline:
            raise _timed_out(scope, timeout)
        time.sleep(pause)
        pause = min(pause * 2, _POLL[1])
    try:
        yield
    finally:
        with guard:
            connection.execute("SELECT pg_advisory_unlock(%s)", (key,))


_APG_HOLDERS: weakref.WeakKeyDictionary[BaseStore, tuple[Any, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


async def _apg_holder(store: BaseStore) -> tuple[Any, Any]:
    conn: Any = store.conn  # type: ignore[attr-defined]
    if _is_pool(conn):  # an AsyncConnectionPool: as for `_pg_holder`
        holder = _APG_HOLDERS.get(store)
        if holder is None:
            info, args = _lock_connect_args(
                await _resolved(conn.conninfo), await _resolved(conn.kwargs)
            )
            factory = getattr(conn, "connection_class", None) or psycopg.AsyncConnection
            connection = await factory.connect(info, **args)
            if store in _APG_HOLDERS:  # another task of this loop made one meanwhile
                await connection.close()
                return _APG_HOLDERS[store]
            # An async close cannot run in a finalizer; ending the session closes it.
            weakref.finalize(store, connection.pgconn.finish)
            holder = _APG_HOLDERS[store] = (connection, asyncio.Lock())
        return holder
    return conn, store.lock  # type: ignore[attr-defined]


@contextlib.asynccontextmanager
async def _apg_section(
    store: BaseStore, scope: tuple[str, ...], timeout: float
) -> AsyncIterator[None]:
    connection, guard = await _apg_holder(store)
    key = _advisory_key(scope)
    deadline = time.monotonic() + timeout
    pause = _POLL[0]
    while True:
        async with guard:
            cursor = await connection.execute("SELECT pg_try_advisory_lock(%s) AS ok", (key,))
            row = await cursor.fetchone()
        if _first(row):
            break
        if time.monotonic() > deadline:
            raise _timed_out(scope, timeout)
        await asyncio.sleep(pause)
        pause = min(pause * 2, _POLL[1])
    try:
        yield
    finally:
        async with guard:
            await connection.execute("SELECT pg_advisory_unlock(%s)", (key,))


# ---- the sections -----------------------------------------------------------------------------


@contextlib.contextmanager
def _backend_section(store: BaseStore, scope: tuple[str, ...], timeout: float) -> Iterator[None]:
    kind = _kind(store)
    if kind == "own":
        assert isinstance(store, SupportsScopeLock)
        with store.lock(_lock_name(scope)):
            yield
    elif kind == "postgres":
        with _pg_section(store, scope, timeout):
            yield
    elif kind == "sqlite" and (database := _sqlite_path(store)):
        with _kept_file_lock(database, scope, timeout):
            yield
    else:
        yield


class _Section:
    """The context manager `exclusive` returns (a class: it sits on every write's path)."""

    __slots__ = (
        "_backend",
        "_local",
        "_marker",
        "guess",
        "scope",
        "store",
        "timeout",
        "transaction",
    )

    def __init__(
        self,
        store: BaseStore,
        scope: tuple[str, ...],
        timeout: float,
        transaction: bool,
        guess: bool | Literal["learn"] = False,
    ) -> None:
        self.store, self.scope, self.timeout = store, scope, timeout
        self.transaction, self.guess = transaction, guess
        self._local: threading.Lock | None = None
        self._marker: Any = None
        self._backend: contextlib.AbstractContextManager[Any] | None = None

    def __enter__(self) -> bool:
        store, scope, timeout = self.store, self.scope, self.timeout
        token = (id(store), scope)
        held = _HELD.get()
        if token in held:
            return False
        local = _local_lock(store, scope)
        if not local.acquire(timeout=timeout):
            raise _timed_out(scope, timeout)
        marker = _HELD.set(held | {token})
        kind = _kind(store)
        if kind != "local":  # a local store has nothing beyond this process to hold
            backend: contextlib.AbstractContextManager[Any]
            if self.transaction and kind == "postgres" and _pg_txn.eligible(store):
                key = _advisory_key(scope)
                backend = _pg_txn.PgTransaction(
                    store,
                    scope,
                    key,
                    timeout,
                    _timed_out,
                    guess_allowed=self.guess is True,
                    learn=bool(self.guess),
                )
            else:
                backend = _backend_section(store, scope, timeout)
            try:
                backend.__enter__()
            except BaseException:
                _HELD.reset(marker)
                local.release()
                raise
            self._backend = backend
        self._local, self._marker = local, marker
        return True

    def __exit__(self, *exc: object) -> None:
        local, backend = self._local, self._backend
        if local is None:
            return
        self._local = self._backend = None
        try:
            if backend is not None:
                backend.__exit__(*exc)  # type: ignore[arg-type]
        finally:
            _HELD.reset(self._marker)
            local.release()


def exclusive(
    store: BaseStore,
    scope: tuple[str, ...],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    transaction: bool = False,
    guess: bool | Literal["learn"] = False,
) -> contextlib.AbstractContextManager[bool]:
    """Hold `scope` exclusively on `store` for the `with` block (re-entrant).

    The `with` target is `True` when this block took the section, `False` when the context
    already held it. With `transaction`, a section on a sync `PostgresStore` over one
    connection runs as one transaction (see `_pg_txn`); only the plan driver asks for it,
    since it then sends the section's batches through `_pg_txn.transaction_of(store)`. With
    `guess` too, such a section may answer its first batch from what the process saw and
    raise `_pg_txn.Mispredicted` (having written nothing) when the server finds it wrong: the
    caller must then run the section again. With `guess="learn"` (that run again) it never
    guesses, but notes its writes so that the next section may.

    Raises:
        TimeoutError: If another writer holds the scope for longer than `timeout` seconds.
    """
    return _Section(store, scope, timeout, transaction, guess)


@contextlib.asynccontextmanager
async def _abackend_section(
    store: BaseStore, scope: tuple[str, ...], timeout: float
) -> AsyncIterator[None]:
    kind = _kind(store)
    if kind == "own":
        assert isinstance(store, SupportsScopeLock)
        async with store.alock(_lock_name(scope)):
            yield
    elif kind == "apostgres":
        async with _apg_section(store, scope, timeout):
            yield
    elif kind == "postgres":
        # A sync PostgresStore used from async code: its lock calls run in a worker thread.
        section = _pg_section(store, scope, timeout)
        await asyncio.to_thread(section.__enter__)
        try:
            yield
        finally:
            await asyncio.to_thread(section.__exit__, None, None, None)
    elif kind in ("sqlite", "asqlite"):
        path = (
            await _asqlite_path(store)
            if kind == "asqlite"
            else await asyncio.to_thread(_sqlite_path, store)
        )
        if path:
            lock = _file_lock(path, scope, timeout)
            await asyncio.to_thread(lock.acquire)
            try:
                yield
            finally:
                lock.release()
        else:
            yield
    else:
        yield


@contextlib.asynccontextmanager
async def aexclusive(
    store: BaseStore, scope: tuple[str, ...], *, timeout: float = DEFAULT_TIMEOUT
) -> AsyncIterator[bool]:
    """Async twin of `exclusive`: waiting never blocks the event loop."""
    token = (id(store), scope)
    held = _HELD.get()
    if token in held:
        yield False
        return
    local = _local_lock(store, scope)
    # Poll instead of waiting in a worker thread: waiters parked in the default executor
    # could starve the holder, whose store calls may need that executor to finish.
    deadline = time.monotonic() + timeout
    pause = _POLL[0]
    while not local.acquire(blocking=False):
        if time.monotonic() > deadline:
            raise _timed_out(scope, timeout)
        await asyncio.sleep(pause)
        pause = min(pause * 2, _POLL[1])
    marker = _HELD.set(held | {token})
    try:
        async with _abackend_section(store, scope, timeout):
            yield True
    finally:
        _HELD.reset(marker)
        local.release()


# ---- Writes that need not be flushed to disk ------------------------------------------------
#
# Most writes of the package are durable: the store flushes them before `batch` returns. A few
# may be lost in a power cut without harm (the turn clock's advance while no entry's expiry
# counts turns; see the README's "What the turn clock guarantees"). For those, `batch_unsynced`
# skips the flush where the backend lets it and keeps everything else: other threads and
# processes see the write at once, it survives a crash of the process, and it runs inside the
# same exclusive section as before. `FileSystemStore` (and any store with a `batch_unsynced` /
# `abatch_unsynced` method) skips its `fsync` calls; a sync `SqliteStore` runs the batch with
# `PRAGMA synchronous=OFF`; any other store gets an ordinary, durable batch.

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
    """Run `ops` as one batch whose writes need not be flushed to disk.

    `FileSystemStore` (and any store with a `batch_unsynced` method) skips its `fsync`
    calls; a sync `SqliteStore` runs the batch with `PRAGMA synchronous=OFF`; any other store
    runs an ordinary, durable batch. Either way other threads and processes see the writes
    at once and a crash of the process keeps them; only a power cut may undo them.

    Returns:
        The batch's results, as `store.batch` returns them.

    Example:
        ```python
        from langgraph.store.base import GetOp, PutOp
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef._sections import batch_unsynced

        store = InMemoryStore()
        batch_unsynced(store, [PutOp(("meta",), "clock", {"turn": 3})])
        assert store.batch([GetOp(("meta",), "clock")])[0].value == {"turn": 3}
        ```
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


# ---- The turn clock beside a SQLite file ------------------------------------------------------
#
# On a SQLite file even an unflushed commit creates, writes and unlinks a rollback journal. A
# clock-only advance there goes to a small record beside the scope's lock file instead
# (`_side_clock`), and every read of a clock through a plan is answered with that record's
# turn while the stored clock names it. Every other store runs its batches as before.


def _side_database(store: BaseStore) -> str:
    # The database file of a SQLite store ("" for any other store and in-memory databases).
    kind = _kind(store)
    if kind == "sqlite":
        return _sqlite_path(store)
    return ""  # an `AsyncSqliteStore` used through its sync API writes its clock as before


def run_batch(store: BaseStore, ops: Sequence[Op], synced: bool) -> list[Result]:
    """Run one batch of a plan on `store`: flushed or not, with the clock beside SQLite.

    With `synced` off the writes need not be flushed (`batch_unsynced`); on a SQLite file, a
    batch that only advances a clock naming its record is written to the record instead.

    Returns:
        The batch's results, as `store.batch` returns them.
    """
    database = _side_database(store)
    if not database:
        return store.batch(ops) if synced else batch_unsynced(store, ops)
    if not synced:
        done, ops = _side_clock.divert(database, ops)
        if done is not None:
            return done
    results = store.batch(ops) if synced else batch_unsynced(store, ops)
    return _side_clock.apply(database, ops, results)


async def arun_batch(store: BaseStore, ops: Sequence[Op], synced: bool) -> list[Result]:
    """Async twin of `run_batch`."""
    database = ""
    kind = _kind(store)
    if kind == "asqlite":
        database = await _asqlite_path(store)
    elif kind == "sqlite":
        known = _SQLITE_PATHS.get(store)
        database = known if known is not None else await asyncio.to_thread(_sqlite_path, store)
    if not database:
        return await (store.abatch(ops) if synced else abatch_unsynced(store, ops))
    if not synced:
        done, ops = _side_clock.divert(database, ops)
        if done is not None:
            return done
    if synced:
        results = await store.abatch(ops)
    else:
        results = await abatch_unsynced(store, ops)
    return _side_clock.apply(database, ops, results)
