"""A compile right after one write takes shortcuts; each gives what a fresh process compiles.

The shortcuts (issue 28): a fit taken again puts the new "N more" line into the last block
instead of rendering it (`LastFit.spliced`), and the kept head's rare words are judged again
only when the feature cache's counts of them or its thresholds may have moved
(`FeatureCache.unchanged_for`, `rare_limits`). These tests make the writes each shortcut
must not survive (an entry entering the block, one leaving it, the omitted entries
changing, a shown key rewritten, a delete, a supersede, a rarity threshold moving) and
compare every compile of the process that followed them with a new store object's over the
same data, which reads the scope whole.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

import langchain_contextchef.selectors._ranking as ranking
from langchain_contextchef import CompiledPayload, ContextChef, MemoryConfig
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors import Relevant
from langchain_contextchef.selectors._relevance import rare_limits, rare_words
from langchain_contextchef.selectors._text_features import FeatureCache
from tests.support.compiles import assert_same_compile
from tests.support.fits import spliced_fits
from tests.support.stores import RecordingStore

_QUESTION = [HumanMessage("Which date parser test did the team add?")]
_ASKED = ["date", "parser", "test", "team", "added"]
_OTHER = ["toronto", "noor", "sister", "moved", "office", "lease", "car", "blue", "fixed", "dog"]
T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)


@contextmanager
def _rare_judged() -> Iterator[list[int]]:
    """Counts the kept head's judgments of its rare words (`rare_words` in `_ranking`)."""
    calls = [0]
    original = rare_words  # what `_ranking` calls

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranking, "rare_words", counted)
        yield calls


def _scope(size: int, seed: int) -> tuple[InMemoryStore, MemoryConfig, ContextChef]:
    rng = random.Random(seed)
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=400, selector=Relevant(cache=FeatureCache()))
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    for i in range(size):
        words = [rng.choice(_ASKED + _OTHER) for _ in range(rng.randint(2, 8))]
        memory.set(f"note_{i:03d}", " ".join(words) + ".")
    return shared, config, chef


def _fresh(shared: InMemoryStore, config: MemoryConfig) -> CompiledPayload:
    return ContextChef(store=RecordingStore(shared), memory=config, scope=("u",)).compile(_QUESTION)


def test_writes_in_and_around_the_block_match_a_fresh_process() -> None:
    shared, config, chef = _scope(300, seed=4)
    memory = chef.get_memory()
    first = chef.compile(_QUESTION)
    shown = first.meta.injected_keys
    assert 0 < len(shown) < 60 and len(first.meta.omitted) > 200

    def step(write: Any) -> CompiledPayload:
        write()
        cached = chef.compile(_QUESTION)
        assert_same_compile(cached, _fresh(shared, config))
        return cached

    with spliced_fits() as made:
        # Below the block: only the omitted entries change (one more, the "N more" count).
        below = step(lambda: memory.set("quiet_1", "Lunch in the blue office."))
        assert below.meta.injected_keys == shown
        assert set(below.meta.omitted) == {*first.meta.omitted, "quiet_1"}
        assert below.messages != first.messages  # the count in the block moved
        assert made and all(made)  # the block was spliced, and right
        # Enters the block: a new entry holding every question word.
        entered = step(lambda: memory.set("hot", "The team added a date parser test."))
        assert "hot" in entered.meta.injected_keys and "hot" not in entered.meta.omitted
        # Leaves the block: a shown entry rewritten without a question word.
        gone = shown[-1]
        left = step(lambda: memory.set(gone, "Lunch in the blue office, again."))
        assert gone not in left.meta.injected_keys and gone in left.meta.omitted
        # A shown key rewritten, still about the question.
        kept = left.meta.injected_keys[0]
        rewritten = step(lambda: memory.set(kept, "The date parser test, rewritten."))
        assert kept in rewritten.meta.injected_keys
        # Deletes: a shown entry, then one below the block (the count goes down).
        dropped = rewritten.meta.injected_keys[1]
        shown_gone = step(lambda: memory.delete(dropped))
        assert dropped not in shown_gone.meta.injected_keys
        assert dropped not in shown_gone.meta.omitted
        hidden = next(k for k, why in shown_gone.meta.omitted.items() if why == "budget")
        hidden_gone = step(lambda: memory.delete(hidden))
        assert hidden not in hidden_gone.meta.omitted
        assert len(hidden_gone.meta.omitted) == len(shown_gone.meta.omitted) - 1
        # A supersede: a new entry replaces a shown one, which leaves the block.
        old = hidden_gone.meta.injected_keys[0]
        superseded = step(
            lambda: memory.set("parser_now", "The date parser test moved.", supersedes=[old])
        )
        assert "parser_now" in superseded.meta.injected_keys
        assert old not in superseded.meta.injected_keys  # moved to history: not stored
        assert old not in superseded.meta.omitted
        # And below the block again, after all that.
        step(lambda: memory.set("quiet_2", "Car colour: blue."))
    assert made.count(True) >= 2


