"""The redo log of a `FileSystemStore` root: batches that carry their data, one flush each.

Every write that changes more than one item, or deletes one, is a *record* appended to one
log per root, `.journal/redo.wal`, under the log's own lock (`REDO_LOCK`, always taken after
the folder locks, held from the append until the record is applied):

1. the new items are written to temporary files, unflushed (a failure here changes nothing);
2. the record (the folder locks held, and for each item its folder, file name, the folder's
   stamp and the new document, or a delete) is appended to the log with a checksum and
   flushed: from that instant the batch is committed. This is the batch's only `fsync`;
3. the temporary files are renamed over the items and deleted items unlinked, unflushed
   (a file that replaces an existing item is exchanged with it and the old one deleted,
   where the platform can: `SafeDir.move_in`);
4. the log's header records how far the log is applied (written, not flushed).

A record past the applied mark whose writer died (its lock is free) is replayed by the next
holder of the log lock that can take its folder locks, or by a reader that notices it. The
items' own data reaches the disk at a *checkpoint*: when the log passes `CHECKPOINT_BYTES`,
when a store opens the root, and on `recover()`, the file system is flushed (`syncfs` where
the platform has it, else each file and folder the log names), then the log is emptied (or,
on opening and recovery, deleted). After a power cut, opening the root replays every record
of the log in order, each item guarded by its stamp: an item whose file is newer than the
record (a later single-item write, which never goes through the log and flushes itself) or
already holds the record's bytes is left alone, so replaying is idempotent.

Format: a 16-byte header (`MAGIC`, then the applied offset as 8 little-endian bytes), then
records, each `RECORD_MAGIC`, the payload's length and CRC-32, and the payload: a line of
JSON naming the locks and the ops (folder parts, file name, stamp, data length or `None` for
a delete) followed by the documents' bytes. A record cut short by a crash fails its length
or checksum: it was never committed, and is dropped.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import json
import os
import struct
import sys
import zlib
from collections.abc import Callable
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
from langchain_contextchef.store._paths import ITEM_SUFFIX, JOURNAL_DIR
from langchain_contextchef.store._view import DiskView

__all__ = [
    "CHECKPOINT_BYTES",
    "HEADER",
    "REDO_LOCK",
    "REDO_LOG",
    "RedoLog",
    "RedoOp",
    "RedoRecord",
    "decode_records",
    "encode_record",
    "flush_file_system",
    "replay",
]

REDO_LOG = "redo.wal"
"""The log's file name in `.journal/`."""
REDO_LOCK = "redo.lock"
"""The log's lock file name in `.locks/` (folder locks are `d-...`, scope locks `s-...`)."""
CHECKPOINT_BYTES = 1 << 20
"""The log is checkpointed (items flushed, log emptied) once it grows past this size."""
MAGIC = b"CCREDO01"
RECORD_MAGIC = b"RDO1"
HEADER = 16
_RECORD_HEAD = struct.Struct("<4sII")
_APPLIED = struct.Struct("<Q")
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)


class RedoOp(NamedTuple):
    """One item of a record: its new document, or `None` for a delete."""

    parts: tuple[str, ...]
    name: str
    stamp: int
    """The folder's stamp of the batch (the item file's modification time once applied)."""
    data: bytes | None


class RedoRecord(NamedTuple):
    """A committed batch: the folder locks its writer held and its items."""

    locks: tuple[str, ...]
    ops: tuple[RedoOp, ...]


def encode_record(record: RedoRecord) -> bytes:
    """Serialise a record with its length and checksum."""
    meta = json.dumps(
        {
            "locks": list(record.locks),
            "ops": [
                [list(op.parts), op.name, op.stamp, None if op.data is None else len(op.data)]
                for op in record.ops
            ],
        },
        ensure_ascii=True,
        separators=(",", ":"),
    ).encode("ascii")
    payload = b"".join([meta, b"\n", *(op.data for op in record.ops if op.data is not None)])
    return _RECORD_HEAD.pack(RECORD_MAGIC, len(payload), zlib.crc32(payload)) + payload


