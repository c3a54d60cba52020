"""Selection that follows changes: the scope's keyword index gives a from-scratch selection.

`Relevant` keeps a keyword index in the scope's cache and updates it by the keys each write
changes; its ranking is computed only as far as it is read. Whatever the writes (create,
rewrite, delete, quarantine, expiry), the choice must be exactly the one a selection from
scratch makes: the same entries in the same order, the same omitted reasons.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import _WEIGHTS, calibrated_tokens
from langchain_contextchef.budget import _block_features as line_by_line_features
from langchain_contextchef.budget import _features as whole_text_features
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import clear_cache
from langchain_contextchef.memory._cache import ScopeSlot
from langchain_contextchef.query import question_facets
from langchain_contextchef.selectors import RankedEntries, Relevant, Rerank, SelectionContext
from langchain_contextchef.selectors._index import index_of
from langchain_contextchef.selectors._ranking import lazy_relevance
from langchain_contextchef.selectors._relevance import _cache_of, relevance_scores
from langchain_contextchef.selectors._text_features import FeatureCache

T0 = datetime(2026, 5, 1, tzinfo=timezone.utc)
# A small vocabulary, so words are shared by many entries (the per-shape path), some by
# every entry, and scores tie often (creation order must break the ties).
WORDS = ("test", "parser", "date", "garden", "shed", "dentist", "lisbon", "berlin", "cat", "tea")
QUERIES = (
    "Add a test for the date parser.",
    "When is the dentist?",
    "test test garden",
    "where does she live, lisbon or berlin?",
    "nothing matches here",
    "Add a test for the parser, and when is the garden shed painted?",
)


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))


def _entry(rng: random.Random, key: str, at: datetime, version: int = 0) -> MemoryEntry:
    return MemoryEntry(
        key=key,
        value=_text(rng),
        description=_text(rng) if rng.random() < 0.4 else None,
        importance=rng.choice((None, None, 0.2, 0.9)),
        status="quarantined" if rng.random() < 0.1 else "active",
        created_at=at,
        updated_at=at + timedelta(minutes=version),
        update_count=version,
    )


def _keys(chosen: object) -> list[str]:
    assert isinstance(chosen, list | RankedEntries)
    return [e.key for e in chosen]


def _both(
    selector: Relevant | Rerank, slot: ScopeSlot, query: str, relevance: dict[str, float] | None
) -> tuple[list[str], list[str]]:
    active = [e for e in slot.ordered() if e.status == "active"]
    # Each facet's own similarities: a different part of the semantic hits per facet.
    hits = list((relevance or {}).items())
    facets = {f: dict(hits[i::2]) for i, f in enumerate(question_facets(query)) if relevance}
    common = {
        "query": query,
        "queries": ((query, 1.0), ("the garden shed", 0.5)),
        "token_budget": 500,
        "relevance": relevance,
        "facet_relevance": facets,
    }
    indexed = selector.select(list(active), SelectionContext(**common, scope=slot))  # type: ignore[arg-type]
    scratch = selector.select(list(active), SelectionContext(**common))  # type: ignore[arg-type]
    return _keys(indexed), _keys(scratch)


SELECTORS = [
    {},
    {"min_score": 0.05},
    {"fill": False},
    {"limit": 7},
    {"cover": 0.0},
    {"semantic_weight": 1.0},
]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), options=st.sampled_from(SELECTORS))
def test_the_indexed_choice_equals_a_choice_from_scratch_after_every_change(
    seed: int, options: dict[str, object]
) -> None:
    rng = random.Random(seed)
    selector = Relevant(cache=FeatureCache(), **options)  # type: ignore[arg-type]
    reranker = Rerank(cache=selector.cache, limit=12)
    slot = ScopeSlot()
    start = [
        _entry(rng, f"k{i:03d}", T0 + timedelta(seconds=rng.randint(0, 50))) for i in range(80)
    ]
    slot.reset(("epoch", 1), start, [])
    versions: dict[str, int] = {}
    for step in range(25):
        action = rng.random()
        keys = list(slot.entries)
        if action < 0.4 or not keys:  # create (sometimes created before existing ones)
            at = T0 + timedelta(seconds=rng.randint(0, 200))
            slot.put(_entry(rng, f"n{step:03d}", at))
        elif action < 0.75:  # rewrite: same key and creation time, new text and version
            key = rng.choice(keys)
            old = slot.entries[key]
            versions[key] = versions.get(key, 0) + 1
            slot.put(_entry(rng, key, old.created_at, versions[key]))
        else:  # delete (or expire: the sweep drops the entry the same way)
            slot.drop(rng.choice(keys))
        relevance = None
        if options.get("semantic_weight") is not None or rng.random() < 0.5:
            sample = rng.sample(list(slot.entries), min(10, len(slot.entries)))
            relevance = {key: rng.choice((0.1, 0.4, 0.4, 0.8)) for key in sample}
        query = rng.choice(QUERIES)
        indexed, scratch = _both(selector, slot, query, relevance)
        assert indexed == scratch
        # Rerank scores every entry, its relevance part through the same index.
        indexed, scratch = _both(reranker, slot, query, relevance)
        assert indexed == scratch


def test_a_whole_reload_rebuilds_the_index() -> None:
    rng = random.Random(7)
    selector = Relevant(cache=FeatureCache())
    slot = ScopeSlot()
    slot.reset(
        ("epoch", 1), [_entry(rng, f"k{i}", T0 + timedelta(seconds=i)) for i in range(40)], []
    )
    _both(selector, slot, QUERIES[0], None)
    replaced = [_entry(rng, f"r{i}", T0 + timedelta(seconds=i)) for i in range(30)]
    slot.reset(("epoch", 2), replaced, [])
    indexed, scratch = _both(selector, slot, QUERIES[0], None)
    assert indexed == scratch
    assert set(indexed) <= {e.key for e in replaced}


def test_the_ranking_is_computed_only_as_far_as_it_is_read() -> None:
    slot = ScopeSlot()
    entries = [
        MemoryEntry(
            key=f"fact_{i:04d}",
            value=f"Fact {i}: every fix comes with a test.",
            created_at=T0 + timedelta(seconds=i),
            updated_at=T0 + timedelta(seconds=i),
        )
        for i in range(2_000)
    ]
    slot.reset(("epoch", 1), entries, [])
    selector = Relevant(cache=FeatureCache())
    context = SelectionContext(query="Add a test", token_budget=500, scope=slot)
    chosen = selector.select(list(entries), context)
    scratch = selector.select(list(entries), SelectionContext(query="Add a test", token_budget=500))
    assert isinstance(chosen, RankedEntries) and len(chosen) == 2_000
    # Every entry holds the query word: they are ranked per shape, and only what was read
    # was put in order.
    assert [e.key for e in chosen[:50]] == [e.key for e in scratch[:50]]
    assert len(chosen._items) < 100
    assert [e.key for e in chosen] == [e.key for e in scratch]


def _chef(store: InMemoryStore) -> ContextChef:
    return ContextChef(store=store, memory=MemoryConfig(token_budget=300), turn_unit="user_message")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compiles_after_writes_equal_a_compile_from_a_fresh_read(seed: int) -> None:
    rng = random.Random(seed)
    store = InMemoryStore()
    chef = _chef(store)
    memory = chef.get_memory()
    for i in range(60):
        memory.set(f"k{i:02d}", _text(rng), description=_text(rng) if i % 3 else None)
    live = [f"k{i:02d}" for i in range(60)]
    for step in range(12):
        action = rng.random()
        if action < 0.35:
            key = f"new{step}"
            ttl = {"turns": 1} if rng.random() < 0.5 else None
            memory.set(key, _text(rng), ttl=ttl)
            live.append(key)
        elif action < 0.7:
            memory.set(rng.choice(live), _text(rng))
        else:
            key = live.pop(rng.randrange(len(live)))
            memory.delete(key)
        messages = [
            HumanMessage(rng.choice(QUERIES), id=f"q{step}a"),
            AIMessage("Noted."),
            HumanMessage(rng.choice(QUERIES), id=f"q{step}b"),
        ]
        following = chef.compile(messages)
        clear_cache(store)  # the same compile from a whole read (the same message: same turn)
        fresh = chef.compile(messages)
        assert following.meta.injected_keys == fresh.meta.injected_keys
        assert following.meta.indexed_keys == fresh.meta.indexed_keys
        assert dict(following.meta.omitted) == dict(fresh.meta.omitted)
        assert following.messages == fresh.messages


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from([*"ab é1_-.<>\n\t\r\u2028", "22", "\n\n", "longerword", "<x>"]),
        max_size=40,
    ).map("".join)
)
def test_the_counter_adds_up_lines_exactly(text: str) -> None:
    assert line_by_line_features(text) == whole_text_features(text)
    long = (text + "\n") * 40  # past the length from which blocks are counted by lines
    direct = sum(w * f for w, f in zip(_WEIGHTS, whole_text_features(long), strict=True))
    assert calibrated_tokens(long) == (max(1, round(direct)) if long else 0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_postings_built_for_the_first_query_follow_changes_exactly(seed: int) -> None:
    # After a whole read the index builds the postings of the first query's terms only and
    # keeps those up to date through writes; the next query asking for another term builds
    # them all. Each stage must score exactly as a selection from scratch.
    rng = random.Random(seed)
    selector = Relevant(cache=FeatureCache())
    slot = ScopeSlot()
    start = [
        _entry(rng, f"k{i:03d}", T0 + timedelta(seconds=rng.randint(0, 50))) for i in range(60)
    ]
    for epoch in (1, 2):
        slot.reset(("epoch", epoch), start, [])  # a whole read: postings built lazily again
        first, second = rng.sample(QUERIES, 2)
        for step in range(12):
            query = first if step < 8 else second  # the same terms, then others
            keys = list(slot.entries)
            action = rng.random()
            if action < 0.45 or not keys:  # created, sometimes before existing entries
                at = T0 + timedelta(seconds=rng.randint(0, 80))
                slot.put(_entry(rng, f"e{epoch}n{step:03d}", at))
            elif action < 0.8:
                key = rng.choice(keys)
                old = slot.entries[key]
                slot.put(_entry(rng, key, old.created_at, old.update_count + 1))
            else:
                slot.drop(rng.choice(keys))
            indexed, scratch = _both(selector, slot, query, None)
            assert indexed == scratch


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_indexes_over_a_lent_dict_follow_changes_exactly(seed: int) -> None:
    # After a whole read of active entries, the first index keeps the slot's own dict by
    # key (lent until the slot changes, which then copies it); a second index on the same
    # slot (another feature cache) keeps a dict of its own. Through writes both must score
    # exactly as a selection from scratch, and neither may see the other's changes.
    rng = random.Random(seed)
    first, second = Relevant(cache=FeatureCache()), Relevant(cache=FeatureCache())
    slot = ScopeSlot()
    start = [
        _entry(rng, f"k{i:03d}", T0 + timedelta(seconds=rng.randint(0, 50))).evolve(status="active")
        for i in range(50)
    ]
    slot.reset(("epoch", 1), start, [])
    query = rng.choice(QUERIES)
    assert _both(first, slot, query, None)[0] == _both(second, slot, query, None)[1]
    held = [slot.state[("keyword-index", id(s.cache))].entries for s in (first, second)]
    assert held[0] is slot.entries and held[1] is not slot.entries
    for step in range(10):
        keys = list(slot.entries)
        action = rng.random()
        if action < 0.4:
            slot.put(_entry(rng, f"n{step:03d}", T0 + timedelta(seconds=rng.randint(0, 80))))
        elif action < 0.8:
            old = slot.entries[rng.choice(keys)]
            slot.put(_entry(rng, old.key, old.created_at, old.update_count + 1))
        else:
            slot.drop(rng.choice(keys))
        assert held[0] is not slot.entries  # the change copied the lent dict
        for selector in rng.sample((first, second), 2):
            query = rng.choice(QUERIES)
            indexed, scratch = _both(selector, slot, query, None)
            assert indexed == scratch
            index = slot.state[("keyword-index", id(selector.cache))]
            active = {k: e for k, e in slot.entries.items() if e.status == "active"}
            assert index.entries == active


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_numbers_postings_built_as_asked_follow_changes_exactly(seed: int) -> None:
    # Once a second query has built every word's postings, numbers' postings are still
    # built only when a query asks for one, then kept up to date. Entries hold numbers
    # (some shared, some unique), queries ask for words, numbers or both, writes between.
    rng = random.Random(seed)
    selector = Relevant(cache=FeatureCache())

    def numbered(key: str, at: datetime, version: int = 0) -> MemoryEntry:
        words = [rng.choice(WORDS) for _ in range(rng.randint(1, 4))]
        words += [str(rng.choice((7, 12, 2024, rng.randint(100, 999)))) for _ in range(2)]
        rng.shuffle(words)
        return MemoryEntry(
            key=f"{key}_{rng.randint(0, 30)}" if version == 0 else key,
            value=" ".join(words),
            created_at=at,
            updated_at=at + timedelta(minutes=version),
            update_count=version or 1,
        )

    queries = (*QUERIES[:3], "what happened in 2024?", "the 12 cat", "tea 7 and 2024 test")
    slot = ScopeSlot()
    slot.reset(
        ("epoch", 1), [numbered(f"k{i:03d}", T0 + timedelta(seconds=i)) for i in range(50)], []
    )
    for step in range(14):
        query = queries[step % len(queries)] if step < 6 else rng.choice(queries)
        indexed, scratch = _both(selector, slot, query, None)
        assert indexed == scratch
        keys = list(slot.entries)
        action = rng.random()
        if action < 0.4:
            slot.put(numbered(f"n{step:03d}", T0 + timedelta(seconds=rng.randint(0, 80))))
        elif action < 0.8:
            old = slot.entries[rng.choice(keys)]
            slot.put(numbered(old.key, old.created_at, old.update_count + 1))
        else:
            slot.drop(rng.choice(keys))


# Several words held by most entries (more than `_ranking._BIG`), each entry holding some
# subset of them, a few rare words: the entries holding only common words are scored per
# joint shape, which must give exactly the scores and order of a selection from scratch.
COMMON = ("test", "fix", "parser")
RARE = ("lisbon", "dentist", "garden")
COMMON_QUERIES = (
    "Add a test for the fix.",
    "test the parser fix",
    "fix the parser test in lisbon",
    "test test fix",
)


def _common_text(rng: random.Random) -> str:
    held = [w for w in COMMON if rng.random() < 0.75]
    if rng.random() < 0.05:
        held.append(rng.choice(RARE))
    filler = ["note"] * rng.randint(0, 4)
    words = [w for w in held for _ in range(rng.randint(1, 3))] + filler
    rng.shuffle(words)
    return " ".join(words) or "note"


def _common_entry(rng: random.Random, key: str, at: datetime, version: int = 0) -> MemoryEntry:
    return MemoryEntry(
        key=key,
        value=_common_text(rng),
        description=_common_text(rng) if rng.random() < 0.3 else None,
        created_at=at,
        updated_at=at + timedelta(minutes=version),
        update_count=version,
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_entries_holding_several_common_words_score_as_from_scratch(seed: int) -> None:
    rng = random.Random(seed)
    selector = Relevant(cache=FeatureCache())
    slot = ScopeSlot()
    start = [
        _common_entry(rng, f"k{i:03d}", T0 + timedelta(seconds=rng.randint(0, 60)))
        for i in range(200)
    ]
    slot.reset(("epoch", 1), start, [])
    for step in range(10):
        keys = list(slot.entries)
        action = rng.random()
        if action < 0.4:  # created, sometimes before existing entries
            at = T0 + timedelta(seconds=rng.randint(0, 90))
            slot.put(_common_entry(rng, f"n{step:03d}", at))
        elif action < 0.75:
            key = rng.choice(keys)
            old = slot.entries[key]
            slot.put(_common_entry(rng, key, old.created_at, old.update_count + 1))
        else:
            slot.drop(rng.choice(keys))
        query = rng.choice(COMMON_QUERIES)
        relevance = None
        if rng.random() < 0.5:
            sample = rng.sample(list(slot.entries), 10)
            relevance = {key: rng.choice((0.1, 0.4, 0.8)) for key in sample}
        context = SelectionContext(query=query, relevance=relevance)
        entries = slot.ordered()
        index = index_of(slot, _cache_of(selector.cache), None)
        lazy = lazy_relevance(
            index, context.weighted_query(), relevance, selector.semantic_weight, index.cache
        )
        assert len(lazy.commons) >= 2  # the joint path, not one word per shape
        scratch = relevance_scores(
            entries, context, semantic_weight=selector.semantic_weight, cache=selector.cache
        )
        assert dict(lazy) == scratch
        by_score = sorted(scratch, key=lambda k: (-scratch[k], slot.entries[k].created_at, k))
        assert list(lazy.ranked(0.0)) == by_score
        assert lazy.count_above(0.0) == len(by_score)
        indexed, scratch_keys = _both(selector, slot, query, relevance)
        assert indexed == scratch_keys
        # The same as an index built afresh from the scope (a whole read), not followed.
        reread = ScopeSlot()
        reread.reset(("epoch", 1), entries, [])
        again = index_of(reread, FeatureCache(), None)
        fresh = lazy_relevance(
            again, context.weighted_query(), relevance, selector.semantic_weight, again.cache
        )
        assert list(fresh.ranked(0.0)) == list(lazy.ranked(0.0))
        assert dict(fresh) == dict(lazy)


def _held(entries: list[MemoryEntry], term: str) -> dict[str, tuple[int, ...]]:
    """Each entry holding `term` and the term's shape in it, tokenised from scratch."""
    from langchain_contextchef.selectors._text_features import features_of

    found = {e.key: features_of(e).shape(term) for e in entries}
    return {key: shape for key, shape in found.items() if shape is not None}


