"""The selection context: what a context-aware selector knows about the call being compiled."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal, Protocol, TypeAlias

from langchain_contextchef.budget import approximate_tokens
from langchain_contextchef.entry import MemoryEntry

__all__ = ["EntryVectors", "Fusion", "ScopeChanges", "SelectionContext", "newest_first"]

Fusion: TypeAlias = Literal["score", "rrf"]
"""How keyword and semantic relevance are combined: weighted normalised scores, or
reciprocal-rank fusion."""


EntryVectors: TypeAlias = Callable[[Sequence[MemoryEntry]], Sequence[Sequence[float] | None]]
"""The entries' own embeddings, one per entry given (`None` where there is none)."""


class ScopeChanges(Protocol):
    """A scope's entries as they stand and what changed, so a selector can keep indexes.

    A compile lends its scope's cache (`memory._cache.ScopeSlot`) when the entries it
    selects from are exactly the scope's active entries, in creation order.
    """

    @property
    def entries(self) -> Mapping[str, MemoryEntry]:
        """Every entry of the scope by key (of any status)."""
        ...

    @property
    def state(self) -> dict[Any, Any]:
        """Where a selector keeps what it derives from the scope; emptied on a whole reload."""
        ...

    def changes(self, since: tuple[int, int] | None) -> tuple[tuple[int, int], list[str] | None]:
        """A mark of now, and the keys changed since `since` (`None`: rebuild from `entries`)."""
        ...


@dataclass(frozen=True)
class SelectionContext:
    """What a context-aware selector knows about the call being compiled.

    Attributes:
        query: The text of the last user message (`""` when there is none).
        token_budget: The memory block's token budget, or `None`.
        count_tokens: Counts the tokens of a text with the budget's counter.
        turn: The turn clock before this compile advanced it.
        now: The compile's "now".
        relevance: Semantic similarity per key from the store's vector search, when the
            store has an index and the selector asked for it (`MemorySelector.uses_search`);
            keys the search did not return are absent. `None` when no search ran.
        facet_relevance: For a question that asks for several things
            (`langchain_contextchef.query.question_facets`), each facet's own semantic
            similarity per key, from one search per facet; empty otherwise. The relevance
            selectors use it to give each facet an entry early (`relevance` is the whole
            question's).
        queries: The query as weighted `(text, weight)` parts, most important first (see
            `langchain_contextchef.query.conversation_query`); empty means `query` alone,
            with weight 1.
        entry_data: Where a selector may keep what it derives from an entry (tokens,
            vectors) while that entry is unchanged: a dict per entry version, dropped when
            the entry changes. A compile passes its scope's cache; `None` keeps nothing.
        scope: The scope's entries and their changes, when `entries` given to the selector
            are exactly the scope's active entries in creation order (a compile passes its
            scope's cache then): the relevance selectors keep a keyword index there and
            update it by the changes instead of scoring every entry anew. `None`: no index.
        entry_vectors: The entries' own embeddings, when the store has a vector index: called
            with some entries, it returns one vector per entry (`None` for one it cannot
            tell), read from where the store keeps them (never embedded anew; a compile
            reads those of the entries its semantic search found). The
            relevance selectors compare their best entries with it, to tell two versions of
            one subject that share no word. `None`: no vectors (keyword and question
            similarity only).
    """

    query: str = ""
    token_budget: int | None = None
    count_tokens: Callable[[str], int] = approximate_tokens
    turn: int = 0
    now: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    relevance: Mapping[str, float] | None = None
    facet_relevance: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    queries: Sequence[tuple[str, float]] = ()
    entry_data: Callable[[MemoryEntry], dict[Any, Any]] | None = None
    scope: ScopeChanges | None = None
    entry_vectors: EntryVectors | None = None

    def weighted_query(self) -> tuple[tuple[str, float], ...]:
        """The query parts to match: `queries`, or `query` with weight 1 when there are none."""
        if self.queries:
            return tuple((text, float(weight)) for text, weight in self.queries if text.strip())
        return ((self.query, 1.0),) if self.query.strip() else ()


def newest_first(entries: Iterable[MemoryEntry]) -> list[MemoryEntry]:
    # Stable on ties: the later-created entry (then the larger key) first, on every backend.
    return sorted(entries, key=lambda e: (e.updated_at, e.created_at, e.key), reverse=True)
