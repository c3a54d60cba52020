"""Ready-made selectors: choose which memory entries a compile injects, and in which order.

The package (this face holds `MostRecent`, `MostImportant`, `ByType`, `Relevant`, `Rerank`,
`MemorySelector` and `context_selector`)::

    _selection        `SelectionContext`, what a context-aware selector receives; tie-breaks
    _packed           an entry's keyword features packed into one bytes object
    _text_features    an entry's words: tokens, stop words, stemming, cached per version
    _bm25             BM25F over an entry's key, description and value
    _index            a scope's keyword index, updated by the scope's changes
    _ranking          `Relevant`'s ranking over that index, computed as far as it is read
    _herds            herds of numbered log entries give up the first places past three
    _meaning          versions of one subject told by the entries' own vectors
    _updates          newer versions found by the rare words they share with the old one
    _relevance        keyword, semantic and fused scores behind `Relevant` and `Rerank`
    _coverage         each facet of a question that asks for several things gets an entry

A selector runs once per compile, after the expiry sweep, on the active entries in creation
order. Two shapes are accepted by `MemoryConfig(selector=...)`:

* a plain function `selector(entries) -> entries`;
* a `MemorySelector` (every class here, or a function wrapped with `context_selector`),
  which also receives a `SelectionContext`: the query (the last user message, or weighted
  parts of the last turns), the token budget and its counter, the turn, the time, and
  semantic relevance scores when the store has an index.

The token budget itself is applied after the selector, on the rendered block; a selector
only has to put the entries in priority order (and may drop the ones it does not want).

Relevance (`Relevant`, `Rerank`) is BM25F over each entry's key, description and value, with
stemming and stop words; when the store has a vector index the store's semantic scores are
fused with it (min-max normalised, weighted). Under a token budget the relevant entries come
first and the next best fill what is left, so the budget is never left unused while entries
remain; a question that asks for several things gets an entry for each of its parts early;
of the best entries, those about one subject (a `supersedes` link, a rare key word
or enough words in common, or the two closest to the question in meaning) are shown newest
first.

Example:
    ```python
    from langchain_core.messages import HumanMessage
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import ContextChef, MemoryConfig
    from langchain_contextchef.selectors import Relevant

    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(selector=Relevant(limit=1)))
    memory = chef.get_memory()
    memory.set("db_rotation", "Staging database passwords rotate every Monday.")
    memory.set("tone", "Dry humour is welcome.")
    payload = chef.compile([HumanMessage("When does the staging database password rotate?")])
    assert payload.meta.injected_keys == ["db_rotation"]
    assert payload.meta.indexed_keys == ["tone"]  # listed, readable on demand (recall mode)
    ```
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import timedelta
from typing import ClassVar

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.query import question_facets
from langchain_contextchef.selectors import _coverage as coverage
from langchain_contextchef.selectors._herds import spread_herds
from langchain_contextchef.selectors._index import KeywordIndex, index_of
from langchain_contextchef.selectors._ranking import (
    HeadMemo,
    RankedEntries,
    SharedKeys,
    lazy_relevance,
    query_parts,
)
from langchain_contextchef.selectors._relevance import (
    _cache_of,
    clearly_fits,
    fallback_order,
    holders_of,
    keyword_scores,
    prefer_newer,
    relevance_scores,
    subjects,
)
from langchain_contextchef.selectors._selection import (
    EntryVectors,
    Fusion,
    ScopeChanges,
    SelectionContext,
    newest_first,
)
from langchain_contextchef.selectors._text_features import FeatureCache
from langchain_contextchef.selectors._updates import vector_keys_for

__all__ = [
    "ByType",
    "EntryVectors",
    "MemorySelector",
    "MostImportant",
    "MostRecent",
    "RankedEntries",
    "Relevant",
    "Rerank",
    "ScopeChanges",
    "SelectionContext",
    "context_selector",
    "keyword_scores",
    "relevance_scores",
]


_COVER = 0.5
"""The default `Relevant(cover=...)`."""


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

    def vector_keys(self, context: SelectionContext) -> Sequence[str]:
        """The entries whose stored vectors `select` may compare (`entry_vectors`).

        A compile asks after its semantic search, with a context that holds the search's
        scores (`relevance`), the scope (`scope`) and `entry_data`, and reads those entries'
        vectors in one step. By default, the search's hits.
        """
        return list(context.relevance or ())


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
        return _cut(newest_first(entries), self.limit)


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
            newest_first(entries),
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


def _check_weight(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        msg = f"{name} must be a non-negative number, got {value!r}."
        raise ValueError(msg)


class Relevant(MemorySelector):
    """Entries relevant to the query, most relevant first; the next best fill the budget.

    Relevance is BM25F over key, description and value with stemming and stop words
    (`keyword_scores`); with a store that has a vector index (`InMemoryStore(index=...)`,
    `PostgresStore` with an index, ...) the compile adds one semantic search to its read batch
    and the two are fused (`relevance_scores`). The query is the last user message, or the
    weighted turns in `SelectionContext.queries`.

    Under a token budget, the entries without relevance follow the relevant ones (important,
    then newest first), so the budget is filled while entries remain; without one they are
    dropped (`fill=False` drops them under a budget too). Without any query every entry is
    kept in creation order. Versions of one subject among the best entries (one `supersedes`
    the other, they share a rare key word or most words, they are the two closest to the
    question in meaning, or, with the entries' own vectors (`SelectionContext.entry_vectors`),
    each is the other's closest in meaning) are shown newest first, in their own slots; with
    the vectors, a newer version the semantic search found below the best entries is brought
    in just above the old one.

    Args:
        limit: Keep at most this many.
        min_score: Entries scoring at or below this are not relevant (they only fill).
        search_limit: How many hits the semantic search asks for.
        semantic_weight: Share of the semantic score when fusing (see `relevance_scores`).
        fusion: `"score"` (normalised score fusion) or `"rrf"` (reciprocal-rank fusion).
        fill: Whether entries without relevance fill the rest of a token budget.
        cache: Where per-entry keyword features are kept; the process-wide cache by default.
        stable: When every entry clearly fits the token budget (estimated from the length of
            its text), keep them all in creation order, so a small memory's block is the same
            whatever the question (prompt-cache hits) and nothing is reordered for nothing.
            The default `MemoryConfig` selector sets it.
        cover: How much the best entries' order favours covering every part of the
            question over relevance to the whole of it, from 0 (pure score order) to 1. For a
            question that asks for several things (`query.question_facets`: "where do we
            stay, when do we fly, and what can't I eat?") each next slot goes to the entry
            with the best `(1 - cover) * relevance + cover * coverage`, coverage being how
            well it answers the facets the entries above it leave uncovered (its keyword
            and, with a vector index, semantic relevance to each facet; a facet's own best
            entries may come up from lower down). At the default 0.5 a facet's best entry
            comes before a second entry for a facet already covered. For a question with one
            part, an entry is held back by `cover` times the share of its query words that
            the entries above it already match.

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
        budgeted = SelectionContext(query="what is my cat called", token_budget=500)
        assert [e.key for e in Relevant().select(entries, budgeted)] == ["pets", "lang"]
        ```
    """

    uses_search: ClassVar[bool] = True

    def __init__(
        self,
        limit: int | None = None,
        *,
        min_score: float = 0.0,
        search_limit: int = 100,
        semantic_weight: float = 0.7,
        fusion: Fusion = "score",
        fill: bool = True,
        cache: FeatureCache | None = None,
        stable: bool = False,
        cover: float = _COVER,
    ) -> None:
        _check_limit(limit)
        _check_limit(search_limit)
        if isinstance(cover, bool) or not isinstance(cover, int | float) or not 0 <= cover <= 1:
            msg = f"cover must be a number from 0 to 1, got {cover!r}."
            raise ValueError(msg)
        if not 0.0 <= semantic_weight <= 1.0:
            msg = f"semantic_weight must be in [0, 1], got {semantic_weight!r}."
            raise ValueError(msg)
        if fusion not in ("score", "rrf"):
            msg = f"fusion must be 'score' or 'rrf', got {fusion!r}."
            raise ValueError(msg)
        self.limit = limit
        self.min_score = min_score
        self.search_limit = search_limit
        self.semantic_weight = semantic_weight
        self.fusion: Fusion = fusion
        self.fill = fill
        self.cache = cache
        self.stable = stable
        self.cover = float(cover)

    def __repr__(self) -> str:
        return (
            f"Relevant(limit={self.limit!r}, min_score={self.min_score!r}, "
            f"semantic_weight={self.semantic_weight!r}, fusion={self.fusion!r}, "
            f"stable={self.stable!r})"
        )

    def scores(self, entries: Sequence[MemoryEntry], context: SelectionContext) -> dict[str, float]:
        """The relevance of every entry that has some, by key."""
        return relevance_scores(
            entries,
            context,
            semantic_weight=self.semantic_weight,
            fusion=self.fusion,
            cache=self.cache,
            index=_scope_index(entries, context, self.fusion, self.cache),
        )

    def reuse_token(self) -> object:
        """What this selector's choice depends on besides the entries and the context.

        The vocabulary its keyword features know (query words also match the longer known
        words they begin): a caller that keeps a selection while the entries and the query
        stand keeps it only while this token is equal too.

        Example:
            ```python
            from langchain_contextchef.selectors import Relevant

            assert Relevant().reuse_token() == Relevant().reuse_token()
            ```
        """
        cache = _cache_of(self.cache)
        return (id(cache), cache.terms_version)

    def vector_keys(self, context: SelectionContext) -> Sequence[str]:
        """The semantic search's hits, and the newer versions that may name the best of them.

        Besides the hits, the entries that say something changed and hold a rare word of
        one of the best hits (`_updates.update_candidates`): `select` brings such an entry
        in above the hit when the hit is its closest in meaning, even with a single word in
        common (`_updates.named_updates`). Found through the scope's keyword index; without
        a scope (`context.scope`), the hits only.

        Example:
            ```python
            from langchain_contextchef.selectors import Relevant, SelectionContext

            context = SelectionContext(relevance={"home": 0.8, "car": 0.3})
            assert list(Relevant().vector_keys(context)) == ["home", "car"]
            ```
        """
        hits = context.relevance
        if not hits or context.scope is None or self.fusion != "score":
            return list(hits or ())
        index = index_of(context.scope, _cache_of(self.cache), context.entry_data)
        words = subjects(self.cache, context.entry_data, index)
        return vector_keys_for(hits, index, words, context.entry_data)

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Rank by relevance, newer near-duplicates first; fill a budget or drop the rest."""
        if not context.weighted_query() and context.relevance is None:
            return _cut(entries, self.limit)
        if self.stable and self.limit is None and clearly_fits(entries, context.token_budget):
            return entries
        index = _scope_index(entries, context, self.fusion, self.cache)
        if index is not None and self.fusion == "score":
            return self._select_indexed(index, context)
        scores = relevance_scores(
            entries,
            context,
            semantic_weight=self.semantic_weight,
            fusion=self.fusion,
            cache=self.cache,
            index=index,
        )
        if index is None:
            kept = [e for e in entries if scores.get(e.key, 0.0) > self.min_score]
            # Creation order breaks ties (sorted is stable), so the order is backend-independent.
            kept.sort(key=lambda e: -scores[e.key])
        else:
            # Only the scored entries are visited; `entries` are in creation order, so the
            # creation time and key break ties exactly as the stable sort above does.
            held = index.entries
            kept = [held[k] for k, v in scores.items() if v > self.min_score]
            kept.sort(key=lambda e: (-scores[e.key], e.created_at, e.key))
        window = max(_DEDUP_WINDOW, coverage._COVER_WINDOW)
        spread, weighed = spread_herds(kept[:window], scores)
        kept = self._cover(spread + kept[window:], weighed, context, entries, index)
        kept = _newer_first(kept, scores, self.cache, context, index, entries=entries)
        if self.fill and context.token_budget is not None:
            chosen = {e.key for e in kept}
            if index is None:
                rest = [e for e in entries if e.key not in chosen]
                # Next best: what relevance they have (below min_score), then the fallback order.
                rest = sorted(fallback_order(rest), key=lambda e: -scores.get(e.key, 0.0))
            else:
                held = index.entries
                low = [held[k] for k in scores if k not in chosen]
                low.sort(key=lambda e: (-scores[e.key], index.fallback_rank(e)))
                rest = low + index.fallback(chosen.union(e.key for e in low))
            kept += rest
        return _cut(kept, self.limit)

    def _cover(
        self,
        ranked: list[MemoryEntry],
        scores: Mapping[str, float],
        context: SelectionContext,
        entries: Sequence[MemoryEntry],
        index: KeywordIndex | None,
        facets: Sequence[str] | None = None,
    ) -> list[MemoryEntry]:
        # The parts of the question, each with an entry early: its facets when it asks for
        # several things (`facets`, found here when `None`), else its words.
        if self.cover <= 0 or not ranked:
            return ranked
        queries = context.weighted_query()[:1]  # the question itself
        if facets is None:
            facets = question_facets(queries[0][0]) if queries else ()
        if not facets:
            return coverage.cover_terms(
                ranked, scores, queries, self.cover, self.cache, context.entry_data, index
            )
        semantic = context.facet_relevance if context.relevance is not None else None
        lookup = index.entries if index is not None else {e.key: e for e in entries}
        per_facet = coverage.facet_relevance(
            ranked[: coverage._HEAD],
            facets,
            semantic,
            self.semantic_weight,
            self.cache,
            context.entry_data,
            index,
            lookup,
        )
        return coverage.cover_facets(ranked, scores, per_facet, self.cover, lookup, self.min_score)

    def _select_indexed(self, index: KeywordIndex, context: SelectionContext) -> RankedEntries:
        # The same choice as `select`, over the scope's index, computed as far as it is read.
        # On keywords alone, the head and its reordering are kept with the scope's index and
        # reused after a write that leaves every score and the reordering's reads as they were
        # (`KeptHead`): exactly what is computed here from scratch.
        store = _cache_of(self.cache)
        queries = context.weighted_query()
        prepared = query_parts(queries, store)
        floor = self.min_score
        held = index.entries
        scope = context.scope
        memo = None
        if scope is not None and context.relevance is None and context.entry_vectors is None:
            memo = HeadMemo(scope, index, store, (self.cover, floor, queries), prepared)
        kept = memo.found if memo is not None else None
        if kept is not None:
            scores, head, shown = kept.scores, list(kept.head), kept.shown
            after: Iterator[str] = kept.ranking.after(kept.read)
        else:
            scores = lazy_relevance(
                index, queries, context.relevance, self.semantic_weight, store, prepared=prepared
            )
            ranking = SharedKeys(scores.ranked(floor))
            first = map(held.__getitem__, ranking.after(0))
            head = list(itertools.islice(first, max(_DEDUP_WINDOW, coverage._COVER_WINDOW)))
            read = len(head)
            head, weighed = spread_herds(head, scores)
            facets = question_facets(queries[0][0]) if queries else ()
            head = self._cover(head, weighed, context, (), index, facets)
            head = _newer_first(head, scores, self.cache, context, index, floor)
            shown = None
            if len(head) > read or context.entry_vectors is not None:
                shown = frozenset(e.key for e in head)
            if memo is not None and not facets:  # facet relevance reads the cache's counts
                memo.keep(scores, ranking, head, read, shown, context.entry_data)
            after = ranking.after(read)
        if shown is not None:
            # Entries came up from below the head (a facet's best, a newer version): not
            # again in their place.
            after = itertools.filterfalse(shown.__contains__, after)
        # Keys to entries in C-level steps: a compile after a write reads these again.
        kept_rest: Iterator[MemoryEntry] = map(held.__getitem__, after)
        if not (self.fill and context.token_budget is not None):
            length = scores.count_above(floor)
            ranked = RankedEntries(head, kept_rest, length, complete=length == len(index))
            return ranked.capped(self.limit)
        # Next best: what relevance they have (below min_score), then the fallback order.
        low = [held[key] for key in scores if scores[key] <= floor] if floor > 0 else []
        low.sort(key=lambda e: (-scores[e.key], index.fallback_rank(e)))
        tail: Iterator[MemoryEntry] = itertools.chain(kept_rest, low, index.fallback_after(scores))
        if shown is not None:
            # A newer version brought in may have no relevance at all (found by its words or
            # its vector): not again in the fallback order either.
            tail = (e for e in tail if e.key not in shown)
        return RankedEntries(head, tail, len(index), complete=True).capped(self.limit)


_DEDUP_WINDOW = 40
"""How many top-ranked entries are checked for near-duplicates (quadratic, so bounded)."""
_DEDUP_OVERLAP = 0.5
"""Share of the shorter entry's words the longer one must hold to count as the same subject."""
_EXTRA = 40
"""How many of the semantic search's hits below the window may bring in a newer version."""


def _scope_index(
    entries: Sequence[MemoryEntry],
    context: SelectionContext,
    fusion: str,
    cache: FeatureCache | None,
) -> KeywordIndex | None:
    # The scope's index, when the compile lent its scope and it holds exactly `entries`
    # (for score fusion: reciprocal ranks break ties by the order keys were scored in).
    if context.scope is None or fusion != "score":
        return None
    index = index_of(context.scope, _cache_of(cache), context.entry_data)
    return index if len(index) == len(entries) else None


def _newer_first(
    ranked: list[MemoryEntry],
    scores: Mapping[str, float],
    cache: FeatureCache | None,
    context: SelectionContext,
    index: KeywordIndex | None = None,
    floor: float = 0.0,
    entries: Sequence[MemoryEntry] = (),
) -> list[MemoryEntry]:
    # Entries about one subject, newest first among the top `_DEDUP_WINDOW` (every ranker).
    # With the entries' vectors, the semantic search's next best hits (scoring above `floor`)
    # may bring a newer version in; the scope's `index` finds them by key (else `ranked`).
    extra: list[MemoryEntry] = []
    semantic = context.relevance
    if context.entry_vectors is not None and semantic is not None:
        inside = {e.key for e in ranked[:_DEDUP_WINDOW]}
        held: Mapping[str, MemoryEntry] = (
            index.entries if index is not None else {e.key: e for e in ranked[_DEDUP_WINDOW:]}
        )
        for key in sorted(semantic, key=lambda k: -semantic[k]):
            if len(extra) >= _EXTRA:
                break
            found = held.get(key) if key not in inside else None
            if found is not None and scores.get(key, 0.0) > floor:
                extra.append(found)
    return prefer_newer(
        ranked,
        _DEDUP_WINDOW,
        _DEDUP_OVERLAP,
        cache,
        context.entry_data,
        scores=scores,
        semantic=semantic,
        vectors=context.entry_vectors,
        extra=extra,
        index=index,
        everyone=holders_of(entries, cache, context.entry_data)
        if index is None and semantic
        else None,
    )


class Rerank(MemorySelector):
    """Relevance first; recency, importance and confidence break ties within a bounded margin.

    `score = relevance_weight * relevance + recency_weight * recency
    + importance_weight * importance + confidence_weight * confidence`, where relevance is
    `relevance_scores` divided by the best one (so the most relevant entry has 1), recency
    halves every `half_life` since the entry's last write, importance is the entry's own
    (0 when unset) and confidence is `provenance.confidence` (or `default_confidence`). With
    the default weights the three tie-breakers together move an entry by at most 0.2, so they
    reorder entries of similar relevance but never lift an unrelated entry over a clearly
    relevant one. Of two near-duplicate entries (or one that `supersedes` the other) the newer
    goes first. Every entry is ranked, so the budget is always filled.

    Args:
        relevance_weight: Weight of relevance to the query.
        recency_weight: Weight of recency.
        importance_weight: Weight of the entry's importance.
        confidence_weight: Weight of the writer's confidence.
        half_life: Age at which recency is 0.5.
        default_confidence: Confidence of entries that record none.
        limit: Keep at most this many.
        min_score: Drop entries scoring at or below this.
        search_limit: How many hits the semantic search asks for.
        semantic_weight: Share of the semantic score when fusing (see `relevance_scores`).
        fusion: `"score"` or `"rrf"`.
        cache: Where per-entry keyword features are kept.

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
        relevance_weight: float = 1.0,
        recency_weight: float = 0.1,
        importance_weight: float = 0.05,
        confidence_weight: float = 0.05,
        half_life: timedelta = timedelta(days=30),
        default_confidence: float = 0.5,
        limit: int | None = None,
        min_score: float | None = None,
        search_limit: int = 100,
        semantic_weight: float = 0.7,
        fusion: Fusion = "score",
        cache: FeatureCache | None = None,
    ) -> None:
        _check_limit(limit)
        _check_limit(search_limit)
        for name, value in (
            ("relevance_weight", relevance_weight),
            ("recency_weight", recency_weight),
            ("importance_weight", importance_weight),
            ("confidence_weight", confidence_weight),
        ):
            _check_weight(name, value)
        if half_life <= timedelta(0):
            msg = f"half_life must be a positive timedelta, got {half_life!r}."
            raise ValueError(msg)
        if fusion not in ("score", "rrf"):
            msg = f"fusion must be 'score' or 'rrf', got {fusion!r}."
            raise ValueError(msg)
        self.weights = (relevance_weight, recency_weight, importance_weight, confidence_weight)
        self.half_life = half_life
        self.default_confidence = default_confidence
        self.limit = limit
        self.min_score = min_score
        self.search_limit = search_limit
        self.semantic_weight = semantic_weight
        self.fusion: Fusion = fusion
        self.cache = cache

    def __repr__(self) -> str:
        return f"Rerank(weights={self.weights!r}, half_life={self.half_life!r})"

    def scores(self, entries: Sequence[MemoryEntry], context: SelectionContext) -> dict[str, float]:
        """The combined score of every entry, by key."""
        relevance: dict[str, float] = {}
        if context.weighted_query() or context.relevance is not None:
            index = _scope_index(entries, context, self.fusion, self.cache)
            relevance = relevance_scores(
                entries,
                context,
                semantic_weight=self.semantic_weight,
                fusion=self.fusion,
                cache=self.cache,
                index=index,
            )
        best = max(relevance.values(), default=0.0)
        w_rel, w_rec, w_imp, w_conf = self.weights
        half_life = self.half_life.total_seconds()
        out: dict[str, float] = {}
        for entry in entries:
            age = max(0.0, (context.now - entry.updated_at).total_seconds())
            recency = 0.5 ** (age / half_life)
            confidence = (
                entry.provenance.confidence
                if entry.provenance is not None and entry.provenance.confidence is not None
                else self.default_confidence
            )
            importance = min(max(entry.importance or 0.0, 0.0), 1.0)
            rel = relevance.get(entry.key, 0.0) / best if best > 0 else 0.0
            out[entry.key] = (
                w_rel * rel + w_rec * recency + w_imp * importance + w_conf * confidence
            )
        return out

    def select(
        self, entries: list[MemoryEntry], context: SelectionContext
    ) -> Sequence[MemoryEntry]:
        """Rank by the combined score, newer near-duplicates first; apply `min_score`, `limit`."""
        scores = self.scores(entries, context)
        ranked = sorted(entries, key=lambda e: -scores[e.key])
        if self.min_score is not None:
            floor = self.min_score
            ranked = [e for e in ranked if scores[e.key] > floor]
        ranked = _newer_first(ranked, scores, self.cache, context)
        return _cut(ranked, self.limit)
