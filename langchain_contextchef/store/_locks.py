"""Locks that span threads and processes, kept in the store's `.locks` folder.

* `ProcessLock` – an exclusive lock on one lock file (`flock` on POSIX, `msvcrt.locking` on
  Windows), opened without following links so a planted link can never make the store
  create or truncate a file outside the root. The lock is released by the kernel when its
  holder dies, so a killed process never leaves a lock behind.
* `ThreadedLock` – a `ProcessLock` plus an in-process `RLock`: re-entrant in one thread,
  exclusive between threads and processes. Folder write locks use it.
* `OwnedLock` – the same, re-entrant for an *owner* (a thread, or an asyncio task, see
  `current_owner`), so the async scope lock can be taken in a worker thread and released
  on the event loop.

Lock files are never deleted (deleting a lock file races with processes about to lock it).
A released lock keeps its file open (up to `KEPT_LOCK_FILES` per process, on POSIX), so the
next acquire checks with one `stat` that the path still names that file instead of opening
the folder and the file again; a forked child closes every kept descriptor, so a parent that
dies holding a lock still releases it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import stat
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator

from filelock import Timeout

from langchain_contextchef.store._fsio import FILE_MODE, UnsafePathError, open_dir
from langchain_contextchef.store._paths import LOCK_DIR

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                return False
            raise
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


__all__ = [
    "LogLock",
    "OwnedLock",
    "ProcessLock",
    "ThreadedLock",
    "Timeout",
    "current_owner",
    "deadline_for",
    "release_all",
]

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_POLL_MIN = 0.0005
_POLL_MAX = 0.01

KEPT_LOCK_FILES = 64
"""How many released lock files a process keeps open for its next acquire."""
# Windows locks byte ranges through `msvcrt`; it reopens the file on every acquire.
_KEEP = sys.platform != "win32"


class _KeptFiles:
    """The descriptors of released lock files, least recently released first.

    A lock takes its descriptor out before using it, under the guard, so closing the oldest
    one to stay within the limit never closes a descriptor in use.
    """

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.fds: OrderedDict[ProcessLock, int] = OrderedDict()

    def take(self, lock: ProcessLock) -> int | None:
        with self.guard:
            return self.fds.pop(lock, None)

    def keep(self, lock: ProcessLock, fd: int) -> None:
        evicted = []
        with self.guard:
            self.fds[lock] = fd
            while len(self.fds) > KEPT_LOCK_FILES:
                evicted.append(self.fds.popitem(last=False)[1])
        for old in evicted:
            with contextlib.suppress(OSError):
                os.close(old)

    def close_all(self) -> None:
        with self.guard:
            fds = list(self.fds.values())
            self.fds.clear()
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)


_KEPT = _KeptFiles()


def _forget_kept_after_fork() -> None:
    # The child's copies share the parent's open files, and so its locks: a copy left open
    # would keep a lock alive after the parent died holding it.
    global _KEPT
    for fd in _KEPT.fds.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _KEPT = _KeptFiles()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_kept_after_fork)


def deadline_for(timeout: float | None) -> float | None:
    """The `time.monotonic()` moment a wait of `timeout` seconds ends (`None`: never)."""
    return None if timeout is None or timeout < 0 else time.monotonic() + timeout


def current_owner() -> object:
    """Who holds an `OwnedLock`: the running asyncio task if any, else the thread."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        task = None
    return task if task is not None else threading.current_thread()


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


