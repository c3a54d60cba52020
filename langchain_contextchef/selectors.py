"""Ready-made selectors: choose which memory entries a compile injects, and in which order.

A selector runs once per compile, after the expiry sweep, on the active entries in creation
order. Two shapes are accepted by `MemoryConfig(selector=...)`:

* a plain function `selector(entries) -> entries`;
* a `MemorySelector` (every class here, or a function wrapped with `context_selector`),
  which also receives a `SelectionContext`: the last user message, the token budget and its
  counter, the turn, the time, and semantic relevance scores when the store has an index.

The token budget itself is applied after the selector, on the rendered block; a selector
only has to put the entries in priority order (and may drop the ones it does not want).

Example:
    ```python
    from langchain_core.messages import HumanMessage
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import ContextChef, MemoryConfig
    from langchain_contextchef.selectors import Relevant

    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(selector=Relevant(limit=3)))
    memory = chef.get_memory()
    memory.set("db_rotation", "Staging database passwords rotate every Monday.")
    memory.set("tone", "Dry humour is welcome.")
    payload = chef.compile([HumanMessage("When does the staging database password rotate?")])
    assert payload.meta.injected_keys == ["db_rotation"]
    assert payload.meta.omitted == {"tone": "selector"}
    ```
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import ClassVar

from langchain_contextchef.budget import approximate_tokens
from langchain_contextchef.entry import MemoryEntry

__all__ = [
    "ByType",
    "MemorySelector",
    "MostImportant",
    "MostRecent",
    "Relevant",
    "Rerank",
    "SelectionContext",
    "context_selector",
    "keyword_scores",
]

_WORD = re.compile(r"[^\W_]+")
# Words that carry no topic; dropping them keeps "the" from matching every entry.
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "should",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)


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
    """

    query: str = ""
    token_budget: int | None = None
    count_tokens: Callable[[str], int] = approximate_tokens
    turn: int = 0
    now: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    relevance: Mapping[str, float] | None = None


class MemorySelector:
    """Base class of context-aware selectors.

    Subclasses implement `select`. Calling the selector like a plain one (`selector(entries)`)
    uses an empty `SelectionContext`.

    Attributes:
        uses_search: Whether the compile should run the store's semantic search on the last
            user message (one extra search in the compile's read batch, only when the store
            has an index) and pass the scores as `SelectionContext.relevance`.
        search_limit: How many semantic hits that search asks for.
    """

    uses_search: ClassVar[bool] = False
    search_limit: int = 50

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Return the entries to inject, in priority order.

        Args:
            entries: Active entries in creation order (a fresh list you may reorder).
            context: What is known about this call.

        Returns:
            A subsequence of `entries`, in the order to inject them.
        """
        raise NotImplementedError

    def __call__(
        self, entries: list[MemoryEntry], context: SelectionContext | None = None
    ) -> Sequence[MemoryEntry]:
        """Run `select`, with an empty context when none is given."""
        return self.select(entries, context or SelectionContext())


class _FunctionSelector(MemorySelector):
    def __init__(
        self, fn: Callable[[list[MemoryEntry], SelectionContext], Sequence[MemoryEntry]]
    ) -> None:
        self._fn = fn

    def __repr__(self) -> str:
        return f"context_selector({getattr(self._fn, '__name__', self._fn)!r})"

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        return self._fn(entries, context)


def context_selector(
    fn: Callable[[list[MemoryEntry], SelectionContext], Sequence[MemoryEntry]],
) -> MemorySelector:
    """Turn `fn(entries, context) -> entries` into a selector that receives the context.

    Example:
        ```python
        from langchain_contextchef import MemoryConfig
        from langchain_contextchef.selectors import context_selector


        @context_selector
        def mentioned(entries, context):
            return [e for e in entries if e.key in context.query]


        config = MemoryConfig(selector=mentioned)
        ```
    """
    return _FunctionSelector(fn)


def _newest_first(entries: Iterable[MemoryEntry]) -> list[MemoryEntry]:
    # Stable on ties: the later-created entry (then the larger key) first, on every backend.
    return sorted(entries, key=lambda e: (e.updated_at, e.created_at, e.key), reverse=True)


def _cut(entries: Sequence[MemoryEntry], limit: int | None) -> list[MemoryEntry]:
    return list(entries if limit is None else entries[:limit])


def _check_limit(limit: int | None) -> None:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        msg = f"limit must be a non-negative int or None, got {limit!r}."
        raise ValueError(msg)


class MostRecent(MemorySelector):
    """The most recently written entries first.

    Args:
        limit: Keep at most this many; `None` keeps all (the budget still applies).

    Example:
        ```python
        from datetime import datetime, timedelta, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors import MostRecent

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        old = MemoryEntry(key="old", value="a", created_at=t, updated_at=t)
        new = MemoryEntry(key="new", value="b", created_at=t, updated_at=t + timedelta(1))
        assert [e.key for e in MostRecent(limit=1)([old, new])] == ["new"]
        ```
    """

    def __init__(self, limit: int | None = None) -> None:
        _check_limit(limit)
        self.limit = limit

    def __repr__(self) -> str:
        return f"MostRecent(limit={self.limit!r})"

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Sort newest first and cut to `limit`."""
        return _cut(_newest_first(entries), self.limit)


