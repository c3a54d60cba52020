"""Keyword relevance (BM25F, stemming, stop words), fusion, budget filling, Rerank, caching."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.store.base import BaseStore, IndexConfig
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import token_counter
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.query import conversation_query, query_text, question_facets
from langchain_contextchef.render import render_memory_block
from langchain_contextchef.selectors import (
    MemorySelector,
    MostImportant,
    MostRecent,
    Relevant,
    Rerank,
    SelectionContext,
    context_selector,
    keyword_scores,
    relevance_scores,
)
from langchain_contextchef.selectors._bm25 import bm25f, query_terms
from langchain_contextchef.selectors._text_features import STOPWORDS, FeatureCache, stem, terms
from langchain_contextchef.store import FileSystemStore
from tests.support.embeddings import WordHashEmbeddings
from tests.support.entries import T0, entry, keys

# ---- stemming, stop words, tokens -------------------------------------------------------------


@pytest.mark.parametrize(
    "words",
    [
        ("allergies", "allergy"),
        ("lessons", "lesson"),
        ("rotated", "rotation", "rotate", "rotating"),
        ("swimming", "swims", "swim"),
        ("collected", "collection", "collects"),
        ("classes", "class"),
        ("lives", "living", "live"),
    ],
)
def test_inflections_share_a_stem(words: tuple[str, ...]) -> None:
    assert len({stem(w) for w in words}) == 1


@pytest.mark.parametrize("pair", [("cat", "car"), ("walker", "walk"), ("dentist", "dent")])
def test_different_words_keep_different_stems(pair: tuple[str, str]) -> None:
    assert stem(pair[0]) != stem(pair[1])


def test_terms_drop_stop_words_and_split_keys() -> None:
    assert terms("What are the allergies I have?") == ["allergi"]
    assert terms("staging_db-password") == ["stag", "db", "password"]
    assert terms("the of and is") == []
    assert {"what", "the", "my", "remind"} <= STOPWORDS


def test_query_terms_add_weights_across_parts_once_per_part() -> None:
    weights = query_terms([("swim swim lessons", 1.0), ("swimming pool", 0.5), ("x", 0.0)])
    assert weights == {"swim": 1.5, "lesson": 1.0, "pool": 0.5}


# ---- BM25F --------------------------------------------------------------------------------------


def test_stemming_finds_allergy_from_allergies() -> None:
    entries = [entry("meds", "Allergy to penicillin"), entry("tone", "Be brief")]
    assert set(keyword_scores(entries, "Which allergies do I have?")) == {"meds"}


def test_prefix_matching_finds_longer_words() -> None:
    entries = [entry("meds", "Allergic to penicillin"), entry("knee", "Physiotherapy on Tuesdays")]
    assert set(keyword_scores(entries, "my allergies")) == {"meds"}
    assert set(keyword_scores(entries, "physio appointments")) == {"knee"}


def test_common_words_do_not_outweigh_a_rare_one() -> None:
    # "team" and "database" are in every generic note; "rotation" only in the answer.
    entries = [entry(f"note_{i}", f"team database note number {i}") for i in range(200)]
    entries.append(entry("rotation", "Rotation of the staging secrets happens monthly"))
    scores = keyword_scores(entries, "When does the team database rotation happen?")
    assert max(scores, key=lambda k: scores[k]) == "rotation"
    assert scores["rotation"] > 2 * scores["note_0"]


def test_bm25_saturates_repeats_and_normalises_length() -> None:
    cache = FeatureCache()
    short = entry("a", "cat")
    spammy = entry("b", "cat " * 50)
    long = entry("c", "cat " + "filler words here " * 30)
    features = [cache.get(e) for e in (short, spammy, long)]
    scores, ceiling = bm25f(features, {"cat": 1.0})
    assert scores[1] < 2 * scores[0]  # fifty repeats are not fifty times the evidence
    assert scores[2] < scores[0]  # the same one match in a longer value counts less
    assert all(0 < s <= ceiling for s in scores.values())


def test_key_and_description_matches_count_more_than_value_matches() -> None:
    entries = [
        entry("boiler_service", "Due in October"),
        entry("misc", "Called about the boiler service"),
        entry("filler", "Nothing relevant"),
    ]
    scores = keyword_scores(entries, "boiler service")
    assert scores["boiler_service"] > scores["misc"]


def test_keyword_scores_accept_weighted_parts() -> None:
    entries = [entry("swim", "Swimming lessons on Saturdays"), entry("gym", "Gym on Mondays")]
    scores = keyword_scores(entries, [("when do they start", 1.0), ("swimming lessons", 0.5)])
    assert set(scores) == {"swim"}


# ---- fusion -------------------------------------------------------------------------------------


def test_score_fusion_mixes_keyword_and_semantic_evidence() -> None:
    entries = [
        entry("words", "penicillin allergy noted"),
        entry("meaning", "antibiotics give me a rash"),
        entry("neither", "bike commute"),
    ]
    context = SelectionContext(
        query="penicillin allergy", relevance={"meaning": 0.8, "words": 0.3, "neither": 0.1}
    )
    keyword_only = relevance_scores(entries, context, semantic_weight=0.0)
    semantic_only = relevance_scores(entries, context, semantic_weight=1.0)
    fused = relevance_scores(entries, context, semantic_weight=0.5)
    assert set(keyword_only) == {"words"}
    assert max(semantic_only, key=lambda k: semantic_only[k]) == "meaning"
    assert fused["words"] == pytest.approx(0.5 * 1.0 + 0.5 * (0.3 - 0.1) / 0.7)
    assert fused["meaning"] == pytest.approx(0.5 * 1.0)
    assert "neither" not in fused  # lowest semantic hit and no keyword: nothing


def test_rrf_fusion_sums_reciprocal_ranks() -> None:
    entries = [entry("a", "cat"), entry("b", "dog"), entry("c", "cat dog")]
    context = SelectionContext(query="cat", relevance={"b": 0.9, "a": 0.5})
    scores = relevance_scores(entries, context, fusion="rrf")
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)  # keyword rank 1 (shorter), semantic 2
    assert scores["b"] == pytest.approx(1 / 61)
    with pytest.raises(ValueError, match="fusion must be"):
        Relevant(fusion="max")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="semantic_weight"):
        Relevant(semantic_weight=1.5)


# ---- budget filling -----------------------------------------------------------------------------


def test_relevant_fills_a_budget_with_the_next_best_entries() -> None:
    entries = [
        entry("old_plain", "unrelated", age_days=30),
        entry("pets", "Has a cat named Miso", age_days=10),
        entry("new_plain", "also unrelated", age_days=1),
        entry("vip", "unrelated but important", age_days=20, importance=0.9),
    ]
    context = SelectionContext(query="cat name?", token_budget=1_000)
    assert keys(Relevant().select(entries, context)) == ["pets", "vip", "new_plain", "old_plain"]
    assert keys(Relevant(fill=False).select(entries, context)) == ["pets"]
    unbudgeted = SelectionContext(query="cat name?")
    assert keys(Relevant().select(entries, unbudgeted)) == ["pets"]


def _filled_store(indexed: bool) -> InMemoryStore:
    store = (
        InMemoryStore(index={"dims": 256, "embed": WordHashEmbeddings(256)})
        if indexed
        else InMemoryStore()
    )
    memory = ContextChef(store=store, memory=MemoryConfig()).get_memory()
    memory.set("pets", "Has a cat named Miso", importance=0.5)
    for i in range(30):
        # Sizes and importances vary, so the next entry is not just "one more of the same".
        padding = " and drizzle" * (i % 7)
        memory.set(
            f"note_{i}",
            f"Unrelated note number {i} about the weather{padding}",
            importance=(i % 5) / 5 or None,
        )
    return store


@pytest.mark.parametrize(
    ("make", "indexed", "relevance"),
    [
        (Relevant, False, True),
        (Relevant, True, True),
        (Rerank, False, True),
        (Rerank, True, True),
        (MostRecent, False, False),
        (MostImportant, False, False),
    ],
    ids=[
        "relevant-keyword",
        "relevant-hybrid",
        "rerank-keyword",
        "rerank-hybrid",
        "most-recent",
        "most-important",
    ],
)
def test_no_selector_leaves_the_budget_unused_while_entries_remain(
    make: type[MemorySelector], indexed: bool, relevance: bool
) -> None:
    store = _filled_store(indexed)
    question = [HumanMessage("What is my cat called?")]
    roomy = ContextChef(store=store, memory=MemoryConfig(selector=make(), token_budget=100_000))
    order = roomy.compile(question).meta.injected_keys
    assert len(order) == 31  # everything fits, so everything is shown, in the selector's order
    if relevance:
        assert order[0] == "pets"
    budget = 400
    # Inline: recall mode (the default) keeps a share of the budget for index rows.
    config = MemoryConfig(selector=make(), token_budget=budget, recall="inline")
    tight = ContextChef(store=store, memory=config)
    payload = tight.compile(question)
    shown = payload.meta.injected_keys
    assert 1 < len(shown) < 31
    assert shown == order[: len(shown)]  # a prefix of the same order, nothing skipped
    assert set(payload.meta.omitted.values()) == {"budget"}
    memory = tight.get_memory()
    entries = {key: memory.get_entry(key) for key in order}
    count = token_counter(config.token_counter).text

    def block_tokens(keys: list[str]) -> int:
        full = [entries[key] for key in keys]
        return count(render_memory_block(full, unlisted=len(order) - len(full)))  # type: ignore[arg-type]

    assert block_tokens(shown) == payload.meta.tokens["memory"] <= budget  # the block, re-made
    # The next best entry would not have fitted: the budget is as full as the order allows.
    assert block_tokens([*shown, order[len(shown)]]) > budget


# ---- Rerank -------------------------------------------------------------------------------------


def test_rerank_keeps_relevance_dominant_over_recency_and_confidence() -> None:
    answer = entry("dentist", "Dentist appointment on 21 March at 16:15", age_days=200)
    fresh = [
        entry(f"fresh_{i}", f"Bought item {i}", age_days=0, provenance=Provenance(confidence=1.0))
        for i in range(4)
    ]
    context = SelectionContext(query="When is my dentist appointment?", now=T0)
    assert keys(Rerank().select([*fresh, answer], context))[0] == "dentist"


def test_rerank_tie_breakers_are_bounded_and_order_similar_relevance() -> None:
    older = entry("a", "swimming lessons on Saturdays", age_days=300)
    newer = entry("b", "swimming lessons on Saturdays too", age_days=1)
    unrelated = entry("c", "tax return", age_days=0, importance=1.0)
    context = SelectionContext(query="swimming lessons", now=T0)
    scores = Rerank().scores([older, newer, unrelated], context)
    assert scores["b"] > scores["a"]  # similar relevance: the newer one wins
    assert scores["c"] <= 0.2 + 1e-9  # no relevance: at most the tie-breakers' total weight
    assert min(scores["a"], scores["b"]) > scores["c"]
    with pytest.raises(ValueError, match="recency_weight"):
        Rerank(recency_weight=-1)


def test_newer_near_duplicate_takes_the_slot_of_the_older_one() -> None:
    old = entry("gym", "Gym membership at PureGym Clifton, 25 pounds a month", age_days=200)
    new = entry(
        "gym_switch", "Cancelled PureGym; joined the Better gym, 32 pounds a month", age_days=20
    )
    filler = [entry(f"n{i}", f"note {i}") for i in range(5)]
    context = SelectionContext(query="Which gym membership do I have at PureGym Clifton?", now=T0)
    # By keywords alone the old entry matches better; the newer near-duplicate goes first.
    assert (
        keyword_scores([old, new, *filler], context.query)["gym"]
        > keyword_scores([old, new, *filler], context.query)["gym_switch"]
    )
    for selector in (Relevant(), Rerank()):
        ranked = keys(selector.select([old, new, *filler], context))
        assert ranked.index("gym_switch") < ranked.index("gym")


def test_supersedes_link_puts_the_newer_entry_first_even_without_shared_words() -> None:
    old = entry("city", "Lives in Berlin, Berlin Berlin", age_days=300)
    new = entry("move", "Moved to Lisbon in March", age_days=5, supersedes=("city",))
    context = SelectionContext(query="Berlin or Lisbon: where do I live?", now=T0)
    assert keys(Relevant().select([old, new], context))[:2] == ["move", "city"]


def test_an_older_entry_is_not_promoted_over_a_newer_near_duplicate() -> None:
    new = entry("a", "standup at 10:00 in Google Meet", age_days=1)
    old = entry("b", "standup at 09:45 on Zoom", age_days=100)
    context = SelectionContext(query="standup Google Meet", now=T0)
    assert keys(Relevant().select([old, new], context)) == ["a", "b"]


def test_a_rare_key_word_in_common_puts_the_newer_version_first_despite_few_shared_words() -> None:
    old = entry("sister_noor", "Sister Noor lives in Toronto, a paediatric nurse", age_days=400)
    new = entry("noor_moved", "Took a hospital job in Vancouver", age_days=30)
    filler = [entry(f"note_{i}", f"Lives near the park, note {i}") for i in range(8)]
    context = SelectionContext(query="Where does my sister Noor live these days?", now=T0)
    cache = FeatureCache()
    # By keywords the old entry ranks first; one word of the two keys says "the same subject".
    scores = keyword_scores([old, new, *filler], context.query, cache=cache)
    assert scores["sister_noor"] > scores["noor_moved"]
    for selector in (Relevant(cache=cache), Rerank(cache=cache)):
        ranked = keys(selector.select([old, new, *filler], context))
        assert ranked.index("noor_moved") < ranked.index("sister_noor")


def test_a_key_word_many_entries_share_does_not_reorder_them_by_age() -> None:
    # Ten newer birthdays of other people share "birthday" with the key and the value:
    # they are not versions of Mum's, so the best match keeps the first slot.
    mum = entry("mum_birthday", "Mum's birthday is on 14 March; she likes lilies", age_days=900)
    others = [
        entry(f"friend{i}_birthday", f"Friend {i} has a birthday in May", age_days=i + 1)
        for i in range(10)
    ]
    context = SelectionContext(query="When is Mum's birthday?", now=T0, token_budget=200)
    for selector in (Relevant(cache=FeatureCache()), Rerank(cache=FeatureCache())):
        assert keys(selector.select([mum, *others], context))[0] == "mum_birthday"


def test_the_two_closest_entries_in_meaning_are_taken_as_versions_of_one_fact() -> None:
    old = entry("home", "Lives in Berlin, Kreuzberg", age_days=300)
    new = entry("relocation", "Settled in Lisbon since May", age_days=20)
    far = entry("tea", "Prefers green tea", age_days=10)
    semantic = {"home": 0.81, "relocation": 0.79, "tea": 0.30}
    context = SelectionContext(query="where is home for me?", now=T0, relevance=semantic)
    assert keys(Relevant(cache=FeatureCache()).select([old, new, far], context))[:2] == [
        "relocation",
        "home",
    ]
    # Far apart in meaning, they are not taken as one fact.
    apart = SelectionContext(
        query="where is home for me?", now=T0, relevance={**semantic, "relocation": 0.5}
    )
    assert keys(Relevant(cache=FeatureCache()).select([old, new, far], apart))[:2] == [
        "home",
        "relocation",
    ]


def test_versions_are_ordered_by_when_the_fact_was_observed() -> None:
    # Written later, but observed before the other version: it is the older fact.
    late_write = entry(
        "dentist_a",
        "Dentist is Dr Okoro at Micklegate",
        age_days=1,
        provenance=Provenance(observed_at=T0 - timedelta(days=500)),
    )
    current = entry("dentist_b", "Dentist is Mr Shah at Haxby Dental", age_days=10)
    context = SelectionContext(query="Which dentist do I see, Okoro at Micklegate?", now=T0)
    ranked = keys(Relevant(cache=FeatureCache()).select([late_write, current], context))
    assert ranked == ["dentist_b", "dentist_a"]


# ---- conversation query -------------------------------------------------------------------------


def test_conversation_query_weights_recent_user_turns_more() -> None:
    messages = [
        SystemMessage("sys"),
        HumanMessage("first topic"),
        AIMessage("reply one"),
        HumanMessage("Let's talk about swimming lessons."),
        AIMessage("Sure."),
        HumanMessage("What time do they start?"),
        AIMessage("", tool_calls=[{"name": "t", "args": {}, "id": "1"}]),
        ToolMessage("tool output", tool_call_id="1"),
    ]
    parts = conversation_query(messages, turns=2)
    assert parts == (("What time do they start?", 1.0), ("Let's talk about swimming lessons.", 0.5))
    with_assistant = conversation_query(messages, turns=3, decay=0.5, assistant_weight=0.5)
    assert ("Sure.", 0.25) in with_assistant
    assert ("first topic", 0.25) in with_assistant
    assert ("reply one", 0.125) in with_assistant
    assert "tool output" not in query_text(with_assistant)
    assert conversation_query([SystemMessage("only")]) == ()
    assert conversation_query(messages, turns=1) == (("What time do they start?", 1.0),)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"turns": 0}, "turns"), ({"decay": 0}, "decay"), ({"assistant_weight": 2}, "assistant")],
)
def test_conversation_query_validates(kwargs: dict[str, float], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        conversation_query([HumanMessage("x")], **kwargs)  # type: ignore[arg-type]


def test_a_follow_up_finds_its_entry_through_the_weighted_query() -> None:
    entries = [
        entry("swim", "Lena's swimming lessons are on Saturdays at 10:00"),
        entry("gym", "Gym classes start at 07:00"),
    ]
    messages = [
        HumanMessage("Let's talk about Lena's swimming lessons."),
        AIMessage("Sure, what would you like to know?"),
        HumanMessage("What time do they start now?"),
    ]
    last_only = SelectionContext(query="What time do they start now?")
    assert keys(Relevant().select(entries, last_only)) == ["gym"]  # "start" alone misleads
    weighted = SelectionContext(query=messages[-1].text, queries=conversation_query(messages))
    assert keys(Relevant().select(entries, weighted))[0] == "swim"


# ---- feature cache ------------------------------------------------------------------------------


def test_features_are_tokenised_once_per_entry_version_across_compiles() -> None:
    cache = FeatureCache()
    chef = ContextChef(
        store=InMemoryStore(),
        memory=MemoryConfig(selector=Relevant(cache=cache), token_budget=2_000),
    )
    memory = chef.get_memory()
    for i in range(20):
        memory.set(f"k{i}", f"value number {i}")
    chef.compile([HumanMessage("value number 3")])
    assert cache.tokenisations == 20
    for _ in range(5):
        chef.compile([HumanMessage("value number 7")])
    assert cache.tokenisations == 20  # unchanged entries are not tokenised again
    memory.set("k3", "a rewritten value")
    chef.compile([HumanMessage("rewritten")])
    assert cache.tokenisations == 21  # only the rewritten entry


def test_feature_cache_is_bounded_and_evicts_least_recently_used() -> None:
    cache = FeatureCache(max_bytes=20_000)
    entries = [entry(f"k{i}", f"some words for entry {i} " * 3) for i in range(200)]
    for e in entries:
        cache.get(e)
    assert cache.bytes <= 20_000
    assert 0 < len(cache) < 200
    kept = len(cache)
    cache.get(entries[-1])  # most recent: still cached
    assert cache.tokenisations == 200
    cache.get(entries[0])  # long evicted: tokenised again
    assert cache.tokenisations == 201
    assert len(cache) <= kept + 1
    with pytest.raises(ValueError, match="max_bytes"):
        FeatureCache(max_bytes=0)


def test_same_key_and_version_with_different_text_is_not_confused() -> None:
    cache = FeatureCache()
    a = entry("note", "cats and dogs")
    b = entry("note", "tax returns")  # another scope: same key, version and time
    assert cache.get(a).vocabulary != cache.get(b).vocabulary


# ---- embeddings are never computed by the selector ---------------------------------------------


class CountingEmbeddings(Embeddings):
    def __init__(self) -> None:
        self.inner = WordHashEmbeddings(64)
        self.documents = 0
        self.queries = 0
        self.query_texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += len(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.queries += 1
        self.query_texts.append(text)
        return self.inner.embed_query(text)


@pytest.mark.parametrize("backend", ["memory", "filesystem"])
@pytest.mark.parametrize("selector", [Relevant(), Rerank()])
def test_one_query_embedding_per_compile_and_one_document_embedding_per_write(
    selector: Relevant | Rerank, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    model = CountingEmbeddings()
    index: IndexConfig = {"dims": 64, "embed": model}
    store: BaseStore = InMemoryStore(index=index)
    if backend == "filesystem":  # where the issue found a re-embedding on every compile
        store = FileSystemStore(tmp_path / "store", index=index)
        request.addfinalizer(store.close)
    chef = ContextChef(store=store, memory=MemoryConfig(selector=selector, token_budget=1_000))
    memory = chef.get_memory()
    for i in range(10):
        memory.set(f"k{i}", f"value {i}")
    assert model.documents == 10 and model.queries == 0
    for i in range(4):
        chef.compile([HumanMessage(f"value {i}")])
    assert model.queries == 4  # the compile's one semantic search
    assert model.documents == 10  # the selector never embeds entries
    memory.set("k0", "changed value")
    chef.compile([HumanMessage("changed")])
    assert model.documents == 11 and model.queries == 5


def test_each_facet_of_a_question_gets_its_own_semantic_search_in_the_same_batch() -> None:
    model = CountingEmbeddings()
    store = InMemoryStore(index={"dims": 64, "embed": model})
    chef = ContextChef(store=store, memory=MemoryConfig(selector=Relevant(), token_budget=1_000))
    chef.get_memory().set("home", "Lives at 6 Westfield Close")
    chef.compile([HumanMessage("When is the dentist appointment?")])
    assert model.queries == 1  # one thing asked: one search
    chef.compile([HumanMessage("Admission form: home address, GP practice and drug allergies")])
    # The question, then "Admission form", "home address", "GP practice", "drug allergies".
    assert model.queries == 1 + 5
    assert question_facets("home address, GP practice and drug allergies") == (
        "home address",
        "GP practice",
        "drug allergies",
    )


def test_hybrid_selection_through_the_store_index_prefers_the_fused_best() -> None:
    store = InMemoryStore(index={"dims": 256, "embed": WordHashEmbeddings(256)})
    chef = ContextChef(store=store, memory=MemoryConfig(selector=Relevant(limit=1)))
    memory = chef.get_memory()
    memory.set("pets", "cat named Miso")
    memory.set("lang", "writes rust")
    payload = chef.compile([HumanMessage("what is my cat named")])
    assert payload.meta.injected_keys == ["pets"]


# ---- recall mode ---------------------------------------------------------------------------------


def test_recall_index_rows_follow_relevance_not_creation_order() -> None:
    chef = ContextChef(
        store=InMemoryStore(),
        memory=MemoryConfig(selector=Relevant(), recall="index", token_budget=240),
    )
    memory = chef.get_memory()
    memory.set("old_unrelated", "Weather notes " * 20, description="weather")
    memory.set("swim_2", "Swimming kit: goggles and cap " * 12, description="swimming kit")
    memory.set("swim_1", "Swimming lessons on Saturdays at 10:00 " * 12, description="swimming")
    payload = chef.compile([HumanMessage("swimming lessons?")])
    assert payload.meta.injected_keys == ["swim_1"]
    assert payload.meta.indexed_keys[:2] == ["swim_2", "old_unrelated"]


def test_most_recent_still_ranks_by_time() -> None:
    entries = [entry("a", age_days=2), entry("b", age_days=1)]
    assert keys(MostRecent()(entries)) == ["b", "a"]


def test_prefix_vocabulary_follows_evictions() -> None:
    cache = FeatureCache(max_bytes=3_000)
    rare = entry("rare", "physiotherapy")
    cache.get(rare)
    assert "physiotherapi" in cache.expand({"physio": 1.0})
    for i in range(100):  # push the rare entry out
        cache.get(entry(f"k{i}", f"filler words {i}"))
    assert "physiotherapi" not in cache.expand({"physio": 1.0})


def test_a_compile_keeps_features_with_the_scope_while_each_entry_is_unchanged() -> None:
    # A feature cache too small for the scope evicts on every pass; the compile's scope cache
    # still holds each entry's features, so only a changed entry is tokenised again.
    cache = FeatureCache(max_bytes=3_000)
    store = InMemoryStore()
    chef = ContextChef(
        store=store, memory=MemoryConfig(selector=Relevant(cache=cache), token_budget=2_000)
    )
    memory = chef.get_memory()
    for i in range(40):
        memory.set(f"k{i}", f"subject{i} item{i} details")
    chef.compile([HumanMessage("subject3")])
    first = cache.tokenisations
    assert first >= 40
    for _ in range(3):
        payload = chef.compile([HumanMessage("the subject7 details")])
    assert cache.tokenisations == first
    assert payload.meta.injected_keys[0] == "k7"
    memory.set("k7", "rewritten: nothing in common")
    payload = chef.compile([HumanMessage("rewritten")])
    assert cache.tokenisations == first + 1  # only the rewritten entry
    assert payload.meta.injected_keys[0] == "k7"


def test_scores_with_kept_features_equal_scores_without() -> None:
    entries = [entry(f"k{i}", f"words for entry {i} about allergies {i % 3}") for i in range(30)]
    kept: dict[str, dict[object, object]] = {}
    context = SelectionContext(
        query="allergic entry 4", entry_data=lambda e: kept.setdefault(e.key, {})
    )
    first = relevance_scores(entries, context)
    again = relevance_scores(entries, context)
    assert first == again == keyword_scores(entries, "allergic entry 4")
    assert len(kept) == 30 and all(len(v) == 1 for v in kept.values())


# ---- the conversation query and the recall split, configured through the compile -------------

_FOLLOW_UP = [
    SystemMessage("You are a helpful assistant."),
    HumanMessage("Let's talk about Lena's swimming lessons."),
    AIMessage("Sure, what would you like to know?"),
    HumanMessage("What time do they start now?"),
]


def _follow_up_chef(**config: object) -> ContextChef:
    chef = ContextChef(
        store=InMemoryStore(),
        memory=MemoryConfig(selector=Relevant(limit=1), **config),  # type: ignore[arg-type]
    )
    memory = chef.get_memory()
    memory.set("swim", "Lena's swimming lessons are on Saturdays at 10:00")
    memory.set("gym", "Gym classes start at 07:00")
    return chef


def test_a_follow_up_finds_its_entry_with_the_default_query_turns_and_not_with_one() -> None:
    assert MemoryConfig().query_turns > 1
    assert _follow_up_chef().compile(_FOLLOW_UP).meta.injected_keys == ["swim"]
    # The last message alone names no subject; its "start" points at the gym instead.
    last_only = _follow_up_chef(query_turns=1).compile(_FOLLOW_UP)
    assert last_only.meta.injected_keys == ["gym"]


def test_query_decay_weighs_the_earlier_turn_through_the_compile() -> None:
    seen: list[tuple[tuple[str, float], ...]] = []

    def record(entries: list[MemoryEntry], context: SelectionContext) -> list[MemoryEntry]:
        seen.append(context.weighted_query())
        return list(entries)

    for decay in (0.5, 0.25):
        chef = ContextChef(
            store=InMemoryStore(),
            memory=MemoryConfig(selector=context_selector(record), query_decay=decay),
        )
        chef.get_memory().set("k", "v")
        chef.compile(_FOLLOW_UP)
    assert seen == [
        (("What time do they start now?", 1.0), ("Let's talk about Lena's swimming lessons.", 0.5)),
        (
            ("What time do they start now?", 1.0),
            ("Let's talk about Lena's swimming lessons.", 0.25),
        ),
    ]


def test_query_assistant_weight_puts_the_assistant_turn_in_the_query() -> None:
    messages = [
        HumanMessage("What does Lena do on weekends?"),
        AIMessage("She has swimming lessons."),
        HumanMessage("What time do they start?"),
    ]
    searched: dict[float, list[str]] = {}
    chosen: dict[float, list[str]] = {}
    for weight in (0.0, 1.0):
        model = CountingEmbeddings()
        config = MemoryConfig(selector=Relevant(limit=1), query_assistant_weight=weight)
        chef = ContextChef(store=InMemoryStore(index={"dims": 64, "embed": model}), memory=config)
        # The choice is checked on keywords: with word-hash vectors and two entries, the
        # semantic side (each turn searched on its own, the last weighing most) only sees
        # that the last turn shares "start" with the gym entry.
        keyword = ContextChef(store=InMemoryStore(), memory=config)
        for memory in (chef.get_memory(), keyword.get_memory()):
            memory.set("swim", "Swimming lessons at 10:00")
            memory.set("gym", "Gym classes start at 07:00")
        chef.compile(messages)
        chosen[weight] = keyword.compile(messages).meta.injected_keys
        searched[weight] = model.query_texts
    # The store's semantic searches (one per part of the query) and the selector's keyword
    # query both change.
    assert sorted(searched[0.0]) == ["What does Lena do on weekends?", "What time do they start?"]
    assert sorted(searched[1.0]) == [
        "She has swimming lessons.",
        "What does Lena do on weekends?",
        "What time do they start?",
    ]
    assert chosen == {0.0: ["gym"], 1.0: ["swim"]}


def test_recall_index_share_keeps_budget_for_index_rows() -> None:
    store = InMemoryStore()
    indexed: dict[float | None, list[str]] = {}
    shown: dict[float | None, list[str]] = {}
    for share in (None, 0.5):
        chef = ContextChef(
            store=store,
            memory=MemoryConfig(
                selector=Relevant(),
                recall="index",
                token_budget=600,
                recall_index_share=share,
            ),
        )
        if share is None:
            memory = chef.get_memory()
            memory.set("shed", "A hailstorm damaged the garden shed. " + "Repairs due. " * 15)
            for i in range(40):
                memory.set(f"note_{i}", f"Weather note {i}: " + "clouds and rain " * 15)
        payload = chef.compile([HumanMessage("What did the hailstorm damage?")])
        indexed[share], shown[share] = payload.meta.indexed_keys, payload.meta.injected_keys
        assert payload.meta.tokens["memory"] <= 600
    assert len(indexed[0.5]) > len(indexed[None])
    assert len(shown[0.5]) < len(shown[None])
    assert shown[0.5][0] == shown[None][0] == "shed"  # the best entry stays in full


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("query_turns", 0),
        ("query_turns", 1.5),
        ("query_decay", 1.5),
        ("query_decay", -0.1),
        ("query_assistant_weight", 2),
        ("query_assistant_weight", True),
        ("recall_index_share", 1.0),
        ("recall_index_share", -0.5),
    ],
)
def test_invalid_query_and_recall_split_settings_raise(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        MemoryConfig(**{field: value})  # type: ignore[arg-type]
