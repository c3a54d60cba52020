"""What one process knows of a store's folder tree: parsed files and folder listings.

Nothing here takes a lock: reads rely on renames being atomic. Every cached object is
validated against the disk before use:

* a parsed file by its `lstat` signature (inode, size, modification time);
* a folder listing by its folder's `lstat` (inode, modification time);
* a folder path by its identity (`dev`, `ino`) after one check that no folder between the
  root and it is a link.

A cached signature is trusted only when its time stamp was written by the store (see
`_fsio.is_stamped`) or is older than the racy window: a file-system clock can be coarser
than the time between two edits.
"""

from __future__ import annotations

import contextlib
import logging
import operator
import os
import stat
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

from langchain_contextchef.entry import collector_paused
from langchain_contextchef.store._fsio import (
    RACY_WINDOW_NS,
    READ_FLAGS,
    STAMP_MARK,
    UnsafePathError,
    folder_fd,
    is_link,
    link_error,
    read_file,
    trusted,
)
from langchain_contextchef.store._listing import Listing
from langchain_contextchef.store._pack import read_folder
from langchain_contextchef.store._paths import (
    ITEM_SUFFIX,
    encode_namespace,
    is_temp_name,
    item_file_name,
)
from langchain_contextchef.store._records import (
    EXPIRES_TS,
    INO,
    KEY,
    MTIME,
    NS,
    SEEN,
    SIZE,
    UPDATED_TS,
    VECTORS,
    CorruptItemError,
    Record,
    Unreadable,
    parse_document,
)
from langchain_contextchef.store._vectors import VectorIndex

__all__ = ["RACY_WINDOW_NS", "DiskView", "trusted"]

logger = logging.getLogger("langchain_contextchef.store.filesystem")

_MAX_DIR_CACHE = 65_536
_MAX_KEPT_FDS = 256  # folder descriptors kept open per store object (a fraction of ulimits)
_BY_KEY = operator.itemgetter(KEY)
_BY_UPDATED = operator.itemgetter(UPDATED_TS)


def _close_all(fds: dict[str, int]) -> None:
    for fd in list(fds.values()):
        with contextlib.suppress(OSError):
            os.close(fd)
    fds.clear()