class MostImportant(MemorySelector):
    """The highest `importance` first; entries without one come last, newest first.

    Args:
        limit: Keep at most this many.
        min_importance: Drop entries whose importance is below this (or unset) when given.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors import MostImportant

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key=k, value="v", created_at=t, updated_at=t, importance=i)
            for k, i in [("low", 0.1), ("none", None), ("high", 0.9)]
        ]
        assert [e.key for e in MostImportant()(entries)] == ["high", "low", "none"]
        ```
    """

    def __init__(self, limit: int | None = None, *, min_importance: float | None = None) -> None:
        _check_limit(limit)
        self.limit = limit
        self.min_importance = min_importance

    def __repr__(self) -> str:
        return f"MostImportant(limit={self.limit!r}, min_importance={self.min_importance!r})"

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Sort by importance (unset last), newest first on ties, and cut."""
        floor = self.min_importance
        if floor is not None:
            entries = [e for e in entries if e.importance is not None and e.importance >= floor]
        ranked = sorted(
            _newest_first(entries),
            key=lambda e: (e.importance is None, -(e.importance or 0.0)),
        )
        return _cut(ranked, self.limit)


class ByType(MemorySelector):
    """Only entries of the given memory types, in the order the types are named.

    Args:
        *types: Memory types such as `"rule"`, `"preference"`; entries without a type are
            kept only when `None` is one of them.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors import ByType

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key=k, value="v", created_at=t, updated_at=t, type=kind)
            for k, kind in [("a", "fact"), ("b", "rule"), ("c", None)]
        ]
        assert [e.key for e in ByType("rule", "fact")(entries)] == ["b", "a"]
        ```
    """

    def __init__(self, *types: str | None) -> None:
        if not types:
            msg = "ByType needs at least one memory type, e.g. ByType('rule', 'preference')."
            raise ValueError(msg)
        self.types = tuple(types)

    def __repr__(self) -> str:
        return f"ByType{self.types!r}"

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Keep the named types, grouped in the order given, creation order inside a type."""
        rank = {kind: position for position, kind in enumerate(self.types)}
        kept = [e for e in entries if e.type in rank]
        return sorted(kept, key=lambda e: rank[e.type])


def _terms(text: str) -> list[str]:
    return [
        word
        for word in _WORD.findall(text.casefold())
        if word not in _STOPWORDS and (len(word) > 1 or word.isdigit())
    ]


def _entry_terms(entry: MemoryEntry) -> set[str]:
    # Keys such as "staging_db-password" count as words too.
    return set(_terms(f"{entry.key} {entry.description or ''} {entry.type or ''} {entry.value}"))


def keyword_scores(entries: Sequence[MemoryEntry], query: str) -> dict[str, float]:
    """Score entries by the query words they contain, weighted by rarity (IDF), in [0, 1].

    A word that occurs in few entries counts more than one that occurs in many, so one
    specific entry stands out among thousands of generic ones. Entries sharing no word with
    the query are absent from the result.

    Args:
        entries: The candidates (their key, description, type and value are searched).
        query: Free text, typically the last user message.

    Returns:
        Key -> score; 1.0 means every query word is present.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors import keyword_scores

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key="db", value="Rotate the staging password", created_at=t, updated_at=t),
            MemoryEntry(key="tone", value="Keep it short", created_at=t, updated_at=t),
        ]
        assert set(keyword_scores(entries, "staging password?")) == {"db"}
        ```
    """
    words = set(_terms(query))
    if not words:
        return {}
    terms = {e.key: _entry_terms(e) & words for e in entries}
    frequency: Counter[str] = Counter(word for found in terms.values() for word in found)
    total = len(entries)
    # Words absent everywhere still weigh in the denominator, so partial matches stay < 1.
    weight = {w: math.log(1 + (total + 1) / (frequency.get(w, 0) + 1)) for w in words}
    whole = sum(weight.values())
    return {key: sum(weight[w] for w in found) / whole for key, found in terms.items() if found}


def _relevance(entries: Sequence[MemoryEntry], context: SelectionContext) -> dict[str, float]:
    if context.relevance is not None:
        return {k: max(0.0, float(v)) for k, v in context.relevance.items()}
    return keyword_scores(entries, context.query)


class Relevant(MemorySelector):
    """Entries relevant to the last user message, most relevant first.

    With a store that has a vector index (`InMemoryStore(index=...)`, `PostgresStore` with
    an index, ...) the compile adds one semantic search to its read batch and the store's
    similarity scores decide; otherwise the query's words are matched against each entry's
    key, description, type and value (`keyword_scores`). Entries with no relevance are
    dropped; without a user message every entry is kept in creation order.

    Args:
        limit: Keep at most this many.
        min_score: Drop entries scoring at or below this.
        search_limit: How many hits the semantic search asks for.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors import Relevant, SelectionContext

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key="pets", value="Has a cat named Miso", created_at=t, updated_at=t),
            MemoryEntry(key="lang", value="Writes Rust at work", created_at=t, updated_at=t),
        ]
        picked = Relevant().select(entries, SelectionContext(query="what is my cat called"))
        assert [e.key for e in picked] == ["pets"]
        ```
    """

    uses_search: ClassVar[bool] = True

    def __init__(
        self, limit: int | None = None, *, min_score: float = 0.0, search_limit: int = 50
    ) -> None:
        _check_limit(limit)
        _check_limit(search_limit)
        self.limit = limit
        self.min_score = min_score
        self.search_limit = search_limit

    def __repr__(self) -> str:
        return f"Relevant(limit={self.limit!r}, min_score={self.min_score!r})"

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Rank by relevance, drop the irrelevant, cut to `limit`."""
        if not context.query.strip():
            return _cut(entries, self.limit)
        scores = _relevance(entries, context)
        kept = [e for e in entries if scores.get(e.key, 0.0) > self.min_score]
        # Creation order breaks ties (sorted is stable), so the order is backend-independent.
        kept.sort(key=lambda e: -scores[e.key])
        return _cut(kept, self.limit)


class Rerank(MemorySelector):
    """A combined score of relevance, recency and confidence, best first.

    `score = relevance_weight * relevance + recency_weight * recency
    + confidence_weight * confidence`, where relevance is as in `Relevant` (0 without a
    user message), recency halves every `half_life` since the entry's last write, and
    confidence is `provenance.confidence` (or `default_confidence`). The ranking is then
    cut to the token budget by the compile (and to `limit` here).

    Args:
        relevance_weight: Weight of relevance to the last user message.
        recency_weight: Weight of recency.
        confidence_weight: Weight of the writer's confidence.
        half_life: Age at which recency is 0.5.
        default_confidence: Confidence of entries that record none.
        limit: Keep at most this many.
        min_score: Drop entries scoring at or below this.
        search_limit: How many hits the semantic search asks for.

    Example:
        ```python
        from datetime import datetime, timedelta, timezone
        from langchain_contextchef.entry import MemoryEntry, Provenance
        from langchain_contextchef.selectors import Rerank, SelectionContext

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        sure = Provenance(confidence=1.0)
        unsure = Provenance(confidence=0.2)
        entries = [
            MemoryEntry(key="a", value="x", created_at=t, updated_at=t, provenance=unsure),
            MemoryEntry(key="b", value="x", created_at=t, updated_at=t, provenance=sure),
        ]
        ranked = Rerank().select(entries, SelectionContext(now=t + timedelta(days=1)))
        assert [e.key for e in ranked] == ["b", "a"]
        ```
    """

    uses_search: ClassVar[bool] = True

    def __init__(
        self,
        *,
        relevance_weight: float = 0.6,
        recency_weight: float = 0.25,
        confidence_weight: float = 0.15,
        half_life: timedelta = timedelta(days=30),
        default_confidence: float = 0.5,
        limit: int | None = None,
        min_score: float | None = None,
        search_limit: int = 50,
    ) -> None:
        _check_limit(limit)
        _check_limit(search_limit)
        if half_life <= timedelta(0):
            msg = f"half_life must be a positive timedelta, got {half_life!r}."
            raise ValueError(msg)
        self.weights = (relevance_weight, recency_weight, confidence_weight)
        self.half_life = half_life
        self.default_confidence = default_confidence
        self.limit = limit
        self.min_score = min_score
        self.search_limit = search_limit

    def __repr__(self) -> str:
        return f"Rerank(weights={self.weights!r}, half_life={self.half_life!r})"

    def scores(self, entries: Sequence[MemoryEntry], context: SelectionContext) -> dict[str, float]:
        """The combined score of every entry, by key."""
        relevance = _relevance(entries, context) if context.query.strip() else {}
        w_rel, w_rec, w_conf = self.weights
        out: dict[str, float] = {}
        for entry in entries:
            age = max(0.0, (context.now - entry.updated_at).total_seconds())
            recency = 0.5 ** (age / self.half_life.total_seconds())
            confidence = (
                entry.provenance.confidence
                if entry.provenance is not None and entry.provenance.confidence is not None
                else self.default_confidence
            )
            out[entry.key] = (
                w_rel * relevance.get(entry.key, 0.0) + w_rec * recency + w_conf * confidence
            )
        return out

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Rank by the combined score; drop those at or below `min_score`; cut to `limit`."""
        scores = self.scores(entries, context)
        ranked = sorted(entries, key=lambda e: -scores[e.key])
        if self.min_score is not None:
            floor = self.min_score
            ranked = [e for e in ranked if scores[e.key] > floor]
        return _cut(ranked, self.limit)
