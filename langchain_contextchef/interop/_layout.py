"""The kagent-ts folder: which file holds which key, and the `MEMORY.md` index.

A kebab-case key is its own file name; any other key gets a slug plus a hash of the key, so
a file name never leaves the folder whatever the key holds. The index lists one memory per
line as a Markdown link to its file and its one-line description.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from langchain_contextchef.entry import MemoryEntry

__all__ = ["INDEX_FILE", "file_name_for_key", "index_line", "listed_in_index"]

INDEX_FILE = "MEMORY.md"
"""The index file kagent-ts reads first."""

_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")
_MAX_SLUG = 60
_RESERVED_STEMS = frozenset({"memory"})  # `memory.md` is `MEMORY.md` on case-blind disks


def file_name_for_key(key: str) -> str:
    """Return the file name a key is exported to: always a plain name inside the folder.

    Args:
        key: Any memory key.

    Returns:
        `<key>.md` for a kebab-case key, else `<slug>-<hash>.md` (or `memory-<hash>.md` when
        the key has no letters or digits).

    Example:
        ```python
        from langchain_contextchef.interop import file_name_for_key

        assert file_name_for_key("use-pnpm") == "use-pnpm.md"
        assert "/" not in file_name_for_key("../../etc/passwd")
        assert file_name_for_key("../x").startswith("x-")
        ```
    """
    if _KEBAB.match(key) and len(key) <= _MAX_SLUG and key not in _RESERVED_STEMS:
        return f"{key}.md"
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    slug = _SLUG_CHARS.sub("-", key.casefold()).strip("-")[:_MAX_SLUG].strip("-")
    return f"{slug or 'memory'}-{digest}.md"


def index_line(entry: MemoryEntry, file_name: str) -> str:
    """The index line of one entry: a link to its file, then its description on one line."""
    label = entry.key.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    label = " ".join(label.split()) or file_name
    description = " ".join((entry.description or "").split())
    return f"- [{label}]({file_name}) — {description}".rstrip(" —")


_INDEX_LINK = re.compile(r"\]\(([^()/\\]+\.md)\)")


def listed_in_index(root: Path) -> set[str]:
    """File names the folder's current `MEMORY.md` links to (plain names inside the folder)."""
    index = root / INDEX_FILE
    try:
        text = index.read_text(encoding="utf-8")
    except (FileNotFoundError, UnicodeDecodeError):
        return set()
    return {name for name in _INDEX_LINK.findall(text) if name.casefold() != INDEX_FILE.casefold()}
