"""Low-level file operations that never follow a link below the store root.

Writes reach their folder one component at a time from the root, opening each one relative
to its parent with `O_NOFOLLOW | O_DIRECTORY` (`openat`), create files with
`O_EXCL | O_NOFOLLOW` and rename them relative to the same folder descriptor, so a link
planted anywhere under the root can never redirect a write outside it. Reads open item files
with `O_NOFOLLOW`; the store checks the folders above them (see `FileSystemStore`). The root
itself may be a link: the caller chose it. Platforms without `dir_fd` support (Windows) fall
back to checking every component with `lstat` just before using it.

Writes are durable: data is flushed with `fsync` before the rename that publishes it (from
the root's staging folder, or within the item's folder), and the folder is synced afterwards
so the new name survives a power cut.

Each write also *stamps* the modification time of the file and of its folder with a value
that is unique for that folder (strictly increasing under the folder's write lock) and ends
in a marker (`STAMP_MARK` nanoseconds past a millisecond). A reader that cached a folder
listing or a parsed file can then trust it while the time stamp is unchanged, even within
the file system's time-stamp granularity, because no store write can reproduce a stamp. A
time written by anything else (an editor, `git checkout`) does not end in the marker, so it
gets the usual "racy window" caution.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import stat
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import cast

from langchain_contextchef.store._paths import temp_file_prefix

__all__ = [
    "FILE_MODE",
    "FOLDER_MODE",
    "RACY_WINDOW_NS",
    "READ_FLAGS",
    "STAMP_MARK",
    "SafeDir",
    "UnsafePathError",
    "folder_fd",
    "is_link",
    "is_stamped",
    "link_error",
    "next_stamp",
    "open_dir",
    "read_file",
    "remove_empty_dirs",
    "swap_files",
    "trusted",
]

FILE_MODE = 0o600
"""Files the store creates are readable by their owner only: memory is personal data."""
FOLDER_MODE = 0o700
"""Folders the store creates (the root when it is missing, namespaces, locks, journals)."""

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows would otherwise translate newlines.
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FLAGS = os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC
READ_FLAGS = os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY | getattr(os, "O_NONBLOCK", 0)
"""Flags for reading an item: never through a link, never blocking on a FIFO planted there."""
# Descriptor-relative operations make the no-follow walk race-free; without them (Windows)
# each component is checked with lstat just before it is used.
_USE_FD = bool(
    _O_NOFOLLOW
    and _O_DIRECTORY
    and {os.open, os.mkdir, os.unlink, os.stat, os.rename, os.rmdir} <= os.supports_dir_fd
    and os.utime in os.supports_fd
    and os.scandir in os.supports_fd
)
# O_NOFOLLOW on a link fails with ELOOP (Linux, macOS) or EMLINK (FreeBSD).
_LINK_ERRNOS = frozenset({errno.ELOOP, errno.EMLINK})

STAMP_MARK = 473_000
"""Nanoseconds past the millisecond that mark a time stamp written by this store."""

_MS = 1_000_000


class UnsafePathError(OSError):
    """A symbolic link (or junction) was found under the store root; it is never followed.

    A link inside the root could make a read return, or a write change, a file outside it.
    """


def is_link(st: os.stat_result) -> bool:
    """Whether an `lstat` result describes a link (or a Windows reparse point)."""
    attributes = getattr(st, "st_file_attributes", 0)
    return stat.S_ISLNK(st.st_mode) or bool(attributes & stat.FILE_ATTRIBUTE_REPARSE_POINT)


def link_error(path: str, kind: str) -> UnsafePathError:
    """Build the error for a link found at `path` where a real `kind` ("file"/"folder") belongs."""
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    msg = (
        f"Refusing to use {path!r}: it is a symbolic link (to {target!r}) inside the store "
        "root, and following it could read or write files outside the root. Replace it with "
        f"a real {kind} or remove it."
    )
    return UnsafePathError(msg)


def next_stamp(before_ns: int) -> int:
    """A marked time stamp later than `before_ns` (the folder's time before this write)."""
    ms = max(time.time_ns() // _MS, before_ns // _MS + 1)
    return ms * _MS + STAMP_MARK


def is_stamped(mtime_ns: int) -> bool:
    """Whether a modification time was written by this store (see the module docstring)."""
    return mtime_ns % _MS == STAMP_MARK


_RENAME_EXCHANGE = 2  # linux/fs.h


def _load_renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The process's own symbols hold the C library's (no `find_library` search at import).
        function = ctypes.CDLL(None, use_errno=True).renameat2  # glibc 2.28 and later
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return cast("Callable[[int, bytes, int, bytes, int], int]", function)


_RENAMEAT2 = _load_renameat2()
_swap_works = True


def swap_files(src_fd: int, src: str, dst_fd: int, dst: str) -> bool:
    """Exchange two existing entries atomically (`renameat2(RENAME_EXCHANGE)`, Linux).

    Returns:
        Whether they were exchanged; `False` (nothing done) where the platform, the C
        library or the file system cannot, so the caller renames instead.

    Raises:
        OSError: On any other failure.
    """
    global _swap_works  # a C library without the system call: learnt once per process
    if _RENAMEAT2 is None or not _swap_works:
        return False
    if _RENAMEAT2(src_fd, os.fsencode(src), dst_fd, os.fsencode(dst), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EPERM}:
        _swap_works = code != errno.ENOSYS  # a file system may refuse where another would not
        return False
    if code == errno.ENOENT:
        return False  # the old file went meanwhile: a plain rename publishes the new one
    raise OSError(code, os.strerror(code), dst)


def _fsync_fd(fd: int) -> None:
    with contextlib.suppress(OSError):  # some file systems cannot sync directories
        os.fsync(fd)


RACY_WINDOW_NS = 2_000_000_000
"""How old an unstamped time stamp must be before a cache keyed on it is trusted.

File-system clocks are coarse (a kernel tick on Linux, 1 s on HFS+, 2 s on FAT): a file
rewritten within that granularity could otherwise keep the same stat signature.
"""


def trusted(mtime_ns: int, seen_ns: int) -> bool:
    """Whether a cache entry made at `seen_ns` for a file of time `mtime_ns` can be reused."""
    return is_stamped(mtime_ns) or seen_ns - mtime_ns > RACY_WINDOW_NS


class SafeDir:
    """An open folder under the root, reached without following any link below the root."""

    __slots__ = ("fd", "path")

    def __init__(self, path: str, fd: int | None) -> None:
        self.path = path
        self.fd = fd

    def close(self) -> None:
        """Release the folder's descriptor (no-op on the path fallback)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> SafeDir:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def join(self, name: str) -> str:
        """The path of an entry of this folder."""
        return os.path.join(self.path, name)

    def lstat(self, name: str) -> os.stat_result | None:
        """Stat an entry without following it; `None` if it does not exist."""
        try:
            if self.fd is not None:
                return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            return os.lstat(self.join(name))
        except (FileNotFoundError, NotADirectoryError):
            return None

    def mtime_ns(self) -> int:
        """The folder's own modification time."""
        st = os.fstat(self.fd) if self.fd is not None else os.stat(self.path)
        return st.st_mtime_ns

    def child(self, name: str, *, create: bool) -> tuple[SafeDir | None, bool]:
        """Open (and with `create`, make) the sub-folder `name`.

        Returns:
            The folder (`None` if missing and not created) and whether this call made it.

        Raises:
            UnsafePathError: If the entry is a link.
            NotADirectoryError: If a file sits where a folder should be (only with `create`).
        """
        made = False
        for _ in range(4):
            try:
                if self.fd is not None:
                    return SafeDir(self.join(name), os.open(name, _DIR_FLAGS, dir_fd=self.fd)), made
                st = os.lstat(self.join(name))
            except FileNotFoundError:
                if not create:
                    return None, False
                try:
                    if self.fd is not None:
                        os.mkdir(name, FOLDER_MODE, dir_fd=self.fd)
                    else:
                        os.mkdir(self.join(name), FOLDER_MODE)
                except FileExistsError:
                    continue
                made = True
                self.fsync()
                continue
            except OSError as exc:
                if exc.errno not in _LINK_ERRNOS and exc.errno != errno.ENOTDIR:
                    raise
                found = self.lstat(name)
                if found is None:
                    continue
                st = found
            if is_link(st):
                raise link_error(self.join(name), "folder")
            if not stat.S_ISDIR(st.st_mode):
                if not create:
                    return None, False
                msg = (
                    f"{self.join(name)!r} is a file where the store keeps a namespace folder; "
                    "move it out of the store root."
                )
                raise NotADirectoryError(msg)
            return SafeDir(self.join(name), None), made
        msg = f"Could not create the folder {self.join(name)!r}: it keeps disappearing."
        raise FileNotFoundError(msg)

    def write_temp(
        self, final_name: str, data: bytes, stamp_ns: int | None, *, sync: bool = True
    ) -> tuple[str, int]:
        """Write `data` to a new temporary file (in this folder) for `final_name`.

        Durably (flushed to disk) unless `sync` is off.

        Returns:
            The temporary file's name and its inode number.

        Raises:
            OSError: On any failure (a full disk included); no temporary file is left then.
        """
        name = f"{temp_file_prefix(final_name)}{secrets.token_hex(6)}.tmp"
        return name, self.write_new(name, data, stamp_ns, sync=sync)

    def write_new(self, name: str, data: bytes, stamp_ns: int | None, *, sync: bool = True) -> int:
        """Create the file `name` (it must not exist), write `data` durably, stamp it.

        With `sync` off the data is not flushed: other processes see it at once, a crash of
        this process keeps it, a power cut may lose it.

        Returns:
            The new file's inode number.

        Raises:
            OSError: On any failure (a full disk included); the file is removed then.
        """
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
        if self.fd is not None:
            fd = os.open(name, flags, FILE_MODE, dir_fd=self.fd)
        else:
            fd = os.open(self.join(name), flags, FILE_MODE)
        try:
            try:
                view = memoryview(data)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
                if sync:
                    os.fsync(fd)
                if stamp_ns is not None:
                    if os.utime in os.supports_fd:
                        os.utime(fd, ns=(stamp_ns, stamp_ns))
                    else:
                        os.utime(self.join(name), ns=(stamp_ns, stamp_ns))
                inode = os.fstat(fd).st_ino
            finally:
                os.close(fd)
        except BaseException:
            self.discard(name)
            raise
        return inode

    def overwrite(self, name: str, data: bytes, stamp_ns: int | None) -> int:
        """Write `data` over the start of the existing file `name`, unflushed, and stamp it.

        For a write that may be lost in a power cut (see `FileSystemStore.batch_unsynced`):
        `data` must be at least as long as the file, so no truncation is needed and a reader
        sees either the old or the new bytes of one small write.

        Returns:
            The file's inode number.

        Raises:
            UnsafePathError: If `name` is a link.
        """
        flags = os.O_WRONLY | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
        try:
            if self.fd is not None:
                fd = os.open(name, flags, dir_fd=self.fd)
            else:
                fd = os.open(self.join(name), flags)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise link_error(self.join(name), "file") from exc
            raise
        try:
            view = memoryview(data)
            offset = 0
            while offset < len(data):
                offset += os.pwrite(fd, view[offset:], offset)
            if stamp_ns is not None:
                if os.utime in os.supports_fd:
                    os.utime(fd, ns=(stamp_ns, stamp_ns))
                else:
                    os.utime(self.join(name), ns=(stamp_ns, stamp_ns))
            return os.fstat(fd).st_ino
        finally:
            os.close(fd)

    def replace(self, tmp: str, name: str) -> None:
        """Rename the temporary file `tmp` over `name` (atomic: readers see old or new).

        Raises:
            UnsafePathError: If `name` is a link (the rename would replace the link, but a
                planted link is refused rather than silently removed).
        """
        st = self.lstat(name)
        if st is not None and is_link(st):
            raise link_error(self.join(name), "file")
        if self.fd is not None:
            os.rename(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        else:
            os.replace(self.join(tmp), self.join(name))

    def move_in(
        self, source: SafeDir, tmp: str, name: str, *, swap: bool = False, checked: bool = False
    ) -> None:
        """Rename `source/tmp` over `name` in this folder (atomic; same file system).

        With `swap`, an existing regular file `name` is exchanged with `source/tmp` in one
        atomic step (readers see the old file or the new one, as with a rename), then
        deleted under its new name `source/tmp`. Only for a file whose data is also carried
        by a flushed redo record: renaming over an existing file makes ext4 start writing
        the new file at once (`auto_da_alloc`), and the old file, its blocks allocated by
        that same rule one write earlier, then costs milliseconds to free; an exchange
        does neither (see `swap_files`). A plain rename where exchanging is not available.

        With `checked`, the caller holds the folder's write lock and has just found `name`
        missing (`swap` off) or a regular file (`swap` on) with its own `lstat`, so it is not
        asked again: the exchange falls back to a rename if the file went meanwhile, and
        neither step follows a link (a rename replaces a link itself; an exchange moves it
        to `source`, where it is deleted).

        Raises:
            UnsafePathError: If `name` is a link.
        """
        st = None if checked else self.lstat(name)
        if st is not None and is_link(st):
            raise link_error(self.join(name), "file")
        if self.fd is not None and source.fd is not None:
            if (
                swap
                and (checked or (st is not None and stat.S_ISREG(st.st_mode)))
                and swap_files(source.fd, tmp, self.fd, name)
            ):
                source.discard(tmp)  # the old file; a crash here leaves a staged orphan
                return
            os.rename(tmp, name, src_dir_fd=source.fd, dst_dir_fd=self.fd)
        else:
            os.replace(source.join(tmp), self.join(name))

    def exists(self, name: str) -> bool:
        """Whether the entry exists (links included)."""
        return self.lstat(name) is not None

    def unlink(self, name: str) -> bool:
        """Delete the file `name`; `False` if it did not exist.

        Raises:
            UnsafePathError: If `name` is a link.
        """
        st = self.lstat(name)
        if st is None:
            return False
        if is_link(st):
            raise link_error(self.join(name), "file")
        try:
            if self.fd is not None:
                os.unlink(name, dir_fd=self.fd)
            else:
                os.unlink(self.join(name))
        except FileNotFoundError:
            return False
        return True

    def discard(self, name: str) -> None:
        """Delete a temporary file, ignoring any error (cleanup path)."""
        with contextlib.suppress(OSError):
            if self.fd is not None:
                os.unlink(name, dir_fd=self.fd)
            else:
                os.unlink(self.join(name))

    def rmdir(self, name: str) -> bool:
        """Remove the empty sub-folder `name`; `False` if it is missing, not empty or a link."""
        st = self.lstat(name)
        if st is None or is_link(st) or not stat.S_ISDIR(st.st_mode):
            return False
        try:
            if self.fd is not None:
                os.rmdir(name, dir_fd=self.fd)
            else:
                os.rmdir(self.join(name))
        except OSError:
            return False
        return True

    def fsync(self) -> None:
        """Flush the folder's entries (new names, renames) to disk, where the OS allows it."""
        if self.fd is not None:
            _fsync_fd(self.fd)
            return
        try:
            fd = os.open(self.path, os.O_RDONLY | _O_CLOEXEC)
        except OSError:  # Windows cannot open folders; its renames are durable enough.
            return
        try:
            _fsync_fd(fd)
        finally:
            os.close(fd)

    def stamp(self, stamp_ns: int) -> None:
        """Set the folder's modification time to a stamp (best effort: it only helps caches)."""
        with contextlib.suppress(OSError):
            if self.fd is not None:
                os.utime(self.fd, ns=(stamp_ns, stamp_ns))
            else:
                os.utime(self.path, ns=(stamp_ns, stamp_ns))

    def scan(self) -> list[tuple[str, bool, bool]]:
        """List the folder's entries as `(name, is_dir, is_link)`, links never followed."""
        target: int | str = self.fd if self.fd is not None else self.path
        with os.scandir(target) as entries:
            return [(e.name, e.is_dir(follow_symlinks=False), _entry_is_link(e)) for e in entries]


def _entry_is_link(entry: os.DirEntry[str]) -> bool:
    # Windows junctions redirect like links; `is_junction` exists from Python 3.12.
    return entry.is_symlink() or bool(getattr(entry, "is_junction", lambda: False)())


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


_SYS_OPENAT2 = {"x86_64": 437, "aarch64": 437}  # linux/unistd.h (Linux 5.6 and later)
_RESOLVE_NO_SYMLINKS = 0x04
_RESOLVE_BENEATH = 0x08


def _load_openat2() -> Callable[..., int] | None:
    number = _SYS_OPENAT2.get(os.uname().machine) if sys.platform.startswith("linux") else None
    if number is None:
        return None
    try:
        syscall = ctypes.CDLL(None, use_errno=True).syscall
    except (OSError, AttributeError):
        return None
    syscall.restype = ctypes.c_long
    syscall.argtypes = [
        ctypes.c_long,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_void_p,
        ctypes.c_size_t,
    ]
    how = _OpenHow(_DIR_FLAGS, 0, _RESOLVE_NO_SYMLINKS | _RESOLVE_BENEATH)
    size = ctypes.sizeof(how)

    def openat2(dir_fd: int, path: bytes) -> int:
        return int(syscall(number, dir_fd, path, ctypes.byref(how), size))

    return openat2


_OPENAT2 = _load_openat2()


def _open_beneath(dir_fd: int, parts: tuple[str, ...]) -> int | None:
    """`parts` opened below `dir_fd` in one call that crosses no link (`openat2`), or `None`.

    `None` for anything but a clean open (a missing folder, a link on the way, a kernel or
    sandbox without the call): the caller then walks the folders one by one, which makes
    missing ones and names a link in its error.
    """
    global _OPENAT2  # a kernel or sandbox without the call: learnt once per process
    if _OPENAT2 is None:
        return None
    fd = _OPENAT2(dir_fd, os.fsencode(os.sep.join(parts)))
    if fd >= 0:
        return fd
    if ctypes.get_errno() in {errno.ENOSYS, errno.EPERM, errno.E2BIG, errno.EINVAL}:
        _OPENAT2 = None
    return None


def _open_root(root: str) -> SafeDir:
    if not _USE_FD:
        if not os.path.isdir(root):
            raise FileNotFoundError(root)
        return SafeDir(root, None)
    return SafeDir(root, os.open(root, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC))


def open_dir(
    root: str, parts: tuple[str, ...], *, create: bool, opened_root: SafeDir | None = None
) -> tuple[SafeDir | None, int]:
    """Open `root/parts...` without following links below the root.

    Args:
        root: The store root (may itself be a link).
        parts: Encoded folder names below the root.
        create: Make missing folders (syncing each parent that gained an entry).
        opened_root: The root as the caller opened it (`open_dir(root, (), ...)`), for
            several folders of one write: each is then one `openat2` below it. Left open;
            the walk (a missing folder, a link on the way) opens the root itself.

    Returns:
        The open folder (`None` if missing and not created) and the index in `parts` of the
        first folder this call made (`len(parts)` if it made none), so a failed write can
        remove exactly what it created.

    Raises:
        UnsafePathError: If a component below the root is a link.
    """
    if parts and opened_root is not None and opened_root.fd is not None:
        fd = _open_beneath(opened_root.fd, parts)
        if fd is not None:
            return SafeDir(os.path.join(root, *parts), fd), len(parts)
    try:
        current = _open_root(root)
    except FileNotFoundError:
        if not create:
            return None, len(parts)
        # Made only when missing: the common case costs one `open`, not a `mkdir` too.
        os.makedirs(root, FOLDER_MODE, exist_ok=True)
        current = _open_root(root)
    if parts and current.fd is not None:
        fd = _open_beneath(current.fd, parts)
        if fd is not None:  # every folder there, none a link: one call instead of a walk
            current.close()
            return SafeDir(os.path.join(root, *parts), fd), len(parts)
    first_made = len(parts)
    for i, part in enumerate(parts):
        try:
            child, made = current.child(part, create=create)
        finally:
            current.close()
        if child is None:
            return None, first_made
        if made and first_made == len(parts):
            first_made = i
        current = child
    return current, first_made


def folder_fd(path: str) -> int | None:
    """Open a folder (not following a final link) for descriptor-relative reads.

    Returns:
        The descriptor, or `None` where descriptor-relative calls are unavailable or the
        folder cannot be opened (callers then fall back to paths).
    """
    if not _USE_FD:
        return None
    try:
        return os.open(path, _DIR_FLAGS)
    except OSError:
        return None


def read_file(path: str, *, dir_fd: int | None = None) -> tuple[bytes, os.stat_result] | None:
    """Read a whole file and the stat of that same open file; `None` if it does not exist.

    Args:
        path: The file's path, or its name inside the folder `dir_fd`.
        dir_fd: An open folder to resolve `path` in (one path lookup instead of several).

    Raises:
        UnsafePathError: If the file is a link.
    """
    try:
        fd = (
            os.open(path, READ_FLAGS)
            if dir_fd is None
            else os.open(path, READ_FLAGS, dir_fd=dir_fd)
        )
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    except OSError as exc:
        if exc.errno in _LINK_ERRNOS:
            try:
                st = os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
            except OSError:
                raise exc from None
            if is_link(st):
                raise link_error(path, "file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return b"", st  # a folder, FIFO or device named like an item: not read
        size = st.st_size
        data = os.read(fd, size + 1)
        if len(data) == size:
            return data, st
        chunks = [data]
        while data:
            data = os.read(fd, max(size, 65536))
            chunks.append(data)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def remove_empty_dirs(root: str, parts: tuple[str, ...], keep: int = 0) -> None:
    """Remove `root/parts...` and its parents while they are empty, keeping `parts[:keep]`.

    `rmdir` refuses non-empty folders, so a concurrent writer's new file is never lost; a
    writer that loses its freshly made folder simply makes it again.
    """
    for depth in range(len(parts), keep, -1):
        parent, _ = open_dir(root, parts[: depth - 1], create=False)
        if parent is None:
            return
        with parent:
            if not parent.rmdir(parts[depth - 1]):
                return
            parent.fsync()
