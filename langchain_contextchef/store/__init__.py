"""Storage backends: the embedded `FileSystemStore`.

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
