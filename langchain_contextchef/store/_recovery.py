"""Crash recovery for a `FileSystemStore` root: batch journals and dead writers' leftovers.

A multi-item batch is committed by a journal in `.journal/` (its format: `_journal`). This
module keeps that folder: it writes and removes journals for the writer, notices a dead
writer's committed journal and replays it, sets a damaged one aside, and deletes what
killed writers left behind (uncommitted journals, staged files in `.tmp/`, temporary files
next to their item). A leftover is a dead writer's when the lock named in its file name is
free; work a live writer still holds a lock on is left to that writer.

`Recovery` is the base of `_writer.Writer`: whoever commits also completes dead writers'
batches first, with the same lock table and journal cache.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from filelock import Timeout

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
from langchain_contextchef.store._lock_table import LockTable, lock_table
from langchain_contextchef.store._locks import ThreadedLock, deadline_for, release_all
from langchain_contextchef.store._pack import remove_pack_temps
from langchain_contextchef.store._paths import (
    JOURNAL_DIR,
    JOURNAL_SUFFIX,
    LOCK_DIR,
    STAGING_DIR,
    dir_lock_name,
    is_temp_name,
)
from langchain_contextchef.store._redo import (
    HEADER,
    REDO_LOCK,
    REDO_LOG,
    RedoLog,
    decode_records,
    flush_file_system,
    replay,
)
from langchain_contextchef.store._view import DiskView, trusted

__all__ = ["Recovery", "RecoveryReport"]

logger = logging.getLogger("langchain_contextchef.store.filesystem")

_GONE = object()
_BUSY_PAUSE = 0.002  # seconds between tries when a dead writer's folders are busy


class RecoveryReport(NamedTuple):
    """What `FileSystemStore.recover` repaired."""

    replayed: int
    """Committed batches of crashed writers that were completed."""
    discarded: int
    """Uncommitted batch journals of crashed writers that were dropped."""
    removed_temp_files: int
    """Orphan temporary item files that were deleted."""


class Recovery:
    """The journal folder and crash recovery of one root (see the module docstring)."""

    def __init__(self, root: str, view: DiskView, lock_timeout: float) -> None:
        self.root = root
        self.view = view
        self._real_root = os.path.realpath(root)
        self.lock_timeout = lock_timeout
        self._journal_path = os.path.join(root, JOURNAL_DIR)
        self._journals: dict[str, Journal | None] = {}
        # (inode, time, when listed) of the journal folder last found without a journal
        self._no_journals: tuple[int, int, int] | None = None
        self.redo = RedoLog(root)
        self._redo_sig: tuple[int, int, int] | None = None
        # The log's size `settle_redo` last found with nothing to apply (its lock held).
        self._settled_end: int | None = None

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
            if name == REDO_LOG:
                continue  # the redo log (see `_redo`), kept apart from the rename journals
            if name.endswith(JOURNAL_SUFFIX) and not name.startswith("."):
                committed.append(name)
            elif is_temp_name(name):
                temporary.append(name)
        return sorted(committed), sorted(temporary)

    def _write_journal(self, locks: list[str], ops: list[JournalOp]) -> str:
        """Commit a batch: its journal, flushed under a temporary name, renamed into place."""
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

    def _committed_journals(self) -> list[str]:
        """Committed journal names; `[]` at once while the folder is as a listing found it empty.

        Costs one `lstat` once the journal folder's time is older than the racy window of
        that listing.

        Raises:
            UnsafePathError: If `.journal` or an entry in it is a link.
        """
        try:
            st = os.lstat(self._journal_path)
        except (FileNotFoundError, NotADirectoryError):
            return []
        if is_link(st):
            raise link_error(self._journal_path, "folder")
        signature, empty = (st.st_ino, st.st_mtime_ns), self._no_journals
        if empty is not None and empty[:2] == signature and trusted(st.st_mtime_ns, empty[2]):
            return []
        seen = time.time_ns()
        committed, _ = self.journal_names()
        if not committed:
            self._no_journals = (*signature, seen)
        return committed

    def _dead_journal_for(self, held: set[str]) -> bool:
        """Whether a committed journal shares a lock with `held` (so its writer is dead)."""
        committed = self._committed_journals()
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

        Costs two `lstat`s while the journal folder and the redo log are unchanged.
        """
        self.notice_redo()
        if self._committed_journals():
            self.recover_journals(blocking=False)

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

    # ------------------------------------------------------------------ the redo log

    @contextlib.contextmanager
    def redo_turn(self) -> Iterator[int | None]:
        """Hold the redo log's lock, with every committed record applied.

        Taken after the folder locks. A dead writer's record whose folders are held by
        someone else is left to them: the lock is let go and taken again until it is applied.

        Yields:
            The log's size as found under the lock with nothing to apply (for
            `RedoLog.append`: nobody else writes the log while the lock is held), or `None`
            when that was not read (no log yet, or records were just applied).

        Raises:
            filelock.Timeout: If that takes longer than the store's lock timeout.
        """
        lock = self.locks.log_lock(REDO_LOCK)
        deadline = deadline_for(self.lock_timeout)
        while True:
            lock.acquire(deadline, blocking=True)
            try:
                self._settled_end = None
                settled = self.settle_redo()
            except BaseException:
                lock.release()
                raise
            if settled is not None:
                break
            lock.release()
            if deadline is not None and time.monotonic() > deadline:
                raise Timeout(self.redo.path)
            time.sleep(_BUSY_PAUSE)
        try:
            yield self._settled_end  # set by `settle_redo` under the lock still held
        finally:
            lock.release()

    def settle_redo(self) -> tuple[int, int] | None:
        """With the log's lock held: apply the records a dead writer committed, not applied.

        Returns:
            How many records were applied and cut off unfinished, or `None` if the records'
            folders are held by someone else (nothing done).
        """
        state = self.redo.state()
        if state is None or state[0] >= state[1]:
            self._settled_end = None if state is None else self.redo.seen_size
            return 0, 0
        applied = state[0]
        records, used, torn = decode_records(self.redo.read(applied))
        if records:
            locks = {lock for record, _ in records for lock in record.locks}
            held = self.acquire_all(locks, blocking=False)
            if held is None:
                return None
            try:
                for record, _ in records:
                    replay(self.root, self.view, record)
            finally:
                release_all(held)
        if torn:
            self.redo.cut(applied + used)
        self.redo.mark_applied(applied + used)
        return len(records), int(torn)

    def redo_clear(self) -> bool:
        """With folder locks held: whether no dead writer's record waits in the log.

        One waiting is applied now if its folders can be had; `False` otherwise.
        """
        if self._redo_applied():
            return True
        with self.locks.log_lock(REDO_LOCK).held(deadline_for(self.lock_timeout)):
            return self.settle_redo() is not None

    def _redo_applied(self) -> bool:
        """Whether the log (if any) is applied to its end; one `lstat` while it is unchanged."""
        try:
            st = os.lstat(self.redo.path)
        except (FileNotFoundError, NotADirectoryError):
            return True
        signature = (st.st_ino, st.st_size, st.st_mtime_ns)
        if signature == self._redo_sig and trusted(st.st_mtime_ns, time.time_ns()):
            return True
        state = self.redo.state(st)
        if state is None or state[0] >= state[1]:
            self._redo_sig = signature
            return True
        return False

    def notice_redo(self) -> None:
        """Before a read: apply a dead writer's record, if one is noticed and its folders free."""
        if self._redo_applied():
            return
        lock = self.locks.log_lock(REDO_LOCK)
        if not lock.acquire(None, blocking=False):
            return  # a live writer is applying its record
        try:
            self.settle_redo()
        finally:
            lock.release()

    def recover_redo(self, *, remove: bool) -> tuple[int, int]:
        """Replay the whole log (each item guarded by its stamp), flush, empty the log.

        Holds every folder lock the log names, then the log's lock.

        Args:
            remove: Delete the log file afterwards (else it is kept, emptied, so that opening
                a root changes no name in it).

        Returns:
            How many records were past the applied mark (a dead writer's), and how many
            unfinished ones were dropped.
        """
        while self.redo.exists():
            records, _, _ = decode_records(self.redo.read(HEADER))
            locks = {lock for record, _ in records for lock in record.locks}
            held = self.acquire_all(locks, blocking=True)
            assert held is not None
            try:
                with self.locks.log_lock(REDO_LOCK).held(deadline_for(self.lock_timeout)):
                    state = self.redo.state()
                    if state is None:
                        return 0, 0
                    records, _, torn = decode_records(self.redo.read(HEADER))
                    if not {lock for record, _ in records for lock in record.locks} <= locks:
                        continue  # written meanwhile by someone holding other folders
                    replayed = 0
                    for record, end in records:
                        replay(self.root, self.view, record)
                        replayed += HEADER + end > state[0]
                    if records:
                        flush_file_system(self.root, [record for record, _ in records])
                    if remove:
                        self.redo.remove()
                    elif records or torn:
                        self.redo.empty()
                    self._redo_sig = None
                    return replayed, int(torn)
            finally:
                release_all(held)
        return 0, 0

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
        replayed, discarded = self.recover_redo(remove=deep)
        replayed += self.recover_journals(blocking=True)
        discarded += self._discard_journal_temps()
        removed = self._remove_staged_orphans() + remove_pack_temps(self.root)
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
        return sum(self._discard_if_writer_gone(JOURNAL_DIR, name) for name in temporary)

    def _remove_staged_orphans(self) -> int:
        """Delete staged files whose writer is gone (the lock in their name is free)."""
        folder, _ = open_dir(self.root, (STAGING_DIR,), create=False)
        if folder is None:
            return 0
        with folder:
            names = [name for name, _, link in folder.scan() if not link]
        return sum(
            self._discard_if_writer_gone(STAGING_DIR, name, spare=self._needed_by_dead_journal)
            for name in sorted(names)
        )

    def _needed_by_dead_journal(self, lock_name: str) -> bool:
        """Whether a dead writer's committed journal still needs a staged file, once replayed."""
        if self._dead_journal_for({lock_name}):
            self.recover_journals(blocking=False)
        return self._dead_journal_for({lock_name})

    def _discard_if_writer_gone(
        self, folder_name: str, name: str, spare: Callable[[str], bool] | None = None
    ) -> bool:
        """Discard `name` from a store folder when the lock in its name is free.

        `spare`, asked under that lock with the lock's name, can keep the file anyway.
        """
        lock_name = lock_of_journal_file(name)
        held = self.acquire_all([lock_name], blocking=False)
        if held is None:
            return False  # its writer is alive (or someone else holds the folder)
        try:
            if spare is not None and spare(lock_name):
                return False
            folder, _ = open_dir(self.root, (folder_name,), create=False)
            if folder is None:
                return False
            with folder:
                if not folder.exists(name):
                    return False
                folder.discard(name)
                return True
        finally:
            release_all(held)

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
