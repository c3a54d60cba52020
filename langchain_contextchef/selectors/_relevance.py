"""Relevance scoring behind `Relevant` and `Rerank`: keyword (BM25F), semantic, and fused.

Pure functions over entries and a weighted query: `keyword_scores` ranks by BM25F over key,
description and value with the shared feature cache; `relevance_scores` fuses it with the
store's semantic scores (normalised score fusion, or reciprocal ranks); `prefer_newer` shows
the newest version of each subject first.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from typing import Any

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors._bm25 import BM25Params, bm25f_parts, query_terms
from langchain_contextchef.selectors._herds import herd_of
from langchain_contextchef.selectors._index import KeywordIndex
from langchain_contextchef.selectors._meaning import _PULLS, by_meaning, observed
from langchain_contextchef.selectors._selection import (
    EntryVectors,
    Fusion,
    SelectionContext,
    newest_first,
)
from langchain_contextchef.selectors._text_features import (
    EntryFeatures,
    FeatureCache,
    default_cache,
    terms,
)
from langchain_contextchef.selectors._updates import (
    Holders,
    WordHolders,
    closest_of,
    named_updates,
)

__all__ = [
    "clearly_fits",
    "fallback_order",
    "keyword_scores",
    "prefer_newer",
    "rare_limits",
    "rare_words",
    "relevance_scores",
    "subject_words",
]


def _cache_of(cache: FeatureCache | None) -> FeatureCache:
    return cache if cache is not None else default_cache()


EntryData = Callable[[MemoryEntry], dict[Any, Any]]


def _features(
    entries: Sequence[MemoryEntry],
    store: FeatureCache,
    entry_data: EntryData | None,
    index: KeywordIndex | None = None,
) -> list[EntryFeatures]:
    """Each entry's features; with `entry_data`, kept with the entry version (no cache lookup).

    The scope's `index` holds the features of the entries it indexes: asked first. A miss
    goes through `store`, so the cache's vocabulary (used to expand query terms) learns the
    entry's words as before.
    """
    if entry_data is None and index is None:
        return [store.get(e) for e in entries]
    out: list[EntryFeatures] = []
    for entry in entries:
        indexed = index.features(entry) if index is not None else None
        if indexed is not None:
            out.append(indexed)
            continue
        if entry_data is None:
            out.append(store.get(entry))
            continue
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
    if len(entries) * _MARKUP_TOKENS * _CHARS_PER_TOKEN > room:
        return False  # their markup alone is past it (the loop below would say so too)
    used = 0.0
    for entry in entries:
        used += len(entry.key) + len(entry.value) + len(entry.description or "")
        used += _MARKUP_TOKENS * _CHARS_PER_TOKEN
        if used > room:
            return False
    return True


_CHARS_PER_TOKEN = 2.5
_MARKUP_TOKENS = 12
_CHANGE_WORDS = frozenset(
    terms(
        "update updated change changed new newer latest current now moved move switch "
        "switched rescheduled old previous again version revised edit"
    )
)
"""Words a key gains when a fact changes (`car_update`, `noor_moved`): not its subject."""
_NEAR = 0.2
"""Share of the shorter entry's subject words that, with a nearby rank, says the same subject."""
_SEMANTIC_BAND = 0.95
"""The second closest entry in meaning is about the question's subject too when its
semantic score reaches this share of the closest one's."""


def _key_subject(features: EntryFeatures) -> frozenset[str]:
    return frozenset(
        t for t in features.field_terms(0) if t not in _CHANGE_WORDS and not t.isdigit()
    )


def _described(features: EntryFeatures) -> frozenset[str]:
    return frozenset(t for t in features.field_terms(1) if not t.isdigit())


def _subject(vocabulary: frozenset[str]) -> frozenset[str]:
    # Numbers (dates, times, amounts) are what changes between two versions of a fact, not
    # its subject.
    return frozenset(t for t in vocabulary if not t.isdigit() and t not in _CHANGE_WORDS)


def _share(a: frozenset[str], b: frozenset[str]) -> float:
    smaller = min(len(a), len(b))
    return len(a & b) / smaller if smaller else 0.0


_Subject = tuple[MemoryEntry, frozenset[str], frozenset[str], frozenset[str]]
"""An entry with its subject words, its key's and its description's."""


