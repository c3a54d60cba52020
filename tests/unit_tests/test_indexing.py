"""What the store's vector index embeds: what identifies an entry, once per change, never
bookkeeping; and the developer's own index fields when the store names some."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeAlias

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, Memory, MemoryConfig, Relevant
from langchain_contextchef.memory._context import ABOUT_FIELD
from langchain_contextchef.store import FileSystemStore
from tests.support.embeddings import WordHashEmbeddings


class CountingEmbeddings(Embeddings):
    """Word-hash vectors that record every text they embed."""

    def __init__(self) -> None:
        self.inner = WordHashEmbeddings()
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += texts
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return self.inner.embed_query(text)


Indexed: TypeAlias = Callable[..., tuple[BaseStore, CountingEmbeddings]]


@pytest.fixture(params=["memory", "filesystem"])
def indexed(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Indexed]:
    """Makes an indexed store of the backend under test, and its counting embeddings.

    The issue's embedding defects were on `FileSystemStore` (the turn clock embedded on every
    compile, a recall re-embedding an unchanged value), so every count runs on both.
    """
    with ExitStack() as stack:

        def make(fields: list[str] | None = None) -> tuple[BaseStore, CountingEmbeddings]:
            embed = CountingEmbeddings()
            index: dict[str, Any] = {"dims": 256, "embed": embed}
            if fields is not None:
                index["fields"] = fields
            if request.param == "memory":
                return InMemoryStore(index=index), embed  # type: ignore[arg-type]
            store = FileSystemStore(tmp_path / "store", index=index)  # type: ignore[arg-type]
            return stack.enter_context(store), embed

        yield make


def test_an_entry_is_embedded_by_its_key_description_and_value_once_per_change(
    indexed: Indexed,
) -> None:
    store, embed = indexed()
    memory = Memory(store, MemoryConfig(recall="index"))
    memory.set("food_allergies", "shellfish", description="What the user cannot eat")
    assert embed.documents == ["food allergies (What the user cannot eat): shellfish"]
    memory.set("food_allergies", "shellfish", importance=3, type="fact")  # same text
    memory.recall("food_allergies")  # records last_recalled_at, not a change of text
    assert len(embed.documents) == 1
    memory.set("food_allergies", "shellfish and peanuts")
    assert len(embed.documents) == 2
    item = store.get(memory.namespace, "food_allergies")
    assert item is not None and ABOUT_FIELD in item.value


def test_compiles_never_embed_bookkeeping_and_embed_the_query_at_most_once(
    indexed: Indexed,
) -> None:
    store, embed = indexed()
    chef = ContextChef(store=store, memory=MemoryConfig(selector=Relevant()))
    memory = chef.get_memory()
    for i in range(5):
        memory.set(f"k{i}", f"fact number {i}")
    embed.documents.clear()
    for question in ("what is fact 3?", "and fact 4?", "and 1?"):
        chef.compile([HumanMessage(question)])
    assert embed.documents == []  # the turn clock, the stamp, notes of eviction: never
    assert len(embed.queries) == 3


def test_the_developer_s_index_fields_are_honoured(indexed: Indexed) -> None:
    store, embed = indexed(fields=["value"])
    memory = Memory(store)
    memory.set("k", "only the value", description="not this")
    assert embed.documents == ["only the value"]
    memory.set("k", "only the value", importance=2)  # no text changed: no new embedding
    assert embed.documents == ["only the value"]
    item = store.get(memory.namespace, "k")
    assert item is not None and ABOUT_FIELD not in item.value


@pytest.mark.parametrize("selector", [None, Relevant()], ids=["no-selector", "relevant"])
def test_recall_mode_embeds_once_per_changed_entry_and_once_per_compile_at_most(
    indexed: Indexed, selector: Relevant | None
) -> None:
    store, embed = indexed()
    # No selector at all: without a token budget (the default has one, and ranks with
    # Relevant under it) a compile runs none.
    budget = MemoryConfig().token_budget if selector is not None else None
    config = MemoryConfig(selector=selector, recall="index", token_budget=budget)
    chef = ContextChef(store=store, memory=config)
    memory = chef.get_memory()
    for i in range(6):
        memory.set(f"k{i}", f"fact number {i}", description=f"about {i}")
    assert len(embed.documents) == 6 and embed.queries == []
    questions = ("what is fact 3?", "and fact 4?", "and 1?")
    for question in questions:
        chef.compile([HumanMessage(question)])
    # A recall reads an entry in full and records when: bookkeeping, not a change of text.
    reply = chef.handle_tool({"name": "recall_memory", "arguments": {"key": "k2"}})
    assert "fact number 2" in reply
    recalled = memory.get_entry("k2")
    assert recalled is not None and recalled.last_recalled_at is not None
    chef.compile([HumanMessage("and 2?")])
    assert len(embed.documents) == 6  # no compile, clock, stamp or recall embedded anything
    searches = len(embed.queries)
    # The store's semantic search is the only query embedding: once per compile, and only
    # when the selector uses it.
    assert searches == (4 if selector is not None else 0)
    memory.set("k5", "fact number five, changed")
    memory.set("k4", "fact number 4", description="about 4")  # the same text: no embedding
    assert embed.documents[6:] == ["k5 (about 5): fact number five, changed"]
    chef.compile([HumanMessage("five?")])
    assert len(embed.documents) == 7
    assert len(embed.queries) == searches + (1 if selector is not None else 0)


def test_no_index_no_extra_field() -> None:
    memory = Memory(InMemoryStore())
    memory.set("k", "v")
    item = memory.store.get(memory.namespace, "k")
    assert item is not None and ABOUT_FIELD not in item.value
