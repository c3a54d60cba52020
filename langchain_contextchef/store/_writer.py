"""The write side of a `FileSystemStore`: folder locks and commits.

Every write holds the write lock of each folder it touches (`locked`), taken in sorted
order, then `commit`s:

1. each new item is written to a temporary file in the root's staging folder `.tmp/` (or,
   for a folder on another file system, next to its target) and stamped; the file's name
   starts with the folder's lock name, so recovery can tell a live writer's file from a dead
   one's. A failure here (a full disk, a link in the way) deletes those files and the
   folders this write made, so the store is unchanged;
2. a single put flushes its file, renames it over the item and flushes the folder; any
   other batch (several items, or a delete) appends one record carrying its data to the
   redo log and flushes the log, the batch's only flush (see `_redo`);
3. the renames and deletes run and the folders are stamped (a logged batch's are not
   flushed: the log's checkpoint does that for many batches at once).

Invariant: whoever holds a folder's lock first completes any committed journal or redo
record that shares a lock with it. Such a record belongs to a dead writer (a live one would
hold the lock), and its batch happened before anything the lock holder is about to do.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
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
    remove_empty_dirs,
)
from langchain_contextchef.store._locks import release_all
from langchain_contextchef.store._pack import drop_pack
from langchain_contextchef.store._paths import (
    STAGING_DIR,
    dir_lock_name,
    item_file_name,
    staged_file_name,
)
from langchain_contextchef.store._records import (
    CREATED,
    KEY,
    NS,
    VECTORS,
    Record,
    encode_document,
    is_expired,
    parse_document,
    restat,
)
from langchain_contextchef.store._recovery import Recovery
from langchain_contextchef.store._redo import (
    CHECKPOINT_BYTES,
    HEADER,
    RedoOp,
    RedoRecord,
    decode_records,
    encode_record,
    flush_file_system,
)

__all__ = ["Write", "Writer"]

logger = logging.getLogger("langchain_contextchef.store.filesystem")

_WRITE_ATTEMPTS = 5


class Write(NamedTuple):
    """One change to apply under lock."""

    namespace: tuple[str, ...]
    key: str
    value: Mapping[str, Any] | None
    """The new value; `None` deletes."""
    ttl_minutes: float | None = None
    vectors: Mapping[str, list[float]] | None = None
    updated_at: datetime | None = None
    """Keep this update time (a TTL refresh); `None` means now."""
    keep_vectors: bool = False
    """Without `vectors`, keep the stored item's (a put with `index=False`, as LangGraph's
    stores do: the text was not re-embedded, the old vectors still describe the item)."""


def _vectors_of(record: Record) -> dict[str, list[float]] | None:
    stored = record[VECTORS]
    return {path: list(vector) for path, vector in stored} if stored else None


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
    in_place: bool = False  # already written over the item's file (an unsynced overwrite)
    data: bytes | None = None  # the document written (None for a delete)
    swap: bool = False  # exchanged with the existing file, not renamed over it (see move_in)


def _close(folders: dict[tuple[str, ...], _Open], staging: SafeDir | None) -> None:
    for opened in folders.values():
        opened.folder.close()
    if staging is not None:
        staging.close()


def _fits(current: os.stat_result | None, data: bytes) -> bool:
    return (
        hasattr(os, "pwrite")  # not on Windows: renamed there, as any other write
        and current is not None
        and stat.S_ISREG(current.st_mode)
        and current.st_size >= len(data)
    )


class Writer(Recovery):
    """Folder locks and commits for one root (see the module docstring).

    A `Recovery` first: a writer completes dead writers' journals before it writes.
    """

    @contextlib.contextmanager
    def locked(self, folders: Iterable[tuple[str, ...]]) -> Iterator[None]:
        """Hold the write locks of these folders, with no dead writer's journal on them."""
        names = {dir_lock_name(parts) for parts in folders}
        while True:
            held = self.acquire_all(names, blocking=True)
            assert held is not None  # blocking acquisition either holds or raises
            if not self._dead_journal_for(names) and self.redo_clear():
                break
            release_all(held)
            self.recover_journals(blocking=True)
            time.sleep(0.002)  # a dead writer's record may wait for folders someone holds
        try:
            yield
        finally:
            release_all(held)

    # ------------------------------------------------------------------ commits

    def commit(
        self, writes: list[Write], now: float, *, journal: bool = True, sync: bool = True
    ) -> int:
        """Apply writes whose folder locks are held; several are all-or-nothing.

        A single put is written to a temporary file and renamed over the item (flushed,
        with its folder, when `sync`); anything else (several items, or a delete) is one
        record of the redo log (see `_redo`), the batch's only flush.

        Args:
            writes: The changes, at most one per item.
            now: The write time (POSIX seconds).
            journal: Kept for callers whose items are independent (TTL refreshes and
                sweeps); their batches go through the redo log like any other.
            sync: Flush to disk (off for a write that may be lost in a power cut: see
                `FileSystemStore.batch_unsynced`).

        Returns:
            How many items were written or deleted (deletes of missing items not counted).
        """
        del journal  # every batch of several items is logged
        logged = not (len(writes) == 1 and writes[0].value is not None)
        folders: dict[tuple[str, ...], _Open] = {}
        staged: list[_Staged] = []
        staging: SafeDir | None = None
        staging_dev = -1
        # The root, opened once for every folder this commit opens (each then one `openat2`
        # below it), and closed once they are all open.
        root = open_dir(self.root, (), create=False)[0]
        try:
            for write in writes:
                dirpath, parts = self.view.dir_of(write.namespace)
                name = item_file_name(write.key)
                opened = folders.get(parts)
                if opened is None:
                    folder, made = self._open_for_write(
                        parts, create=write.value is not None, root=root
                    )
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
                path = dirpath + os.sep + name
                data, record = self._document(write, path, current, now)
                if not sync and not logged and _fits(current, data):
                    # One unsynced write over an existing file at least as long: written in
                    # place, padded with JSON whitespace, since renaming a new file over an
                    # existing one costs a flush of its data on some file systems (ext4).
                    assert current is not None
                    data += b" " * (current.st_size - len(data))
                    inode = opened.folder.overwrite(name, data, opened.stamp)
                    staged.append(_Staged(parts, name, name, False, record, inode, len(data), True))
                    continue
                # A logged batch's files are not flushed: the log carries their data.
                flush = sync and not logged
                if staging is None:
                    staging = open_dir(self.root, (STAGING_DIR,), create=True, opened_root=root)[0]
                    assert staging is not None
                    # An open folder's device never changes: asked once per commit.
                    staging_dev = os.stat(
                        staging.fd if staging.fd is not None else staging.path
                    ).st_dev
                if staging_dev == opened.dev:
                    tmp = staged_file_name(opened.lock)
                    inode = staging.write_new(tmp, data, opened.stamp, sync=flush)
                    opened.staged.append(tmp)
                    staged.append(_Staged(parts, name, tmp, True, record, inode, len(data)))
                else:  # the folder is on another file system (a mount inside the root)
                    tmp, inode = opened.folder.write_temp(name, data, opened.stamp, sync=flush)
                    opened.temps.append(tmp)
                    staged.append(_Staged(parts, name, tmp, False, record, inode, len(data)))
                # Over an existing file, a flushed record's item is exchanged with it, not
                # renamed over it: the disk write ext4 starts on a rename over a file is of
                # no use when the record carries the data (see `SafeDir.move_in`).
                staged[-1] = staged[-1]._replace(
                    data=data,
                    swap=sync and logged and current is not None and stat.S_ISREG(current.st_mode),
                )
        except BaseException:
            self._abort(folders, staging)
            raise
        finally:
            if root is not None:
                root.close()
        if logged and staged:
            self._commit_logged(folders, staged, staging, sync=sync)
        else:
            self._apply(folders, staged, staging, sync=sync, committed=False)
        self._after_commit(folders, staged)
        for parts in {st.parts for st in staged if st.tmp is None}:
            drop_pack(self.root, parts)  # no copy of a deleted item's data stays there
        return len(staged)

    def _commit_logged(
        self,
        folders: dict[tuple[str, ...], _Open],
        staged: list[_Staged],
        staging: SafeDir | None,
        *,
        sync: bool,
    ) -> None:
        """Append the batch's record to the redo log, then apply it (see `_redo`)."""
        record = RedoRecord(
            tuple(sorted({folders[st.parts].lock for st in staged})),
            tuple(RedoOp(st.parts, st.name, folders[st.parts].stamp, st.data) for st in staged),
        )
        appended = False
        try:
            with self.redo_turn() as known_end:
                end = self.redo.append(encode_record(record), sync=sync, end=known_end)
                appended = True
                # From here the batch is committed: it completes now, or when replayed.
                self._apply(folders, staged, staging, sync=False, committed=True)
                self.redo.mark_applied(end)
                if end > CHECKPOINT_BYTES:
                    self._checkpoint()
        except BaseException:
            if not appended:
                self._abort(folders, staging)
            raise

    def _checkpoint(self) -> None:
        """With the log's lock held and every record applied: flush the items, empty the log."""
        records, _, _ = decode_records(self.redo.read(HEADER))
        flush_file_system(self.root, [record for record, _ in records])
        self.redo.empty()

    def _apply(
        self,
        folders: dict[tuple[str, ...], _Open],
        staged: list[_Staged],
        staging: SafeDir | None,
        *,
        sync: bool,
        committed: bool,
    ) -> None:
        """Rename the staged files into place and delete; flush the folders with `sync`."""
        try:
            for st in staged:
                folder = folders[st.parts].folder
                if st.in_place:
                    continue
                if st.tmp is None:
                    folder.unlink(st.name)
                elif st.staged:
                    assert staging is not None
                    # The item's `lstat` in `commit`, under the same folder lock, refused a
                    # link and chose between exchange and rename: not asked again here.
                    folder.move_in(staging, st.tmp, st.name, swap=st.swap, checked=True)
                else:
                    folder.replace(st.tmp, st.name)
            for parts in {st.parts for st in staged}:
                if sync:
                    folders[parts].folder.fsync()
                folders[parts].folder.stamp(folders[parts].stamp)
        except BaseException:
            if not committed:
                self._abort(folders, staging)
                raise
            logger.exception("A committed batch failed half way; recovery will complete it.")
            _close(folders, staging)
            raise
        _close(folders, staging)

    def _open_for_write(
        self, parts: tuple[str, ...], *, create: bool, root: SafeDir | None = None
    ) -> tuple[SafeDir | None, int]:
        for attempt in range(_WRITE_ATTEMPTS):
            try:
                return open_dir(self.root, parts, create=create, opened_root=root)
            except FileNotFoundError:
                # A concurrent delete pruned a parent folder between two steps: try again.
                if attempt == _WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError  # pragma: no cover - the loop returns or raises

    def _document(
        self, write: Write, path: str, current: os.stat_result | None, now: float
    ) -> tuple[bytes, Record]:
        """The new document of a write to the item file `path`, whose `lstat` is `current`.

        `current` was taken through the folder's descriptor with the folder's lock held, so
        the cached parse is checked against it (no second `lstat`); `None`: no file.
        """
        assert write.value is not None
        existing = self.view.load(path, current) if current is not None else None
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
            vectors=(
                _vectors_of(existing)
                if write.vectors is None and write.keep_vectors and existing is not None
                else write.vectors
            ),
        )
        # The cache gets a parse of the exact bytes written (never the caller's objects).
        return data, parse_document(data)

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
