"""Storage backends: the embedded `FileSystemStore`.

The package (this face re-exports `FileSystemStore`, `RecoveryReport` and `UnsafePathError`)::

    filesystem            `FileSystemStore`: batches, locks, TTL and search over the modules below
    _paths, _fsio         namespaces and keys as file names; file I/O that never follows a link
    _records              one item on disk: its JSON document and parsed record
    _prepare              a batch, checked before it touches the disk
    _writer, _journal     folder locks and commits; journals that make a batch all-or-nothing
    _recovery             crash recovery: unfinished journals and dead writers' leftovers
    _view, _listing       what a process knows of the tree; a folder's cached listing
    _reads, _filters      get, search and list; search filters with LangGraph's operators
    _expiry               TTL upkeep: deleting expired items, refreshing read ones
    _locks, _lock_table   locks across threads and processes in `.locks`; one table per root
    _semantic, _vectors   semantic search; cosine scores, vectorised when NumPy is installed

Any LangGraph `BaseStore` works as a backend (`InMemoryStore`, `SqliteStore`, `PostgresStore`,
...). `FileSystemStore` keeps one readable JSON file per item under a root folder and also
offers `lock(namespace)` / `alock(namespace)` (a namespace lock across threads, tasks and
processes), `atomic_update` (a read-modify-write of one item under that lock), crash
recovery (`recover`, `RecoveryReport`) and refuses links under its root (`UnsafePathError`).

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

from langchain_contextchef.store.filesystem import (
    FileSystemStore,
    RecoveryReport,
    UnsafePathError,
)

__all__ = ["FileSystemStore", "RecoveryReport", "UnsafePathError"]
