"""`export_kagent`: write a memory as a kagent-ts `.memory/` folder.

Each entry becomes one file, written atomically (a temporary file, then a rename), and
`MEMORY.md` is rewritten to index them; files the previous index listed whose entries are
gone are removed. Nothing else in the folder is touched.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from langchain_contextchef.interop._front_matter import render_memory_file
from langchain_contextchef.interop._layout import (
    INDEX_FILE,
    file_name_for_key,
    index_line,
    listed_in_index,
)
from langchain_contextchef.memory import Memory

__all__ = ["ExportReceipt", "ExportedFile", "export_kagent"]


@dataclass(frozen=True)
class ExportedFile:
    """One exported entry.

    Attributes:
        key: The entry's key.
        file_name: Its file, relative to the folder.
    """

    key: str
    file_name: str


@dataclass(frozen=True)
class ExportReceipt:
    """What `export_kagent` wrote.

    Attributes:
        folder: The folder written to.
        index: The path of `MEMORY.md`.
        files: One item per entry, in the memory's creation order.
        removed: Files the previous `MEMORY.md` listed whose entries no longer exist.
    """

    folder: Path
    index: Path
    files: tuple[ExportedFile, ...] = field(default=())
    removed: tuple[str, ...] = field(default=())

    @property
    def keys(self) -> list[str]:
        """The exported keys, in order."""
        return [item.key for item in self.files]


def _write_atomic(path: Path, text: str) -> None:
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def export_kagent(
    memory: Memory,
    folder: str | os.PathLike[str],
    *,
    supersedes: Mapping[str, Sequence[str]] | None = None,
) -> ExportReceipt:
    """Write every entry of a memory as a kagent-ts `.memory/` folder.

    Each entry becomes one Markdown file (see `file_name_for_key`), written atomically, and
    `MEMORY.md` is rewritten to index them. Files the previous `MEMORY.md` listed whose entries
    are gone are removed, so a deleted memory cannot come back through a later import; other
    files in the folder are never touched. Turn and time TTLs are not exported: kagent-ts has
    no expiry.

    Args:
        memory: The memory to export.
        folder: The target folder; created if missing.
        supersedes: Keys each exported key replaced, written as its `supersedes` list.

    Returns:
        The receipt: folder, index path and one item per file.

    Raises:
        NotADirectoryError: If `folder` exists and is not a folder.

    Example:
        ```python
        import tempfile
        from pathlib import Path
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.interop import export_kagent
        from langchain_contextchef.memory import Memory

        memory = Memory(InMemoryStore())
        memory.set("use-pnpm", "Use pnpm.", description="Package manager", type="rule")
        with tempfile.TemporaryDirectory() as folder:
            receipt = export_kagent(memory, Path(folder) / ".memory")
            assert receipt.files[0].file_name == "use-pnpm.md"
            assert "- [use-pnpm](use-pnpm.md) — Package manager" in receipt.index.read_text()
        ```
    """
    root = Path(folder)
    if root.exists() and not root.is_dir():
        msg = f"export_kagent() needs a folder, but {str(root)!r} is a file. Pass a folder path."
        raise NotADirectoryError(msg)
    root.mkdir(parents=True, exist_ok=True)
    previous = listed_in_index(root)
    entries = memory.list()
    used: set[str] = {INDEX_FILE.casefold()}
    exported: list[ExportedFile] = []
    index_lines = ["# Memory index", ""]
    for entry in entries:
        name = file_name_for_key(entry.key)
        stem = name[:-3]
        counter = 2
        while name.casefold() in used:  # two keys, one file name: never overwrite
            name = f"{stem}-{counter}.md"
            counter += 1
        used.add(name.casefold())
        path = root / name
        if path.resolve().parent != root.resolve():
            msg = f"Refusing to write {name!r}: it would land outside {str(root)!r}."
            raise ValueError(msg)
        _write_atomic(
            path, render_memory_file(entry, supersedes=(supersedes or {}).get(entry.key, ()))
        )
        exported.append(ExportedFile(entry.key, name))
        index_lines.append(index_line(entry, name))
    index = root / INDEX_FILE
    _write_atomic(index, "\n".join(index_lines) + "\n")
    stale = sorted(previous - {item.file_name for item in exported})
    for name in stale:
        with contextlib.suppress(FileNotFoundError):
            (root / name).unlink()
    return ExportReceipt(root, index, tuple(exported), tuple(stale))
