"""`Relevant`'s head kept across writes (`KeptHead`) gives what a selection from scratch gives.

BM25's corpus statistics sit on a grid (`corpus_size`, `average_length`), so a write whose
entry holds no query word leaves every other score as it was; the selector then reuses the
head it ranked and reordered before the write. These tests follow random writes with one
store object (its cache, its index, the kept head) and compare every compile with a new
store object over the same data, which reads the scope whole (a fresh process), and they
check that the reuse really happened.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

import langchain_contextchef.selectors._ranking as ranking
from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.selectors import Relevant
from langchain_contextchef.selectors._bm25 import average_length, corpus_size
from langchain_contextchef.selectors._ranking import KeptHead
from langchain_contextchef.selectors._text_features import FeatureCache
from tests.support.compiles import assert_same_compile
from tests.support.stores import RecordingStore

_QUESTION = [HumanMessage("Which date parser test did the team add?")]
_ASKED = ["date", "parser", "test", "team", "added"]
_OTHER = ["toronto", "noor", "sister", "moved", "office", "lease", "car", "blue", "fixed", "dog"]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    # Whether each indexed selection reused a kept head.
    outcomes: list[bool] = []
    original = ranking.kept_head

    def counted(*args: Any, **kwargs: Any) -> KeptHead | None:
        found = original(*args, **kwargs)
        outcomes.append(found is not None)
        return found

    monkeypatch.setattr(ranking, "kept_head", counted)
    return outcomes


def test_the_grid_keeps_small_scopes_exact_and_moves_rarely() -> None:
    assert [corpus_size(n) for n in (0, 1, 100, 128)] == [0, 1, 100, 128]
    sizes = [corpus_size(n) for n in range(129, 20_000)]
    assert all(n <= s for n, s in zip(range(129, 20_000), sizes, strict=True))
    assert all(s <= n * 1.016 for n, s in zip(range(129, 20_000), sizes, strict=True))
    # Six significant bits: at most 64 moves while the scope doubles (one write in 78 to
    # 128 moves it between 5,000 and 10,000 entries).
    doubling = [corpus_size(n) for n in range(5_000, 10_001)]
    assert sum(1 for a, b in zip(doubling, doubling[1:], strict=False) if a != b) <= 64
    assert average_length(300, 100) == 3.0
    assert average_length(1, 3) == pytest.approx(1 / 3, rel=1 / 128)
    assert average_length(0, 5) > 0


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    start=st.sampled_from([60, 124, 250]),
    writes=st.lists(
        st.tuples(
            st.sampled_from("nnnnqud"),  # mostly new entries without a question word
            st.integers(0, 400),
            st.lists(st.sampled_from(_ASKED + _OTHER), max_size=6),
        ),
        min_size=1,
        max_size=10,
    ),
)
def test_every_compile_after_a_write_matches_a_fresh_process(
    seed: int, start: int, writes: list[tuple[str, int, list[str]]]
) -> None:
    rng = random.Random(seed)
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=300, selector=Relevant(cache=FeatureCache()))
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    keys = [f"{rng.choice(_ASKED + _OTHER)}_{i}" for i in range(start)]
    for at, key in enumerate(keys):
        words = [rng.choice(_ASKED + _OTHER) for _ in range(rng.randint(1, 8))]
        if at % 7 == 0:  # versions of one subject, for newer over older
            words = ["noor", "moved", "to", rng.choice(["toronto", "lisbon", "oslo"]), "test"]
        memory.set(key, " ".join(words) + ".", description=rng.choice([None, " ".join(words)]))
    chef.compile(_QUESTION)
    for action, at, words in writes:
        plain = " ".join(w for w in words if w not in _ASKED) or "quiet"
        if action == "d":
            memory.delete(keys[at % len(keys)])
        elif action == "u":  # a new version of an entry, often one the block shows
            memory.set(keys[at % len(keys)], " ".join(words) or "x")
        elif action == "q":  # a new entry holding question words
            memory.set(f"new_{at}", " ".join(words) + " parser")
        else:  # a new entry without a question word: the kept head stands
            memory.set(f"new_{at}", f"{plain} {at}.")
        cached = chef.compile(_QUESTION)
        fresh = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
        assert_same_compile(cached, fresh.compile(_QUESTION))


def test_harmless_writes_reuse_the_head_and_match_a_fresh_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    outcomes = _counting(monkeypatch)
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=400, selector=Relevant(cache=FeatureCache()))
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    rng = random.Random(7)
    for i in range(300):
        words = " ".join(rng.choice(_ASKED + _OTHER) for _ in range(rng.randint(2, 9)))
        memory.set(f"note_{i:03d}", f"{words}.")
    memory.set("noor_old", "Noor moved to Oslo for the date parser test.")
    memory.set("noor_new", "Noor moved to Toronto for the date parser test.")
    chef.compile(_QUESTION)
    for i in range(40):
        if i % 10 == 9:  # a question word: every score moves, nothing is kept
            memory.set(f"asked_{i}", "The team added a parser test.")
        else:
            memory.set(f"quiet_{i}", f"Lunch at {i} in the blue office.")
        cached = chef.compile(_QUESTION)
        fresh = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
        assert_same_compile(cached, fresh.compile(_QUESTION))
    mine, theirs = outcomes[1::2], outcomes[2::2]  # outcomes[0]: the first compile
    assert len(mine) == len(theirs) == 40
    assert not any(theirs)  # a new store object reads the scope whole: nothing kept
    assert not any(mine[i] for i in range(40) if i % 10 == 9)  # question words: not kept
    # Most harmless writes reused the head. At 300 entries the grid's steps are 4 entries and
    # under 1% of an average length, so about a third of the writes here cross one.
    assert sum(mine) >= 18


def test_a_word_turning_rare_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # A write holding no question word can still change what newer over older judges: a
    # word of the head's entries held by more entries is no longer rare.
    outcomes = _counting(monkeypatch)
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=500, selector=Relevant(cache=FeatureCache()))
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    for i in range(20):
        memory.set(f"note_{i:02d}", f"Filler {i}: a date parser test the team added.")
        memory.set(f"lunch_{i:02d}", f"Lunch {i} in the blue office.")
    memory.set("alpha", "The date parser test runs in zanzibar.")
    memory.set("beta", "The date parser test moved from zanzibar.")
    chef.compile(_QUESTION)
    for i in range(3):  # "zanzibar" held by 3, then 4 and 5 entries; the same lengths
        memory.set(f"lunch_{i:02d}", f"Lunch {i} in the zanzibar office.")
        cached = chef.compile(_QUESTION)
        fresh = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
        assert_same_compile(cached, fresh.compile(_QUESTION))
    mine = outcomes[1::2]
    assert mine == [True, False, True]  # kept, then "zanzibar" is common: not kept


def test_compiles_in_several_threads_share_a_kept_head(monkeypatch: pytest.MonkeyPatch) -> None:
    # After a harmless write, compiles in four threads read one kept ranking at once.
    outcomes = _counting(monkeypatch)
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=400, selector=Relevant(cache=FeatureCache()))
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    for i in range(300):
        memory.set(f"note_{i:03d}", f"The date parser test {i} the team added, part {i % 7}.")
    chef.compile(_QUESTION)
    memory.set("quiet", "Lunch in the blue office.")
    with ThreadPoolExecutor(4) as pool:
        payloads = list(pool.map(lambda _: chef.compile(_QUESTION), range(4)))
    fresh = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    expected = fresh.compile(_QUESTION)
    for payload in payloads:
        assert_same_compile(payload, expected)
    assert any(outcomes[1:5])  # at least one of the threads reused the kept head
