"""`FileSystemStore`: a LangGraph store that keeps one readable JSON file per item.

Layout under the root (for example `./.context`)::

    .context/
      users/                      <- namespace label
        alice/                    <- namespace label
          prefs.json              <- one item (key "prefs")
          My Notes~3f1c....json   <- a key that needed encoding (readable prefix + hash)
      .locks/                     <- lock files (ignored by reads)
      .journal/                   <- write-ahead records of multi-item batches in flight
      .tmp/                       <- new item files before they are renamed into place

Guarantees
----------

**Atomic, durable items.** One item is replaced by writing a temporary file (in `.tmp/`),
flushing it (`fsync`), renaming it over the item and flushing the folder. A reader sees the whole old or
the whole new file, never a mix; after a crash or power cut the item is the old or the new
one.

**All-or-nothing batches.** A `batch`/`abatch` with several writes (say an entry, its history
record and a version marker) first writes and flushes every new file under a temporary name,
then commits a journal naming every rename and delete, then applies them. A process killed
at any point leaves, once the store is opened again (by any process, or `recover()`),
either the whole batch or none of it; a live process that meets a dead writer's journal
completes it before its next read or write that touches the same folders. A write that fails
before the commit – a full disk, a link in the way – leaves the store exactly as it was:
no partial item, no temporary file, no new folder. A single write needs no journal.

**Concurrency.** A write holds the write lock of every folder (namespace) it touches, taken
in one global order, one lock per folder per batch; locks work across threads and processes
and a killed process releases its locks. Reads take no lock. A reader running *while* a
multi-item batch is being applied may see some of its items replaced and others not yet;
`lock(namespace)` / `alock(namespace)` give a caller's own read-check-write cycle an
exclusive namespace lock (across threads, asyncio tasks and processes), independent of the
folder locks, so reads and batches inside it never deadlock.

**What a reader sees of changes made elsewhere.** Parsed files and folder listings are cached
in the process and validated against the disk:

* every item a read considers (`get`, and each candidate of a `search`) is revalidated with
  a `stat` of its file and re-read if the file changed, so an in-place edit is seen at once
  in values, filters and expiry;
* *which* items a folder holds – and so which namespaces `list_namespaces` reports and the
  order of a search – comes from the folder's cached listing while the folder's inode and
  modification time are unchanged. Creating, renaming or deleting a file changes the folder's
  time, so another process's write, or a file created or deleted by hand, is seen by the next
  read. The one window: a file created by hand whose folder's time is then set back to
  what it was (say, by a copy tool that preserves times) is visible to `get` at once but
  joins searches only when the folder's time next changes;
* time stamps written by the store carry a marker and are trusted at once; any other
  time is trusted only once it is more than two seconds older than the cached listing or
  parse (file-system clocks are coarse), and until then the folder or file is re-read.

A search ranks by each item's time stamp as last listed: an in-place edit that changes only
`updated_at` by hand re-ranks the item when its folder is next re-listed.

**Links.** A symbolic link (or junction) anywhere below the root – an item file, a namespace
folder, `.locks`, `.journal` or a lock file – is refused with `UnsafePathError` naming the
path and why: a read never returns content from outside the root and a write never follows
a link (writes open every folder from the root with `O_NOFOLLOW`, relative to its parent).
The root itself may be a link.

**Broken files** (invalid JSON, wrong fields, a file moved by hand) are skipped with a logged
warning and left in place. Opening a store (its first operation) completes committed
batches and deletes the temporary files of killed writers, by listing `.journal/` and
`.tmp/` only; `recover()` also walks every folder for temporary files written next to their
item (only done when a namespace folder sits on another file system than the root).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import heapq
import logging
import math
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from types import TracebackType
from typing import Any, Literal, NamedTuple

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from langchain_contextchef.store._filters import matches, validate_filter
from langchain_contextchef.store._fsio import UnsafePathError
from langchain_contextchef.store._listing import Listing
from langchain_contextchef.store._locks import OwnedLock, deadline_for
from langchain_contextchef.store._paths import scope_lock_name
from langchain_contextchef.store._records import (
    CREATED,
    EXPIRES_TS,
    KEY,
    NS,
    PATH,
    SEEN,
    TTL,
    UPDATED,
    VECTORS,
    Record,
    check_text,
    check_value,
    is_expired,
    order_key,
    value_of,
    vectors_of,
)
from langchain_contextchef.store._vectors import VectorIndex
from langchain_contextchef.store._view import RACY_WINDOW_NS, DiskView
from langchain_contextchef.store._writer import RecoveryReport, Write, Writer

__all__ = ["FileSystemStore", "RecoveryReport", "UnsafePathError"]

logger = logging.getLogger(__name__)

_RACY_WINDOW_NS = RACY_WINDOW_NS  # kept under its historical name for benchmarks and tests


def _now() -> float:
    """Wall-clock time in POSIX seconds; the one clock TTL decisions use (tests patch it)."""
    return time.time()


class _PendingPut(NamedTuple):
    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any] | None  # None deletes
    ttl_minutes: float | None
    texts: list[tuple[str, str]]  # (field path, text) to embed


def _current_owner() -> object:
    """Who holds a scope lock: the running asyncio task if any, else the thread."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        task = None
    return task if task is not None else threading.current_thread()


