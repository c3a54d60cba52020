"""A folder's cached listing: its item names, sub-folders and (once parsed) its items in order.

A listing is trusted while its folder's inode and modification time are unchanged and that
time is trustworthy (written by the store, or old enough; see `_fsio`). Listings are never
mutated once published, because readers in other threads may be iterating them: a write
through the store publishes a patched copy (`with_change`) instead.
"""

from __future__ import annotations

import os

from langchain_contextchef.store._records import PATH, Record, order_key
from langchain_contextchef.store._vectors import VectorIndex

__all__ = ["Listing"]


class Listing:
    """What one folder held when it was last listed."""

    __slots__ = (
        "_children",
        "built_ns",
        "entries",
        "ino",
        "links",
        "mtime_ns",
        "names",
        "path",
        "probe",
        "scanned_ns",
        "subdirs",
        "temps",
        "vectors",
    )

    def __init__(
        self,
        path: str,
        ino: int,
        mtime_ns: int,
        scanned_ns: int,
        names: list[str],
        subdirs: list[str],
        links: list[str],
        temps: list[str],
    ) -> None:
        self.path = path
        self.ino = ino
        self.mtime_ns = mtime_ns
        self.scanned_ns = scanned_ns
        self.names = names
        """Item file names (unsorted)."""
        self.subdirs = subdirs
        """Sub-folder names, sorted."""
        self.links = links
        """Names of links found in the folder (never followed; reads that reach them fail)."""
        self.temps = temps
        """Names of temporary files (a live writer's, or orphans of a dead one)."""
        self.entries: list[Record] | None = None
        """Readable items in `order_key` order, filled on first use."""
        self.built_ns = 0
        """The read time of the files parsed when `entries` was built (their `SEEN`)."""
        self.vectors: VectorIndex | None = None
        """The items' vectors aligned with `entries`, filled on first semantic search."""
        self.probe: Record | None = None
        """A live item last seen here (answers `list_namespaces` without a scan)."""
        self._children: list[str] | None = None

    def child_paths(self) -> list[str]:
        """Sub-folder paths in reverse order, so a depth-first stack pops them sorted."""
        if self._children is None:
            self._children = [os.path.join(self.path, sub) for sub in reversed(self.subdirs)]
        return self._children

    def with_change(self, name: str, record: Record | None, mtime_ns: int) -> Listing:
        """A copy with one item added or replaced (`record`) or removed (`None`)."""
        path = os.path.join(self.path, name)
        names = [n for n in self.names if n != name]
        if record is not None:
            names.append(name)
        changed = Listing(
            self.path,
            self.ino,
            mtime_ns,
            self.scanned_ns,
            names,
            self.subdirs,
            self.links,
            self.temps,
        )
        changed._children = self._children
        if self.entries is not None:
            entries = [rec for rec in self.entries if rec[PATH] != path]
            if record is not None:
                entries.insert(_bisect(entries, order_key(record)), record)
            changed.entries = entries
        return changed


def _bisect(entries: list[Record], key: tuple[float, tuple[str, ...], str]) -> int:
    lo, hi = 0, len(entries)
    while lo < hi:
        mid = (lo + hi) // 2
        if order_key(entries[mid]) < key:
            lo = mid + 1
        else:
            hi = mid
    return lo
