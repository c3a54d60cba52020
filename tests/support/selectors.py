"""A selector that records what a compile hands it (for tests of the compile's read)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors import MemorySelector, SelectionContext


class SpySelector(MemorySelector):
    """Keeps the context of every call and the entries of the last; selects every entry."""

    uses_search: ClassVar[bool] = True
    search_limit = 10

    def __init__(self) -> None:
        self.seen: list[SelectionContext] = []
        self.entries: dict[str, MemoryEntry] = {}

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        self.seen.append(context)
        self.entries = {e.key: e for e in entries}
        return entries