def _plain(name: str) -> bool:
    return bool(name) and name not in {".", ".."} and not set(name) & {"/", "\\", "\x00"}


def _safe(op: RedoOp) -> bool:
    """A record may only name item files of folders below the root."""
    return (
        bool(op.parts)
        and all(_plain(p) and not p.startswith(".") for p in op.parts)
        and _plain(op.name)
        and not op.name.startswith(".")
        and op.name.endswith(ITEM_SUFFIX)
    )


def _decode_payload(payload: bytes) -> RedoRecord | None:
    meta_end = payload.find(b"\n")
    if meta_end < 0:
        return None
    try:
        meta: Any = json.loads(payload[:meta_end])
        locks = tuple(str(lock) for lock in meta["locks"])
        ops = []
        offset = meta_end + 1
        for parts, name, stamp, length in meta["ops"]:
            data = None
            if length is not None:
                data = payload[offset : offset + int(length)]
                offset += int(length)
            ops.append(RedoOp(tuple(str(p) for p in parts), str(name), int(stamp), data))
    except (ValueError, TypeError, KeyError):
        return None
    if offset != len(payload) or not all(_safe(op) for op in ops):
        return None
    return RedoRecord(locks, tuple(ops))


def decode_records(data: bytes) -> tuple[list[tuple[RedoRecord, int]], int, bool]:
    """The records at the start of `data` (bytes of the log from a record boundary on).

    Returns:
        Each whole record with the offset in `data` where it ends, the offset where the
        whole records end, and whether something unreadable (a record cut short, or
        damaged) follows them.
    """
    records: list[tuple[RedoRecord, int]] = []
    offset = 0
    while offset < len(data):
        head = data[offset : offset + _RECORD_HEAD.size]
        if len(head) < _RECORD_HEAD.size:
            return records, offset, True
        magic, length, crc = _RECORD_HEAD.unpack(head)
        body = offset + _RECORD_HEAD.size
        payload = data[body : body + length]
        if magic != RECORD_MAGIC or len(payload) != length or zlib.crc32(payload) != crc:
            return records, offset, True
        record = _decode_payload(payload)
        if record is None:
            return records, offset, True
        offset = body + length
        records.append((record, offset))
    return records, offset, False


def _write_at(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    done = 0
    while done < len(data):
        if hasattr(os, "pwrite"):
            done += os.pwrite(fd, view[done:], offset + done)
        else:  # pragma: no cover - Windows: the log lock makes seek-and-write safe
            os.lseek(fd, offset + done, os.SEEK_SET)
            done += os.write(fd, view[done:])


def _read_at(fd: int, size: int, offset: int) -> bytes:
    if hasattr(os, "pread"):
        chunks = []
        while size > 0:
            chunk = os.pread(fd, size, offset)
            if not chunk:
                break
            chunks.append(chunk)
            size -= len(chunk)
            offset += len(chunk)
        return b"".join(chunks)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows
    return os.read(fd, size)  # pragma: no cover


_FORKS = [0]
"""How many forks made this process (a child's count differs from its parent's)."""


def _count_fork() -> None:
    _FORKS[0] += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_count_fork)