class DiskView:
    """The read side of a `FileSystemStore`: validated, cached reads of one root."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.records: dict[str, Record | Unreadable] = {}
        self.listings: dict[str, Listing] = {}
        self._dir_ids: dict[str, tuple[int, int]] = {}
        self._dirs: dict[tuple[str, ...], tuple[str, tuple[str, ...], tuple[str, ...]]] = {}
        # Open descriptors of listed folders (bounded): `fstat` on one needs no path lookup.
        self._fds: dict[str, int] = {}
        self._fd_guard = threading.Lock()  # two threads must not both open one folder's fd
        weakref.finalize(self, _close_all, self._fds)

    # ------------------------------------------------------------------ paths

    def dir_of(self, namespace: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """The folder of a namespace: its path and its encoded names below the root."""
        found = self._dirs.get(namespace)
        if found is None:
            found = self._remember(namespace)
        return found[0], found[1]

    def _remember(self, namespace: tuple[str, ...]) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        if len(self._dirs) >= _MAX_DIR_CACHE:
            self._dirs.clear()
        parts = encode_namespace(namespace)
        found = self._dirs[namespace] = (os.path.join(self.root, *parts), parts, namespace)
        return found

    def file_of(self, namespace: tuple[str, ...], key: str) -> str:
        """The path of an item's file."""
        return os.path.join(self.dir_of(namespace)[0], item_file_name(key))

    def dir_ok(self, dirpath: str, parts: tuple[str, ...]) -> bool:
        """Whether `dirpath` is an existing real folder reached without links from the root.

        A folder checked once is trusted while `lstat` keeps returning the same identity:
        replacing it, or any folder above it, by a link changes what the path reaches.

        Raises:
            UnsafePathError: If the folder or a folder above it is a link.
        """
        try:
            st = os.lstat(dirpath)
        except (FileNotFoundError, NotADirectoryError):
            return False
        if is_link(st):
            raise link_error(dirpath, "folder")
        if not stat.S_ISDIR(st.st_mode):
            return False
        identity = (st.st_dev, st.st_ino)
        if self._dir_ids.get(dirpath) == identity:
            return True
        path = self.root
        for part in parts[:-1]:
            path = os.path.join(path, part)
            try:
                above = os.lstat(path)
            except (FileNotFoundError, NotADirectoryError):
                return False
            if is_link(above):
                raise link_error(path, "folder")
            if not stat.S_ISDIR(above.st_mode):
                return False
        if len(self._dir_ids) >= _MAX_DIR_CACHE:
            self._dir_ids.clear()
        self._dir_ids[dirpath] = identity
        return True

    def forget_dir(self, parts: tuple[str, ...], *, ancestors: bool = False) -> None:
        """Drop the cached listing of a folder that was made, emptied or removed.

        With `ancestors`, also the listings of the folders above it (their sub-folders
        changed) and the folder's checked identity.
        """
        path = os.path.join(self.root, *parts)
        self.listings.pop(path, None)
        if ancestors:
            self._close_fd(path)
            self._dir_ids.pop(path, None)
            for depth in range(len(parts)):
                self.listings.pop(os.path.join(self.root, *parts[:depth]), None)

    # ------------------------------------------------------------------ files

    def load(self, path: str, found: os.stat_result | None = None) -> Record | None:
        """The parsed item at `path` (`None` if missing or unreadable), via the cache.

        Args:
            path: The item's file.
            found: An `lstat` of that file the caller took just before (a writer holding
                the folder's lock has one), so the cache is checked against it instead of
                a second `lstat` of the same file.

        Raises:
            UnsafePathError: If the file is a link.
        """
        cached = self.records.get(path)
        if cached is None:
            return self._read(path, None)  # nothing to validate: read (and fstat) at once
        if found is not None:
            st = found
        else:
            try:
                st = os.lstat(path)
            except (FileNotFoundError, NotADirectoryError):
                self.records.pop(path, None)
                return None
        if isinstance(cached, Unreadable):
            if (
                cached.ino == st.st_ino
                and cached.mtime_ns == st.st_mtime_ns
                and cached.size == st.st_size
                and trusted(cached.mtime_ns, cached.seen_ns)
            ):
                return None  # still the same unreadable file
        elif (
            cached[INO] == st.st_ino
            and cached[MTIME] == st.st_mtime_ns
            and cached[SIZE] == st.st_size
            and stat.S_ISREG(st.st_mode)
            and trusted(cached[MTIME], cached[SEEN])
        ):
            return cached
        if not stat.S_ISREG(st.st_mode):
            if is_link(st):
                raise link_error(path, "file")
            return None
        return self._read(path, cached)

    def _read(
        self,
        path: str,
        previous: Record | Unreadable | None,
        dir_fd: int | None = None,
        seen: int = 0,
    ) -> Record | None:
        """Read and parse one file, caching the result (a record, or its unreadability).

        With `dir_fd`, the file is opened relative to that folder (its name is the last part
        of `path`) – the hot path of a cold start, kept to four system calls.
        """
        seen = seen or time.time_ns()
        name = path[path.rfind(os.sep) + 1 :]
        data: bytes | None = None
        try:
            fd = os.open(name, READ_FLAGS, dir_fd=dir_fd) if dir_fd is not None else None
        except OSError:
            fd = None
        if fd is not None:
            try:
                st = os.fstat(fd)
                if stat.S_ISREG(st.st_mode):
                    data = os.read(fd, st.st_size + 1)
                    if len(data) != st.st_size:
                        data = None  # it changed while we read: take the careful path
            finally:
                os.close(fd)
        if data is None:
            try:
                loaded = read_file(path)
            except UnsafePathError:
                raise link_error(path, "file") from None
            if loaded is None:
                self.records.pop(path, None)
                return None
            data, st = loaded
            if not stat.S_ISREG(st.st_mode):
                return None
        record: Record | None
        try:
            record = parse_document(data, path, st.st_ino, st.st_mtime_ns, st.st_size, seen)
        except CorruptItemError as exc:
            record = None
            problem = str(exc)
        else:
            problem = ""
            folder = self.dir_of(record[NS])[0]
            if (
                len(folder) + len(name) + 1 != len(path)
                or not path.startswith(folder)
                or item_file_name(record[KEY]) != name
            ):
                record = None
                problem = "its namespace and key belong to another file name (moved by hand?)"
        if record is None:
            if not (
                isinstance(previous, Unreadable)
                and previous.ino == st.st_ino
                and previous.mtime_ns == st.st_mtime_ns
            ):
                logger.warning("Ignoring store file %s: %s. Fix or delete it.", path, problem)
            self.records[path] = Unreadable(st, seen)
            return None
        self.records[path] = record
        return record

    def remember(self, path: str, record: Record) -> None:
        """Cache a record this process just wrote (its signature already set)."""
        self.records[path] = record

    def forget(self, path: str) -> None:
        """Drop the cached parse of a file this process just deleted."""
        self.records.pop(path, None)

    # ------------------------------------------------------------------ folders

    def listing(self, dirpath: str) -> Listing | None:
        """The folder's listing, from the cache while the folder is unchanged.

        Raises:
            UnsafePathError: If the folder itself is a link (links inside it are recorded
                in the listing; callers decide).
        """
        try:
            # The root itself may be a link (the caller chose it); nothing below it may.
            st = os.stat(dirpath) if dirpath == self.root else os.lstat(dirpath)
        except (FileNotFoundError, NotADirectoryError):
            self.listings.pop(dirpath, None)
            return None
        if is_link(st):
            raise link_error(dirpath, "folder")
        if not stat.S_ISDIR(st.st_mode):
            return None
        cached = self.listings.get(dirpath)
        if (
            cached is not None
            and cached.ino == st.st_ino
            and cached.mtime_ns == st.st_mtime_ns
            and trusted(cached.mtime_ns, cached.scanned_ns)
        ):
            return cached
        scanned = time.time_ns()
        names: list[str] = []
        subdirs: list[str] = []
        links: list[str] = []
        temps: list[str] = []
        # listdir is much cheaper than scandir on big folders. Item files end in `.json` and
        # namespace folders never do (labels cannot hold a `.`), so only the few other names
        # need an lstat; a link posing as an item file is refused when it is read.
        for name in os.listdir(dirpath):
            if name[0] == ".":
                if is_temp_name(name):
                    temps.append(name)
            elif name.endswith(ITEM_SUFFIX):
                names.append(name)
            else:
                try:
                    entry = os.lstat(os.path.join(dirpath, name))
                except FileNotFoundError:
                    continue
                if is_link(entry):
                    links.append(name)
                elif stat.S_ISDIR(entry.st_mode):
                    subdirs.append(name)
        if cached is not None:
            # Forget parses of files that are gone, so the cache does not grow without bound.
            for gone in set(cached.names).difference(names):
                self.records.pop(os.path.join(dirpath, gone), None)
        subdirs.sort()
        listing = Listing(dirpath, st.st_ino, st.st_mtime_ns, scanned, names, subdirs, links, temps)
        self.listings[dirpath] = listing
        if dirpath in self._fds:
            self._keep_fd(dirpath, st.st_ino)  # the folder may have been replaced
        return listing

    def walk(self, start: str, *, refuse_links: bool = True) -> Iterator[Listing]:
        """Listings of `start` and every folder below it (depth first, sorted).

        A cached listing is revalidated with one `stat` of its folder: through the folder's
        kept descriptor (no path lookup) when its parent's listing was just found unchanged
        – replacing, moving or removing the folder would have changed its parent – and
        through its path otherwise.

        Raises:
            UnsafePathError: If a folder holds a link (unless `refuse_links` is false).
        """
        listings, fds, lstat, fstat, root = self.listings, self._fds, os.lstat, os.fstat, self.root
        stack: list[tuple[str, bool]] = [(start, False)]
        while stack:
            path, parent_unchanged = stack.pop()
            listing = listings.get(path)
            unchanged = False
            if listing is not None and path != root:
                fd = fds.get(path) if parent_unchanged else None
                try:
                    st: os.stat_result | None = fstat(fd) if fd is not None else lstat(path)
                except OSError:
                    st = None
                unchanged = (
                    st is not None
                    and listing.ino == st.st_ino
                    and listing.mtime_ns == st.st_mtime_ns
                    and (
                        st.st_mtime_ns % 1_000_000 == STAMP_MARK
                        or listing.scanned_ns - st.st_mtime_ns > RACY_WINDOW_NS
                    )
                )
            if not unchanged:
                listing = self.listing(path)
            elif fd is None and path not in fds:
                # Walked again and unchanged: keep a descriptor for the next walks.
                self._keep_fd(path, listing.ino)  # type: ignore[union-attr]
            if listing is None:
                continue
            if listing.links and refuse_links:
                raise link_error(os.path.join(listing.path, listing.links[0]), "file or folder")
            yield listing
            if listing.subdirs:
                stack.extend((child, unchanged) for child in listing.child_paths())

    def live_namespaces(self, start: str, now: float) -> set[tuple[str, ...]]:
        """Namespaces holding a live item in `start` or below (the `list_namespaces` walk).

        The same validation as `walk`, written out flat: this is one `stat` per folder and
        little else, and it runs once per `list_namespaces` call.

        Raises:
            UnsafePathError: If a folder holds a link.
        """
        found: set[tuple[str, ...]] = set()
        for listing in self.walk(start):
            if not listing.names:
                continue
            probe = listing.probe  # a live item seen before answers without a scan
            if probe is not None and (probe[EXPIRES_TS] is None or probe[EXPIRES_TS] > now):
                found.add(probe[NS])
                continue
            namespace = self.live_namespace(listing, now)
            if namespace is not None:
                found.add(namespace)
        return found

    def _keep_fd(self, dirpath: str, ino: int) -> None:
        """Keep a descriptor of a listed folder (bounded), for cheap revalidation."""
        with self._fd_guard:
            self._keep_fd_locked(dirpath, ino)

    def _keep_fd_locked(self, dirpath: str, ino: int) -> None:
        old = self._fds.get(dirpath)
        if old is not None:
            try:
                if os.fstat(old).st_ino == ino:
                    return
            except OSError:
                pass
            self._close_fd(dirpath)
        if len(self._fds) >= _MAX_KEPT_FDS or dirpath == self.root:
            return
        fd = folder_fd(dirpath)
        if fd is not None:
            self._fds[dirpath] = fd

    def _close_fd(self, dirpath: str) -> None:
        fd = self._fds.pop(dirpath, None)  # atomic: only one caller gets the descriptor
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def close(self) -> None:
        """Close the kept folder descriptors (the caches stay usable; they fall back to paths)."""
        _close_all(self._fds)

    def entries(
        self, listing: Listing, values: dict[str, dict[str, Any]] | None = None
    ) -> list[Record]:
        """The folder's readable items in search order (parsed on first use).

        `values`, when given, receives by path the parsed value of each record this call
        builds in its tight loop (a private copy; see `parse_document`).

        Files not cached yet are read relative to one open folder descriptor (one path
        lookup per file instead of one per folder level) in a tight loop: this is the whole
        cost of a process's first search. Anything unusual (a vanished, broken, moved or
        special file) goes through `_read`, which handles and reports it.
        """
        if listing.entries is not None:
            return listing.entries
        # A cold folder: thousands of small objects that form no cycles, so the collections
        # their allocation would trigger find nothing (see `entry.collector_paused`).
        with collector_paused():
            return self._read_folder(listing, values)

    def _read_folder(
        self, listing: Listing, values: dict[str, dict[str, Any]] | None
    ) -> list[Record]:
        """`entries` of a folder not listed yet: from its pack, or its files in a tight loop."""
        seen = time.time_ns()
        found = read_folder(
            self.root,
            listing,
            self.records,
            values,
            seen,
            self.load,
            lambda path, fd: self._read(path, None, fd, seen),
            lambda namespace: self.dir_of(namespace)[0],
        )
        # Search order within one folder (one namespace): newest first, ties by key. Two
        # stable sorts on C-level keys avoid building a key tuple per item.
        found.sort(key=_BY_KEY)
        found.sort(key=_BY_UPDATED, reverse=True)
        listing.built_ns = seen
        listing.entries = found
        return found

    def vectors(self, listing: Listing) -> VectorIndex:
        """The items' vectors, aligned with `entries` (built on first use)."""
        if listing.vectors is None:
            listing.vectors = VectorIndex([rec[VECTORS] for rec in self.entries(listing)])
        return listing.vectors

    def live_namespace(self, listing: Listing, now: float) -> tuple[str, ...] | None:
        """The namespace of the folder if it holds a live item, else `None`."""
        probe = listing.probe
        if probe is not None and (probe[EXPIRES_TS] is None or probe[EXPIRES_TS] > now):
            return probe[NS]
        if listing.entries is not None:
            candidates: Iterator[Record] = iter(listing.entries)
        else:
            base = listing.path + os.sep
            candidates = (
                rec for rec in (self.load(base + n) for n in listing.names) if rec is not None
            )
        for record in candidates:
            if record[EXPIRES_TS] is None or record[EXPIRES_TS] > now:
                listing.probe = record
                return record[NS]
        return None

    def patch(
        self,
        dirpath: str,
        ino: int,
        before_ns: int,
        after_ns: int,
        changes: list[tuple[str, Record | None]],
    ) -> Listing | None:
        """Apply this process's own write to the folder's cached listing.

        Safe only while the folder's write lock is held: the cached listing must have been
        exact just before the write (same folder, same trusted time `before_ns`), and the
        lock kept every other store writer out, so after the write it is exact again at the
        folder's new time `after_ns`. Otherwise the listing is dropped.

        Returns:
            The patched listing, or `None` if it was dropped.
        """
        listing = self.listings.get(dirpath)
        if (
            listing is None
            or listing.ino != ino
            or listing.mtime_ns != before_ns
            or not trusted(before_ns, listing.scanned_ns)
        ):
            self.listings.pop(dirpath, None)
            return None
        for name, record in changes:
            listing = listing.with_change(name, record, after_ns)
        self.listings[dirpath] = listing
        return listing
