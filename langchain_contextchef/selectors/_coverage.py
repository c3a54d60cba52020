"""Covering the parts of a question that asks for several things, among the best entries.

"Where are we staying, when do we fly, and what can't I eat?" has three facets
(`langchain_contextchef.query.question_facets`). Ranked by their relevance to the whole
question, the entries about the facet that most words (or the closest meaning) point to can
fill the budget before the other facets get one. `cover_facets` reorders the best entries by
explicit diversification over the facets (in the manner of xQuAD): each next slot goes to
the entry with the best mix of its relevance to the whole question and its relevance to the
facets that the entries already placed cover least. A facet's own best entries, even when
the whole question ranks them low, are candidates too. Nothing is dropped; entries past the
reordered head keep their order, and the token budget then takes a prefix as before.

A facet's relevance per entry (`facet_relevance`) is the rarity-weighted share of the facet's
words the entry holds, fused, when the store's search ran per facet, with the facet's own
semantic similarity; it is scored for the best entries and the facet's nearest entries only.

`cover_terms` is the same idea for a question without facets: the best entries reordered so
that each of the query's words gets an entry early.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._bm25 import query_terms
from langchain_contextchef.selectors._index import KeywordIndex
from langchain_contextchef.selectors._relevance import EntryData, _cache_of, _features, _min_max
from langchain_contextchef.selectors._text_features import FeatureCache

__all__ = ["cover_facets", "cover_terms", "facet_relevance"]

_HEAD = 30
"""How many of the best entries are reordered (the greedy step is quadratic, so bounded)."""
_FACET_BEST = 2
"""How many of each facet's own best entries join the reordered head when they are below it."""
_FACET_HITS = 10
"""How many of a facet's nearest entries (by its own semantic search) are scored besides the
head: its best entries below the head come from these."""
_DONE = 0.05
"""Once no facet is left less covered than this, the rest of the head keeps its order."""


def facet_relevance(
    pool: Sequence[MemoryEntry],
    facets: Sequence[str],
    semantic: Mapping[str, Mapping[str, float]] | None,
    semantic_weight: float,
    cache: FeatureCache | None,
    entry_data: EntryData | None = None,
    index: KeywordIndex | None = None,
    lookup: Mapping[str, MemoryEntry] | None = None,
) -> list[dict[str, float]]:
    """Each facet's relevance to the entries of `pool` and to the facet's semantic hits.

    The keyword side is how much of the facet's words an entry holds, each word weighted by
    its rarity (BM25's inverse document frequency; a longer word a facet word begins counts
    at the prefix match's weight); the semantic side, when the store's search ran for the
    facet, is its similarity, min-max normalised over the facet's hits. They are fused with
    the selector's semantic weight. Only the pool and the facet's `_FACET_HITS` nearest
    entries are scored: the cost does not grow with the scope.

    Args:
        pool: The entries to score (the best entries of the ranking).
        facets: The facets' texts.
        semantic: Each facet's semantic similarity per key, by text; `None` (or a facet
            missing) scores on keywords alone.
        semantic_weight: The semantic side's share, as in `relevance_scores`.
        cache: Where per-entry keyword features are kept.
        entry_data: Where per-entry data is kept with the entry version.
        index: The scope's keyword index (asked first for an entry's features).
        lookup: Any entry by key, for the facet's nearest entries outside `pool`.

    Returns:
        One `key -> relevance` per facet, in the facets' order (keys with none are absent).
    """
    store = _cache_of(cache)
    known = max(len(store), 1)
    out: list[dict[str, float]] = []
    for facet in facets:
        weights = query_terms(((facet, 1.0),))
        wanted = {
            term: weight * _idf(store.frequency(term), known)
            for term, weight in store.expand(weights).items()
        }
        total = sum(weight * _idf(store.frequency(t), known) for t, weight in weights.items())
        found = semantic.get(facet) if semantic is not None else None
        similar = _min_max(found) if found else {}
        keyword_share = 1.0 - semantic_weight if similar else 1.0
        taken = {e.key for e in pool}
        found_in = lookup if lookup is not None else {}
        nearest = heapq.nlargest(_FACET_HITS, similar, key=similar.__getitem__)
        hits = [found_in[k] for k in nearest if k not in taken and k in found_in]
        candidates = [*pool, *hits]
        vocabularies = [f.vocabulary for f in _features(candidates, store, entry_data, index)]
        scores: dict[str, float] = {}
        for entry, vocabulary in zip(candidates, vocabularies, strict=True):
            held = sum(wanted[t] for t in vocabulary.intersection(wanted)) if total > 0 else 0.0
            score = keyword_share * min(held / total, 1.0) if total > 0 else 0.0
            score += semantic_weight * similar.get(entry.key, 0.0) if similar else 0.0
            if score > 0:
                scores[entry.key] = score
        out.append(scores)
    return out


def _idf(frequency: int, known: int) -> float:
    return math.log(1.0 + (known - frequency + 0.5) / (frequency + 0.5))


