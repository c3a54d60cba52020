"""Ready selectors: order, filters, relevance (keyword and semantic) and the combined rerank."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.store.base import Op, Result
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, Memory, MemoryConfig
from langchain_contextchef.budget import calibrated_tokens
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.selectors import (
    ByType,
    MostImportant,
    MostRecent,
    Relevant,
    Rerank,
    SelectionContext,
    context_selector,
    keyword_scores,
)
from tests.support.embeddings import WordHashEmbeddings
from tests.support.entries import T0, entry, keys

# ---- plain orderings --------------------------------------------------------------------------


def test_most_recent_orders_by_last_write_and_cuts() -> None:
    entries = [entry("old", age_days=3), entry("new", age_days=0), entry("mid", age_days=1)]
    assert keys(MostRecent()(entries)) == ["new", "mid", "old"]
    assert keys(MostRecent(limit=2)(entries)) == ["new", "mid"]
    assert keys(MostRecent(limit=0)(entries)) == []


def test_most_important_puts_unset_last_and_filters_by_floor() -> None:
    entries = [
        entry("none"),
        entry("low", importance=0.1),
        entry("high", importance=0.9),
        entry("mid", importance=0.5),
    ]
    assert keys(MostImportant()(entries)) == ["high", "mid", "low", "none"]
    assert keys(MostImportant(min_importance=0.5)(entries)) == ["high", "mid"]
    assert keys(MostImportant(limit=1)(entries)) == ["high"]


def test_by_type_keeps_named_types_in_the_given_order() -> None:
    entries = [
        entry("f1", type="fact"),
        entry("r1", type="rule"),
        entry("p1", type="preference"),
        entry("f2", type="fact"),
        entry("untyped"),
    ]
    assert keys(ByType("rule", "fact")(entries)) == ["r1", "f1", "f2"]
    assert keys(ByType(None)(entries)) == ["untyped"]
    with pytest.raises(ValueError, match="at least one memory type"):
        ByType()


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_limits_are_validated(bad: object) -> None:
    with pytest.raises(ValueError, match="limit must be a non-negative int"):
        MostRecent(limit=bad)  # type: ignore[arg-type]


# ---- relevance --------------------------------------------------------------------------------


def test_keyword_scores_prefer_rare_words_and_ignore_stopwords() -> None:
    entries = [entry(f"generic_{i}", "the database is the team's shared tool") for i in range(50)]
    entries.append(entry("rotation", "the staging database password rotates every Monday"))
    scores = keyword_scores(entries, "When is the staging database password rotated?")
    assert max(scores, key=lambda k: scores[k]) == "rotation"
    assert scores["rotation"] > 2 * scores["generic_0"]
    assert keyword_scores(entries, "the of and") == {}  # nothing but stopwords
    assert all(0 < s <= 1 for s in scores.values())


def test_keyword_scores_search_keys_and_descriptions() -> None:
    entries = [entry("deploy_window", "Fridays"), entry("x", "y", description="coffee order")]
    assert set(keyword_scores(entries, "deploy window?")) == {"deploy_window"}
    assert set(keyword_scores(entries, "my coffee")) == {"x"}


def test_relevant_drops_unrelated_and_keeps_all_without_a_query() -> None:
    entries = [entry("pets", "Has a cat named Miso"), entry("lang", "Writes Rust")]
    assert keys(Relevant().select(entries, SelectionContext(query="cat name?"))) == ["pets"]
    assert keys(Relevant().select(entries, SelectionContext(query=""))) == ["pets", "lang"]
    assert keys(Relevant(limit=1).select(entries, SelectionContext(query=" "))) == ["pets"]


def test_relevant_uses_semantic_scores_when_given() -> None:
    entries = [entry("a", "alpha"), entry("b", "beta"), entry("c", "gamma")]
    context = SelectionContext(query="anything", relevance={"c": 0.9, "a": 0.4, "b": -0.2})
    assert keys(Relevant().select(entries, context)) == ["c", "a"]
    assert keys(Relevant(min_score=0.5).select(entries, context)) == ["c"]


# ---- rerank -----------------------------------------------------------------------------------


def test_rerank_weighs_relevance_recency_and_confidence() -> None:
    now = T0
    relevant_old = entry("relevant_old", "staging password rotation", age_days=90)
    fresh = entry("fresh", "unrelated words", age_days=0)
    sure = entry("sure", "unrelated", age_days=90, provenance=Provenance(confidence=1.0))
    unsure = entry("unsure", "unrelated", age_days=90, provenance=Provenance(confidence=0.0))
    entries = [unsure, sure, fresh, relevant_old]
    context = SelectionContext(query="staging password rotation", now=now)
    ranked = keys(Rerank().select(entries, context))
    assert ranked[0] == "relevant_old"  # relevance dominates by default
    assert ranked.index("fresh") < ranked.index("sure") < ranked.index("unsure")
    only_recency = Rerank(relevance_weight=0, recency_weight=1, confidence_weight=0)
    assert keys(only_recency.select(entries, context))[0] == "fresh"


def test_rerank_min_score_and_limit() -> None:
    entries = [entry("a", age_days=0), entry("b", age_days=365)]
    ctx = SelectionContext(now=T0)
    scores = Rerank().scores(entries, ctx)
    assert scores["a"] > scores["b"]
    assert keys(Rerank(min_score=scores["b"]).select(entries, ctx)) == ["a"]
    assert keys(Rerank(limit=1).select(entries, ctx)) == ["a"]
    with pytest.raises(ValueError, match="half_life"):
        Rerank(half_life=timedelta(0))


# ---- wiring into Memory and the compile -------------------------------------------------------


def test_plain_selectors_keep_working() -> None:
    memory = Memory(InMemoryStore(), MemoryConfig(selector=lambda es: es[::-1]))
    memory.set("a", "1")
    memory.set("b", "2")
    assert keys(memory.read_for_compile().selected) == ["b", "a"]


def test_context_selectors_see_the_last_user_text_turn_and_budget() -> None:
    seen: list[SelectionContext] = []

    @context_selector
    def spy(entries: list[MemoryEntry], context: SelectionContext) -> list[MemoryEntry]:
        seen.append(context)
        return entries

    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(selector=spy, token_budget=500))
    chef.get_memory().set("a", "1")
    chef.compile(
        [
            SystemMessage("sys"),
            HumanMessage("first question"),
            AIMessage("answer"),
            HumanMessage("second question"),
        ]
    )
    chef.compile([HumanMessage("third")])
    assert [c.query for c in seen] == ["second question", "third"]
    assert [c.turn for c in seen] == [0, 1]
    assert seen[0].token_budget == 500
    assert seen[0].count_tokens("x" * 40) == calibrated_tokens("x" * 40) > 0  # the memory's counter
    assert seen[0].relevance is None  # no index on this store


def test_selector_exclusions_are_reported_in_meta() -> None:
    # Without a token budget (the default has one), Relevant drops what is not relevant;
    # inline, what it drops is not listed in an index either.
    config = MemoryConfig(selector=Relevant(), token_budget=None, recall="inline")
    chef = ContextChef(store=InMemoryStore(), memory=config)
    memory = chef.get_memory()
    memory.set("pets", "Has a cat named Miso")
    memory.set("lang", "Writes Rust at work")
    payload = chef.compile([HumanMessage("What is my cat called?")])
    assert payload.meta.injected_keys == ["pets"]
    assert payload.meta.omitted == {"lang": "selector"}
    assert "Writes Rust" not in payload.messages[0].text


class RecordingIndexedStore(InMemoryStore):
    """An indexed InMemoryStore that records the op types of every batch."""

    def __init__(self) -> None:
        super().__init__(index={"dims": 256, "embed": WordHashEmbeddings(256)})
        self.batches: list[list[str]] = []

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        self.batches.append(
            [type(op).__name__ + (":query" if getattr(op, "query", None) else "") for op in ops]
        )
        return super().batch(ops)


def test_semantic_relevance_comes_from_the_store_index_in_the_same_read_batch() -> None:
    store = RecordingIndexedStore()
    # Inline: in recall mode (the default) the entry left out would be listed in the index.
    config = MemoryConfig(selector=Relevant(limit=1), recall="inline")
    chef = ContextChef(store=store, memory=config)
    memory = chef.get_memory()
    memory.set("pets", "cat named Miso")
    memory.set("lang", "writes rust")
    store.batches.clear()
    payload = chef.compile([HumanMessage("what is my cat named")])
    assert payload.meta.injected_keys == ["pets"]
    assert payload.meta.omitted == {"lang": "selector"}
    assert store.batches[0] == ["SearchOp", "GetOp", "GetOp", "SearchOp:query"]
    assert len(store.batches) == 2  # the read batch, then the clock write


def test_no_semantic_search_without_a_selector_that_asks_for_it() -> None:
    store = RecordingIndexedStore()
    chef = ContextChef(store=store, memory=MemoryConfig(selector=MostRecent()))
    chef.get_memory().set("a", "1")
    store.batches.clear()
    chef.compile([HumanMessage("anything")])
    assert store.batches[0] == ["SearchOp", "GetOp", "GetOp"]  # entries, clock, stamp