class ProcessLock:
    """An exclusive lock between processes on `root/.locks/<name>` (not between threads).

    Any thread may release what another took. The callers (`ThreadedLock`, `LogLock`,
    `OwnedLock`) let one holder in at a time within the process.
    """

    __slots__ = ("_fd", "_ident", "name", "path", "root")

    def __init__(self, root: str, name: str) -> None:
        self.root = root
        self.name = name
        self.path = os.path.join(root, LOCK_DIR, name)
        """Where the lock file lives."""
        self._fd: int | None = None
        # `(st_ino, st_dev)` of the file the kept descriptor has open, once an `fstat` told
        # it: an open descriptor's inode number cannot be reused, so later checks compare
        # the path's `lstat` with it and need no `fstat`.
        self._ident: tuple[int, int] | None = None

    def _open(self) -> int:
        kept = _KEPT.take(self) if _KEEP else None
        if kept is not None:
            try:
                now = os.stat(self.path, follow_symlinks=False)
                if self._ident is None:
                    held = os.fstat(kept)
                    self._ident = (held.st_ino, held.st_dev)
            except OSError:
                now = None
            if now is not None and (now.st_ino, now.st_dev) == self._ident:
                return kept  # the path still names the file this descriptor has open
            with contextlib.suppress(OSError):
                os.close(kept)  # replaced or removed by hand: open what the path names now
        return self._open_file()

    def _open_file(self) -> int:
        self._ident = None  # a new descriptor: its file is told by the next check's `fstat`
        folder, _ = open_dir(self.root, (LOCK_DIR,), create=True)
        assert folder is not None  # created on demand
        with folder:
            flags = os.O_RDWR | os.O_CREAT | _O_NOFOLLOW | _O_CLOEXEC
            st = folder.lstat(self.name)
            if st is not None and not _is_regular(st):
                msg = (
                    f"Refusing to use the lock file {self.path!r}: it is not a regular file "
                    "(a link or a folder?). Remove it; the store recreates it."
                )
                raise UnsafePathError(msg)
            if folder.fd is not None:
                return os.open(self.name, flags, FILE_MODE, dir_fd=folder.fd)
            return os.open(folder.join(self.name), flags, FILE_MODE)

    def acquire(self, deadline: float | None, *, blocking: bool = True) -> bool:
        """Take the lock, waiting until `deadline` (monotonic seconds; `None`: forever).

        Returns:
            `True` once held; `False` if `blocking` is false and another process holds it.

        Raises:
            Timeout: If the deadline passes first.
        """
        fd = self._open()
        pause = _POLL_MIN
        try:
            while not _try_lock(fd):
                if not blocking:
                    self._put_back(fd)
                    return False
                left = _remaining(deadline)
                if left is not None and left <= 0:
                    raise Timeout(self.path)
                time.sleep(pause if left is None else min(pause, left))
                pause = min(pause * 2, _POLL_MAX)
        except BaseException:
            with contextlib.suppress(OSError):
                os.close(fd)
            raise
        self._fd = fd
        return True

    def forget_inherited(self) -> None:
        """In a forked child: close the copy of a descriptor the parent still holds locked.

        Closing (never unlocking) leaves the parent's lock intact; keeping the copy open would
        keep the lock held after the parent releases it.
        """
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def release(self) -> None:
        """Give the lock up (closing the descriptor releases it too, even on error)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            _unlock(fd)
        except BaseException:
            os.close(fd)
            raise
        self._put_back(fd)

    def _put_back(self, fd: int) -> None:
        """Keep an unlocked descriptor for the next acquire (or close it)."""
        if _KEEP:
            _KEPT.keep(self, fd)
        else:
            os.close(fd)


def _is_regular(st: os.stat_result) -> bool:
    return stat.S_ISREG(st.st_mode)


class ThreadedLock:
    """Exclusive between threads and processes, re-entrant within one thread."""

    __slots__ = ("_depth", "_file", "_rlock")

    def __init__(self, root: str, name: str) -> None:
        self._rlock = threading.RLock()
        self._file = ProcessLock(root, name)
        self._depth = 0  # only the thread holding `_rlock` touches it

    @property
    def name(self) -> str:
        """The lock file's name."""
        return self._file.name

    def forget_inherited(self) -> None:
        """In a forked child: drop the parent's hold (see `ProcessLock.forget_inherited`)."""
        self._file.forget_inherited()

    def acquire(self, deadline: float | None, *, blocking: bool = True) -> bool:
        """Take the lock; see `ProcessLock.acquire`."""
        if blocking:
            left = _remaining(deadline)
            got = self._rlock.acquire(True, -1 if left is None else left)
        else:
            got = self._rlock.acquire(False)
        if not got:
            if blocking:
                raise Timeout(self._file.path)
            return False
        if self._depth == 0:
            try:
                if not self._file.acquire(deadline, blocking=blocking):
                    self._rlock.release()
                    return False
            except BaseException:
                self._rlock.release()
                raise
        self._depth += 1
        return True

    def release(self) -> None:
        """Release one level; the file lock goes when the outermost level does."""
        self._depth -= 1
        try:
            if self._depth == 0:
                self._file.release()
        finally:
            self._rlock.release()


