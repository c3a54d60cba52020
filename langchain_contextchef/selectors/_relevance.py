"""Relevance scoring behind `Relevant` and `Rerank`: keyword (BM25F), semantic, and fused.

Pure functions over entries and a weighted query: `keyword_scores` ranks by BM25F over key,
description and value with the shared feature cache; `relevance_scores` fuses it with the
store's semantic scores (normalised score fusion, or reciprocal ranks); `prefer_newer` swaps a
newer near-duplicate ahead of the older fact it replaces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._bm25 import BM25Params, bm25f, query_terms
from langchain_contextchef.selectors._selection import Fusion, SelectionContext, newest_first
from langchain_contextchef.selectors._text_features import (
    EntryFeatures,
    FeatureCache,
    default_cache,
)

__all__ = ["fallback_order", "keyword_scores", "prefer_newer", "relevance_scores"]


def _cache_of(cache: FeatureCache | None) -> FeatureCache:
    return cache if cache is not None else default_cache()


EntryData = Callable[[MemoryEntry], dict[Any, Any]]


def _features(
    entries: Sequence[MemoryEntry], store: FeatureCache, entry_data: EntryData | None
) -> list[EntryFeatures]:
    """Each entry's features; with `entry_data`, kept with the entry version (no cache lookup).

    A miss goes through `store`, so the cache's vocabulary (used to expand query terms)
    learns the entry's words as before.
    """
    if entry_data is None:
        return [store.get(e) for e in entries]
    out: list[EntryFeatures] = []
    for entry in entries:
        held = entry_data(entry)
        found = held.get(store)
        if found is None:
            found = held[store] = store.get(entry)
        out.append(found)
    return out


def _keyword(
    entries: Sequence[MemoryEntry],
    queries: Sequence[tuple[str, float]],
    cache: FeatureCache | None,
    params: BM25Params,
    entry_data: EntryData | None = None,
) -> dict[str, float]:
    weights = query_terms(queries)
    if not weights:
        return {}
    store = _cache_of(cache)
    features = _features(entries, store, entry_data)
    raw, ceiling = bm25f(features, store.expand(weights), params)
    if ceiling <= 0:
        return {}
    return {entries[i].key: score / ceiling for i, score in raw.items()}


def keyword_scores(
    entries: Sequence[MemoryEntry],
    query: str | Sequence[tuple[str, float]],
    *,
    cache: FeatureCache | None = None,
) -> dict[str, float]:
    """BM25F relevance of each entry to a query, in (0, 1].

    The query's words are stemmed ("allergies" finds "allergy") and matched as prefixes of
    longer words ("allergies" also finds "allergic"), stop words are dropped, and
    each word counts by its rarity among `entries` (BM25's inverse document frequency), so one
    specific entry stands out among thousands of generic ones. A match in the key counts
    double, in the description 1.5 times. Entries sharing no word with the query are absent.
    Each entry's words are computed once per version and cached (`cache`, or the process-wide
    one).

    Args:
        entries: The candidates (their key, description and value are searched).
        query: Free text, or weighted `(text, weight)` parts.
        cache: Where per-entry features are kept between calls.

    Returns:
        Key -> score; 1.0 is the score of an entry that matches every query word as strongly
        as BM25 can count (in practice scores stay below it).

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors import keyword_scores

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key="meds", value="Allergic to penicillin", created_at=t, updated_at=t),
            MemoryEntry(key="tone", value="Keep it short", created_at=t, updated_at=t),
        ]
        assert set(keyword_scores(entries, "Which allergies do I have?")) == {"meds"}
        ```
    """
    queries = ((query, 1.0),) if isinstance(query, str) else tuple(query)
    return _keyword(entries, queries, cache, BM25Params())


def _min_max(scores: Mapping[str, float]) -> dict[str, float]:
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    if high - low <= 1e-12:
        return dict.fromkeys(scores, 1.0) if high > 0 else {}
    return {k: (v - low) / (high - low) for k, v in scores.items()}


def _ranks(scores: Mapping[str, float]) -> dict[str, int]:
    ordered = sorted(scores, key=lambda k: -scores[k])
    return {k: rank for rank, k in enumerate(ordered, start=1)}


def relevance_scores(
    entries: Sequence[MemoryEntry],
    context: SelectionContext,
    *,
    semantic_weight: float = 0.7,
    fusion: Fusion = "score",
    cache: FeatureCache | None = None,
) -> dict[str, float]:
    """Relevance of each entry to the context's query: keyword, semantic, or both fused.

    Without semantic scores (`context.relevance is None`) this is `keyword_scores`. With them,
    `fusion="score"` min-max normalises both score sets over the candidates and adds them
    with `semantic_weight` for the semantic side (1.0: semantic only); `fusion="rrf"` sums
    `1 / (60 + rank)` over both rankings instead.

    Args:
        entries: The candidates.
        context: The query parts and the store's semantic scores, if any.
        semantic_weight: Share of the semantic score in `"score"` fusion, in [0, 1].
        fusion: `"score"` or `"rrf"`.
        cache: Where per-entry features are kept between calls.

    Returns:
        Key -> relevance (> 0); entries with no relevance at all are absent.

    Example:
        ```python
        from datetime import datetime, timezone
        from langchain_contextchef.entry import MemoryEntry
        from langchain_contextchef.selectors import SelectionContext, relevance_scores

        t = datetime(2026, 5, 25, tzinfo=timezone.utc)
        entries = [
            MemoryEntry(key=k, value=v, created_at=t, updated_at=t)
            for k, v in [("a", "cat named Miso"), ("b", "owns a kitten"), ("c", "tax return")]
        ]
        semantic = {"a": 0.62, "b": 0.55, "c": 0.05}
        context = SelectionContext(query="my cat", relevance=semantic)
        scores = relevance_scores(entries, context)
        assert scores["a"] > scores["b"] > scores.get("c", 0.0)
        ```
    """
    queries = context.weighted_query()
    keyword = _keyword(entries, queries, cache, BM25Params(), context.entry_data) if queries else {}
    if context.relevance is None:
        return keyword
    present = {e.key for e in entries}
    semantic = {k: float(v) for k, v in context.relevance.items() if k in present}
    if fusion == "rrf":
        out: dict[str, float] = {}
        for ranking in (_ranks(keyword), _ranks(semantic)):
            for key, rank in ranking.items():
                out[key] = out.get(key, 0.0) + 1.0 / (60 + rank)
        return out
    if not 0.0 <= semantic_weight <= 1.0:
        msg = f"semantic_weight must be in [0, 1], got {semantic_weight!r}."
        raise ValueError(msg)
    # Normalise by the best keyword match, so a query whose words are all common does not
    # outweigh the semantic side, and a sharp match counts fully.
    top = max(keyword.values(), default=0.0)
    keyword_norm = {k: v / top for k, v in keyword.items()} if top > 0 else {}
    semantic_norm = _min_max(semantic)
    fused: dict[str, float] = {}
    for key in keyword_norm.keys() | semantic_norm.keys():
        score = (1.0 - semantic_weight) * keyword_norm.get(key, 0.0) + (
            semantic_weight * semantic_norm.get(key, 0.0)
        )
        if score > 0:
            fused[key] = score
    return fused


def fallback_order(entries: Iterable[MemoryEntry]) -> list[MemoryEntry]:
    """The order of entries without relevance: important first, then newest first."""
    return sorted(
        newest_first(entries), key=lambda e: (e.importance is None, -(e.importance or 0.0))
    )


def _subject(vocabulary: frozenset[str]) -> frozenset[str]:
    # Numbers (dates, times, amounts) are what changes between two versions of a fact, not
    # its subject.
    return frozenset(t for t in vocabulary if not t.isdigit())


def prefer_newer(
    ranked: list[MemoryEntry],
    window: int,
    threshold: float,
    cache: FeatureCache | None,
    entry_data: EntryData | None = None,
) -> list[MemoryEntry]:
    """Give the slot of an older entry to a newer near-duplicate ranked below it.

    Two entries conflict when one `supersedes` the other's key, or when most of the words of
    the shorter one appear in the other (the same subject, written twice). The two swap
    places: the newer takes the older's slot and the older falls to where the newer was, so
    entries in between keep their places and, with room for one, the model sees the current
    fact. Only the top `window` entries are compared (the check is quadratic).
    """
    top = ranked[:window]
    if len(top) < 2:
        return ranked
    subjects = [_subject(f.vocabulary) for f in _features(top, _cache_of(cache), entry_data)]
    order = list(range(len(top)))  # positions into `top`, in ranked order
    for position in range(len(order)):
        older = top[order[position]]
        theirs = subjects[order[position]]
        for later in range(position + 1, len(order)):
            newer = top[order[later]]
            if newer.updated_at <= older.updated_at:
                continue
            mine = subjects[order[later]]
            shared = len(mine & theirs)
            similar = bool(mine and theirs) and shared >= threshold * min(len(mine), len(theirs))
            if similar or older.key in newer.supersedes:
                order[position], order[later] = order[later], order[position]
                break
    return [top[i] for i in order] + ranked[window:]