def cover_facets(
    ranked: list[MemoryEntry],
    scores: Mapping[str, float],
    facets: Sequence[Mapping[str, float]],
    strength: float,
    lookup: Mapping[str, MemoryEntry],
    floor: float = 0.0,
) -> list[MemoryEntry]:
    """Reorder the best entries so that each facet of the question gets an entry early.

    Greedy over the top `_HEAD` entries and each facet's `_FACET_BEST` best: the next slot
    goes to the entry with the highest `(1 - strength) * relevance + strength * coverage`,
    where relevance is its score over the best one's and coverage is the mean, over the
    facets, of its relevance to the facet times how uncovered the facet still is (the
    product of `1 - relevance to the facet` over the entries already placed). With one facet
    covered, an entry for another facet outranks a second entry for the first; once every
    facet is covered the rest keep their order.

    Args:
        ranked: The entries by relevance to the whole question, best first.
        scores: The relevance of each entry to the whole question, by key.
        facets: Each facet's relevance per key (`facet_relevance`); an entry's relevance
            to a facet counts over the facet's best one's.
        strength: The share of coverage in the mix, in [0, 1] (0: the order is kept).
        lookup: Any entry by key (for a facet's best entries below the head).
        floor: A facet's best entry comes up from below the head only when its relevance
            to the whole question is above this (it is then one of the ranked entries).

    Returns:
        The same entries, the head reordered.
    """
    if strength <= 0 or len(facets) < 2 or len(ranked) < 2:
        return ranked
    head = ranked[:_HEAD]
    taken = {e.key for e in head}
    pool = list(head)
    for facet in facets:
        best = heapq.nsmallest(_FACET_BEST, facet, key=lambda k: (-facet[k], k))
        for key in best:
            entry = lookup.get(key)
            if entry is not None and key not in taken and scores.get(key, 0.0) > floor:
                taken.add(key)
                pool.append(entry)
    top = max((scores.get(e.key, 0.0) for e in pool), default=0.0)
    if top <= 0:
        return ranked
    base = [(1.0 - strength) * scores.get(e.key, 0.0) / top for e in pool]
    share = strength
    # Each facet's relevance over its best entry's: 1 for the facet's best.
    scaled = [(facet, max(facet.values(), default=0.0)) for facet in facets]
    gains = [[f.get(e.key, 0.0) / top if top > 0 else 0.0 for f, top in scaled] for e in pool]
    left_over = [1.0] * len(facets)  # how uncovered each facet still is
    order: list[int] = []
    remaining = list(range(len(pool)))
    while remaining and max(left_over) > _DONE:
        best_i, best_value, best_cover = remaining[0], -1.0, 0.0
        for i in remaining:  # the first of equal values wins: the ranking breaks ties
            row = gains[i]
            cover = share * sum(g * u for g, u in zip(row, left_over, strict=True))
            if base[i] + cover > best_value:
                best_i, best_value, best_cover = i, base[i] + cover, cover
        if best_cover < _DONE * share:
            break  # what is left covers nothing new: the ranking's order from here
        order.append(best_i)
        remaining.remove(best_i)
        left_over = [u * (1.0 - g) for u, g in zip(left_over, gains[best_i], strict=True)]
    placed = [pool[i] for i in order]
    chosen = {e.key for e in placed}
    # The rest of the head, then the rest of the ranking, in their order; a facet's best entry
    # that did not get a slot goes back to its own place in the ranking.
    return placed + [e for e in ranked if e.key not in chosen]


_COVER_WINDOW = 30
"""How many of the best entries the coverage step reorders (quadratic, so bounded)."""


def cover_terms(
    ranked: list[MemoryEntry],
    scores: Mapping[str, float],
    queries: Sequence[tuple[str, float]],
    strength: float,
    cache: FeatureCache | None,
    entry_data: EntryData | None = None,
    index: KeywordIndex | None = None,
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
    matched = [f.vocabulary & wanted for f in _features(top, store, entry_data, index)]
    covered: set[str] = set()
    left = list(range(len(top)))
    order: list[int] = []
    base = [scores.get(e.key, 0.0) for e in top]

    def gain(i: int) -> float:
        words = matched[i]
        seen = len(words & covered) / len(words) if words else 0.0
        return base[i] * (1.0 - strength * seen)

    gains = [gain(i) for i in left]
    while left:
        best, best_gain = left[0], -1.0
        for i in left:  # the first of equal gains wins: score order breaks ties
            if gains[i] > best_gain:
                best, best_gain = i, gains[i]
        order.append(best)
        left.remove(best)
        new = matched[best] - covered
        if new:
            covered |= new
            # Only the entries holding a newly covered word have a new gain.
            for i in left:
                if not new.isdisjoint(matched[i]):
                    gains[i] = gain(i)
    return [top[i] for i in order] + ranked[_COVER_WINDOW:]