def test_rare_words_are_judged_again_only_when_they_may_have_moved() -> None:
    # The head's word "zanzibar" is held by four entries: not rare while the feature cache
    # holds fewer than 400 entries (at most 3 may hold a rare word), rare from 400 on. The
    # scope stays inside one step of BM25's grid (262 to 264 entries; the writes have a
    # lunch's lengths), so the scores stand; entries tokenised outside the scope bring the
    # cache across 400 between two writes. No judgment at a write means the head was kept
    # (a head computed anew judges its words when it is kept).
    cache = FeatureCache()
    config = MemoryConfig(token_budget=500, selector=Relevant(cache=cache))
    shared = InMemoryStore()
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    for i in range(128):
        memory.set(f"note_{i:03d}", f"Filler {i:03d} on the date parser test.")
        memory.set(f"lunch_{i:03d}", f"Lunch {i:03d} in the blue office.")
    memory.set("alpha", "The date parser test the team added runs in zanzibar.")
    memory.set("beta", "The date parser test team moved from zanzibar.")
    memory.set("gamma", "A zanzibar office lunch.")
    memory.set("delta", "A zanzibar office walk.")
    memory.set("eps", "Lunch 200 in the blue office.")  # 261 entries in the scope
    for i in range(400 - 261 - 2):  # 137 more in the cache: 398 in all
        cache.get(MemoryEntry(key=f"x{i}", value=f"Other {i}.", created_at=T0, updated_at=T0))
    chef.compile(_QUESTION)
    assert len(cache) == 398 and rare_limits(399) != rare_limits(400)
    with _rare_judged() as judged:
        seen = []
        for i in range(3):  # 262, 263 and 264 entries: the cache holds 399, 400, 401
            memory.set(f"quiet_{i}", f"Lunch {300 + i} in the blue office.")
            before = judged[0]
            cached = chef.compile(_QUESTION)
            seen.append(judged[0] - before)  # this process's judgments, not the fresh one's
            assert_same_compile(cached, _fresh(shared, config))
    # Judged again only at 400, where the thresholds moved: the writes hold none of the
    # head's words, so at 399 and 401 the last judgment stands.
    assert seen[0] == 0 and seen[1] >= 1 and seen[2] == 0


def test_the_cache_says_which_words_kept_their_counts() -> None:
    cache = FeatureCache()

    def entry(key: str, value: str) -> MemoryEntry:
        return MemoryEntry(key=key, value=value, created_at=T0, updated_at=T0)

    cache.get(entry("pets", "Two cats"))
    mark = cache.mark()
    assert mark == (1, 0, 1)
    cache.get(entry("car", "A blue car"))
    assert cache.unchanged_for(mark, {"cat", "dog"}) == cache.mark() == (2, 0, 2)
    assert cache.unchanged_for(mark, {"car"}) is None  # a word of the entry added since
    later = cache.mark()
    for i in range(64):
        cache.get(entry(f"n{i}", f"Note {i}"))
    assert cache.unchanged_for(later, {"cat"}) is not None  # 64 added: their terms are kept
    cache.get(entry("n64", "Note 64"))
    assert cache.unchanged_for(later, {"cat"}) is None  # 65: past what is kept
    now = cache.mark()
    cache.get(entry("pets", "Three cats"))  # new texts: tokenised; nothing dropped yet
    assert cache.unchanged_for(now, {"dog"}) is not None
    small = FeatureCache(max_bytes=2_000)
    start = small.mark()
    for i in range(40):  # past its bound: the oldest are dropped
        small.get(entry(f"k{i}", f"Value number {i} of the test"))
    assert small.dropped > 0 and small.unchanged_for(start, {"zebra"}) is None
    cache.clear()
    assert cache.unchanged_for(now, {"dog"}) is None
