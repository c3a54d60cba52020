"""Newer over older and query coverage do less work than before, with the same result.

`prefer_newer` used to judge every pair of the best entries; it now judges the pairs that
share a rare word or a `supersedes` link (`_linked_pairs`), the only ones `_same_subject` can
join. These tests run both on random scopes and require the same order: if `_same_subject`
ever joins a pair for another reason, they fail until `_linked_pairs` finds that pair too.
`cover_terms` works out again only the gains of entries holding a newly covered word; it is
compared with working out every gain at every step.
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.selectors import _relevance
from langchain_contextchef.selectors._bm25 import query_terms
from langchain_contextchef.selectors._coverage import cover_terms
from langchain_contextchef.selectors._relevance import _linked_pairs, prefer_newer
from langchain_contextchef.selectors._text_features import FeatureCache

T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)

# Few words, so that some are held by many entries (common) and some by few (rare); digits
# and change words too, which a subject leaves out.
_WORDS = [
    "sister",
    "noor",
    "moved",
    "toronto",
    "birthday",
    "daniel",
    "car",
    "update",
    "2024",
    "office",
    "lease",
    "paris",
    "dentist",
    "tuesday",
    "parser",
    "date",
    "test",
    "new",
]


def _all_pairs(info: object, rare: object) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(len(info)), 2))  # type: ignore[arg-type]


_entry = st.tuples(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3),  # key words
    st.lists(st.sampled_from(_WORDS), min_size=0, max_size=8),  # value words
    st.lists(st.sampled_from(_WORDS), min_size=0, max_size=2),  # description words
    st.integers(min_value=0, max_value=50),  # minutes after T0 of its last write
    st.lists(st.integers(min_value=0, max_value=40), max_size=2),  # supersedes (positions)
    st.floats(min_value=0.0, max_value=3.0),  # its score
    st.booleans(),  # an observation time in its provenance
)


def _build(specs: list[tuple]) -> tuple[list[MemoryEntry], dict[str, float]]:
    entries: list[MemoryEntry] = []
    scores: dict[str, float] = {}
    for i, (key_words, value_words, described, minutes, links, score, observed) in enumerate(specs):
        key = "_".join(key_words) + f"_{i}"
        when = T0 + timedelta(minutes=minutes)
        entries.append(
            MemoryEntry(
                key=key,
                value=" ".join(value_words) or "x",
                description=" ".join(described) or None,
                created_at=T0,
                updated_at=when,
                supersedes=tuple(f"{'_'.join(specs[j][0])}_{j}" for j in links if j < len(specs)),
                provenance=Provenance(observed_at=when - timedelta(minutes=i))
                if observed
                else None,
            )
        )
        scores[key] = score
    return entries, scores


@settings(max_examples=150, deadline=None)
@given(
    specs=st.lists(_entry, min_size=2, max_size=45),
    others=st.integers(min_value=0, max_value=400),
    window=st.sampled_from([5, 40]),
)
def test_only_linked_pairs_are_compared_and_the_order_is_the_same(
    specs: list[tuple], others: int, window: int
) -> None:
    entries, scores = _build(specs)
    cache = FeatureCache()
    for entry in entries:
        cache.get(entry)
    # More entries in the scope make fewer words rare (the share of 1% moves).
    for i in range(others):
        cache.get(
            MemoryEntry(
                key=f"other_{i}", value=_WORDS[i % len(_WORDS)], created_at=T0, updated_at=T0
            )
        )
    fast = prefer_newer(entries, window, 0.5, cache, scores=scores)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_relevance, "_linked_pairs", _all_pairs)
        every = prefer_newer(entries, window, 0.5, cache, scores=scores)
    assert [e.key for e in fast] == [e.key for e in every]


def test_linked_pairs_skip_entries_without_a_rare_word_or_link_in_common() -> None:
    cache = FeatureCache()
    common = [
        MemoryEntry(key=f"note_{i}", value="project test date", created_at=T0, updated_at=T0)
        for i in range(300)
    ]
    for entry in common:
        cache.get(entry)
    pair = [
        MemoryEntry(key="sister_noor", value="Noor lives in Paris", created_at=T0, updated_at=T0),
        MemoryEntry(key="noor_moved", value="Noor moved to Toronto", created_at=T0, updated_at=T0),
        MemoryEntry(
            key="car", value="A blue car", created_at=T0, updated_at=T0, supersedes=("note_0",)
        ),
    ]
    for entry in pair:
        cache.get(entry)
    top = [common[0], pair[0], common[1], pair[1], pair[2]]
    info = [
        (e, _relevance._subject(f.vocabulary), _relevance._key_subject(f), _relevance._described(f))
        for e, f in zip(top, (cache.get(e) for e in top), strict=True)
    ]

    def rare(word: str, in_key: bool) -> bool:
        return cache.frequency(word, in_key=in_key) <= 3

    # "noor" is rare; the common notes share only common words; "car" retired note_0.
    assert _linked_pairs(info, rare) == [(0, 4), (1, 3)]


def _cover_every_step(
    ranked: list[MemoryEntry],
    scores: dict[str, float],
    queries: list[tuple[str, float]],
    strength: float,
    cache: FeatureCache,
) -> list[MemoryEntry]:
    """Query-term coverage with every gain worked out again at every step (the reference)."""
    top = ranked[:30]
    weights = query_terms(queries)
    if len(top) < 3 or not weights or strength <= 0:
        return ranked
    wanted = frozenset(cache.expand(weights))
    matched = [cache.get(e).vocabulary & wanted for e in top]
    covered: set[str] = set()
    left = list(range(len(top)))
    order: list[int] = []
    base = [scores.get(e.key, 0.0) for e in top]
    while left:
        best, best_gain = left[0], -1.0
        for i in left:
            words = matched[i]
            seen = len(words & covered) / len(words) if words else 0.0
            gain = base[i] * (1.0 - strength * seen)
            if gain > best_gain:
                best, best_gain = i, gain
        order.append(best)
        left.remove(best)
        covered |= matched[best]
    return [top[i] for i in order] + ranked[30:]


@settings(max_examples=150, deadline=None)
@given(
    specs=st.lists(_entry, min_size=0, max_size=40),
    question=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5),
    strength=st.sampled_from([0.3, 0.5, 1.0, 1.5]),
)
def test_coverage_recomputes_only_the_gains_that_change_with_the_same_order(
    specs: list[tuple], question: list[str], strength: float
) -> None:
    entries, scores = _build(specs)
    ranked = sorted(entries, key=lambda e: -scores[e.key])
    cache = FeatureCache()
    queries = [(" ".join(question), 1.0)]
    fast = cover_terms(ranked, scores, queries, strength, cache)
    assert [e.key for e in fast] == [
        e.key for e in _cover_every_step(ranked, scores, queries, strength, cache)
    ]
