"""Relevance scoring behind `Relevant` and `Rerank`: keyword (BM25F), semantic, and fused.

Pure functions over entries and a weighted query: `keyword_scores` ranks by BM25F over key,
description and value with the shared feature cache; `relevance_scores` fuses it with the
store's semantic scores (normalised score fusion, or reciprocal ranks); `prefer_newer` swaps a
newer near-duplicate ahead of the older fact it replaces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from typing import Any

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._bm25 import BM25Params, bm25f_parts, query_terms
from langchain_contextchef.selectors._index import KeywordIndex
from langchain_contextchef.selectors._selection import Fusion, SelectionContext, newest_first
from langchain_contextchef.selectors._text_features import (
    EntryFeatures,
    FeatureCache,
    default_cache,
)

__all__ = [
    "clearly_fits",
    "cover_terms",
    "fallback_order",
    "keyword_scores",
    "prefer_newer",
    "relevance_scores",
]


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
    index: KeywordIndex | None = None,
) -> dict[str, float]:
    # Each part (a user turn) is scored on its own, normalised by what it could reach, and the
    # parts are added with their weights: a long unrelated turn cannot drown a short question,
    # and a follow-up that names nothing still gets the subject from the turn before.
    parts = [(query_terms(((text, 1.0),)), w) for text, w in queries if w > 0]
    parts = [(terms_, w) for terms_, w in parts if terms_]
    if not parts:
        return {}
    store = _cache_of(cache)
    total = sum(w for _, w in parts)
    fused: dict[str, float] = {}
    if index is not None:
        # The scope's index scores only the entries holding a query term (same arithmetic).
        by_key = index.score([store.expand(terms_) for terms_, _ in parts], params)
        for (scored, ceiling), (_, weight) in zip(by_key, parts, strict=True):
            if ceiling <= 0:
                continue
            share = weight / total / ceiling
            for key, score in scored.items():
                fused[key] = fused.get(key, 0.0) + score * share
        return fused
    features = _features(entries, store, entry_data)
    results = bm25f_parts(features, [store.expand(terms_) for terms_, _ in parts], params)
    for (raw, ceiling), (_, weight) in zip(results, parts, strict=True):
        if ceiling <= 0:
            continue
        share = weight / total / ceiling
        for i, score in raw.items():
            key = entries[i].key
            fused[key] = fused.get(key, 0.0) + score * share
    return fused


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
    index: KeywordIndex | None = None,
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
        index: The scope's keyword index over exactly `entries` (see `_index`), when the
            caller keeps one: the same scores, without visiting every entry.

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
    keyword = (
        _keyword(entries, queries, cache, BM25Params(), context.entry_data, index)
        if queries
        else {}
    )
    if context.relevance is None:
        return keyword
    present: Container[str] = index.entries if index is not None else {e.key for e in entries}
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


def clearly_fits(entries: Sequence[MemoryEntry], budget: int | None) -> bool:
    """Whether every entry surely fits `budget`, estimated from text lengths (no counting).

    Two and a half characters a token (fewer than any tokenizer reads on English prose) and
    a dozen tokens of markup an entry, within 70% of the budget (recall mode keeps a share
    for index rows), so a "yes" is never wrong by much; it stops at the first entry past it.
    """
    if budget is None:
        return False
    room = 0.7 * budget * _CHARS_PER_TOKEN
    used = 0.0
    for entry in entries:
        used += len(entry.key) + len(entry.value) + len(entry.description or "")
        used += _MARKUP_TOKENS * _CHARS_PER_TOKEN
        if used > room:
            return False
    return True


_CHARS_PER_TOKEN = 2.5
_MARKUP_TOKENS = 12
_COVER_WINDOW = 30
"""How many of the best entries the coverage step reorders (quadratic, so bounded)."""


def cover_terms(
    ranked: list[MemoryEntry],
    scores: Mapping[str, float],
    queries: Sequence[tuple[str, float]],
    strength: float,
    cache: FeatureCache | None,
    entry_data: EntryData | None = None,
) -> list[MemoryEntry]:
    """Reorder the best entries so that each part of the question gets an entry early.

    Greedy, over the top `_COVER_WINDOW`: the next entry is the one with the best score
    discounted by `strength` times the share of its matching query words that the entries
    already taken match too. An entry that matches no query word (a semantic-only hit) is
    not discounted. With one entry per question word the order is the score order.
    """
    top = ranked[:_COVER_WINDOW]
    weights = query_terms(queries)
    if len(top) < 3 or not weights or strength <= 0:
        return ranked
    store = _cache_of(cache)
    wanted = frozenset(store.expand(weights))
    matched = [f.vocabulary & wanted for f in _features(top, store, entry_data)]
    covered: set[str] = set()
    left = list(range(len(top)))
    order: list[int] = []
    base = [scores.get(e.key, 0.0) for e in top]
    while left:
        best, best_gain = left[0], -1.0
        for i in left:  # the first of equal gains wins: score order breaks ties
            words = matched[i]
            seen = len(words & covered) / len(words) if words else 0.0
            gain = base[i] * (1.0 - strength * seen)
            if gain > best_gain:
                best, best_gain = i, gain
        order.append(best)
        left.remove(best)
        covered |= matched[best]
    return [top[i] for i in order] + ranked[_COVER_WINDOW:]


_FAMILY = re.compile(r"[_\-./:\s]+")


def _family(key: str) -> str:
    """The first word of a key: `dentist` of `dentist_checkup` and of `dentist-moved`."""
    head = _FAMILY.split(key.casefold(), maxsplit=1)[0]
    return head if len(head) >= 3 else ""


def _same_subject(
    older: MemoryEntry, newer: MemoryEntry, theirs: frozenset[str], mine: frozenset[str], t: float
) -> bool:
    """Whether `newer` states what `older` stated: a link, or the same subject by its words."""
    if older.key in newer.supersedes:
        return True
    if not (mine and theirs):
        return False
    shared = len(mine & theirs)
    smaller = min(len(mine), len(theirs))
    if shared >= t * smaller:
        return True
    described = bool(older.description) and (
        (older.description or "").casefold() == (newer.description or "").casefold()
    )
    family = _family(older.key)
    related = family != "" and family == _family(newer.key)
    # A key family or a description in common says "the same subject" even when the two
    # versions share few words ("lives in Berlin" / "moved to Lisbon in May").
    return (described or related) and shared >= 0.2 * smaller and older.type == newer.type


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
            if _same_subject(older, newer, theirs, mine, threshold):
                order[position], order[later] = order[later], order[position]
                break
    return [top[i] for i in order] + ranked[window:]
