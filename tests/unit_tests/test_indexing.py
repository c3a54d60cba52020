"""What the store's vector index embeds: what identifies an entry, once per change, never
bookkeeping; and the developer's own index fields when the store names some."""

from __future__ import annotations

from langchain_core.embeddings import Embeddings
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, Memory, MemoryConfig, Relevant
from langchain_contextchef.memory._context import ABOUT_FIELD
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


def _indexed(fields: list[str] | None = None) -> tuple[InMemoryStore, CountingEmbeddings]:
    embed = CountingEmbeddings()
    index: dict[str, object] = {"dims": 256, "embed": embed}
    if fields is not None:
        index["fields"] = fields
    return InMemoryStore(index=index), embed  # type: ignore[arg-type]


def test_an_entry_is_embedded_by_its_key_description_and_value_once_per_change() -> None:
    store, embed = _indexed()
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


def test_compiles_never_embed_bookkeeping_and_embed_the_query_at_most_once() -> None:
    store, embed = _indexed()
    chef = ContextChef(store=store, memory=MemoryConfig(selector=Relevant()))
    memory = chef.get_memory()
    for i in range(5):
        memory.set(f"k{i}", f"fact number {i}")
    embed.documents.clear()
    for question in ("what is fact 3?", "and fact 4?", "and 1?"):
        chef.compile([HumanMessage(question)])
    assert embed.documents == []  # the turn clock, the stamp, notes of eviction: never
    assert len(embed.queries) == 3


def test_the_developer_s_index_fields_are_honoured() -> None:
    store, embed = _indexed(fields=["value"])
    memory = Memory(store)
    memory.set("k", "only the value", description="not this")
    assert embed.documents == ["only the value"]
    memory.set("k", "only the value", importance=2)  # no text changed: no new embedding
    assert embed.documents == ["only the value"]
    item = store.get(memory.namespace, "k")
    assert item is not None and ABOUT_FIELD not in item.value


def test_no_index_no_extra_field() -> None:
    memory = Memory(InMemoryStore())
    memory.set("k", "v")
    item = memory.store.get(memory.namespace, "k")
    assert item is not None and ABOUT_FIELD not in item.value
