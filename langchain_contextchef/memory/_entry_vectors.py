"""The entries' own embeddings for the selectors, read from where the store keeps them.

A relevance selector compares its best entries with each other to tell two versions of one
subject ("lives in Berlin" / "moved to Lisbon in May") that share no word. The compile hands
it `entry_vectors` (see `SelectionContext.entry_vectors`) when the store keeps its items'
vectors in its own memory (LangGraph's `InMemoryStore`): a lookup, never an embedding call
(the compile's only embedding is the query's). Other stores give no vectors for now (their
vectors are in files or tables a compile does not read), and the selectors fall back to
words and the question's similarity.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.store.memory import InMemoryStore

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._context import ABOUT_FIELD
from langchain_contextchef.selectors import EntryVectors

__all__ = ["entry_vectors"]


def _held(store: Any, namespace: tuple[str, ...]) -> Mapping[str, Mapping[str, Any]] | None:
    # LangGraph's InMemoryStore keeps each item's vectors by namespace, key and field; reading
    # them costs a lookup (a copy of the same vectors a search compares the query with).
    if not isinstance(store, InMemoryStore):
        return None
    vectors = getattr(store, "_vectors", None)
    if not isinstance(vectors, Mapping):
        return None
    found = vectors.get(namespace)
    return found if isinstance(found, Mapping) else None


def entry_vectors(store: Any, namespace: tuple[str, ...]) -> EntryVectors | None:
    """The vector source for a compile's selector, or `None` when the store keeps none.

    Args:
        store: The compile's store.
        namespace: The scope's entry namespace.
    """
    if not isinstance(store, InMemoryStore) or not store.index_config:
        return None

    def vectors(entries: Sequence[MemoryEntry]) -> list[Sequence[float] | None]:
        held = _held(store, namespace)
        if held is None:
            return [None] * len(entries)
        out: list[Sequence[float] | None] = []
        for entry in entries:
            fields = held.get(entry.key)
            out.append((fields.get(ABOUT_FIELD) or next(iter(fields.values()))) if fields else None)
        return out

    return vectors
