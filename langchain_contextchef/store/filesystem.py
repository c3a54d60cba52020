"""`FileSystemStore`: a LangGraph store that keeps one readable JSON file per item.

Layout under the root (for example `./.context`)::

    .context/
      users/                      <- namespace label
        alice/                    <- namespace label
          prefs.json              <- one item (key "prefs")
          My Notes~3f1c....json   <- a key that needed encoding (readable prefix + hash)
      .locks/                     <- lock files (ignored by reads)
      .journal/                   <- the redo log of multi-item batches (redo.wal)
      .tmp/                       <- new item files before they are renamed into place
      .packs/                     <- big folders' items in one file each (a cache, see below)

Guarantees
----------

**Atomic, durable items.** One item is replaced by writing a temporary file (in `.tmp/`),
flushing it (`fsync`), renaming it over the item and flushing the folder. A reader sees the whole old or
the whole new file, never a mix; after a crash or power cut the item is the old or the new
one.

**All-or-nothing batches.** A `batch`/`abatch` with several writes (say an entry, its history
record and a version marker), or a delete, first writes every new file under a temporary
name, then commits by appending one record carrying the new documents to the redo log
(`.journal/redo.wal`) and flushing it – the batch's only `fsync` – then renames and deletes.
The items' files are flushed together at the log's checkpoints (when it passes 1 MiB, when
a store opens the root, on `recover()`). A process killed at any point leaves, once the store
is opened again (by any process, or `recover()`), either the whole batch or none of it; a
live process that meets a dead writer's record completes it before its next read or write
that touches the same folders; after a power cut, opening the root replays the log (an item
written again since is left alone). A write that fails before the commit – a full disk, a
link in the way – leaves the store exactly as it was: no partial item, no temporary file,
no new folder. A single put needs no log: it flushes its own file and folder.

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

**A new process's first read of a big folder.** A process that reads a folder of 256 items
or more file by file writes a *pack* (`.packs/`, unflushed, replaced by a rename): the parsed
items with each file's signature. The next new process reads the pack in one go and takes
each file from it after one `lstat` shows the file unchanged (by the same rules as above);
any other file is read as usual, so the pack never changes an answer. A damaged pack is
ignored. A reader that found a file the pack did not hold as it is writes the pack again,
and a write that deletes items deletes their folder's pack, so a deleted item's data does
not stay there. Delete `.packs/` at any time: it is only a cache.

A search ranks by each item's time stamp as last listed: an in-place edit that changes only
`updated_at` by hand re-ranks the item when its folder is next re-listed.

**Links.** A symbolic link (or junction) anywhere below the root – an item file, a namespace
folder, `.locks`, `.journal` or a lock file – is refused with `UnsafePathError` naming the
path and why: a read never returns content from outside the root and a write never follows
a link (writes open every folder from the root with `O_NOFOLLOW`, relative to its parent).
The root itself may be a link.

**Broken files** (invalid JSON, wrong fields, a file moved by hand) are skipped with a logged
warning and left in place. To every LangGraph operation such an item is absent, as a
missing row would be on the SQL stores (`get` answers `None`, searches and
`list_namespaces` skip it, a `put` replaces it and a delete removes it), so code written
for LangGraph's stores runs unchanged. Code that must not overwrite what a person left
there asks `unreadable_keys(namespace)`: the keys whose file is present but unreadable
(ContextChef's `Memory` does, to report such entries as damaged and refuse model writes
to them). Opening a store (its first operation) completes committed
batches (replaying and emptying the redo log) and deletes the temporary files of killed
writers, by listing `.journal/` and `.tmp/` only; `recover()` also walks every folder for temporary files written next to their
item (only done when a namespace folder sits on another file system than the root).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from types import TracebackType
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)

from langchain_contextchef.store._expiry import Expiry, Sweeper
from langchain_contextchef.store._fsio import UnsafePathError
from langchain_contextchef.store._locks import OwnedLock, current_owner, deadline_for
from langchain_contextchef.store._paths import scope_lock_name
from langchain_contextchef.store._prepare import PendingPut, check_put_target, prepare
from langchain_contextchef.store._reads import (
    get_record,
    item_of,
    list_namespaces,
    live,
    search,
    search_item,
    unreadable_keys,
)
from langchain_contextchef.store._records import TTL, check_value, value_of, vectors_of
from langchain_contextchef.store._recovery import RecoveryReport
from langchain_contextchef.store._semantic import SemanticIndex
from langchain_contextchef.store._view import DiskView
from langchain_contextchef.store._writer import Write, Writer

__all__ = ["FileSystemStore", "RecoveryReport", "UnsafePathError"]

logger = logging.getLogger(__name__)


_SCOPE_NAMES_KEPT = 4096
"""How many namespaces' scope lock names a store object remembers."""


