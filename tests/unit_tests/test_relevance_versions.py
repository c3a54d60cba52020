"""Newer over older by meaning: the entries' own vectors tell two versions of one subject."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors import (
    EntryVectors,
    Relevant,
    Rerank,
    SelectionContext,
)
from langchain_contextchef.selectors._text_features import FeatureCache
from tests.support.embeddings import WordHashEmbeddings
from tests.support.entries import T0, entry, keys
from tests.support.selectors import SpySelector

pytest.importorskip("numpy")  # the comparison of entry vectors is one NumPy product

OLD = entry("home", "Lives in Berlin, Kreuzberg", age_days=300)
NEW = entry("relocation", "Settled in Lisbon since May", age_days=20)
# Unit vectors: the two versions close to each other, the rest far from both and each other.
_NEAR_OLD = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
_NEAR_NEW = (0.8, 0.6, 0.0, 0.0, 0.0, 0.0)


def _vectors(table: Mapping[str, Sequence[float]]) -> EntryVectors:
    def vectors(entries: Sequence[MemoryEntry]) -> list[Sequence[float] | None]:
        return [table.get(e.key) for e in entries]

    return vectors


def _others(count: int) -> list[MemoryEntry]:
    return [entry(f"note_{i}", f"Bought seeds for the allotment, packet {i}") for i in range(count)]


def _far(count: int) -> dict[str, Sequence[float]]:
    # Each filler on its own axis pair, far from the two versions and from each other.
    out: dict[str, Sequence[float]] = {}
    for i in range(count):
        vector = [0.0] * (count + 6)
        vector[6 + i] = 1.0
        out[f"note_{i}"] = vector
    return out


def _padded(vector: Sequence[float], dims: int) -> list[float]:
    return [*vector, *([0.0] * (dims - len(vector)))]


@pytest.mark.parametrize("make", [Relevant, Rerank])
def test_two_versions_sharing_no_word_are_ordered_newer_first_with_their_vectors(
    make: type[Relevant] | type[Rerank],
) -> None:
    entries = [OLD, NEW, *_others(3)]
    dims = 3 + 6
    table = {"home": _padded(_NEAR_OLD, dims), "relocation": _padded(_NEAR_NEW, dims)}
    table.update({k: _padded(v, dims) for k, v in _far(3).items()})
    # The question is about the old version's words; the new one is far less similar to it,
    # so neither words nor the question's similarity say they are one subject.
    semantic = {"home": 0.82, "relocation": 0.41, "note_0": 0.2, "note_1": 0.1}
    plain = SelectionContext(query="Do I still live in Berlin?", now=T0, relevance=semantic)
    before = keys(make(cache=FeatureCache()).select(entries, plain))
    assert before.index("home") < before.index("relocation")
    with_vectors = SelectionContext(
        query="Do I still live in Berlin?",
        now=T0,
        relevance=semantic,
        entry_vectors=_vectors(table),
    )
    ranked = keys(make(cache=FeatureCache()).select(entries, with_vectors))
    assert ranked[:2] == ["relocation", "home"]
    assert sorted(ranked) == sorted(before)  # nothing added or lost


def test_an_entry_far_in_meaning_is_not_taken_as_a_version() -> None:
    entries = [OLD, NEW, *_others(3)]
    dims = 3 + 6
    # The closest entry to the old version is the new one, but not close enough.
    table = {
        "home": _padded((1.0, 0.0), dims),
        "relocation": _padded((0.3, 0.954), dims),
        **{k: _padded(v, dims) for k, v in _far(3).items()},
    }
    semantic = {"home": 0.82, "relocation": 0.41, "note_0": 0.2}
    context = SelectionContext(
        query="Do I still live in Berlin?",
        now=T0,
        relevance=semantic,
        entry_vectors=_vectors(table),
    )
    ranked = keys(Relevant(cache=FeatureCache()).select(entries, context))
    assert ranked.index("home") < ranked.index("relocation")


def test_a_newer_version_below_the_best_entries_is_brought_in_above_the_old_one() -> None:
    # Fifty entries match the question's words better than the new version, which only the
    # semantic search finds: it ranks below the window the selector compares.
    old = entry("home", "Lives in Berlin, Kreuzberg; Berlin flat", age_days=300)
    others = [
        entry(f"trip_{i}", f"Berlin trip {i}: museums in Berlin", age_days=50) for i in range(50)
    ]
    entries = [old, *others, NEW]
    dims = 60
    table = {"home": _padded(_NEAR_OLD, dims), "relocation": _padded(_NEAR_NEW, dims)}
    for i in range(50):
        vector = [0.0] * dims
        vector[6 + i] = 1.0
        table[f"trip_{i}"] = vector
    semantic = {"home": 0.9, "relocation": 0.3, **{f"trip_{i}": 0.5 for i in range(49)}}
    semantic["trip_49"] = 0.1  # the lowest: the new version keeps some relevance
    query = "Which Berlin district is my flat in?"
    plain = SelectionContext(query=query, now=T0, relevance=semantic, token_budget=400)
    before = keys(Relevant(cache=FeatureCache()).select(entries, plain))
    assert before[0] == "home" and before.index("relocation") > 40
    context = SelectionContext(
        query=query,
        now=T0,
        relevance=semantic,
        token_budget=400,
        entry_vectors=_vectors(table),
    )
    after = keys(Relevant(cache=FeatureCache()).select(entries, context))
    assert after[:2] == ["relocation", "home"]
    assert sorted(after) == sorted(before)  # moved, not repeated


def test_the_compile_hands_the_selector_the_vectors_the_store_holds() -> None:
    model = WordHashEmbeddings(32)
    store = InMemoryStore(index={"dims": 32, "embed": model})
    spy = SpySelector()
    chef = ContextChef(store=store, memory=MemoryConfig(selector=spy, token_budget=1_000))
    memory = chef.get_memory()
    memory.set("home", "Lives in Berlin", description="where the user lives")
    memory.set("tea", "Prefers green tea")
    chef.compile([HumanMessage("Where do I live?")])
    context = spy.seen[-1]
    assert context.entry_vectors is not None
    home, tea = spy.entries["home"], spy.entries["tea"]
    got = context.entry_vectors([home, tea])
    # The vectors of the texts the store indexed (key, description, value), not recomputed.
    assert (
        list(got[0] or ())
        == model.embed_documents(["home (where the user lives): Lives in Berlin"])[0]
    )
    assert list(got[1] or ()) == model.embed_documents(["tea: Prefers green tea"])[0]


def test_no_vectors_without_an_index() -> None:
    spy = SpySelector()
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(selector=spy, token_budget=500))
    chef.get_memory().set("home", "Lives in Berlin")
    chef.compile([HumanMessage("Where do I live?")])
    assert spy.seen[-1].relevance is None and spy.seen[-1].entry_vectors is None


def test_a_herd_of_numbered_log_entries_does_not_hide_a_version() -> None:
    # Three log entries of one key family are closer to the old entry than its new version
    # is: as a herd they are events, not versions, and the two versions still pair.
    old = entry("hobby_birding", "Birdwatching at Wheldrake Ings most weekends", age_days=400)
    new = entry("patch_new", "Now goes to Askham Bog instead", age_days=10)
    logs = [
        entry(f"birding/log_2024_0{i}", f"Saw a curlew and waders, outing {i}", age_days=60 + i)
        for i in range(1, 4)
    ]
    dims = 12
    table: dict[str, Sequence[float]] = {
        "hobby_birding": _padded((1.0, 0.0, 0.0), dims),
        "patch_new": _padded((0.75, 0.66, 0.0), dims),
    }
    for i, log in enumerate(logs):
        vector = [0.9, 0.0, 0.0] + [0.0] * (dims - 3)
        vector[3 + i] = 0.436
        table[log.key] = vector
    other = entry("tea", "Prefers green tea")  # the least similar: the new one keeps a score
    table["tea"] = _padded((0.0, 0.0, 1.0), dims)
    semantic = {"hobby_birding": 0.8, "patch_new": 0.4, "tea": 0.1}
    semantic.update({log.key: 0.6 for log in logs})
    context = SelectionContext(
        query="Where do I go birdwatching?",
        now=T0,
        relevance=semantic,
        token_budget=1_000,
        entry_vectors=_vectors(table),
    )
    ranked = keys(Relevant(cache=FeatureCache()).select([old, *logs, new, other], context))
    assert ranked.index("patch_new") < ranked.index("hobby_birding")
    # Fewer than three of a family are no herd: the nearest log entry then takes the old one,
    # and a new version that does not say it changed (see `test_relevance_changes`) is not
    # paired with it.
    plain = entry("patch", "Goes to Askham Bog on Sundays", age_days=10)
    table["patch"] = table["patch_new"]
    semantic["patch"] = semantic["patch_new"]
    few = keys(Relevant(cache=FeatureCache()).select([old, *logs[:2], plain, other], context))
    assert few.index("hobby_birding") < few.index("patch")