class LogLock:
    """Exclusive between threads and processes, not re-entrant: the redo log's lock.

    Held briefly (a record's append and apply), never while waiting for a folder lock.
    """

    __slots__ = ("_file", "_lock")

    def __init__(self, root: str, name: str) -> None:
        self._lock = threading.Lock()
        self._file = ProcessLock(root, name)

    def forget_inherited(self) -> None:
        """In a forked child: drop the parent's hold (see `ProcessLock.forget_inherited`)."""
        self._file.forget_inherited()

    def acquire(self, deadline: float | None, *, blocking: bool = True) -> bool:
        """Take the lock; see `ProcessLock.acquire`."""
        if blocking:
            left = _remaining(deadline)
            got = self._lock.acquire(True, -1 if left is None else left)
        else:
            got = self._lock.acquire(False)
        if not got:
            if blocking:
                raise Timeout(self._file.path)
            return False
        try:
            if not self._file.acquire(deadline, blocking=blocking):
                self._lock.release()
                return False
        except BaseException:
            self._lock.release()
            raise
        return True

    def release(self) -> None:
        """Give the lock up."""
        try:
            self._file.release()
        finally:
            self._lock.release()

    @contextlib.contextmanager
    def held(self, deadline: float | None) -> Iterator[None]:
        """Hold the lock inside a `with` block (waiting until `deadline`)."""
        self.acquire(deadline, blocking=True)
        try:
            yield
        finally:
            self.release()


class OwnedLock:
    """Exclusive between owners and processes, re-entrant for one owner.

    An owner is any hashable identity: the current asyncio task when one runs, else the
    thread. Waiting happens on a condition variable, never while holding the file lock.
    """

    __slots__ = ("_cond", "_depth", "_file", "_owner")

    def __init__(self, root: str, name: str) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._file = ProcessLock(root, name)
        self._owner: object | None = None
        self._depth = 0

    def _claim(self, owner: object, deadline: float | None, blocking: bool) -> bool | None:
        """Claim the in-process side; `None` when `owner` already held it (re-entry)."""
        with self._cond:
            if self._owner is owner:
                self._depth += 1
                return None
            while self._owner is not None:
                if not blocking:
                    return False
                left = _remaining(deadline)
                if left is not None and left <= 0:
                    raise Timeout(self._file.path)
                self._cond.wait(left)
            self._owner = owner
            self._depth = 1
            return True

    def forget_inherited(self) -> None:
        """In a forked child: drop the parent's hold (see `ProcessLock.forget_inherited`)."""
        self._file.forget_inherited()

    def _unclaim(self) -> None:
        with self._cond:
            self._owner = None
            self._depth = 0
            self._cond.notify_all()

    def acquire(self, owner: object, deadline: float | None, *, blocking: bool = True) -> bool:
        """Take the lock for `owner`.

        Returns:
            `True` once held; `False` if `blocking` is false and someone else holds it.

        Raises:
            Timeout: If the deadline passes first.
        """
        claimed = self._claim(owner, deadline, blocking)
        if claimed is None:
            return True
        if not claimed:
            return False
        try:
            got = self._file.acquire(deadline, blocking=blocking)
        except BaseException:
            self._unclaim()
            raise
        if not got:
            self._unclaim()
        return got

    async def aacquire(self, owner: object, deadline: float | None) -> None:
        """Take the lock for `owner` without blocking the event loop.

        Opening the lock file and waiting happen in a worker thread, so no file system call
        runs on the event loop (LangGraph Server's dev mode refuses those); a cancelled wait
        never leaves the lock held.

        Raises:
            Timeout: If the deadline passes first.
        """
        loop = asyncio.get_running_loop()
        waiting = loop.run_in_executor(None, self.acquire, owner, deadline)
        try:
            await asyncio.shield(waiting)
        except asyncio.CancelledError:
            # The worker thread may still get the lock: give it back when it does.
            def undo(done: asyncio.Future[bool]) -> None:
                if not done.cancelled() and done.exception() is None:
                    self.release(owner)

            waiting.add_done_callback(undo)
            raise

    def release(self, owner: object) -> None:
        """Release one level held by `owner`.

        Raises:
            RuntimeError: If `owner` does not hold the lock.
        """
        with self._cond:
            if self._owner is not owner:
                msg = "This scope lock is not held by the caller (thread or task)."
                raise RuntimeError(msg)
            self._depth -= 1
            if self._depth:
                return
            try:
                self._file.release()
            finally:
                self._owner = None
                self._cond.notify_all()


def release_all(held: list[ThreadedLock]) -> None:
    """Release locks taken in order (see `Recovery.acquire_all`), last first."""
    for lock in reversed(held):
        lock.release()
    held.clear()
