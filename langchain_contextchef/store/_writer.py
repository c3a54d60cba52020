"""The write side of a `FileSystemStore`: folder locks, commits, journals and recovery.

Every write holds the write lock of each folder it touches (`locked`), taken in sorted
order, then `commit`s:

1. each new item is written to a temporary file in the root's staging folder `.tmp/` (or,
   for a folder on another file system, next to its target), flushed, and stamped; the
   file's name starts with the folder's lock name, so recovery can tell a live writer's
   file from a dead one's. A failure here (a full disk, a link in the way) deletes those
   files and the folders this write made, so the store is unchanged;
2. with more than one change, a journal commits the batch (see `_journal`);
3. the renames and deletes run, the folders are flushed and stamped, the journal goes.

Invariant: whoever holds a folder's lock first completes any committed journal that shares
a lock with it. Such a journal belongs to a dead writer (a live one would hold the lock),
and its batch happened before anything the lock holder is about to do.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime, timezone
from typing import Any, NamedTuple

from langchain_contextchef.store._fsio import (
    SafeDir,
    is_link,
    link_error,
    next_stamp,
    open_dir,
    read_file,
    remove_empty_dirs,
)
from langchain_contextchef.store._journal import (
    Journal,
    JournalOp,
    decode_journal,
    encode_journal,
    journal_file_name,
    lock_of_journal_file,
)
from langchain_contextchef.store._locks import OwnedLock, ThreadedLock, deadline_for
from langchain_contextchef.store._paths import (
    JOURNAL_DIR,
    JOURNAL_SUFFIX,
    LOCK_DIR,
    STAGING_DIR,
    dir_lock_name,
    is_temp_name,
    item_file_name,
    staged_file_name,
)
from langchain_contextchef.store._records import (
    CREATED,
    KEY,
    NS,
    Record,
    encode_document,
    is_expired,
    parse_document,
    restat,
)
from langchain_contextchef.store._view import DiskView, trusted

__all__ = ["LockTable", "RecoveryReport", "Write", "Writer", "lock_table"]

logger = logging.getLogger("langchain_contextchef.store.filesystem")

_WRITE_ATTEMPTS = 5
_GONE = object()


class RecoveryReport(NamedTuple):
    """What `FileSystemStore.recover` repaired."""

    replayed: int
    """Committed batches of crashed writers that were completed."""
    discarded: int
    """Uncommitted batch journals of crashed writers that were dropped."""
    removed_temp_files: int
    """Orphan temporary item files that were deleted."""


class Write(NamedTuple):
    """One change to apply under lock."""

    namespace: tuple[str, ...]
    key: str
    value: Mapping[str, Any] | None
    """The new value; `None` deletes."""
    ttl_minutes: float | None
    vectors: Mapping[str, list[float]] | None
    updated_at: datetime | None
    """Keep this update time (a TTL refresh); `None` means now."""


class LockTable:
    """The lock objects of one root, shared by every store object on it in this process."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._guard = threading.Lock()
        self._dirs: dict[str, ThreadedLock] = {}
        self._scopes: dict[str, OwnedLock] = {}

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


class _Open:
    """A folder a commit writes into, with its state before the write."""

    __slots__ = ("before", "dev", "folder", "ino", "lock", "made", "stamp", "staged", "temps")

    def __init__(self, folder: SafeDir, made: int, lock: str) -> None:
        st = os.fstat(folder.fd) if folder.fd is not None else os.stat(folder.path)
        self.folder = folder
        self.made = made  # index of the first folder name this write created
        self.lock = lock
        self.ino = st.st_ino
        self.dev = st.st_dev
        self.before = st.st_mtime_ns
        self.stamp = next_stamp(st.st_mtime_ns)
        self.temps: list[str] = []  # temporary files written in the folder itself
        self.staged: list[str] = []  # temporary files written in the staging folder


class _Staged(NamedTuple):
    parts: tuple[str, ...]
    name: str
    tmp: str | None  # None deletes
    staged: bool  # tmp is in the staging folder
    record: Record | None
    inode: int
    size: int


def _close(folders: dict[tuple[str, ...], _Open], staging: SafeDir | None) -> None:
    for opened in folders.values():
        opened.folder.close()
    if staging is not None:
        staging.close()


