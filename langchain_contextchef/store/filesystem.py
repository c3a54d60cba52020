"""`FileSystemStore`: a LangGraph store that keeps one readable JSON file per item.

Layout under the root (for example `./.context`)::

    .context/
      users/                      <- namespace label
        alice/                    <- namespace label
          prefs.json              <- one item (key "prefs")
          My Notes~3f1c....json   <- a key that needed encoding (readable prefix + hash)
      .locks/                     <- per-item lock files (ignored by reads)

Writes are atomic and durable (temporary file, `fsync`, rename, directory `fsync`) and are
serialised per item with file locks, so several threads and processes can share a root.
Reads take no lock: a rename is atomic, so a reader sees a whole old or a whole new file.
Parsed files are cached in-process and revalidated with `stat` on every read, so results
always reflect the disk, including writes made by other processes or by hand.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import math
import operator
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime, timezone
from types import TracebackType
from typing import Any, Literal, NamedTuple

from filelock import FileLock
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
from langchain_contextchef.store._fsio import (
    atomic_write,
    ensure_dir,
    fsync_dir,
    read_with_stat,
    remove_empty_dirs,
)
from langchain_contextchef.store._paths import (
    ITEM_SUFFIX,
    encode_component,
    item_file_name,
    lock_file_name,
)
from langchain_contextchef.store._records import (
    CorruptItemError,
    Record,
    check_text,
    check_value,
    encode_document,
    parse_document,
)

__all__ = ["FileSystemStore"]

logger = logging.getLogger(__name__)

_LOCK_DIR = ".locks"
# A cached parse is trusted only for files last modified this long before the parse began.
# File-system timestamps are coarse (a kernel tick on Linux, 1 s on HFS+, 2 s on FAT); a
# file rewritten within that granularity could otherwise keep the same stat signature.
_RACY_WINDOW_NS = 2_000_000_000
_STRIPES = 64
_WRITE_ATTEMPTS = 5


def _now() -> float:
    """Wall-clock time in POSIX seconds; the one clock TTL decisions use (tests patch it)."""
    return time.time()


class _Cached(NamedTuple):
    ino: int
    mtime_ns: int
    size: int
    parsed_at_ns: int
    record: Record | None


class _PendingPut(NamedTuple):
    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any] | None  # None deletes
    ttl_minutes: float | None
    texts: list[tuple[str, str]]  # (field path, text) to embed


class FileSystemStore(BaseStore):
    """A LangGraph `BaseStore` that keeps each item as a JSON file in a folder tree.

    Namespaces become folders and keys become file names, so memory can be read, diffed
    and committed like any other project file. It supports every `BaseStore` operation
    (get, put, delete, search with filters and pagination, `list_namespaces`), LangGraph's
    TTL (`ttl=TTLConfig(...)`, `put(..., ttl=minutes)`, `sweep_ttl()`, a sweeper thread) and
    semantic search when given an `IndexConfig` with embeddings.

    Args:
        root: The folder holding the store; created on the first write.
        index: Optional semantic-search configuration (`dims`, `embed`, `fields`), as for
            LangGraph's `InMemoryStore`. Embeddings are stored in the item files.
        ttl: Optional TTL configuration: `default_ttl` (minutes), `refresh_on_read`,
            `sweep_interval_minutes`.
        lock_timeout: Seconds to wait for another writer's item lock before raising
            `filelock.Timeout`.

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
        self._lock_dir = os.path.join(self.root, _LOCK_DIR)
        self._cache: dict[str, _Cached] = {}
        self._stripes = [threading.Lock() for _ in range(_STRIPES)]
        self._sweeper: threading.Thread | None = None
        self._sweeper_stop = threading.Event()

    # ------------------------------------------------------------------ BaseStore API

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run a batch of operations; reads see the store as it was before the batch's writes.

        Every operation is validated before anything is written, so an invalid op leaves the
        disk unchanged. Writes to the same item are deduplicated (the last one wins).

        Args:
            ops: `GetOp`, `SearchOp`, `ListNamespacesOp` and `PutOp` operations.

        Returns:
            One result per op: an `Item` or `None`, a list of `SearchItem`, a list of
            namespaces, or `None` for writes.

        Raises:
            InvalidNamespaceError: On an invalid namespace.
            TypeError: On a value that is not a JSON-serialisable dict.
            ValueError: On a NUL in a key, NaN in a value, or an unknown filter operator.
        """
        ops = list(ops)
        puts = self._prepare(ops)
        results: list[Result] = [None] * len(ops)
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

    # ------------------------------------------------------------------ atomic update

    def atomic_update(
        self,
        namespace: tuple[str, ...],
        key: str,
        fn: Callable[[dict[str, Any] | None], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Read, transform and write one item while holding its exclusive lock.

        No other thread or process can write the item between the read and the write, so
        concurrent read-modify-write cycles (counters, appends) never lose an update.
        An existing TTL is kept (and, as with any write, its expiry restarts).

        Args:
            namespace: The item's namespace.
            key: The item's key.
            fn: Receives the current value (`None` if absent or expired) and returns the new
                value. It runs under the lock: keep it short and do not write the same item
                from inside it.

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
        self._check_put_target(namespace, key)
        default_ttl = self.ttl_config.get("default_ttl") if self.ttl_config else None
        dirpath, name, path = self._item_path(namespace, key)
        with self._item_lock(namespace, key):
            now = _now()
            record = self._live(self._load(path), namespace, key, now)
            new_value = fn(record.fresh_value() if record is not None else None)
            if not isinstance(new_value, Mapping):
                msg = (
                    f"atomic_update's function must return a dict, got "
                    f"{type(new_value).__name__}; nothing was written."
                )
                raise TypeError(msg)
            value = dict(new_value)
            check_value(value)
            ttl = record.ttl_minutes if record is not None else default_ttl
            vectors = self._embed_one(self._texts_for(value, None))
            self._write_locked(namespace, key, dirpath, name, value, ttl, vectors, record, now)
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

    # ------------------------------------------------------------------ TTL

    def sweep_ttl(self) -> int:
        """Delete every expired item now.

        Returns:
            The number of items deleted.
        """
        expired = [(path, rec) for path, rec in self._scan(self.root) if rec.is_expired(_now())]
        deleted = 0
        for path, rec in expired:
            with self._item_lock(rec.namespace, rec.key):
                # Re-check under the lock: a writer may have refreshed the item meanwhile.
                current = self._load(path)
                if current is None or not current.is_expired(_now()):
                    continue
                if self._unlink(path):
                    deleted += 1
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
        """Stop the TTL sweeper, if any. The store holds no other resources."""
        self.stop_ttl_sweeper()

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

    # ------------------------------------------------------------------ paths & cache

    def _dir_path(self, namespace: tuple[str, ...]) -> str:
        return os.path.join(self.root, *map(encode_component, namespace))

    def _item_path(self, namespace: tuple[str, ...], key: str) -> tuple[str, str, str]:
        dirpath = self._dir_path(namespace)
        name = item_file_name(key)
        return dirpath, name, os.path.join(dirpath, name)

    def _load(self, path: str, st: os.stat_result | None = None) -> Record | None:
        """Return the parsed item at `path` (`None` if missing or unreadable), via the cache."""
        if st is None:
            try:
                st = os.stat(path)
            except (FileNotFoundError, NotADirectoryError):
                self._cache.pop(path, None)
                return None
        cached = self._cache.get(path)
        if (
            cached is not None
            and cached.ino == st.st_ino
            and cached.mtime_ns == st.st_mtime_ns
            and cached.size == st.st_size
            and cached.parsed_at_ns - cached.mtime_ns > _RACY_WINDOW_NS
        ):
            return cached.record
        return self._read(path, cached)

    def _read(self, path: str, previous: _Cached | None) -> Record | None:
        parsed_at = time.time_ns()
        loaded = read_with_stat(path)
        if loaded is None:
            self._cache.pop(path, None)
            return None
        data, st = loaded
        if not stat.S_ISREG(st.st_mode):
            return None
        record: Record | None
        try:
            record = parse_document(data)
        except CorruptItemError as exc:
            record = None
            problem = str(exc)
        else:
            problem = ""
            if self._item_path(record.namespace, record.key)[2] != path:
                record = None
                problem = "its namespace and key belong to another file name (moved by hand?)"
        if record is None and not (
            previous is not None
            and previous.record is None
            and previous.ino == st.st_ino
            and previous.mtime_ns == st.st_mtime_ns
        ):
            logger.warning("Ignoring store file %s: %s. Fix or delete it.", path, problem)
        self._cache[path] = _Cached(st.st_ino, st.st_mtime_ns, st.st_size, parsed_at, record)
        return record

    @staticmethod
    def _live(
        record: Record | None, namespace: tuple[str, ...], key: str, now: float
    ) -> Record | None:
        if record is None or record.is_expired(now):
            return None
        if record.namespace != namespace or record.key != key:
            return None
        return record

    def _scan(self, start: str) -> Iterator[tuple[str, Record]]:
        """Yield every readable item file under `start` (depth first, unsorted)."""
        stack = [start]
        while stack:
            directory = stack.pop()
            try:
                entries = os.scandir(directory)
            except (FileNotFoundError, NotADirectoryError):
                continue
            with entries:
                for entry in entries:
                    name = entry.name
                    if name.startswith("."):
                        continue
                    if name.endswith(ITEM_SUFFIX):
                        try:
                            st = entry.stat(follow_symlinks=False)
                        except FileNotFoundError:
                            continue
                        if not stat.S_ISREG(st.st_mode):
                            continue
                        record = self._load(entry.path, st)
                        if record is not None:
                            yield entry.path, record
                    elif entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)

    # ------------------------------------------------------------------ reads

    def _get(self, op: GetOp, now: float) -> Item | None:
        if not isinstance(op.key, str) or "\x00" in op.key:
            return None
        dirpath, name, path = self._item_path(op.namespace, op.key)
        record = self._live(self._load(path), op.namespace, op.key, now)
        if record is None:
            return None
        if op.refresh_ttl:
            self._refresh([(path, record)], now)
        return Item(
            value=record.fresh_value(),
            key=record.key,
            namespace=record.namespace,
            created_at=record.created_at,
            updated_at=record.updated_at,
        )

    def _search(self, op: SearchOp, now: float) -> list[SearchItem]:
        hits = [
            (path, rec)
            for path, rec in self._scan(self._dir_path(op.namespace_prefix))
            if not rec.is_expired(now) and matches(rec.value, op.filter)
        ]
        scores: dict[str, float] = {}
        if op.query and self.embeddings is not None:
            query_vector = self.embeddings.embed_query(op.query)
            for path, rec in hits:
                if rec.vectors:
                    scores[path] = max(_cosine(query_vector, v) for v in rec.vectors.values())
        # Newest first, like SQLite and PostgreSQL stores; ties by namespace then key.
        hits.sort(key=lambda hit: (hit[1].namespace, hit[1].key))
        hits.sort(key=lambda hit: hit[1].updated_ts, reverse=True)
        if scores:
            # Scored items by similarity, then unscored ones (Python's sort is stable).
            hits.sort(key=lambda hit: -scores.get(hit[0], -math.inf))
        page = hits[op.offset : op.offset + op.limit] if op.offset >= 0 else []
        if op.refresh_ttl:
            self._refresh(page, now)
        return [
            SearchItem(
                namespace=rec.namespace,
                key=rec.key,
                value=rec.fresh_value(),
                created_at=rec.created_at,
                updated_at=rec.updated_at,
                score=scores.get(path) if scores else None,
            )
            for path, rec in page
        ]

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
        found: set[tuple[str, ...]] = set()
        stack = [self._dir_path(tuple(start))]
        while stack:
            directory = stack.pop()
            try:
                entries = list(os.scandir(directory))
            except (FileNotFoundError, NotADirectoryError):
                continue
            has_live_item = False
            for entry in entries:
                name = entry.name
                if name.startswith("."):
                    continue
                if name.endswith(ITEM_SUFFIX):
                    if has_live_item:
                        continue
                    record = self._load(entry.path)
                    if record is not None and not record.is_expired(now):
                        has_live_item = True
                        found.add(record.namespace)
                elif entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
        namespaces = [ns for ns in found if all(_matches_condition(c, ns) for c in conditions)]
        if op.max_depth is not None:
            namespaces = sorted({ns[: op.max_depth] for ns in namespaces})
        else:
            namespaces.sort()
        return namespaces[op.offset : op.offset + op.limit]

    # ------------------------------------------------------------------ writes

    def _check_put_target(self, namespace: tuple[str, ...], key: str) -> None:
        if not isinstance(namespace, tuple):
            msg = f"A namespace must be a tuple of strings, got {type(namespace).__name__}."
            raise InvalidNamespaceError(msg)
        validate_op_namespace(GetOp(namespace, key))
        if not namespace:
            msg = "Namespace cannot be empty: give at least one label, e.g. ('memory',)."
            raise InvalidNamespaceError(msg)
        if namespace[0] == "langgraph":
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
        self._check_put_target(op.namespace, op.key)
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
        position = 0
        touched: set[str] = set()
        for put in puts:
            dirpath, name, path = self._item_path(put.namespace, put.key)
            with self._item_lock(put.namespace, put.key):
                if put.value is None:
                    self._unlink(path)
                    continue
                now = _now()
                vectors = None
                if put.texts:
                    chunk = flat[position : position + len(put.texts)]
                    position += len(put.texts)
                    vectors = {p: list(v) for (p, _), v in zip(put.texts, chunk, strict=True)}
                existing = self._live(self._load(path), put.namespace, put.key, now)
                self._write_locked(
                    put.namespace,
                    put.key,
                    dirpath,
                    name,
                    put.value,
                    put.ttl_minutes,
                    vectors,
                    existing,
                    now,
                    sync_dir=False,
                )
                touched.add(dirpath)
        # One directory sync per folder for the whole batch.
        for dirpath in touched:
            fsync_dir(dirpath)

    def _write_locked(
        self,
        namespace: tuple[str, ...],
        key: str,
        dirpath: str,
        name: str,
        value: Mapping[str, Any],
        ttl_minutes: float | None,
        vectors: Mapping[str, list[float]] | None,
        existing: Record | None,
        now: float,
        *,
        sync_dir: bool = True,
        updated_at: datetime | None = None,
    ) -> None:
        moment = datetime.fromtimestamp(now, tz=timezone.utc)
        data = encode_document(
            namespace=namespace,
            key=key,
            value=value,
            created_at=existing.created_at if existing is not None else moment,
            updated_at=updated_at or moment,
            ttl_minutes=ttl_minutes,
            expires_at=(
                datetime.fromtimestamp(now + ttl_minutes * 60, tz=timezone.utc)
                if ttl_minutes is not None
                else None
            ),
            vectors=vectors,
        )
        parts = tuple(map(encode_component, namespace))
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                atomic_write(dirpath, name, data, sync_dir=sync_dir)
                return
            except FileNotFoundError:
                # The folder is new, or a concurrent delete just pruned it: (re)create it.
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
                ensure_dir(self.root, parts)

    def _unlink(self, path: str) -> bool:
        self._cache.pop(path, None)
        try:
            os.unlink(path)
        except FileNotFoundError:
            return False
        directory = os.path.dirname(path)
        fsync_dir(directory)
        remove_empty_dirs(self.root, directory)
        return True

    def _refresh(self, hits: list[tuple[str, Record]], now: float) -> None:
        """Restart the TTL of items just read, rewriting only when it moves noticeably."""
        for path, rec in hits:
            if rec.ttl_minutes is None:
                continue
            ttl_s = rec.ttl_minutes * 60
            # Rewriting a file on every read would make reads as costly as writes; an expiry
            # that moves by less than 5% of the TTL (at most a minute) is left as it is.
            slack = min(ttl_s * 0.05, 60.0)
            if rec.expires_ts is not None and now + ttl_s - rec.expires_ts < slack:
                continue
            dirpath, name = os.path.split(path)
            with self._item_lock(rec.namespace, rec.key):
                current = self._live(self._load(path), rec.namespace, rec.key, _now())
                if current is None or current.ttl_minutes is None:
                    continue
                self._write_locked(
                    current.namespace,
                    current.key,
                    dirpath,
                    name,
                    current.value,
                    current.ttl_minutes,
                    current.vectors,
                    current,
                    _now(),
                    updated_at=current.updated_at,
                )

    @contextlib.contextmanager
    def _item_lock(self, namespace: tuple[str, ...], key: str) -> Iterator[None]:
        lock_name = lock_file_name(namespace, key)
        # Threads of this process queue on a cheap in-process lock first; the file lock then
        # only arbitrates between processes (it polls, which is slow under contention).
        with self._stripes[hash(lock_name) % _STRIPES]:
            os.makedirs(self._lock_dir, exist_ok=True)
            lock = FileLock(
                os.path.join(self._lock_dir, lock_name),
                timeout=self._lock_timeout,
                poll_interval=0.002,
            )
            with lock:
                yield


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


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(map(operator.mul, a, b))
    norm = math.sqrt(sum(map(operator.mul, a, a))) * math.sqrt(sum(map(operator.mul, b, b)))
    return dot / norm if norm else 0.0