class RedoLog:
    """The log file of one root: opened lazily, kept open, reopened when replaced."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.path = os.path.join(root, JOURNAL_DIR, REDO_LOG)
        self._fd: int | None = None
        # The kept descriptor's file, `(st_ino, st_dev)`, taken when it was opened: while the
        # descriptor is open no other file can take that inode number on that device, so a
        # path whose `lstat` shows it names that very file (no `fstat` needed to tell).
        self._ident: tuple[int, int] | None = None
        self._forks = _FORKS[0]
        # The stat of the kept descriptor's file from the last `_current` that found it still
        # the log (`None` after opening it anew), so `state` asks once.
        self._kept: os.stat_result | None = None
        self.seen_size = 0
        """The log file's size as the last `state()` found it (its bytes, header included)."""

    def close(self) -> None:
        """Close the kept descriptor."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        self._ident = None

    def _current(self, *, create: bool, found: os.stat_result | None = None) -> int | None:
        """The descriptor of the log at its path (call with the log lock held to write).

        `found` is the caller's `lstat` of the log's path, taken just before.
        """
        if self._forks != _FORKS[0]:  # a forked child: the parent's descriptor is shared
            self._fd, self._ident, self._forks = None, None, _FORKS[0]
        self._kept = None
        st = found
        if st is None:
            try:
                st = os.lstat(self.path)
            except (FileNotFoundError, NotADirectoryError):
                st = None
        if st is not None and self._fd is not None and self._ident == (st.st_ino, st.st_dev):
            self._kept = st  # the path's file is the descriptor's: the same inode's stat
            return self._fd
        self.close()
        if st is None and not create:
            return None
        folder, _ = open_dir(self.root, (JOURNAL_DIR,), create=create)
        if folder is None:
            return None
        with folder:
            opened = _open_log(folder, create=create)
        if opened is not None:
            self._fd, self._ident = opened
        return self._fd

    def exists(self) -> bool:
        """Whether the log file is there."""
        return os.path.lexists(self.path)

    def state(self, found: os.stat_result | None = None) -> tuple[int, int] | None:
        """`(applied offset, size)` of the log, or `None` when there is no log.

        Args:
            found: An `lstat` of the log's path the caller took just before.
        """
        fd = self._current(create=False, found=found)
        if fd is None:
            return None
        kept = self._kept
        size = (kept if kept is not None else os.fstat(fd)).st_size
        self.seen_size = size
        head = _read_at(fd, HEADER, 0)
        if size < HEADER or head[:8] != MAGIC:
            return HEADER, HEADER  # a log whose header never reached the disk holds nothing
        return _APPLIED.unpack(head[8:])[0], size

    def read(self, start: int) -> bytes:
        """The log's bytes from offset `start` on."""
        fd = self._current(create=False)
        if fd is None:
            return b""
        size = os.fstat(fd).st_size
        return _read_at(fd, max(size - start, 0), start)

    def append(self, record: bytes, *, sync: bool, end: int | None = None) -> int:
        """Append a record (flushed with `sync`); returns the log's new end.

        Args:
            record: The encoded record.
            sync: Flush the log after the write.
            end: The log's size as `state()` found it on the kept descriptor with the log's
                lock held since (`RedoTurn`): nobody else writes the log meanwhile, so the
                descriptor and the size are used without asking again. `None`: ask.

        Raises:
            OSError: On any failure (a full disk); the log is cut back to its old end then.
        """
        fd = self._fd if end is not None else None
        if fd is None:
            fd = self._current(create=True)
            assert fd is not None
            end = os.fstat(fd).st_size
        assert end is not None
        end = max(end, HEADER)
        try:
            _write_at(fd, record, end)
            if sync:
                os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)
            raise
        return end + len(record)

    def mark_applied(self, end: int) -> None:
        """Record (unflushed) that the log is applied up to `end` (the log's lock held)."""
        fd = self._fd if self._fd is not None else self._current(create=False)
        if fd is not None:
            _write_at(fd, _APPLIED.pack(end), len(MAGIC))

    def cut(self, end: int) -> None:
        """Drop what follows `end` (a record that was never committed)."""
        fd = self._current(create=False)
        if fd is not None:
            os.ftruncate(fd, end)

    def empty(self) -> None:
        """Empty the log, flushed (after a checkpoint)."""
        fd = self._current(create=False)
        if fd is not None:
            os.ftruncate(fd, HEADER)
            _write_at(fd, _APPLIED.pack(HEADER), len(MAGIC))
            os.fsync(fd)

    def remove(self) -> None:
        """Delete the log file (after a checkpoint), the removal flushed."""
        self.close()
        folder, _ = open_dir(self.root, (JOURNAL_DIR,), create=False)
        if folder is None:
            return
        with folder:
            folder.discard(REDO_LOG)
            folder.fsync()