class Writer:
    """Commits, journals and recovery for one root (see the module docstring)."""

    def __init__(self, root: str, view: DiskView, lock_timeout: float) -> None:
        self.root = root
        self.view = view
        self._real_root = os.path.realpath(root)
        self.lock_timeout = lock_timeout
        self._journal_path = os.path.join(root, JOURNAL_DIR)
        self._journals: dict[str, Journal | None] = {}
        self._journal_sig: tuple[int, int] | None = None

    # ------------------------------------------------------------------ locking

    @property
    def locks(self) -> LockTable:
        """This process's lock objects for the root (fresh in a forked child)."""
        return lock_table(self._real_root)

    def acquire_all(self, names: Iterable[str], *, blocking: bool) -> list[ThreadedLock] | None:
        """Take folder locks in sorted order; `None` (nothing held) if one is busy."""
        deadline = deadline_for(self.lock_timeout)
        held: list[ThreadedLock] = []
        try:
            for name in sorted(set(names)):
                lock = self.locks.dir_lock(name)
                if not lock.acquire(deadline, blocking=blocking):
                    release_all(held)
                    return None
                held.append(lock)
        except BaseException:
            release_all(held)
            raise
        return held

    @contextlib.contextmanager
    def locked(self, folders: Iterable[tuple[str, ...]]) -> Iterator[None]:
        """Hold the write locks of these folders, with no dead writer's journal on them."""
        names = {dir_lock_name(parts) for parts in folders}
        while True:
            held = self.acquire_all(names, blocking=True)
            assert held is not None  # blocking acquisition either holds or raises
            if not self._dead_journal_for(names):
                break
            release_all(held)
            self.recover_journals(blocking=True)
        try:
            yield
        finally:
            release_all(held)

    # ------------------------------------------------------------------ commits

    def commit(self, writes: list[Write], now: float, *, journal: bool = True) -> int:
        """Apply writes whose folder locks are held; several are all-or-nothing.

        Args:
            writes: The changes, at most one per item.
            now: The write time (POSIX seconds).
            journal: Journal a multi-item write (off for TTL refreshes and sweeps, whose
                items are independent).

        Returns:
            How many items were written or deleted (deletes of missing items not counted).
        """
        folders: dict[tuple[str, ...], _Open] = {}
        staged: list[_Staged] = []
        committed: str | None = None
        staging: SafeDir | None = None
        try:
            for write in writes:
                dirpath, parts = self.view.dir_of(write.namespace)
                name = item_file_name(write.key)
                opened = folders.get(parts)
                if opened is None:
                    folder, made = self._open_for_write(parts, create=write.value is not None)
                    if folder is None:
                        continue  # deleting from a folder that does not exist: nothing to do
                    opened = folders[parts] = _Open(folder, made, dir_lock_name(parts))
                current = opened.folder.lstat(name)
                if current is not None and is_link(current):
                    raise link_error(opened.folder.join(name), "file")
                if write.value is None:
                    if current is not None:
                        staged.append(_Staged(parts, name, None, False, None, 0, 0))
                    continue
                data, record = self._document(write, dirpath + os.sep + name, now)
                if staging is None:
                    staging = open_dir(self.root, (STAGING_DIR,), create=True)[0]
                    assert staging is not None
                if staging.device() == opened.dev:
                    tmp = staged_file_name(opened.lock)
                    inode = staging.write_new(tmp, data, opened.stamp)
                    opened.staged.append(tmp)
                    staged.append(_Staged(parts, name, tmp, True, record, inode, len(data)))
                else:  # the folder is on another file system (a mount inside the root)
                    tmp, inode = opened.folder.write_temp(name, data, opened.stamp)
                    opened.temps.append(tmp)
                    staged.append(_Staged(parts, name, tmp, False, record, inode, len(data)))
            if journal and len(staged) > 1:
                committed = self._write_journal(
                    sorted({opened.lock for opened in folders.values()}),
                    [JournalOp(st.parts, st.name, st.tmp, st.staged) for st in staged],
                )
        except BaseException:
            self._abort(folders, staging)
            raise
        # From here the batch is committed: it completes now, or on recovery after a crash.
        try:
            for st in staged:
                folder = folders[st.parts].folder
                if st.tmp is None:
                    folder.unlink(st.name)
                elif st.staged:
                    assert staging is not None
                    folder.move_in(staging, st.tmp, st.name)
                else:
                    folder.replace(st.tmp, st.name)
            for parts in {st.parts for st in staged}:
                folders[parts].folder.fsync()
                folders[parts].folder.stamp(folders[parts].stamp)
        except BaseException:
            if committed is None:
                self._abort(folders, staging)
                raise
            logger.exception("A committed batch failed half way; recovery will complete it.")
            _close(folders, staging)
            raise
        _close(folders, staging)
        if committed is not None:
            self._remove_journal(committed)
        self._after_commit(folders, staged)
        return len(staged)

    def _open_for_write(
        self, parts: tuple[str, ...], *, create: bool
    ) -> tuple[SafeDir | None, int]:
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                return open_dir(self.root, parts, create=create)
            except FileNotFoundError:
                # A concurrent delete pruned a parent folder between two steps: try again.
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError  # pragma: no cover - the loop returns or raises

    def _document(self, write: Write, path: str, now: float) -> tuple[bytes, Record]:
        assert write.value is not None
        existing = self.view.load(path)
        if existing is not None and (
            is_expired(existing, now)
            or existing[NS] != write.namespace
            or existing[KEY] != write.key
        ):
            existing = None
        moment = datetime.fromtimestamp(now, tz=timezone.utc)
        ttl = write.ttl_minutes
        data = encode_document(
            namespace=write.namespace,
            key=write.key,
            value=write.value,
            created_at=existing[CREATED] if existing is not None else moment,
            updated_at=write.updated_at or moment,
            ttl_minutes=ttl,
            expires_at=(
                datetime.fromtimestamp(now + ttl * 60, tz=timezone.utc) if ttl is not None else None
            ),
            vectors=write.vectors,
        )
        # The cache gets a parse of the exact bytes written (never the caller's objects).
        return data, parse_document(data)

    def _write_journal(self, locks: list[str], ops: list[JournalOp]) -> str:
        folder, _ = open_dir(self.root, (JOURNAL_DIR,), create=True)
        assert folder is not None
        with folder:
            name = journal_file_name(locks[0])
            data = encode_journal(Journal(tuple(locks), tuple(ops)))
            tmp, _ = folder.write_temp(name, data, None)
            try:
                folder.replace(tmp, name)
            except BaseException:
                folder.discard(tmp)
                raise
            folder.fsync()
        return name

    def _abort(self, folders: dict[tuple[str, ...], _Open], staging: SafeDir | None) -> None:
        """Undo an uncommitted write: delete its temporary files and the folders it made."""
        for opened in folders.values():
            for tmp in opened.temps:
                opened.folder.discard(tmp)
            if staging is not None:
                for tmp in opened.staged:
                    staging.discard(tmp)
        _close(folders, staging)
        for parts, opened in folders.items():
            if opened.made < len(parts):
                remove_empty_dirs(self.root, parts, keep=opened.made)
                self.view.forget_dir(parts, ancestors=True)

    def _after_commit(self, folders: dict[tuple[str, ...], _Open], staged: list[_Staged]) -> None:
        """Update this process's caches with what it just wrote."""
        seen = time.time_ns()
        changes: dict[tuple[str, ...], list[tuple[str, Record | None]]] = {}
        for st in staged:
            path = os.path.join(self.root, *st.parts, st.name)
            record: Record | None = None
            if st.record is None:
                self.view.forget(path)
            else:
                stamp = folders[st.parts].stamp
                record = restat(st.record, path, st.inode, stamp, st.size, seen)
                self.view.remember(path, record)
            changes.setdefault(st.parts, []).append((st.name, record))
        emptied = []
        for parts, change in changes.items():
            opened = folders[parts]
            if opened.made < len(parts):
                self.view.forget_dir(parts, ancestors=True)
            dirpath = os.path.join(self.root, *parts)
            patched = self.view.patch(dirpath, opened.ino, opened.before, opened.stamp, change)
            if patched is not None:
                if not patched.names:
                    emptied.append(parts)
            elif any(record is None for _, record in change):
                emptied.append(parts)
        for parts in emptied:
            remove_empty_dirs(self.root, parts)
            if not os.path.isdir(os.path.join(self.root, *parts)):
                self.view.forget_dir(parts, ancestors=True)

    # ------------------------------------------------------------------ journals

    def journal_names(self) -> tuple[list[str], list[str]]:
        """Committed and temporary journal file names, sorted.

        Raises:
            UnsafePathError: If `.journal` or an entry in it is a link.
        """
        folder, _ = open_dir(self.root, (JOURNAL_DIR,), create=False)
        if folder is None:
            return [], []
        with folder:
            entries = folder.scan()
        committed, temporary = [], []
        for name, _, link in entries:
            if link:
                raise link_error(folder.join(name), "file")
            if name.endswith(JOURNAL_SUFFIX) and not name.startswith("."):
                committed.append(name)
            elif is_temp_name(name):
                temporary.append(name)
        return sorted(committed), sorted(temporary)

    def _read_journal(self, name: str) -> Journal | None | object:
        """The parsed journal, `None` if damaged, `_GONE` if it no longer exists."""
        path = os.path.join(self._journal_path, name)
        if name in self._journals:
            if os.path.lexists(path):
                return self._journals[name]
            self._journals.pop(name, None)
            return _GONE
        loaded = read_file(path)
        if loaded is None:
            return _GONE
        journal = decode_journal(loaded[0])
        self._journals[name] = journal
        return journal

    def _dead_journal_for(self, held: set[str]) -> bool:
        """Whether a committed journal shares a lock with `held` (so its writer is dead)."""
        committed, _ = self.journal_names()
        for name in committed:
            if lock_of_journal_file(name) in held:
                return True
            journal = self._read_journal(name)
            if isinstance(journal, Journal) and held.intersection(journal.locks):
                return True
        return False

    def recover_journals(self, *, blocking: bool) -> int:
        """Complete every committed journal whose writer is gone; returns how many."""
        committed, _ = self.journal_names()
        replayed = 0
        for name in committed:
            journal = self._read_journal(name)
            if journal is _GONE:
                continue
            if not isinstance(journal, Journal):
                self._set_aside(name, blocking)
                continue
            held = self.acquire_all(journal.locks, blocking=blocking)
            if held is None:
                continue  # a live writer holds it and finishes the batch itself
            try:
                if os.path.lexists(os.path.join(self._journal_path, name)):
                    self._replay(name, journal)
                    replayed += 1
            finally:
                release_all(held)
        return replayed

    def notice_journals(self) -> None:
        """Before a read: complete a dead writer's batch if a journal is noticed.

        Costs one `lstat` while the journal folder is unchanged.
        """
        try:
            st = os.lstat(self._journal_path)
        except (FileNotFoundError, NotADirectoryError):
            return
        if is_link(st):
            raise link_error(self._journal_path, "folder")
        signature = (st.st_ino, st.st_mtime_ns)
        if signature == self._journal_sig and trusted(st.st_mtime_ns, time.time_ns()):
            return
        committed, _ = self.journal_names()
        if committed:
            self.recover_journals(blocking=False)
        else:
            self._journal_sig = signature

    def _set_aside(self, name: str, blocking: bool) -> None:
        held = self.acquire_all([lock_of_journal_file(name)], blocking=blocking)
        if held is None:
            return
        try:
            path = os.path.join(self._journal_path, name)
            if os.path.lexists(path):
                os.replace(path, path + ".damaged")
                logger.error(
                    "The batch journal %s is damaged and was set aside as %s.damaged; the "
                    "batch it recorded may be half applied. Check the items it names.",
                    path,
                    path,
                )
        finally:
            release_all(held)

    def _replay(self, name: str, journal: Journal) -> None:
        """Apply a committed journal's remaining steps, then delete it (its locks held).

        A rename whose temporary file is gone already happened; a delete of a missing file
        already happened: replaying is idempotent.
        """
        dirs: dict[tuple[str, ...], tuple[SafeDir, int] | None] = {}
        emptied: set[tuple[str, ...]] = set()
        staging: SafeDir | None = None
        if any(op.staged for op in journal.ops):
            staging = open_dir(self.root, (STAGING_DIR,), create=False)[0]
        try:
            for op in journal.ops:
                if op.parts not in dirs:
                    folder, _ = open_dir(self.root, op.parts, create=False)
                    dirs[op.parts] = (
                        None if folder is None else (folder, next_stamp(folder.mtime_ns()))
                    )
                opened = dirs[op.parts]
                if opened is None:
                    continue  # the folder is gone, so its temporary files are too
                folder = opened[0]
                if op.tmp is None:
                    if folder.unlink(op.name):
                        emptied.add(op.parts)
                elif op.staged:
                    if staging is not None and staging.exists(op.tmp):
                        folder.move_in(staging, op.tmp, op.name)
                elif folder.exists(op.tmp):
                    folder.replace(op.tmp, op.name)
            for opened in dirs.values():
                if opened is not None:
                    opened[0].fsync()
                    opened[0].stamp(opened[1])
        finally:
            for opened in dirs.values():
                if opened is not None:
                    opened[0].close()
            if staging is not None:
                staging.close()
        self._remove_journal(name)
        for parts in dirs:
            self.view.forget_dir(parts)
            for op in journal.ops:
                if op.parts == parts:
                    self.view.forget(os.path.join(self.root, *parts, op.name))
        for parts in emptied:
            remove_empty_dirs(self.root, parts)
            self.view.forget_dir(parts, ancestors=True)

    def _remove_journal(self, name: str) -> None:
        folder, _ = open_dir(self.root, (JOURNAL_DIR,), create=False)
        if folder is None:
            return
        with folder:
            folder.discard(name)
            folder.fsync()
        self._journals.pop(name, None)

    # ------------------------------------------------------------------ recovery

    def recover(self, *, deep: bool = True) -> RecoveryReport:
        """Complete committed journals, drop uncommitted ones, delete orphan temp files.

        Args:
            deep: Also walk every folder for temporary files written next to their item
                (by writers whose folder sat on another file system than the staging
                folder). Opening a store does the cheap part only: the staging folder.
        """
        if not os.path.isdir(self.root):
            return RecoveryReport(0, 0, 0)
        for name in (LOCK_DIR, JOURNAL_DIR, STAGING_DIR):
            path = os.path.join(self.root, name)
            with contextlib.suppress(FileNotFoundError):
                if is_link(os.lstat(path)):
                    raise link_error(path, "folder")
        replayed = self.recover_journals(blocking=True)
        discarded = self._discard_journal_temps()
        removed = self._remove_staged_orphans()
        if deep:
            removed += self._remove_orphans()
        if replayed or discarded or removed:
            logger.warning(
                "Recovered the store at %s after a crash: %d batch(es) completed, %d "
                "uncommitted batch(es) dropped, %d temporary file(s) removed.",
                self.root,
                replayed,
                discarded,
                removed,
            )
        return RecoveryReport(replayed, discarded, removed)

    def _discard_journal_temps(self) -> int:
        """Drop uncommitted journals whose writer is gone (its first lock is free)."""
        _, temporary = self.journal_names()
        discarded = 0
        for name in temporary:
            held = self.acquire_all([lock_of_journal_file(name)], blocking=False)
            if held is None:
                continue
            try:
                folder, _ = open_dir(self.root, (JOURNAL_DIR,), create=False)
                if folder is not None:
                    with folder:
                        if folder.exists(name):
                            folder.discard(name)
                            discarded += 1
            finally:
                release_all(held)
        return discarded

    def _remove_staged_orphans(self) -> int:
        """Delete staged files whose writer is gone (the lock in their name is free)."""
        folder, _ = open_dir(self.root, (STAGING_DIR,), create=False)
        if folder is None:
            return 0
        with folder:
            names = [name for name, _, link in folder.scan() if not link]
        removed = 0
        for name in sorted(names):
            lock_name = lock_of_journal_file(name)
            held = self.acquire_all([lock_name], blocking=False)
            if held is None:
                continue  # its writer is alive (or someone else holds the folder)
            try:
                # A dead writer's committed journal may still need the file: finish it.
                if self._dead_journal_for({lock_name}):
                    self.recover_journals(blocking=False)
                folder, _ = open_dir(self.root, (STAGING_DIR,), create=False)
                if folder is not None and not self._dead_journal_for({lock_name}):
                    with folder:
                        if folder.exists(name):
                            folder.discard(name)
                            removed += 1
            finally:
                release_all(held)
        return removed

    def _remove_orphans(self) -> int:
        """Delete temporary item files whose writer is gone (their folder's lock is free).

        The walk fills the folder-listing cache as it goes, so a first search right after
        opening reuses it.
        """
        removed = 0
        for listing in self.view.walk(self.root, refuse_links=False):
            for name in listing.links:
                logger.warning(
                    "%s is a symbolic link inside the store root; the store never follows "
                    "it and refuses any operation that reaches it.",
                    os.path.join(listing.path, name),
                )
            if listing.temps and listing.path != self.root:
                parts = tuple(os.path.relpath(listing.path, self.root).split(os.sep))
                removed += self._remove_temps(parts, listing.temps)
        return removed

    def _remove_temps(self, parts: tuple[str, ...], temps: list[str]) -> int:
        lock_name = dir_lock_name(parts)
        held = self.acquire_all([lock_name], blocking=False)
        if held is None:
            return 0  # a live writer is using this folder
        removed = 0
        try:
            # A committed journal of a dead writer may still need these files: finish it.
            if self._dead_journal_for({lock_name}):
                self.recover_journals(blocking=False)
                if self._dead_journal_for({lock_name}):
                    return 0
            folder, _ = open_dir(self.root, parts, create=False)
            if folder is None:
                return 0
            with folder:
                stamp = next_stamp(folder.mtime_ns())
                for name in temps:
                    if folder.exists(name):
                        folder.discard(name)
                        removed += 1
                folder.fsync()
                folder.stamp(stamp)
            self.view.forget_dir(parts)
            remove_empty_dirs(self.root, parts)
            if not os.path.isdir(os.path.join(self.root, *parts)):
                self.view.forget_dir(parts, ancestors=True)
        finally:
            release_all(held)
        return removed


def release_all(held: list[ThreadedLock]) -> None:
    """Release locks taken by `Writer.acquire_all`, last first."""
    for lock in reversed(held):
        lock.release()
    held.clear()