class FileSystemStore(BaseStore):
    """A LangGraph `BaseStore` that keeps each item as a JSON file in a folder tree.

    Namespaces become folders and keys become file names, so memory can be read, diffed
    and committed like any other project file. It supports every `BaseStore` operation
    (get, put, delete, search with filters and pagination, `list_namespaces`), LangGraph's
    TTL (`ttl=TTLConfig(...)`, `put(..., ttl=minutes)`, `sweep_ttl()`, a sweeper thread) and
    semantic search when given an `IndexConfig` with embeddings. Beyond `BaseStore` it
    offers `lock`/`alock` (a namespace lock for your own read-check-write cycles),
    `atomic_update` and `recover`. The module docstring states exactly what is atomic, what
    concurrent readers see, and how hand edits and links are handled.

    Args:
        root: The folder holding the store; created on the first write.
        index: Optional semantic-search configuration (`dims`, `embed`, `fields`), as for
            LangGraph's `InMemoryStore`. Embeddings are stored in the item files. Scoring
            is vectorised when numpy is installed (`langchain-contextchef[vectors]`).
        ttl: Optional TTL configuration: `default_ttl` (minutes), `refresh_on_read`,
            `sweep_interval_minutes`.
        lock_timeout: Seconds to wait for another writer's lock before raising
            `filelock.Timeout` (a `TimeoutError`).

    Example:
        ```python
        import tempfile
        from langchain_contextchef.store import FileSystemStore

        with FileSystemStore(tempfile.mkdtemp()) as store:
            store.put(("users", "alice"), "prefs", {"theme": "dark"})
            assert store.get(("users", "alice"), "prefs").value == {"theme": "dark"}
            assert [i.key for i in store.search(("users",))] == ["prefs"]
        ```
    """

    supports_ttl = True

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        lock_timeout: float = 60.0,
    ) -> None:
        self.root = os.path.abspath(os.fspath(root))
        self.ttl_config = ttl
        self.index_config: IndexConfig | None = None
        self.embeddings: Embeddings | None = None
        self._index_fields: list[tuple[str, str | list[str]]] = []
        if index:
            self.index_config = index.copy()
            self.embeddings = ensure_embeddings(index.get("embed"))
            self._index_fields = [
                (p, tokenize_path(p) if p != "$" else p) for p in (index.get("fields") or ["$"])
            ]
        self._lock_timeout = lock_timeout
        self._view = DiskView(self.root)
        self._writer = Writer(self.root, self._view, lock_timeout)
        self._opened = False
        self._open_guard = threading.Lock()
        self._sweeper: threading.Thread | None = None
        self._sweeper_stop = threading.Event()

    # ------------------------------------------------------------------ BaseStore API

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run a batch of operations; reads see the store as it was before the batch's writes.

        Every operation is validated before anything is written, so an invalid op leaves the
        disk unchanged. Writes to the same item are deduplicated (the last one wins). Several
        writes are applied all-or-nothing (see the module docstring). Unlike `put`, a batch
        may write under the root label `"langgraph"`, as LangGraph's own stores allow.

        Args:
            ops: `GetOp`, `SearchOp`, `ListNamespacesOp` and `PutOp` operations.

        Returns:
            One result per op: an `Item` or `None`, a list of `SearchItem`, a list of
            namespaces, or `None` for writes.

        Raises:
            InvalidNamespaceError: On an invalid namespace.
            TypeError: On a value that is not a JSON-serialisable dict.
            ValueError: On a NUL in a key, NaN in a value, or a bad filter.
            UnsafePathError: If the operation meets a link under the root.
        """
        ops = list(ops)
        puts = self._prepare(ops)
        self._ensure_open()
        results: list[Result] = [None] * len(ops)
        if len(puts) < len(ops):
            self._writer.notice_journals()
        now = _now()
        for i, op in enumerate(ops):
            if isinstance(op, GetOp):
                results[i] = self._get(op, now)
            elif isinstance(op, SearchOp):
                results[i] = self._search(op, now)
            elif isinstance(op, ListNamespacesOp):
                results[i] = self._list_namespaces(op, now)
        if puts:
            self._apply(puts)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async twin of `batch`: runs the same body in the default executor."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self.batch, list(ops))

    # ------------------------------------------------------------------ scope locks

    @contextlib.contextmanager
    def lock(self, namespace: tuple[str, ...], *, timeout: float | None = None) -> Iterator[None]:
        """Hold an exclusive lock on `namespace` across threads and processes.

        For a caller's own atomic read-check-write cycle (e.g. "create this key only if it
        does not exist, and record its history"): no other holder of the same namespace's
        lock, in this process or another, runs while you hold it. The lock is per exact
        namespace (`("a",)` and `("a", "b")` are different locks), re-entrant within one
        thread (or one asyncio task), and independent of the write locks a batch takes, so
        reads and batches inside it work as usual. Writers that do not take it are not
        blocked. A process that dies releases it.

        Args:
            namespace: The namespace to lock (a non-empty tuple of labels).
            timeout: Seconds to wait (default: the store's `lock_timeout`; a negative value
                waits forever).

        Yields:
            Nothing; the lock is held inside the `with` block.

        Raises:
            InvalidNamespaceError: If the namespace is not a valid non-empty tuple.
            filelock.Timeout: If the lock is still held elsewhere when the timeout passes.

        Example:
            ```python
            import tempfile
            from langchain_contextchef.store import FileSystemStore

            store = FileSystemStore(tempfile.mkdtemp())
            with store.lock(("users", "alice")):
                item = store.get(("users", "alice"), "count")
                count = item.value["n"] if item else 0
                store.put(("users", "alice"), "count", {"n": count + 1})
            assert store.get(("users", "alice"), "count").value == {"n": 1}
            ```
        """
        scope = self._scope_lock(namespace)
        owner = _current_owner()
        scope.acquire(owner, deadline_for(self._lock_timeout if timeout is None else timeout))
        try:
            yield
        finally:
            scope.release(owner)

    @contextlib.asynccontextmanager
    async def alock(
        self, namespace: tuple[str, ...], *, timeout: float | None = None
    ) -> AsyncIterator[None]:
        """Async twin of `lock`: the same lock, re-entrant within one asyncio task.

        Waiting happens in a worker thread, so the event loop keeps running; a cancelled
        wait never leaves the lock held.

        Args:
            namespace: The namespace to lock (a non-empty tuple of labels).
            timeout: Seconds to wait (default: the store's `lock_timeout`).

        Yields:
            Nothing; the lock is held inside the `async with` block.

        Raises:
            InvalidNamespaceError: If the namespace is not a valid non-empty tuple.
            filelock.Timeout: If the lock is still held elsewhere when the timeout passes.

        Example:
            ```python
            import asyncio, tempfile
            from langchain_contextchef.store import FileSystemStore


            async def main() -> None:
                store = FileSystemStore(tempfile.mkdtemp())
                async with store.alock(("users", "alice")):
                    await store.aput(("users", "alice"), "k", {"v": 1})


            asyncio.run(main())
            ```
        """
        scope = self._scope_lock(namespace)
        owner = _current_owner()
        deadline = deadline_for(self._lock_timeout if timeout is None else timeout)
        if not scope.acquire(owner, deadline, blocking=False):
            loop = asyncio.get_running_loop()
            waiting = loop.run_in_executor(None, scope.acquire, owner, deadline)
            try:
                await asyncio.shield(waiting)
            except asyncio.CancelledError:
                # The worker thread may still get the lock: give it back when it does.
                def undo(done: asyncio.Future[bool]) -> None:
                    if not done.cancelled() and done.exception() is None:
                        scope.release(owner)

                waiting.add_done_callback(undo)
                raise
        try:
            yield
        finally:
            scope.release(owner)

    def _scope_lock(self, namespace: tuple[str, ...]) -> OwnedLock:
        if not isinstance(namespace, tuple) or not namespace:
            msg = f"lock() needs a non-empty tuple of namespace labels, got {namespace!r}."
            raise InvalidNamespaceError(msg)
        validate_op_namespace(GetOp(namespace, ""))
        return self._writer.locks.scope_lock(scope_lock_name(namespace))

    # ------------------------------------------------------------------ atomic update

    def atomic_update(
        self,
        namespace: tuple[str, ...],
        key: str,
        fn: Callable[[dict[str, Any] | None], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Read, transform and write one item while holding its folder's write lock.

        No other thread or process can write the item between the read and the write, so
        concurrent read-modify-write cycles (counters, appends) never lose an update.
        An existing TTL is kept (and, as with any write, its expiry restarts).

        Args:
            namespace: The item's namespace.
            key: The item's key.
            fn: Receives the current value (`None` if absent or expired) and returns the new
                value. It runs under the lock: keep it short and do not write the same
                namespace from inside it.

        Returns:
            The value written.

        Raises:
            TypeError: If `fn` returns something that is not a JSON-serialisable dict;
                nothing is written then.

        Example:
            ```python
            import tempfile
            from langchain_contextchef.store import FileSystemStore

            store = FileSystemStore(tempfile.mkdtemp())
            bump = lambda cur: {"n": (cur or {"n": 0})["n"] + 1}
            store.atomic_update(("clock",), "turn", bump)
            assert store.atomic_update(("clock",), "turn", bump) == {"n": 2}
            ```
        """
        self._check_put_target(namespace, key, public=True)
        self._ensure_open()
        default_ttl = self.ttl_config.get("default_ttl") if self.ttl_config else None
        with self._writer.locked([self._view.dir_of(namespace)[1]]):
            now = _now()
            record = self._live(
                self._view.load(self._view.file_of(namespace, key)), namespace, key, now
            )
            new_value = fn(value_of(record) if record is not None else None)
            if not isinstance(new_value, Mapping):
                msg = (
                    f"atomic_update's function must return a dict, got "
                    f"{type(new_value).__name__}; nothing was written."
                )
                raise TypeError(msg)
            value = dict(new_value)
            check_value(value)
            ttl = record[TTL] if record is not None else default_ttl
            vectors = self._embed_one(self._texts_for(value, None))
            self._writer.commit([Write(namespace, key, value, ttl, vectors, None)], now)
        return value

    async def aatomic_update(
        self,
        namespace: tuple[str, ...],
        key: str,
        fn: Callable[[dict[str, Any] | None], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Async twin of `atomic_update` (runs it in the default executor)."""
        loop = asyncio.get_running_loop()
        call = functools.partial(self.atomic_update, namespace, key, fn)
        return await loop.run_in_executor(None, call)

    # ------------------------------------------------------------------ recovery

    def recover(self) -> RecoveryReport:
        """Finish or discard what crashed writers left behind, now.

        Runs by itself on the first operation of a store object; call it to repair a root
        explicitly (for example from a maintenance script). It completes every committed
        batch journal (so the whole batch becomes visible), drops uncommitted journals, and
        deletes orphan temporary files. Work that a live writer still holds a lock on is left
        to that writer.

        Returns:
            How many journals were replayed and discarded and temporary files removed.

        Raises:
            UnsafePathError: If `.locks` or `.journal` is a link.

        Example:
            ```python
            import tempfile
            from langchain_contextchef.store import FileSystemStore

            report = FileSystemStore(tempfile.mkdtemp()).recover()
            assert report == (0, 0, 0)
            ```
        """
        return self._writer.recover()

    def _ensure_open(self) -> None:
        if self._opened:
            return
        with self._open_guard:
            if not self._opened:
                self._writer.recover(deep=False)
                self._opened = True

    # ------------------------------------------------------------------ TTL

    def sweep_ttl(self) -> int:
        """Delete every expired item now.

        Returns:
            The number of items deleted.
        """
        self._ensure_open()
        by_dir: dict[tuple[str, ...], list[Record]] = {}
        now = _now()
        for listing in self._view.walk(self.root):
            for record in self._view.entries(listing):
                if is_expired(record, now):
                    by_dir.setdefault(self._view.dir_of(record[NS])[1], []).append(record)
        deleted = 0
        for parts, records in by_dir.items():
            with self._writer.locked([parts]):
                writes = []
                for rec in records:
                    # Re-check under the lock: a writer may have refreshed the item meanwhile.
                    current = self._view.load(rec[PATH])
                    if current is not None and is_expired(current, _now()):
                        writes.append(Write(rec[NS], rec[KEY], None, None, None, None))
                deleted += self._writer.commit(writes, _now(), journal=False)
        return deleted

    def start_ttl_sweeper(
        self, sweep_interval_minutes: float | None = None
    ) -> concurrent.futures.Future[None]:
        """Start a daemon thread that calls `sweep_ttl()` periodically.

        Args:
            sweep_interval_minutes: Minutes between sweeps; defaults to the TTL config's
                `sweep_interval_minutes`, then to 5.

        Returns:
            A future that completes when the sweeper stops; cancelling it stops the sweeper.
            Without a TTL config nothing starts and the future is already done.
        """
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        if not self.ttl_config:
            future.set_result(None)
            return future
        if self._sweeper is not None and self._sweeper.is_alive():
            logger.info("The TTL sweeper is already running.")
            future.add_done_callback(lambda f: self._sweeper_stop.set() if f.cancelled() else None)
            return future
        interval = float(
            sweep_interval_minutes or self.ttl_config.get("sweep_interval_minutes") or 5
        )
        stop = self._sweeper_stop
        stop.clear()

        def loop() -> None:
            while not stop.wait(interval * 60):
                try:
                    count = self.sweep_ttl()
                except Exception:
                    logger.exception("TTL sweep of %s failed", self.root)
                else:
                    if count:
                        logger.info("TTL sweep deleted %d expired item(s)", count)
            future.set_result(None)

        self._sweeper = threading.Thread(target=loop, name="contextchef-ttl-sweeper", daemon=True)
        self._sweeper.start()
        future.add_done_callback(lambda f: stop.set() if f.cancelled() else None)
        return future

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread.

        Args:
            timeout: Seconds to wait for it; `None` waits as long as needed.

        Returns:
            `True` if no sweeper is running any more, `False` if the wait timed out.
        """
        thread = self._sweeper
        if thread is None or not thread.is_alive():
            return True
        self._sweeper_stop.set()
        thread.join(timeout)
        if thread.is_alive():
            logger.warning("Timed out waiting for the TTL sweeper to stop.")
            return False
        self._sweeper = None
        return True

    def close(self) -> None:
        """Stop the TTL sweeper, if any, and close the folder descriptors the caches keep.

        The store stays usable (its caches fall back to paths); closing only releases
        resources early instead of when the object is garbage collected.
        """
        self.stop_ttl_sweeper()
        self._view.close()

    def __enter__(self) -> FileSystemStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"FileSystemStore({self.root!r})"

    # ------------------------------------------------------------------ reads

    @staticmethod
    def _live(
        record: Record | None, namespace: tuple[str, ...], key: str, now: float
    ) -> Record | None:
        if record is None or is_expired(record, now):
            return None
        if record[NS] != namespace or record[KEY] != key:
            return None
        return record

    def _get(self, op: GetOp, now: float) -> Item | None:
        if not isinstance(op.key, str) or "\x00" in op.key:
            return None
        dirpath, parts = self._view.dir_of(op.namespace)
        if not parts or not self._view.dir_ok(dirpath, parts):
            return None
        record = self._live(
            self._view.load(self._view.file_of(op.namespace, op.key)), op.namespace, op.key, now
        )
        if record is None:
            return None
        if op.refresh_ttl:
            self._refresh([record], now)
        return Item(
            value=value_of(record),
            key=record[KEY],
            namespace=record[NS],
            created_at=record[CREATED],
            updated_at=record[UPDATED],
        )

    def _listings_under(self, namespace: tuple[str, ...]) -> list[Listing] | None:
        """Listings of the namespace's folder and every folder below it (`None`: none)."""
        start, parts = self._view.dir_of(namespace)
        if parts and not self._view.dir_ok(start, parts):
            return None
        return list(self._view.walk(start))

    def _search(self, op: SearchOp, now: float) -> list[SearchItem]:
        if op.offset < 0 or op.limit <= 0:
            return []
        listings = self._listings_under(op.namespace_prefix)
        if not listings:
            return []
        listings = [listing for listing in listings if listing.names]
        if op.query and self.embeddings is not None:
            return self._semantic(op, listings, now)
        # Files parsed while building a listing in this very call need no second stat;
        # they carry that build's read time (equality, so a clock step cannot fool it).
        fresh: set[int] = set()
        streams = []
        for listing in listings:
            built = listing.entries is None
            streams.append(self._view.entries(listing))
            if built:
                fresh.add(listing.built_ns)
        ordered: Iterable[Record] = (
            streams[0]
            if len(streams) == 1
            else heapq.merge(*streams, key=order_key)
            if streams
            else ()
        )
        page: list[tuple[Record, dict[str, Any] | None]] = []
        skip = op.offset
        load = self._view.load
        wanted = op.filter
        for cached in ordered:
            # Every item a search considers is the file's current version: revalidated
            # with a stat (re-read if it changed), unless parsed during this very call.
            record = cached if cached[SEEN] in fresh else load(cached[PATH])
            if record is None:
                continue
            expires = record[EXPIRES_TS]
            if expires is not None and expires <= now:
                continue
            value = None
            if wanted:
                value = value_of(record)
                if not matches(value, wanted):
                    continue
            if skip:
                skip -= 1
                continue
            page.append((record, value))
            if len(page) >= op.limit:
                break
        if op.refresh_ttl:
            self._refresh([rec for rec, _ in page], now)
        return [self._search_item(rec, None, value) for rec, value in page]

    def _semantic(self, op: SearchOp, listings: list[Listing], now: float) -> list[SearchItem]:
        assert self.embeddings is not None and op.query
        query = self.embeddings.embed_query(op.query)
        load = self._view.load
        hits: list[tuple[float, tuple[float, tuple[str, ...], str], Record]] = []
        for listing in listings:
            built = listing.entries is None
            entries = self._view.entries(listing)
            fresh = listing.built_ns if built else -1
            scores = self._view.vectors(listing).scores(query)  # one product per folder
            for cached, score in zip(entries, scores, strict=True):
                record = cached if cached[SEEN] == fresh else load(cached[PATH])
                if record is None or is_expired(record, now):
                    continue
                if record is not cached:  # edited since the folder's vectors were built
                    score = VectorIndex([record[VECTORS]]).scores(query)[0]
                if op.filter and not matches(value_of(record), op.filter):
                    continue
                # Scored items by similarity, then unscored ones, then the usual order.
                rank = -score if score is not None else math.inf
                hits.append((rank, order_key(record), record))
        hits.sort(key=lambda hit: (hit[0], hit[1]))
        page = [
            (rec, -rank if rank != math.inf else None)
            for rank, _, rec in hits[op.offset :][: op.limit]
        ]
        if op.refresh_ttl:
            self._refresh([rec for rec, _ in page], now)
        return [self._search_item(rec, score, None) for rec, score in page]

    @staticmethod
    def _search_item(
        record: Record, score: float | None, value: dict[str, Any] | None
    ) -> SearchItem:
        return SearchItem(
            record[NS],
            record[KEY],
            value_of(record) if value is None else value,
            record[CREATED],
            record[UPDATED],
            score,
        )

    def _list_namespaces(self, op: ListNamespacesOp, now: float) -> list[tuple[str, ...]]:
        conditions = tuple(op.match_conditions or ())
        start: list[str] = []
        for condition in conditions:
            if condition.match_type == "prefix":
                for label in condition.path:
                    if label == "*":
                        break
                    start.append(label)
                break
        start_path, parts = self._view.dir_of(tuple(start))
        if parts and not self._view.dir_ok(start_path, parts):
            return []
        found = self._view.live_namespaces(start_path, now)
        namespaces = (
            [ns for ns in found if all(_matches_condition(c, ns) for c in conditions)]
            if conditions
            else list(found)
        )
        if op.max_depth is not None:
            namespaces = sorted({ns[: op.max_depth] for ns in namespaces})
        else:
            namespaces.sort()
        return namespaces[op.offset : op.offset + op.limit]

    # ------------------------------------------------------------------ writes

    def _check_put_target(self, namespace: tuple[str, ...], key: str, *, public: bool) -> None:
        if not isinstance(namespace, tuple):
            msg = f"A namespace must be a tuple of strings, got {type(namespace).__name__}."
            raise InvalidNamespaceError(msg)
        validate_op_namespace(GetOp(namespace, key))
        if not namespace:
            msg = "Namespace cannot be empty: give at least one label, e.g. ('memory',)."
            raise InvalidNamespaceError(msg)
        if public and namespace[0] == "langgraph":
            # As in LangGraph's BaseStore.put: the label is reserved for LangGraph itself,
            # which writes there through batch().
            msg = f'The root namespace label "langgraph" is reserved by LangGraph. Got: {namespace}'
            raise InvalidNamespaceError(msg)
        for label in namespace:
            check_text(label, f"the namespace label {label!r}")
        if not isinstance(key, str):
            msg = f"An item key must be a string, got {type(key).__name__}."
            raise TypeError(msg)
        if "\x00" in key:
            msg = f"An item key cannot contain a NUL character ('\\x00'): {key!r}."
            raise ValueError(msg)
        check_text(key, f"the key {key!r}")

    def _prepare(self, ops: list[Op]) -> list[_PendingPut]:
        """Validate every op and build the writes, before anything touches the disk."""
        pending: dict[tuple[tuple[str, ...], str], _PendingPut] = {}
        for op in ops:
            if isinstance(op, PutOp):
                pending[(op.namespace, op.key)] = self._prepare_put(op)
            elif isinstance(op, GetOp | ListNamespacesOp):
                validate_op_namespace(op)
            elif isinstance(op, SearchOp):
                validate_op_namespace(op)
                validate_filter(op.filter)
            else:
                msg = f"Unknown store operation {type(op).__name__}; expected Get/Put/Search/ListNamespaces ops."
                raise ValueError(msg)
        return list(pending.values())

    def _prepare_put(self, op: PutOp) -> _PendingPut:
        if op.value is None:
            validate_op_namespace(op)
            if not isinstance(op.key, str):
                msg = f"An item key must be a string, got {type(op.key).__name__}."
                raise TypeError(msg)
            return _PendingPut(op.namespace, op.key, None, None, [])
        self._check_put_target(op.namespace, op.key, public=False)
        if not isinstance(op.value, Mapping):
            msg = (
                f"A store value must be a dict, got {type(op.value).__name__}. "
                "Wrap it, e.g. {'value': ...}."
            )
            raise TypeError(msg)
        value = dict(op.value)
        check_value(value)
        ttl = op.ttl
        if ttl is not None and (
            isinstance(ttl, bool) or not isinstance(ttl, int | float) or not math.isfinite(ttl)
        ):
            msg = f"ttl must be a finite number of minutes or None, got {ttl!r}."
            raise ValueError(msg)
        if (
            op.index is not None
            and op.index is not False
            and not (isinstance(op.index, list) and all(isinstance(f, str) for f in op.index))
        ):
            msg = f"index must be None, False or a list of field paths, got {op.index!r}."
            raise TypeError(msg)
        texts = self._texts_for(value, op.index)
        return _PendingPut(op.namespace, op.key, value, ttl, texts)

    def _texts_for(
        self, value: dict[str, Any], index: Literal[False] | list[str] | None
    ) -> list[tuple[str, str]]:
        if self.embeddings is None or index is False:
            return []
        fields: list[tuple[str, str | list[str]]] = (
            self._index_fields if index is None else [(f, tokenize_path(f)) for f in index]
        )
        texts: list[tuple[str, str]] = []
        for path, tokens in fields:
            found = get_text_at_path(value, tokens)
            if len(found) == 1:
                texts.append((path, found[0]))
            else:
                texts.extend((f"{path}.{i}", text) for i, text in enumerate(found))
        return texts

    def _embed_one(self, texts: list[tuple[str, str]]) -> dict[str, list[float]] | None:
        if not texts or self.embeddings is None:
            return None
        vectors = self.embeddings.embed_documents([text for _, text in texts])
        return {path: list(vector) for (path, _), vector in zip(texts, vectors, strict=True)}

    def _apply(self, puts: list[_PendingPut]) -> None:
        # Embed everything first: an embedding failure must not leave half a batch written.
        all_texts = [text for put in puts for _, text in put.texts]
        flat: list[list[float]] = []
        if all_texts and self.embeddings is not None:
            flat = self.embeddings.embed_documents(all_texts)
            if len(flat) != len(all_texts):
                msg = f"The embedder returned {len(flat)} vectors for {len(all_texts)} texts."
                raise ValueError(msg)
        writes: list[Write] = []
        position = 0
        for put in puts:
            vectors = None
            if put.texts:
                chunk = flat[position : position + len(put.texts)]
                position += len(put.texts)
                vectors = {p: list(v) for (p, _), v in zip(put.texts, chunk, strict=True)}
            writes.append(Write(put.namespace, put.key, put.value, put.ttl_minutes, vectors, None))
        with self._writer.locked([self._view.dir_of(w.namespace)[1] for w in writes]):
            self._writer.commit(writes, _now())

    def _refresh(self, hits: list[Record], now: float) -> None:
        """Restart the TTL of items just read, rewriting only when it moves noticeably."""
        due: dict[tuple[str, ...], list[Record]] = {}
        for rec in hits:
            ttl = rec[TTL]
            if ttl is None:
                continue
            ttl_s = ttl * 60
            # Rewriting a file on every read would make reads as costly as writes; an expiry
            # that moves by less than 5% of the TTL (at most a minute) is left as it is.
            slack = min(ttl_s * 0.05, 60.0)
            expires = rec[EXPIRES_TS]
            if expires is not None and now + ttl_s - expires < slack:
                continue
            due.setdefault(self._view.dir_of(rec[NS])[1], []).append(rec)
        for parts, records in due.items():
            with self._writer.locked([parts]):
                writes = []
                for rec in records:
                    current = self._live(self._view.load(rec[PATH]), rec[NS], rec[KEY], _now())
                    if current is None or current[TTL] is None:
                        continue
                    writes.append(
                        Write(
                            current[NS],
                            current[KEY],
                            value_of(current),
                            current[TTL],
                            vectors_of(current),
                            current[UPDATED],
                        )
                    )
                self._writer.commit(writes, _now(), journal=False)


def _matches_condition(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace[: len(path)], path, strict=True)
    elif condition.match_type == "suffix":
        pairs = zip(namespace[len(namespace) - len(path) :], path, strict=True)
    else:
        msg = (
            f"Unsupported namespace match type {condition.match_type!r}; use 'prefix' or 'suffix'."
        )
        raise ValueError(msg)
    return all(want == "*" or label == want for label, want in pairs)