def _same_subject(
    first: _Subject,
    second: _Subject,
    threshold: float,
    near: bool,
    rare: Callable[[str, bool], bool],
) -> bool:
    """Whether two entries state the same thing (one may be the other's newer version).

    A `supersedes` link; a rare word of their keys in common (`sister_noor` and
    `noor_moved`, not `daniel_birthday` and `mum_birthday`); or, when they share a word few
    entries hold ("Toronto", not "birthday"), most of the shorter one's words in common, a
    description in common, or, for two entries of similar relevance (`near`), a fifth of
    the shorter one's words in common.
    """
    (a, sa, ka, da), (b, sb, kb, db) = first, second
    if a.key in b.supersedes or b.key in a.supersedes:
        return True
    if any(rare(w, True) for w in ka & kb):
        return True
    if not any(rare(w, False) for w in sa & sb):
        return False
    overlap = _share(sa, sb)
    if overlap >= threshold:
        return True
    if da and db and _share(da, db) >= 0.5:
        return True
    return near and overlap >= _NEAR


def _subject_of(
    entry: MemoryEntry, features: EntryFeatures, entry_data: EntryData | None
) -> _Subject:
    """The entry with its subject words (kept with the entry version, for these features)."""
    held = entry_data(entry) if entry_data is not None else {}
    found = held.get(_subject_of)
    if found is None or found[0] is not features:
        words = (_subject(features.vocabulary), _key_subject(features), _described(features))
        found = held[_subject_of] = (features, *words)
    return (entry, found[1], found[2], found[3])


def _rarity(store: FeatureCache) -> Callable[[str, bool], bool]:
    """Whether a word is rare among the cached entries (in their keys, with `in_key`)."""
    known = len(store)
    judged: dict[tuple[str, bool], bool] = {}  # the pairs share words: judge each word once

    def rare(word: str, in_key: bool) -> bool:
        found = judged.get((word, in_key))
        if found is None:
            share = _RARE_KEY_SHARE if in_key else _RARE_SHARE
            found = store.frequency(word, in_key=in_key) <= max(_RARE, share * known)
            judged[word, in_key] = found
        return found

    return rare


def rare_limits(held: int) -> tuple[int, int]:
    """The most entries (of `held` in the feature cache) a rare word may be in, and a rare key word.

    `_rarity`'s thresholds as whole numbers (a count is one): while these and the words'
    counts stand, so does every judgment of `rare_words`.
    """
    subject, key = (math.floor(max(_RARE, s * held)) for s in (_RARE_SHARE, _RARE_KEY_SHARE))
    return subject, key


def subject_words(
    top: Sequence[MemoryEntry],
    cache: FeatureCache | None,
    entry_data: EntryData | None = None,
    index: KeywordIndex | None = None,
) -> tuple[frozenset[str], frozenset[str]]:
    """Every word `prefer_newer` may judge rare for `top`: of their subjects, of their keys."""
    store = _cache_of(cache)
    features = _features(top, store, entry_data, index)
    info = [_subject_of(entry, f, entry_data) for entry, f in zip(top, features, strict=True)]
    return (
        frozenset().union(*(s for _, s, _, _ in info)),
        frozenset().union(*(k for _, _, k, _ in info)),
    )


def rare_words(
    words: tuple[frozenset[str], frozenset[str]], cache: FeatureCache | None
) -> tuple[frozenset[str], frozenset[str]]:
    """Which of `subject_words`' words `prefer_newer` judges rare now.

    Its judgments read the feature cache's counts, not the entries alone: a ranking whose
    newer-over-older step is kept across a write is kept only while these stay the same.
    """
    rare = _rarity(_cache_of(cache))
    subjects, keys = words
    return (
        frozenset(w for w in subjects if rare(w, False)),
        frozenset(w for w in keys if rare(w, True)),
    )


