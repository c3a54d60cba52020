"""How many tokens each entry adds to the memory block, counted once per entry version.

The budget fit (`budget.fit_memory`) guesses block sizes from per-entry counts before it
measures real blocks. The counts are kept with the entry in the scope's cached slot
(`ScopeSlot.derived`), so they are dropped when the entry changes and a compile after a
one-entry change counts one entry, not the block over and over. A count depends on the entry,
the format and the counter; texts that change every compile (a compact entry with a turn-based
expiry shows the turns left) or come from a custom renderer are counted but not kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

from langchain_contextchef.entry import EntryRenderer, MemoryEntry
from langchain_contextchef.render._memory import entry_text, index_row

__all__ = ["PerEntry", "entry_counters"]

T = TypeVar("T")


class PerEntry(Protocol):
    """Where per-entry derived data is kept while the entry is unchanged (`ScopeSlot`)."""

    def derived(self, entry: MemoryEntry) -> dict[Any, Any]:
        """The data kept for this version of the entry."""
        ...


def entry_counters(
    slot: PerEntry | None,
    memory_format: str | EntryRenderer,
    count: Callable[[str], T],
    turn: int | None,
) -> tuple[Callable[[MemoryEntry], T], Callable[[MemoryEntry], T]]:
    """Per-entry token counts for a shown entry and for an index row, cached in `slot`.

    Each count covers the entry's text and the separator that follows it in the block. Any
    count of a text is kept the same way (the budget fit also keeps each entry's counts for a
    counter that is a sum over lines, `budget.BlockCounts.piece`).
    """
    separator = "\n\n" if memory_format == "verbose" else "\n"
    keep = slot is not None and isinstance(count, Hashable)
    fixed_format = isinstance(memory_format, str)

    def full(entry: MemoryEntry) -> T:
        if (
            not keep
            or not fixed_format
            or (memory_format == "compact" and entry.expires_at_turn is not None)
        ):
            return count(entry_text(entry, memory_format, turn) + separator)  # type: ignore[arg-type]
        assert slot is not None
        held = slot.derived(entry)
        name = ("tokens", memory_format, count)
        found = held.get(name)
        if found is None:
            found = held[name] = count(entry_text(entry, memory_format, turn) + separator)  # type: ignore[arg-type]
        return found

    def row(entry: MemoryEntry) -> T:
        if not keep:
            return count(index_row(entry) + "\n")
        assert slot is not None
        held = slot.derived(entry)
        name = ("row_tokens", count)
        found = held.get(name)
        if found is None:
            found = held[name] = count(index_row(entry) + "\n")
        return found

    return full, row
