"""Storage backends: the embedded `FileSystemStore` and the atomic-update protocol.

Any LangGraph `BaseStore` works as a backend. Stores that can also run a read-modify-write
cycle under an exclusive lock implement `SupportsAtomicUpdate`; the Memory layer uses it to
advance its persisted turn counter from several processes without losing increments.
`FileSystemStore` also offers `lock(namespace)` / `alock(namespace)` (a namespace lock
across threads, tasks and processes), crash recovery (`recover`, `RecoveryReport`) and
refuses links under its root (`UnsafePathError`). `open_store_url` opens LangGraph's
`PostgresStore` or `SqliteStore` from `postgresql://...` or `sqlite:///...` (what
`ContextChef(store=...)` and the CLI's `--store` accept).

Example:
    ```python
    import tempfile
    from langchain_contextchef.store import FileSystemStore, SupportsAtomicUpdate

    store = FileSystemStore(tempfile.mkdtemp())
    assert isinstance(store, SupportsAtomicUpdate)
    store.atomic_update(("clock",), "turn", lambda cur: {"turn": 1})
    ```
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

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
    "SupportsAtomicUpdate",
    "UnsafePathError",
    "is_store_url",
    "open_store_url",
]


@runtime_checkable
class SupportsAtomicUpdate(Protocol):
    """A store that can read, transform and write one item under an exclusive lock."""

    def atomic_update(
        self,
        namespace: tuple[str, ...],
        key: str,
        fn: Callable[[dict[str, Any] | None], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Apply `fn` to the current value (`None` if absent) and store its result.

        Args:
            namespace: The item's namespace.
            key: The item's key.
            fn: Maps the current value to the new value; runs while the item is locked.

        Returns:
            The value written.
        """
        ...

    async def aatomic_update(
        self,
        namespace: tuple[str, ...],
        key: str,
        fn: Callable[[dict[str, Any] | None], Mapping[str, Any]],
    ) -> dict[str, Any]:
        """Async twin of `atomic_update`."""
        ...