def _linked_pairs(
    info: Sequence[_Subject], rare: Callable[[str, bool], bool]
) -> list[tuple[int, int]]:
    """The pairs `(i, j)`, `i < j`, that `_same_subject` may join, in ascending order.

    `_same_subject` says no to two entries without a `supersedes` link between them and
    without a rare word in common (of their subjects, or of their keys), so only those pairs
    are checked: found through the rare words each entry holds, not by comparing every pair
    (the pairs of a scope's best entries share many common words, each judged again).
    """
    words = frozenset().union(*(s for _, s, _, _ in info))
    rare_words = frozenset(w for w in words if rare(w, False))
    key_words = frozenset().union(*(k for _, _, k, _ in info))
    rare_key_words = frozenset(w for w in key_words if rare(w, True))
    holders: dict[tuple[str, bool], list[int]] = {}
    positions: dict[str, list[int]] = {}
    for i, (entry, subject, key_subject, _) in enumerate(info):
        positions.setdefault(entry.key, []).append(i)
        for word in subject & rare_words:
            holders.setdefault((word, False), []).append(i)
        for word in key_subject & rare_key_words:
            holders.setdefault((word, True), []).append(i)
    pairs: set[tuple[int, int]] = set()
    for members in holders.values():
        pairs.update(itertools.combinations(members, 2))
    for i, (entry, _, _, _) in enumerate(info):
        for other in entry.supersedes:
            for j in positions.get(other, ()):
                if j != i:
                    pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)


def prefer_newer(
    ranked: list[MemoryEntry],
    window: int,
    threshold: float,
    cache: FeatureCache | None,
    entry_data: EntryData | None = None,
    scores: Mapping[str, float] | None = None,
    semantic: Mapping[str, float] | None = None,
    vectors: EntryVectors | None = None,
    extra: Sequence[MemoryEntry] = (),
    index: KeywordIndex | None = None,
    everyone: Holders | None = None,
) -> list[MemoryEntry]:
    """Among the best entries, show each subject's newest version first.

    Entries of the top `window` are grouped by subject (`_same_subject`: a `supersedes`
    link, shared words, a distinctive key word or a description in common; and the two
    entries closest in meaning to the question when both are about as close), and each
    group's entries are put in its own slots newest first (by observation time, then write
    time). The slots stay the group's, so entries outside it keep their places and, with
    room for one, the model sees the current fact; the older version is demoted to the slot
    the newer one held. A group holds at most `_GROUP` entries (a herd of similar entries is
    not one fact's versions). The check is quadratic, so only the top `window` entries are
    compared.

    With the entries' own `vectors` (and NumPy), two entries each closest to the other in
    meaning are one subject's versions too (`_meaning.by_meaning`), and when one of them is
    newer and among `extra` (candidates ranked below the window, such as the semantic
    search's next hits) it is brought in just above the best ones it updates, and left out
    of the rest: the current fact is shown even when the question's words match only the
    old one. With the question's semantic scores (`semantic`) and the scope's entries
    (`index`, else `everyone`), a newer entry that says it changed and names one of the
    best entries by a rare word is brought in the same way (`_updates.named_updates`).
    The entries of a herd (`_herds.herd_of`: a log) are grouped by words with their own
    herd only.
    """
    top = ranked[:window]
    if len(top) < 2 and (not top or semantic is None):  # one entry may have a newer version
        return ranked
    pairs: list[tuple[int, int]] = []
    pulled: list[tuple[int, MemoryEntry]] = []
    if vectors is not None:
        pairs, pulled = by_meaning(top, extra, vectors, entry_data)
    if semantic is not None:
        scope = everyone if index is None else index
        pulled += _named(top, cache, entry_data, scope, pulled, vectors)
    if pulled:
        taken = {e.key for _, e in pulled}
        grown: list[MemoryEntry] = []
        before = dict(pulled)
        for i, entry in enumerate(top):
            if i in before:
                grown.append(before[i])
            grown.append(entry)
        # The pulled entries are in the pairs by their new places.
        place = {e.key: i for i, e in enumerate(grown)}
        pairs = [(place[top[i].key], place[top[j].key]) for i, j in pairs]
        pairs += [(place[top[i].key], place[e.key]) for i, e in pulled]
        rest = [e for e in ranked[window:] if e.key not in taken]
        top = grown
        ranked = [*grown, *rest]
        window = len(grown)
    store = _cache_of(cache)
    features = _features(top, store, entry_data, index)
    info = [_subject_of(entry, f, entry_data) for entry, f in zip(top, features, strict=True)]
    rare = _rarity(store)

    # `is None`, not truthiness: a lazy mapping's length walks the whole scope.
    given: Mapping[str, float] = scores if scores is not None else {}
    relevance = [given.get(e.key, 0.0) for e in top]
    parent = list(range(len(top)))
    size = [1] * len(top)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        ri, rj = root(i), root(j)
        if ri != rj and size[ri] + size[rj] <= _GROUP:
            parent[rj] = ri
            size[ri] += size[rj]

    def near(i: int, j: int) -> bool:
        low, high = sorted((relevance[i], relevance[j]))
        return high <= 0 or low >= _NEAR_SCORE * high

    # A herd's entries (a log: `diary/2026_07_04`) are events, not versions of a fact: one
    # is grouped by words with entries of its own herd only (a `supersedes` link still holds).
    herd = herd_of(top)

    def apart(i: int, j: int) -> bool:
        linked = top[i].key in top[j].supersedes or top[j].key in top[i].supersedes
        return herd[i] != herd[j] and not linked

    for i, j in pairs:  # first: a version told by meaning is surer than a shared word
        join(i, j)
    for i, j in _linked_pairs(info, rare):  # in the order of a double loop over all pairs
        if apart(i, j) or root(i) == root(j):
            continue
        if _same_subject(info[i], info[j], threshold, near(i, j), rare):
            join(i, j)
    if semantic:
        # Without the entries' own vectors, the query's stands in: the two entries closest to
        # the question in meaning, both about as close, are taken as one subject's versions.
        present = {e.key: i for i, e in enumerate(top)}
        closest = sorted((k for k in semantic if k in present), key=lambda k: -semantic[k])[:2]
        if len(closest) == 2:
            i, j = present[closest[0]], present[closest[1]]
            close = semantic[closest[1]] >= _SEMANTIC_BAND * semantic[closest[0]]
            if close and near(i, j) and not apart(i, j):
                join(i, j)
    groups: dict[int, list[int]] = {}
    for i in range(len(top)):
        groups.setdefault(root(i), []).append(i)
    order = list(range(len(top)))
    for members in groups.values():
        if len(members) < 2:
            continue
        newest = sorted(members, key=lambda i: observed(top[i]), reverse=True)
        for slot, member in zip(members, newest, strict=True):
            order[slot] = member
    return [top[i] for i in order] + ranked[window:]


