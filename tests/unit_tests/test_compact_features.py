"""Compact keyword features, the feature cache's vocabulary and the collector pause.

An entry's features are its terms with one shared shape each (counts per field, then field
lengths); they must say exactly what counting the terms of each field says. The cache's
sorted vocabulary (new terms inserted when next read, or sorted again after many) must be
the sorted set of the terms of the entries it holds, whatever the order of gets and
evictions. `collector_paused` must give the collector back as it found it.
"""

from __future__ import annotations

import gc
import threading
from collections import Counter
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_contextchef.entry import MemoryEntry, collector_paused
from langchain_contextchef.selectors._text_features import FeatureCache, features_of, terms
from tests.support.entries import T0

WORDS = ("cat", "cats", "garden", "gardening", "the", "a", "12", "x9", "tea", "dentist", "é")
text = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)


def _entry(key: str, value: str, description: str | None, version: int = 1) -> MemoryEntry:
    return MemoryEntry(
        key=key,
        value=value,
        description=description,
        created_at=T0,
        updated_at=T0 + timedelta(minutes=version),
        update_count=version,
    )


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(("pet_cat", "tea_time", "k1", "garden")), value=text, described=text)
def test_features_count_each_fields_terms(key: str, value: str, described: str) -> None:
    entry = _entry(key, value, described or None)
    features = features_of(entry)
    counts = [
        Counter(terms(key.replace("_", " "))),
        Counter(terms(described)),
        Counter(terms(value)),
    ]
    assert features.lengths == tuple(sum(c.values()) for c in counts)
    assert set(features.terms) == set().union(*counts)
    assert len(features.terms) == len(set(features.terms))
    assert features.fields == tuple(dict(c) for c in counts)
    for term in features.terms:
        assert features.shape(term) == (*(c[term] for c in counts), *features.lengths)
    assert features.shape("nowhere") is None
    assert features.field_terms(0) == tuple(t for t in features.terms if counts[0][t])


@settings(max_examples=100, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.integers(min_value=0, max_value=30), text, st.integers(1, 3)), max_size=40
    ),
    budget=st.sampled_from((600, 2_000, 1_000_000)),
)
def test_the_sorted_vocabulary_is_the_held_entries_terms(
    steps: list[tuple[int, str, int]], budget: int
) -> None:
    cache = FeatureCache(max_bytes=budget)
    for number, value, version in steps:
        cache.get(_entry(f"k{number}", value, None, version))
        # Read the vocabulary now and then, so insertions and full sorts both happen.
        if number % 3 == 0:
            cache.expand({"gardens": 1.0})
    held = set().union(*(set(f.terms) for f in cache._items.values()))
    expanded = cache.expand({"gardens": 1.0, "dentists": 1.0})
    # Numbers are counted, not sorted: prefix expansion reads words of letters only.
    assert cache._sorted == sorted(t for t in held if not t.isdigit())
    for term in held:
        holding = [f for f in cache._items.values() if term in f.terms]
        assert cache.frequency(term) == len(holding)
        assert cache.frequency(term, in_key=True) == sum(bool(f.shape(term)[0]) for f in holding)
    expected = {"gardens": 1.0, "dentists": 1.0}
    for term in held:
        for query in ("gardens", "dentists"):
            longer = term != query and term.startswith(query)
            shorter = term != query and query.startswith(term) and len(term) >= 5
            if longer or shorter:
                expected[term] = 0.6
    assert expanded == expected


@settings(max_examples=100, deadline=None)
@given(
    numbers=st.lists(
        st.sampled_from(("5", "05", "005", "50", "1" * 18, "2" * 19, "٥", "x5")), max_size=12
    ),
    budget=st.sampled_from((700, 1_000_000)),
)
def test_numbers_are_counted_apart_whatever_their_leading_zeros(
    numbers: list[str], budget: int
) -> None:
    # Numbers are not in the vocabulary dicts: their counts are read from the held features
    # when asked for, and kept until the cache changes. "5", "05" and "005" stay three terms
    # (so do other digits, and a word with a digit, which the dicts count), a number held
    # in a key counts there too, and every get or eviction must show in the next count.
    cache = FeatureCache(max_bytes=budget)
    asked = ("5", "05", "005", "50", "1" * 18, "2" * 19, "٥", "x5")
    for i, number in enumerate(numbers):
        cache.get(_entry(f"n_{number}", f"{number} items", None, i + 1))
        for other in asked:
            (term,) = terms(other)
            holding = [f for f in cache._items.values() if term in f.terms]
            assert cache.frequency(term) == len(holding)
            assert cache.frequency(term, in_key=True) == len(holding)
    assert all(t.isalpha() or not t.isdigit() for t in cache._sorted)


def test_the_collector_is_given_back_as_it_was() -> None:
    was = gc.isenabled()
    try:
        gc.enable()
        with collector_paused():
            assert not gc.isenabled()
            with collector_paused():  # nested: still paused until the outer block ends
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a collector the caller turned off stays off
    finally:
        (gc.enable if was else gc.disable)()


def test_threads_pausing_together_leave_the_collector_on() -> None:
    was = gc.isenabled()
    gc.enable()
    inside = threading.Barrier(4)

    def pause() -> None:
        with collector_paused():
            inside.wait(timeout=10)
            assert not gc.isenabled()
            inside.wait(timeout=10)

    try:
        threads = [threading.Thread(target=pause) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_numbers_leave_the_vocabulary_version_alone() -> None:
    # `terms_version` keys kept selections; `expand` (its only reader) never reads numbers,
    # so an entry bringing or taking only numbers must not throw every kept choice away.
    cache = FeatureCache(max_bytes=1_000_000)
    cache.get(_entry("order_note", "order shipped", None))
    version = cache.terms_version
    numbered = _entry("order_note_2", "order 88123 shipped 2026", None)
    cache.get(numbered)
    assert cache.terms_version == version
    assert cache.frequency("88123") == 1
    cache.get(_entry("parcel", "parcel", None))
    assert cache.terms_version == version + 1  # a new word still moves it