def _passes_over_entries(monkeypatch: pytest.MonkeyPatch) -> list[frozenset[str]]:
    # The words each pass over the entries' packed features looked for, in order.
    from langchain_contextchef.selectors import _index

    passes: list[frozenset[str]] = []
    real = _index.postings_by_shape

    def counted(features: object, wanted: frozenset[str]) -> object:
        passes.append(wanted)
        return real(features, wanted)  # type: ignore[arg-type]

    monkeypatch.setattr(_index, "postings_by_shape", counted)
    return passes


@pytest.mark.parametrize("drop", ["nothing", "clear", "evict", "rewrite"])
def test_the_first_query_after_a_whole_read_finds_what_the_cache_let_go(
    drop: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A word the feature cache's vocabulary does not count is skipped by the first query's
    # pass only while the cache has let nothing go since the whole read looked the entries
    # up; once it has (cleared, evicted, a text tokenised again), every word is looked for.
    from langchain_contextchef.selectors._index import KeywordIndex
    from langchain_contextchef.selectors._text_features import terms

    rng = random.Random(11)
    entries = [
        _entry(rng, f"k{i:03d}", T0 + timedelta(seconds=i)).evolve(status="active")
        for i in range(40)
    ]
    entries[7] = entries[7].evolve(value="the lighthouse keeper")
    cache = FeatureCache()
    index = KeywordIndex(cache)
    index.rebuild(entries, None, ordered=True)
    if drop == "clear":
        cache.clear()  # the vocabulary no longer counts "lighthous"
    elif drop == "evict":
        cache.max_bytes = 1  # the next tokenised entry pushes every other one out
        cache.get(_entry(rng, "other", T0))
    elif drop == "rewrite":  # the same texts tokenised again: counted again, let go once
        cache._forget(cache._items[(entries[7].key, entries[7].description, entries[7].value)])
    passes = _passes_over_entries(monkeypatch)
    assert terms("lighthouse") == ["lighthous"]
    assert index.has("lighthous")
    assert dict(index.posting("lighthous")) == _held(entries, "lighthous")
    assert dict(index.posting("test")) == _held(entries, "test")
    if drop == "nothing":
        assert cache.frequency("lighthous") == 1
    # Held by one entry: looked for in a pass, whatever the cache let go; "test" is then
    # built with every word (a second query term), not by this pass.
    assert passes == [frozenset({"lighthous"})]


def test_a_word_no_entry_holds_costs_no_pass_while_the_cache_holds_every_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from langchain_contextchef.selectors._index import KeywordIndex

    rng = random.Random(5)
    entries = [_entry(rng, f"k{i:03d}", T0 + timedelta(seconds=i)) for i in range(30)]
    cache = FeatureCache()
    passes = _passes_over_entries(monkeypatch)
    for let_go in (False, True):
        passes.clear()
        index = KeywordIndex(cache)
        index.rebuild(entries, None)
        if let_go:
            cache.clear()
        assert not index.has("zeppelin")
        assert passes == ([frozenset({"zeppelin"})] if let_go else [])
        assert not index.has("zeppelin")  # known from then on: no second look
        assert len(passes) == int(let_go)


def test_the_cache_counts_what_it_lets_go() -> None:
    rng = random.Random(3)
    cache = FeatureCache()
    first = _entry(rng, "a", T0)
    cache.get(first)
    assert cache.dropped == 0
    cache.get(first)  # a hit lets nothing go
    assert cache.dropped == 0
    cache.max_bytes = 1
    cache.get(_entry(rng, "b", T0))  # over the bound: "a" goes
    assert cache.dropped == 1 and len(cache) == 1
    cache.clear()
    assert cache.dropped == 2