def _named(
    top: Sequence[MemoryEntry],
    cache: FeatureCache | None,
    entry_data: EntryData | None,
    scope: Holders | None,
    pulled: Sequence[tuple[int, MemoryEntry]],
    vectors: EntryVectors | None = None,
) -> list[tuple[int, MemoryEntry]]:
    """`_updates.named_updates` for `top`, with the room and places `pulled` leaves."""
    if scope is None:
        return []
    subject_of = subjects(cache, entry_data, scope if isinstance(scope, KeywordIndex) else None)
    return named_updates(
        top,
        [subject_of(e) for e in top],
        herd_of(top),
        scope,
        subject_of,
        entry_data,
        _PULLS - len(pulled),
        frozenset(e.key for _, e in pulled),
        frozenset(i for i, _ in pulled),
        closest_of(top, vectors, entry_data) if vectors is not None else None,
    )


def holders_of(
    entries: Sequence[MemoryEntry], cache: FeatureCache | None, entry_data: EntryData | None
) -> WordHolders:
    """Without the scope's index: which of `entries` hold a word, from their features."""
    store = _cache_of(cache)
    return WordHolders(entries, lambda e: _features([e], store, entry_data)[0].terms)


def subjects(
    cache: FeatureCache | None, entry_data: EntryData | None, index: KeywordIndex | None
) -> Callable[[MemoryEntry], tuple[frozenset[str], frozenset[str]]]:
    """An entry's subject words (of its whole text, of its key), as `prefer_newer` reads them."""
    store = _cache_of(cache)

    def subject_of(entry: MemoryEntry) -> tuple[frozenset[str], frozenset[str]]:
        (features,) = _features([entry], store, entry_data, index)
        _, text, key, _ = _subject_of(entry, features, entry_data)
        return text, key

    return subject_of


_RARE = 3
_RARE_SHARE = 0.01
_RARE_KEY_SHARE = 0.015
"""A word is rare when at most 1% of the known entries hold it (1.5% of their keys, for a
key word), or at most 3."""
_GROUP = 4
"""At most this many entries are taken as versions of one subject."""
_NEAR_SCORE = 0.6
"""Two entries are of similar relevance when the lower score is at least this share of the
higher one."""
