"""Storage backends: the embedded `FileSystemStore`.

The package (this face re-exports `FileSystemStore`, `RecoveryReport`, `UnsafePathError` and the
store URL helpers)::

    filesystem            `FileSystemStore`: batches, locks, TTL and search over the modules below
    _paths, _fsio         namespaces and keys as file names; file I/O that never follows a link
    _records              one item on disk: its JSON document and parsed record
    _prepare              a batch, checked before it touches the disk
    _writer, _journal     folder locks and commits; earlier versions' rename journals
    _redo                 the redo log: a batch's record carries its data, one flush per batch
    _recovery             crash recovery: unfinished journals and records, dead writers' leftovers
    _view, _listing       what a process knows of the tree; a folder's cached listing
    _reads, _filters      get, search and list; search filters with LangGraph's operators
    _expiry               TTL upkeep: deleting expired items, refreshing read ones
    _locks, _lock_table   locks across threads and processes in `.locks`; one table per root
    _semantic, _vectors   semantic search; cosine scores, vectorised when NumPy is installed
    _urls                 `postgresql://` and `sqlite:///` URLs opened as LangGraph's own stores

Any LangGraph `BaseStore` works as a backend (`InMemoryStore`, `SqliteStore`, `PostgresStore`,
...). `FileSystemStore` keeps one readable JSON file per item under a root folder and also
offers `lock(namespace)` / `alock(namespace)` (a namespace lock across threads, tasks and
processes), `atomic_update` (a read-modify-write of one item under that lock), crash
recovery (`recover`, `RecoveryReport`) and refuses links under its root (`UnsafePathError`).
`open_store_url` opens LangGraph's `PostgresStore` or `SqliteStore` from `postgresql://...` or
`sqlite:///...` (what `ContextChef(store=...)` and the CLI's `--store` accept).

Example:
    ```python
    import tempfile
    from langchain_contextchef.store import FileSystemStore

    store = FileSystemStore(tempfile.mkdtemp())
    store.atomic_update(("clock",), "turn", lambda cur: {"turn": 1})
    assert store.get(("clock",), "turn").value == {"turn": 1}
    ```
"""

from __future__ import annotations

from langchain_contextchef.store._urls import StoreUrlError, is_store_url, open_store_url
from langchain_contextchef.store.filesystem import (
    FileSystemStore,
    RecoveryReport,
    UnsafePathError,
)

__all__ = [
    "FileSystemStore",
    "RecoveryReport",
    "StoreUrlError",
    "UnsafePathError",
    "is_store_url",
    "open_store_url",
]
