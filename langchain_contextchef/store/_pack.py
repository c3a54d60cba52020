"""A cold folder's read: its files one by one, or, for a big folder, its pack in one go.

A process that reads a folder of at least `PACK_MIN` items file by file (its first search
of it) writes what it parsed to `.packs/p-<hash>.pack`: for each item file its name, the
`lstat` signature it was read with (inode, modification time, size, and when it was read)
and the parsed fields, the values' bytes after them. The next process to read the folder
cold loads the pack in one read and, for each file of the folder, compares one `lstat` with
the signature: an unchanged file is taken from the pack, any other is read as before. So
the pack answers exactly what reading the files would: the same check the process's own
cache of parsed files makes (a signature with a time the store stamped, or older than the
racy window when it was read).

Only a cold read (three quarters of the folder's files not parsed by the process yet)
loads or writes a pack: a process that re-lists a folder it knows (after a change made
elsewhere) takes the files from its own cache, as before.

The pack is a cache, never a source of truth: it is written without a flush and replaced by
a rename, checked by its length and CRC-32 when read, and ignored when damaged, missing or
meant for another folder. A reader rewrites it whenever it found a file the pack did not
hold as it is now (so an item's replaced value does not stay in the pack past the next cold
read of its folder), and a write that deletes items deletes their folder's pack (so an
erased item's data does not stay in it).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import secrets
import stat
import struct
import zlib
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

import orjson

from langchain_contextchef.store._fsio import READ_FLAGS, folder_fd, open_dir, read_file, trusted
from langchain_contextchef.store._listing import Listing
from langchain_contextchef.store._paths import is_item_file_of
from langchain_contextchef.store._records import (
    BLOB,
    CREATED,
    EXPIRES_TS,
    INO,
    KEY,
    MTIME,
    NS,
    PATH,
    SEEN,
    SIZE,
    TTL,
    UPDATED,
    UPDATED_TS,
    VECTORS,
    CorruptItemError,
    Record,
    Unreadable,
    Vectors,
    parse_document,
)

__all__ = [
    "PACK_DIR",
    "PACK_MIN",
    "Pack",
    "drop_pack",
    "load_pack",
    "read_folder",
    "remove_pack_temps",
    "save_pack",
]

logger = logging.getLogger("langchain_contextchef.store.filesystem")

PACK_DIR = ".packs"
"""Folder (under the root) of the packs."""
PACK_MIN = 256
"""Folders with fewer items are read file by file and get no pack."""
_MAGIC = b"CCPACK01"
_HEAD = struct.Struct("<II")  # metadata length, CRC-32 of everything after the head
# name, inode, time, size, when read, key, value length, created, updated, updated (POSIX
# seconds), TTL, vectors, expiry (POSIX seconds)
_FIELDS = 13


def _pack_name(relative: str) -> str:
    digest = hashlib.sha256(relative.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"p-{digest}.pack"


def _relative(root: str, dirpath: str) -> str:
    return dirpath[len(root) + 1 :].replace(os.sep, "/")


class Pack:
    """A loaded pack: the folder's namespace and, by file name, each item's packed fields."""

    __slots__ = ("entries", "namespace")

    def __init__(self, namespace: tuple[str, ...], entries: dict[str, list[Any]]) -> None:
        self.namespace = namespace
        self.entries = entries

    def record(
        self,
        name: str,
        st: os.stat_result,
        path: str,
        seen: int,
        trusted: Callable[[int, int], bool],
    ) -> Record | None:
        """The item of file `name` if the pack holds it as `st` describes it now, else `None`.

        `trusted` says whether a signature read at a given time proves the file unchanged
        (see `_view.trusted`); the record returned is noted as read at `seen`, the moment of
        the `lstat` that matched it, which that proof carries over to.
        """
        entry = self.entries.get(name)
        if (
            entry is None
            or entry[1] != st.st_ino
            or entry[2] != st.st_mtime_ns
            or entry[3] != st.st_size
            or not trusted(entry[2], entry[4])
        ):
            return None
        vectors: Vectors | None = None
        if entry[11] is not None:
            vectors = tuple((p, tuple(v)) for p, v in entry[11])
        return (
            self.namespace,
            entry[5],
            entry[6],
            datetime.fromisoformat(entry[7]),
            datetime.fromisoformat(entry[8]),
            entry[9],
            entry[10],
            entry[12],
            vectors,
            path,
            st.st_ino,
            st.st_mtime_ns,
            st.st_size,
            seen,
        )


def load_pack(root: str, dirpath: str) -> Pack | None:
    """The pack of the folder at `dirpath`, or `None` if it has none or it is unusable."""
    try:
        folder, _ = open_dir(root, (PACK_DIR,), create=False)
        if folder is None:
            return None
        with folder:
            name = _pack_name(_relative(root, dirpath))
            target = name if folder.fd is not None else folder.join(name)
            loaded = read_file(target, dir_fd=folder.fd)
    except OSError:
        return None  # a link where the pack folder belongs, or unreadable: read the files
    if loaded is None:
        return None
    data = loaded[0]
    head = len(_MAGIC) + _HEAD.size
    if len(data) < head or data[: len(_MAGIC)] != _MAGIC:
        return None
    meta_length, crc = _HEAD.unpack_from(data, len(_MAGIC))
    if zlib.crc32(memoryview(data)[head:]) != crc:
        return None
    try:
        meta = orjson.loads(data[head : head + meta_length])
        if meta["dir"] != _relative(root, dirpath):
            return None
        namespace = tuple(meta["ns"])
        entries: dict[str, list[Any]] = {}
        offset = head + meta_length
        for entry in meta["items"]:
            length = entry[6]
            if len(entry) != _FIELDS:
                return None
            entry[6] = data[offset : offset + length]
            offset += length
            entries[entry[0]] = entry
    except (orjson.JSONDecodeError, KeyError, IndexError, TypeError):
        return None
    if offset != len(data) or not all(type(label) is str for label in namespace):
        return None
    return Pack(namespace, entries)


def save_pack(root: str, dirpath: str, records: Iterable[Record]) -> None:
    """Write the pack of the folder at `dirpath` from records just read (best effort).

    Written unflushed to a new file and renamed over the old pack, so a reader sees the old
    or the new one. Failures (a read-only root, a full disk) are logged and ignored: the
    folder is then read file by file, as without a pack.
    """
    items: list[list[Any]] = []
    blobs: list[bytes] = []
    namespace: tuple[str, ...] | None = None
    for record in records:
        if namespace is None:
            namespace = record[NS]
        elif record[NS] != namespace:
            return  # not one namespace: no pack (never happens for a store's own folder)
        vectors = [[p, list(v)] for p, v in record[VECTORS]] if record[VECTORS] else None
        items.append(
            [
                os.path.basename(record[PATH]),
                record[INO],
                record[MTIME],
                record[SIZE],
                record[SEEN],
                record[KEY],
                len(record[BLOB]),
                record[CREATED].isoformat(),
                record[UPDATED].isoformat(),
                record[UPDATED_TS],
                record[TTL],
                vectors,
                record[EXPIRES_TS],
            ]
        )
        blobs.append(record[BLOB])
    if namespace is None:
        return
    relative = _relative(root, dirpath)
    meta = orjson.dumps({"dir": relative, "ns": list(namespace), "items": items})
    body = b"".join([meta, *blobs])
    data = b"".join([_MAGIC, _HEAD.pack(len(meta), zlib.crc32(body)), body])
    name = _pack_name(relative)
    try:
        folder, _ = open_dir(root, (PACK_DIR,), create=True)
        assert folder is not None
        with folder:
            tmp = f".{name}.{secrets.token_hex(6)}.tmp"
            folder.write_new(tmp, data, None, sync=False)
            try:
                folder.replace(tmp, name)
            except BaseException:
                folder.discard(tmp)
                raise
    except OSError as exc:
        logger.debug("Could not write the pack of %s: %s", dirpath, exc)


def drop_pack(root: str, parts: tuple[str, ...]) -> None:
    """Delete the pack of the folder `root/parts...` (after a write deleted items in it)."""
    with contextlib.suppress(OSError):
        folder, _ = open_dir(root, (PACK_DIR,), create=False)
        if folder is not None:
            with folder:
                folder.discard(_pack_name("/".join(parts)))


def read_folder(
    root: str,
    listing: Listing,
    records: dict[str, Record | Unreadable],
    values: dict[str, dict[str, Any]] | None,
    seen: int,
    load: Callable[[str], Record | None],
    careful: Callable[[str, int | None], Record | None],
    folder_of: Callable[[tuple[str, ...]], str],
) -> list[Record]:
    """The items of a folder no process cache holds yet, in listing order (a cold read).

    Files not cached yet are read relative to one open folder descriptor (one path lookup
    per file instead of one per folder level) in a tight loop, or taken from the folder's
    pack after one `lstat`; a big folder read from its files gets a new pack. Anything
    unusual (a vanished, broken, moved or special file) goes to `careful`, which handles
    and reports it.

    Args:
        root: The store root.
        listing: The folder's listing.
        records: The process's parsed files by path; receives every record built here.
        values: Receives by path the parsed value of each record read from its file here
            (a private copy; see `parse_document`), when given.
        seen: This read's time (ns): the records are noted as read then.
        load: The cached, validated read of one file (for files the cache holds).
        careful: Reads one file (by path, relative to the folder descriptor when given)
            with every check, caching what it finds.
        folder_of: The folder path of a namespace.
    """
    found: list[Record] = []
    # Local names: this loop runs once per file of a cold folder.
    open_, fstat, read, close, is_regular = os.open, os.fstat, os.read, os.close, stat.S_ISREG
    parse, file_of, append = parse_document, is_item_file_of, found.append
    fd = folder_fd(listing.path)
    base = listing.path + os.sep
    expected: tuple[str, ...] | None = None  # the folder's namespace, once one file proves it
    # Only a cold read (three quarters of the files not parsed by this process yet) uses
    # or writes the pack; a warm one re-lists a changed folder from its cache.
    uncached = sum(base + name not in records for name in listing.names)
    cold = fd is not None and uncached >= PACK_MIN and 4 * uncached >= 3 * len(listing.names)
    pack = _pack_of(root, listing, folder_of) if cold else None
    if pack is not None:
        expected = pack.namespace
    from_pack, lstat = 0, os.stat
    try:
        for name in listing.names:
            path = base + name
            if fd is None or path in records:
                record = load(path)
                if record is not None:
                    found.append(record)
                continue
            record = None
            if pack is not None:
                # One lstat instead of open, fstat, read, close and a parse.
                try:
                    found_st = lstat(name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    found_st = None
                if found_st is not None and is_regular(found_st.st_mode):
                    record = pack.record(name, found_st, path, seen, trusted)
                if record is not None:
                    records[path] = record
                    append(record)
                    from_pack += 1
                    continue
                record = None
            try:
                handle = open_(name, READ_FLAGS, dir_fd=fd)
            except OSError:
                handle = -1
            if handle >= 0:
                try:
                    st = fstat(handle)
                    # Never read a folder or FIFO that sits under an item's name.
                    data = read(handle, st.st_size + 1) if is_regular(st.st_mode) else b""
                finally:
                    close(handle)
                if data and len(data) == st.st_size:
                    try:
                        record = parse(
                            data,
                            path,
                            st.st_ino,
                            st.st_mtime_ns,
                            st.st_size,
                            seen,
                            expected,
                            values,
                        )
                    except CorruptItemError:
                        record = None
                    if record is not None and (
                        record[NS] is not expected or not file_of(name, record[KEY])
                    ):
                        record = None  # not proven yet: the careful path decides
                        if values is not None:
                            values.pop(path, None)
                    if record is not None:
                        records[path] = record
            if record is None:
                record = careful(path, fd)
                if record is not None and expected is None:
                    expected = record[NS]
            if record is not None:
                append(record)
    finally:
        if fd is not None:
            os.close(fd)
    if (
        cold
        and len(found) >= PACK_MIN
        and (pack is None or from_pack != len(found) or from_pack != len(pack.entries))
    ):
        save_pack(root, listing.path, found)  # none yet, or it missed a change
    return found


def _pack_of(
    root: str, listing: Listing, folder_of: Callable[[tuple[str, ...]], str]
) -> Pack | None:
    """The folder's pack, if it is big enough to have one and its pack is for it."""
    if len(listing.names) < PACK_MIN:
        return None
    pack = load_pack(root, listing.path)
    if pack is None or folder_of(pack.namespace) != listing.path:
        return None
    return pack


def remove_pack_temps(root: str) -> int:
    """Delete temporary files left in `.packs/` by readers killed while writing a pack.

    A live reader that loses its temporary file this way only fails to write its pack.

    Returns:
        How many were deleted.
    """
    try:
        folder, _ = open_dir(root, (PACK_DIR,), create=False)
    except OSError:
        return 0
    if folder is None:
        return 0
    removed = 0
    with folder:
        for name, is_dir, link in folder.scan():
            if not is_dir and not link and name.startswith(".") and name.endswith(".tmp"):
                removed += folder.unlink(name)
    return removed
