"""SQLite sections: a file lock beside the database file, one lock file per scope.

A sync section keeps the scope's lock file open and locks it with `flock`, the same lock
filelock takes on the same file, so sync sections, async sections (a new `FileLock` each
time) and older processes all exclude each other.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

from filelock import FileLock
from langgraph.store.base import BaseStore

from langchain_contextchef._sections._waiting import POLL as _POLL
from langchain_contextchef._sections._waiting import scope_key as _scope_key
from langchain_contextchef._sections._waiting import timed_out as _timed_out

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "SQLITE_PATHS",
    "asqlite_path",
    "file_lock",
    "kept_file_lock",
    "lock_path",
    "sqlite_path",
]


SQLITE_PATHS: weakref.WeakKeyDictionary[BaseStore, str] = weakref.WeakKeyDictionary()
"""The database file of each SQLite store seen, once asked (`sqlite_path`, `asqlite_path`)."""


def sqlite_path(store: BaseStore) -> str:
    """The main database file of a sync `SqliteStore` ("" for an in-memory database)."""
    if store in SQLITE_PATHS:
        return SQLITE_PATHS[store]
    conn: Any = store.conn  # type: ignore[attr-defined]
    with store.lock:  # type: ignore[attr-defined]
        rows = conn.execute("PRAGMA database_list").fetchall()
    path = next((str(row[2]) for row in rows if row[1] == "main"), "")
    SQLITE_PATHS[store] = path
    return path


async def asqlite_path(store: BaseStore) -> str:
    if store in SQLITE_PATHS:
        return SQLITE_PATHS[store]
    conn: Any = store.conn  # type: ignore[attr-defined]
    async with store.lock:  # type: ignore[attr-defined]
        cursor = await conn.execute("PRAGMA database_list")
        rows = await cursor.fetchall()
    path = next((str(row[2]) for row in rows if row[1] == "main"), "")
    SQLITE_PATHS[store] = path
    return path


class _KeptFlock:
    """The sync sections' lock on one scope of one database file, in one process.

    The lock file stays open (opening it is most of what a `FileLock` costs per section) and
    is locked with `flock`, which filelock uses too, on the same file: the two interoperate.
    A `flock` belongs to the open file, not the thread, so a thread lock comes first. Kept
    per process id: a forked child opens its own descriptor.
    """

    __slots__ = ("fd", "guard", "path")

    def __init__(self, path: str) -> None:
        self.path, self.fd, self.guard = path, -1, threading.Lock()

    def __del__(self) -> None:  # dropped from the cache, so held by nobody
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)

    @contextlib.contextmanager
    def hold(self, scope: tuple[str, ...], timeout: float) -> Iterator[None]:
        deadline = time.monotonic() + timeout
        if not self.guard.acquire(timeout=timeout):
            raise _timed_out(scope, timeout)
        try:
            if self.fd < 0:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            pause = _POLL[0]
            while True:
                try:
                    fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise _timed_out(scope, timeout) from None
                    time.sleep(pause)
                    pause = min(pause * 2, _POLL[1])
            try:
                yield
            finally:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.guard.release()


@functools.lru_cache(maxsize=1024)
def _kept_flock(pid: int, database: str, scope: tuple[str, ...]) -> _KeptFlock:
    return _KeptFlock(lock_path(database, scope))


def kept_file_lock(
    database: str, scope: tuple[str, ...], timeout: float
) -> contextlib.AbstractContextManager[Any]:
    # The sync sections' lock, kept per scope (a lock object costs more to make than to take).
    # Not for the async sections, which take it in a worker thread and release it in the
    # event loop's: they make a new `FileLock` each time.
    if fcntl is None:  # pragma: no cover - Windows: filelock's own lock, kept likewise
        return _kept_filelock(database, scope, timeout)
    return _kept_flock(os.getpid(), database, scope).hold(scope, timeout)


@functools.lru_cache(maxsize=1024)
def _kept_filelock(database: str, scope: tuple[str, ...], timeout: float) -> FileLock:
    return file_lock(database, scope, timeout)  # pragma: no cover - Windows


def lock_path(database: str, scope: tuple[str, ...]) -> str:
    folder = database + "-contextchef-locks"
    os.makedirs(folder, 0o700, exist_ok=True)  # beside personal data: owner only
    name = hashlib.blake2b(_scope_key(scope).encode(), digest_size=16).hexdigest()
    return os.path.join(folder, name + ".lock")


def file_lock(database: str, scope: tuple[str, ...], timeout: float) -> FileLock:
    return FileLock(lock_path(database, scope), timeout=timeout, poll_interval=0.002)