def _open_log(folder: SafeDir, *, create: bool) -> tuple[int, tuple[int, int]] | None:
    """The log's descriptor and its file's `(st_ino, st_dev)`; `None` if there is none."""
    flags = os.O_RDWR | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY | (os.O_CREAT if create else 0)
    try:
        if folder.fd is not None:
            fd = os.open(REDO_LOG, flags, 0o600, dir_fd=folder.fd)
        else:
            fd = os.open(folder.join(REDO_LOG), flags, 0o600)
    except FileNotFoundError:
        return None
    st = os.fstat(fd)
    if st.st_size < HEADER:  # new (or never completed): write the header durably
        try:
            os.ftruncate(fd, 0)
            _write_at(fd, MAGIC + _APPLIED.pack(HEADER), 0)
            os.fsync(fd)
            folder.fsync()
        except BaseException:
            os.close(fd)
            raise
    return fd, (st.st_ino, st.st_dev)


def replay(root: str, view: DiskView, record: RedoRecord) -> None:
    """Apply a record's items (its folders' locks held), each unless its file is newer or holds the same bytes."""
    dirs: dict[tuple[str, ...], tuple[SafeDir, int]] = {}
    changed: set[tuple[str, ...]] = set()
    emptied: set[tuple[str, ...]] = set()
    try:
        for op in record.ops:
            opened = dirs.get(op.parts)
            if opened is None:
                folder, _ = open_dir(root, op.parts, create=False)
                if folder is None and op.data is None:
                    continue  # deleting from a folder that is gone
                if folder is None:
                    folder, _ = open_dir(root, op.parts, create=True)
                    assert folder is not None
                opened = dirs[op.parts] = (folder, next_stamp(folder.mtime_ns()))
            folder = opened[0]
            st = folder.lstat(op.name)
            if st is not None and is_link(st):
                raise link_error(folder.join(op.name), "file")
            if op.data is None:
                if st is not None and st.st_mtime_ns <= op.stamp and folder.unlink(op.name):
                    changed.add(op.parts)
                    emptied.add(op.parts)
                continue
            if st is not None and st.st_mtime_ns > op.stamp:
                continue  # written again since (a newer batch or a single-item write)
            if st is not None and st.st_mtime_ns == op.stamp:
                target = op.name if folder.fd is not None else folder.join(op.name)
                loaded = read_file(target, dir_fd=folder.fd)
                if loaded is not None and loaded[0] == op.data:
                    continue  # already applied
            tmp, _ = folder.write_temp(op.name, op.data, op.stamp, sync=False)
            try:
                folder.replace(tmp, op.name)
            except BaseException:
                folder.discard(tmp)
                raise
            changed.add(op.parts)
        for parts in changed:
            folder, stamp = dirs[parts]
            folder.stamp(stamp)
    finally:
        for folder, _ in dirs.values():
            folder.close()
    for parts in changed:
        view.forget_dir(parts)
        for op in record.ops:
            if op.parts == parts:
                view.forget(os.path.join(root, *parts, op.name))
    for parts in emptied:
        remove_empty_dirs(root, parts)
        view.forget_dir(parts, ancestors=True)


def _load_syncfs() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        function = libc.syncfs
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int]
    function.restype = ctypes.c_int
    return function


_SYNCFS = _load_syncfs()


def flush_file_system(root: str, records: list[RedoRecord]) -> None:
    """Make every item the records name durable, with their folders.

    One `syncfs` of the root's file system where the platform has it; otherwise each file
    and folder is flushed in turn.
    """
    if _SYNCFS is not None:
        fd = os.open(root, os.O_RDONLY | _O_CLOEXEC)
        try:
            if _SYNCFS(fd) == 0:
                return
        finally:
            os.close(fd)
    names: dict[tuple[str, ...], set[str]] = {}
    for record in records:
        for op in record.ops:
            names.setdefault(op.parts, set()).add(op.name)
    for parts, files in names.items():
        folder, _ = open_dir(root, parts, create=False)
        if folder is None:
            continue
        with folder:
            for name in sorted(files):
                _fsync_item(folder, name)
            folder.fsync()


def _fsync_item(folder: SafeDir, name: str) -> None:
    flags = os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC
    try:
        fd = (
            os.open(name, flags, dir_fd=folder.fd)
            if folder.fd is not None
            else os.open(folder.join(name), flags)
        )
    except OSError:
        return  # deleted since, or a link (never followed)
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
