"""The lock objects of a store root, one table per root and process.

Every `FileSystemStore` object on a root shares the table of that root's real path, so two
store objects (even through different links to the root) exclude each other's threads and
re-enter each other's scope locks. A forked child starts with an empty table.
"""

from __future__ import annotations

import os
import threading

from langchain_contextchef.store._locks import LogLock, OwnedLock, ThreadedLock

__all__ = ["LockTable", "lock_table"]


class LockTable:
    """The lock objects of one root, shared by every store object on it in this process."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._guard = threading.Lock()
        self._dirs: dict[str, ThreadedLock] = {}
        self._scopes: dict[str, OwnedLock] = {}
        self._logs: dict[str, LogLock] = {}

    def dir_lock(self, name: str) -> ThreadedLock:
        """The write lock of a folder, by lock file name."""
        lock = self._dirs.get(name)
        if lock is None:
            with self._guard:
                lock = self._dirs.setdefault(name, ThreadedLock(self.root, name))
        return lock

    def forget_inherited(self) -> None:
        """In a forked child: close the descriptors of locks the parent held at the fork."""
        for dir_lock in list(self._dirs.values()):
            dir_lock.forget_inherited()
        for scope in list(self._scopes.values()):
            scope.forget_inherited()
        for log in list(self._logs.values()):
            log.forget_inherited()

    def log_lock(self, name: str) -> LogLock:
        """The lock of the root's redo log, by lock file name."""
        lock = self._logs.get(name)
        if lock is None:
            with self._guard:
                lock = self._logs.setdefault(name, LogLock(self.root, name))
        return lock

    def scope_lock(self, name: str) -> OwnedLock:
        """A scope lock (`FileSystemStore.lock`), by lock file name."""
        lock = self._scopes.get(name)
        if lock is None:
            with self._guard:
                lock = self._scopes.setdefault(name, OwnedLock(self.root, name))
        return lock


_TABLES: dict[str, LockTable] = {}
_TABLES_GUARD = threading.Lock()


def lock_table(real_root: str) -> LockTable:
    """The process-wide lock table of a root, by its real path.

    Keyed by the real path: two store objects on one root (even through different links to
    it) share their locks, so re-entrancy and thread exclusion work across them.
    """
    table = _TABLES.get(real_root)
    if table is None:
        with _TABLES_GUARD:
            table = _TABLES.get(real_root)
            if table is None:
                table = _TABLES[real_root] = LockTable(real_root)
    return table


def _forget_tables_after_fork() -> None:
    # A forked child starts with fresh locks: one another thread of the parent held at the
    # fork would otherwise stay held forever in the child.
    global _TABLES_GUARD
    for table in list(_TABLES.values()):
        table.forget_inherited()
    _TABLES.clear()
    _TABLES_GUARD = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_tables_after_fork)
