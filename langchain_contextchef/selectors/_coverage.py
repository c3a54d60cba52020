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

A facet's relevance per entry is its own keyword score (BM25F over the facet's words,
normalised by the facet's best) fused, when the store's search ran per facet, with its
semantic similarity (min-max normalised), with the selector's semantic weight.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._bm25 import BM25Params
from langchain_contextchef.selectors._index import KeywordIndex
from langchain_contextchef.selectors._relevance import EntryData, _keyword, _min_max
from langchain_contextchef.selectors._text_features import FeatureCache

__all__ = ["cover_facets", "facet_relevance"]

_HEAD = 30
"""How many of the best entries are reordered (the greedy step is quadratic, so bounded)."""
_FACET_BEST = 2
"""How many of each facet's own best entries join the reordered head when they are below it."""
_DONE = 0.05
"""Once no facet is left less covered than this, the rest of the head keeps its order."""


def facet_relevance(
    entries: Sequence[MemoryEntry],
    facets: Sequence[str],
    semantic: Mapping[str, Mapping[str, float]],
    semantic_weight: float,
    cache: FeatureCache | None,
    entry_data: EntryData | None = None,
    index: KeywordIndex | None = None,
) -> list[dict[str, float]]:
    """Each facet's relevance per key, in [0, 1]: 1 for the facet's best entry.

    Args:
        entries: The candidates (the scope's entries, or what `index` holds).
        facets: The facets' texts.
        semantic: Each facet's semantic similarity per key (from its own search), by text;
            a facet without one is scored on keywords alone.
        semantic_weight: The semantic side's share, as in `relevance_scores`.
        cache: Where per-entry keyword features are kept.
        entry_data: Where per-entry data is kept with the entry version.
        index: The scope's keyword index over exactly `entries`, when there is one.

    Returns:
        One `key -> relevance` per facet, in the facets' order; keys with none are absent.
    """
    present: Container[str] = index.entries if index is not None else {e.key for e in entries}
    out: list[dict[str, float]] = []
    params = BM25Params()
    for facet in facets:
        keyword = _keyword(entries, ((facet, 1.0),), cache, params, entry_data, index)
        top = max(keyword.values(), default=0.0)
        keyword_norm = {k: v / top for k, v in keyword.items()} if top > 0 else {}
        found = semantic.get(facet)
        if not found:
            out.append(keyword_norm)
            continue
        similar = _min_max({k: float(v) for k, v in found.items() if k in present})
        fused: dict[str, float] = {}
        for key in keyword_norm.keys() | similar.keys():
            score = (1.0 - semantic_weight) * keyword_norm.get(key, 0.0) + (
                semantic_weight * similar.get(key, 0.0)
            )
            if score > 0:
                fused[key] = score
        best = max(fused.values(), default=0.0)
        out.append({k: v / best for k, v in fused.items()} if best > 0 else {})
    return out


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
        facets: Each facet's relevance per key, in [0, 1] (`facet_relevance`).
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
        best = sorted(facet, key=lambda k: -facet[k])
        for key in best[:_FACET_BEST]:
            entry = lookup.get(key)
            if entry is not None and key not in taken and scores.get(key, 0.0) > floor:
                taken.add(key)
                pool.append(entry)
    top = max((scores.get(e.key, 0.0) for e in pool), default=0.0)
    if top <= 0:
        return ranked
    base = [(1.0 - strength) * scores.get(e.key, 0.0) / top for e in pool]
    share = strength
    gains = [[facet.get(e.key, 0.0) for facet in facets] for e in pool]
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
