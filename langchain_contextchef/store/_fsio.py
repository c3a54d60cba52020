"""Low-level file operations: durable atomic writes, directory sync, single-syscall reads."""

from __future__ import annotations

import contextlib
import os
import secrets

from langchain_contextchef.store._paths import temp_file_prefix

__all__ = ["atomic_write", "ensure_dir", "fsync_dir", "read_with_stat", "remove_empty_dirs"]

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows would otherwise translate newlines.


def fsync_dir(path: str) -> None:
    """Flush a directory's entries (new names, renames) to disk, where the OS allows it."""
    try:
        fd = os.open(path, os.O_RDONLY | _O_CLOEXEC)
    except OSError:  # Windows cannot open directories; its renames are durable enough.
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def ensure_dir(root: str, parts: tuple[str, ...]) -> str:
    """Create `root/parts...` as needed, syncing each parent that gained an entry.

    Returns:
        The directory path.
    """
    path = root
    if not os.path.isdir(root):
        os.makedirs(root, exist_ok=True)
    for part in parts:
        parent, path = path, os.path.join(path, part)
        if not os.path.isdir(path):
            with contextlib.suppress(FileExistsError):
                os.mkdir(path)
            fsync_dir(parent)
    return path


def atomic_write(directory: str, name: str, data: bytes, *, sync_dir: bool = True) -> None:
    """Replace `directory/name` with `data` so readers see the old or the new file, never a mix.

    The bytes go to a temporary file in the same directory, are flushed with `fsync`, and
    the temporary file is renamed over the target; the directory is then synced so the new
    name survives a power cut.

    Raises:
        FileNotFoundError: If the directory vanished (a concurrent delete pruned it).
        OSError: On any other write failure; the target is then left untouched.
    """
    tmp = os.path.join(directory, f"{temp_file_prefix(name)}{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC | _O_BINARY, 0o666)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(directory, name))
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if sync_dir:
        fsync_dir(directory)


def read_with_stat(path: str) -> tuple[bytes, os.stat_result] | None:
    """Read a whole file and the stat of that same open file; `None` if it does not exist."""
    try:
        fd = os.open(path, os.O_RDONLY | _O_CLOEXEC | _O_BINARY)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    try:
        st = os.fstat(fd)
        chunks = []
        want = st.st_size + 1
        while True:
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def remove_empty_dirs(root: str, directory: str) -> None:
    """Remove `directory` and its parents up to (not including) `root` while they are empty.

    `rmdir` refuses non-empty directories, so a concurrent writer's new file is never lost;
    a writer that loses its freshly made directory simply recreates it.
    """
    root = os.path.normpath(root)
    path = os.path.normpath(directory)
    while path != root and path.startswith(root + os.sep):
        try:
            os.rmdir(path)
        except OSError:
            return
        path = os.path.dirname(path)
