"""The entries' own embeddings for the selectors, read from where the store keeps them.

A relevance selector compares its best entries with each other to tell two versions of one
subject ("lives in Berlin" / "moved to Lisbon in May") that share no word. After the
compile's semantic search, `read_entry_vectors` reads the stored vectors of the entries the
selector names (`MemorySelector.vector_keys`: the entries that search found, and for
`Relevant` the newer versions that may name the best of them) in one `Vectors` step: a lookup on
LangGraph's `InMemoryStore`, one batched query on SQLite and PostgreSQL, the items' files on
a `FileSystemStore` (`_stored_vectors`), never an embedding call (the compile's only
embedding is the query's). Each entry version's vector is kept with the scope's cache, so
an unchanged entry is read once. A store that gives none (a wrapper, a custom store) leaves
the selectors with words and the question's similarity, as without an index.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from langchain_contextchef._plan import Plan, Vectors
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._context import ABOUT_FIELD, MemoryContext
from langchain_contextchef.selectors import EntryVectors

__all__ = ["read_entry_vectors"]

_HELD = ("entry vectors", "stored")
"""Where an entry version's stored vector is kept in the slot's derived data (`None`: none)."""


def _chosen(fields: Mapping[str, Sequence[float]]) -> list[float] | None:
    # The text the memory engine indexes (key, description and value), else any field.
    vector = fields.get(ABOUT_FIELD)
    if vector is None:
        vector = next(iter(fields.values()), None)
    return list(vector) if vector else None


def read_entry_vectors(
    ctx: MemoryContext, entries: Mapping[str, MemoryEntry], keys: Iterable[str]
) -> Plan[EntryVectors]:
    """Read the stored vectors of `keys` (the semantic search's hits), at most one query.

    Args:
        ctx: The scope.
        entries: The scope's entries by key, as the compile read them.
        keys: The entries whose vectors the selector may compare.

    Returns:
        The selector's vector source: one vector per entry asked, `None` for an entry whose
        vector was not read (not among `keys`, or the store keeps none).
    """
    slot = ctx.slot()
    found: dict[str, list[float] | None] = {}
    missing: list[str] = []
    for key in keys:
        entry = entries.get(key)
        if entry is None:
            continue
        held = slot.derived(entry) if slot is not None else {}
        if _HELD in held:
            found[key] = held[_HELD]
        else:
            missing.append(key)
    if missing:
        read = yield Vectors(ctx.entries_ns, tuple(missing))
        for key in missing:
            fields = read.get(key)
            vector = _chosen(fields) if fields else None
            found[key] = vector
            if slot is not None and read:  # a store that answered nothing may answer later
                slot.derived(entries[key])[_HELD] = vector

    def vectors(asked: Sequence[MemoryEntry]) -> list[Sequence[float] | None]:
        # By version: an entry that is not the one read (changed since) has no vector here.
        return [found.get(e.key) if entries.get(e.key) is e else None for e in asked]

    return vectors