def _now() -> float:
    """Wall-clock time in POSIX seconds; the one clock TTL decisions use (tests patch it)."""
    return time.time()


def _clock() -> float:
    # The clock handed to the private modules: it looks `_now` up on every call, so a
    # patched `_now` reaches every TTL decision, wherever it is made.
    return _now()


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
        given = os.fspath(root) if isinstance(root, str | os.PathLike) else root
        if not isinstance(given, str) or not given.strip():
            msg = (
                f"FileSystemStore needs the folder that holds the store, got {root!r}: pass a "
                'path such as ".context" (an empty path would write into the working directory).'
            )
            raise ValueError(msg)
        self.root = os.path.abspath(given)
        self.ttl_config = ttl
        self.index_config: IndexConfig | None = None
        self.embeddings: Embeddings | None = None
        self._index: SemanticIndex | None = None
        if index:
            self.index_config = index.copy()
            self._index = SemanticIndex(index)
            self.embeddings = self._index.embeddings
        self._lock_timeout = lock_timeout
        self._view = DiskView(self.root)
        self._writer = Writer(self.root, self._view, lock_timeout)
        self._expiry = Expiry(self._view, self._writer, _clock)
        self._opened = False
        self._open_guard = threading.Lock()
        self._sweeper = Sweeper(self.sweep_ttl, self.root)
        self._scope_names: dict[tuple[str, ...], str] = {}  # checked namespaces' lock names

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
        return self._batch(list(ops), sync=True)

    def batch_unsynced(self, ops: Iterable[Op]) -> list[Result]:
        """Like `batch`, but written files and folders are not flushed to disk.

        For a write whose loss in a power cut is harmless (the package's turn clock, while no
        entry's expiry counts turns): other threads and processes see it at once, and it
        survives a crash of this process, as any write does; only the `fsync` calls (most of
        a small write's cost) are skipped, so a power cut may undo it. A batch of several
        writes is still all-or-nothing. One write over an existing file at least as long is
        made in place (padded with JSON whitespace, then stamped) instead of renamed over it:
        readers stat a file before they read it, so none keeps a half-written one.

        Example:
            ```python
            import tempfile

            from langgraph.store.base import GetOp, PutOp

            from langchain_contextchef.store import FileSystemStore

            with tempfile.TemporaryDirectory() as root:
                store = FileSystemStore(root)
                store.batch_unsynced([PutOp(("meta",), "clock", {"turn": 1})])
                assert store.batch([GetOp(("meta",), "clock")])[0].value == {"turn": 1}
            ```
        """
        return self._batch(list(ops), sync=False)

    async def abatch_unsynced(self, ops: Iterable[Op]) -> list[Result]:
        """Async twin of `batch_unsynced`."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self.batch_unsynced, list(ops))

    def _batch(self, ops: list[Op], *, sync: bool) -> list[Result]:
        puts = prepare(ops, self._index)
        self._ensure_open()
        results: list[Result] = [None] * len(ops)
        if len(puts) < len(ops):
            self._writer.notice_journals()
        now = _now()
        checked: dict[str, bool] = {}  # folders this batch's gets found (one `lstat` each)
        for i, op in enumerate(ops):
            if isinstance(op, GetOp):
                results[i] = self._get(op, now, checked)
            elif isinstance(op, SearchOp):
                results[i] = self._search(op, now)
            elif isinstance(op, ListNamespacesOp):
                results[i] = list_namespaces(self._view, op, now)
        if puts:
            self._apply(puts, sync=sync)
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
        owner = current_owner()
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
        owner = current_owner()
        await scope.aacquire(
            owner, deadline_for(self._lock_timeout if timeout is None else timeout)
        )
        try:
            yield
        finally:
            scope.release(owner)

    def _scope_lock(self, namespace: tuple[str, ...]) -> OwnedLock:
        name = self._scope_names.get(namespace) if type(namespace) is tuple else None
        if name is None:
            if not isinstance(namespace, tuple) or not namespace:
                msg = f"lock() needs a non-empty tuple of namespace labels, got {namespace!r}."
                raise InvalidNamespaceError(msg)
            validate_op_namespace(GetOp(namespace, ""))
            name = scope_lock_name(namespace)
            if len(self._scope_names) < _SCOPE_NAMES_KEPT:
                self._scope_names[namespace] = name
        # The lock object itself comes from the table each time (a forked child gets its own).
        return self._writer.locks.scope_lock(name)

    # ------------------------------------------------------------------ broken files

    def unreadable_keys(
        self, namespace: tuple[str, ...], keys: Iterable[str] | None = None, *, read: bool = False
    ) -> list[str]:
        """The keys of exactly `namespace` whose file is present but cannot be read.

        A file that is not valid JSON, not a complete item document, or a document naming
        another namespace or key than its file name is absent to `get` and `search`; this
        says which keys are in that state, so a caller can refuse to overwrite them. A
        broken file whose key cannot be told from its (encoded) file name nor from its
        content is left out of a whole-folder answer.

        Args:
            namespace: The namespace (only this exact folder, not its children).
            keys: Check only these keys (cheap: one `stat` each); `None` checks every item
                file of the folder.
            read: The caller has just searched the whole folder through this store object:
                answer from what that search found, without a `stat` per file.

        Returns:
            The unreadable keys, sorted.

        Raises:
            UnsafePathError: If a file or folder on the way is a link.

        Example:
            ```python
            import pathlib, tempfile
            from langchain_contextchef.store import FileSystemStore

            store = FileSystemStore(tempfile.mkdtemp())
            store.put(("notes",), "a", {"v": 1})
            pathlib.Path(store.root, "notes", "a.json").write_text("{oops")
            assert store.get(("notes",), "a") is None
            assert store.unreadable_keys(("notes",)) == ["a"]
            assert store.unreadable_keys(("notes",), ["a", "b"]) == ["a"]
            ```
        """
        self._ensure_open()
        self._writer.notice_journals()
        checked = None if keys is None else list(keys)
        return unreadable_keys(self._view, tuple(namespace), checked, read=read)

    async def aunreadable_keys(
        self, namespace: tuple[str, ...], keys: Iterable[str] | None = None, *, read: bool = False
    ) -> list[str]:
        """Async twin of `unreadable_keys` (runs it in the default executor)."""
        checked = None if keys is None else list(keys)
        call = functools.partial(self.unreadable_keys, namespace, checked, read=read)
        return await asyncio.get_running_loop().run_in_executor(None, call)

    # ------------------------------------------------------------------ stored vectors

    def stored_vectors(
        self, namespace: tuple[str, ...], keys: Iterable[str]
    ) -> dict[str, dict[str, list[float]]]:
        """The embeddings this store computed for some items of exactly `namespace`.

        Read from the items' files (as a search reads them), never embedded anew: a caller
        that compares items with each other by meaning (the relevance selectors telling two
        versions of one subject) gets the vectors the index already holds.

        Args:
            namespace: The items' namespace.
            keys: The items' keys; missing, expired or unindexed items are left out.

        Returns:
            `{key: {field path: vector}}`; `{}` without an index.

        Example:
            ```python
            import tempfile
            from langchain_core.embeddings import DeterministicFakeEmbedding
            from langchain_contextchef.store import FileSystemStore

            index = {"dims": 4, "embed": DeterministicFakeEmbedding(size=4)}
            store = FileSystemStore(tempfile.mkdtemp(), index=index)
            store.put(("notes",), "a", {"text": "hello"})
            found = store.stored_vectors(("notes",), ["a", "b"])
            assert list(found) == ["a"] and len(found["a"]["$"]) == 4
            ```
        """
        self._ensure_open()
        if self._index is None:
            return {}
        now = _now()
        out: dict[str, dict[str, list[float]]] = {}
        for key in dict.fromkeys(keys):
            record = get_record(self._view, tuple(namespace), key, now)
            vectors = vectors_of(record) if record is not None else None
            if vectors:
                out[key] = vectors
        return out

    async def astored_vectors(
        self, namespace: tuple[str, ...], keys: Iterable[str]
    ) -> dict[str, dict[str, list[float]]]:
        """Async twin of `stored_vectors` (runs it in the default executor)."""
        call = functools.partial(self.stored_vectors, namespace, list(keys))
        return await asyncio.get_running_loop().run_in_executor(None, call)

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
        check_put_target(namespace, key, public=True)
        self._ensure_open()
        default_ttl = self.ttl_config.get("default_ttl") if self.ttl_config else None
        with self._writer.locked([self._view.dir_of(namespace)[1]]):
            now = _now()
            record = live(self._view.load(self._view.file_of(namespace, key)), namespace, key, now)
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
            vectors = None
            if self._index is not None:
                vectors = self._index.embed([self._index.texts_for(value, None)])[0]
            self._writer.commit([Write(namespace, key, value, ttl, vectors)], now)
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
        batch (so the whole batch becomes visible), drops uncommitted ones, deletes orphan
        temporary files, flushes what the redo log recorded and removes the log. Work that a
        live writer still holds a lock on is left to that writer.

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
        return self._expiry.sweep()

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
        if not self.ttl_config:
            future: concurrent.futures.Future[None] = concurrent.futures.Future()
            future.set_result(None)
            return future
        interval = sweep_interval_minutes or self.ttl_config.get("sweep_interval_minutes") or 5
        return self._sweeper.start(float(interval))

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread.

        Args:
            timeout: Seconds to wait for it; `None` waits as long as needed.

        Returns:
            `True` if no sweeper is running any more, `False` if the wait timed out.
        """
        return self._sweeper.stop(timeout)

    def close(self) -> None:
        """Stop the TTL sweeper, if any, and close the folder descriptors the caches keep.

        The store stays usable (its caches fall back to paths); closing only releases
        resources early instead of when the object is garbage collected.
        """
        self.stop_ttl_sweeper()
        self._view.close()
        self._writer.redo.close()

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

    # ------------------------------------------------------------------ reads and writes

    def _get(self, op: GetOp, now: float, checked: dict[str, bool] | None = None) -> Item | None:
        record = get_record(self._view, op.namespace, op.key, now, checked)
        if record is None:
            return None
        if op.refresh_ttl:
            self._expiry.refresh([record], now)
        return item_of(record)

    def _search(self, op: SearchOp, now: float) -> list[SearchItem]:
        page = search(self._view, op, now, self._index)
        if op.refresh_ttl:
            self._expiry.refresh([record for record, _, _ in page], now)
        return [search_item(*hit) for hit in page]

    def _apply(self, puts: list[PendingPut], *, sync: bool = True) -> None:
        # Embed everything first: an embedding failure must not leave half a batch written.
        writes = [put.write for put in puts]
        if self._index is not None:
            vectors = self._index.embed([put.texts for put in puts])
            writes = [w._replace(vectors=v) for w, v in zip(writes, vectors, strict=True)]
        with self._writer.locked([self._view.dir_of(w.namespace)[1] for w in writes]):
            self._writer.commit(writes, _now(), sync=sync)
