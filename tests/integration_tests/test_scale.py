"""10,000 entries under a 2,000-token memory budget: the block fits and the relevant entry is in.

Entries are written in one batch of `PutOp`s in the stored format `MemoryEntry.to_stored()`,
exactly what `Memory` writes, so the compile reads them as any other memory.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import approximate_tokens
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.render import parse_memory_block
from langchain_contextchef.selectors import Relevant, Rerank
from tests.support.embeddings import WordHashEmbeddings

N = 10_000
BUDGET = 2_000
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
TARGET = "staging_db_password_rotation"
QUESTION = "How often is the staging database password rotated?"
TOPICS = ["lunch", "meetings", "editor", "music", "travel", "weather", "desk", "coffee"]


def generic_entries() -> list[MemoryEntry]:
    entries = []
    for i in range(N - 1):
        topic = TOPICS[i % len(TOPICS)]
        moment = T0 + timedelta(seconds=i)
        entries.append(
            MemoryEntry(
                key=f"note_{i:05d}",
                value=f"Observation {i} about {topic}: the user mentioned {topic} again today.",
                description=f"A remark on {topic}",
                created_at=moment,
                updated_at=moment,
            )
        )
    # The relevant entry sits in the middle, neither first nor newest.
    middle = T0 + timedelta(seconds=N // 2, milliseconds=500)
    entries.insert(
        N // 2,
        MemoryEntry(
            key=TARGET,
            value="The staging database password rotation happens every 30 days, on the 1st.",
            description="Staging database password rotation schedule",
            type="fact",
            created_at=middle,
            updated_at=middle,
        ),
    )
    return entries


def fill(store: BaseStore, scope: tuple[str, ...] = ()) -> None:
    namespace = (*scope, "memory")
    store.batch(
        [PutOp(namespace, e.key, e.to_stored(), index=["value"]) for e in generic_entries()]
    )


def compile_question(store: BaseStore, config: MemoryConfig) -> tuple[str, list[str]]:
    chef = ContextChef(store=store, memory=config, clock=lambda: T0 + timedelta(days=1))
    payload = chef.compile([SystemMessage("You are an ops assistant."), HumanMessage(QUESTION)])
    text = payload.messages[1].text
    block = text[text.rindex("<memory>") :]
    assert approximate_tokens(block) <= BUDGET
    assert payload.meta.tokens["memory"] <= BUDGET
    assert [e.key for e in parse_memory_block(block)] == payload.meta.injected_keys
    assert (
        len(payload.meta.omitted) + len(payload.meta.injected_keys) + len(payload.meta.indexed_keys)
        == N
    )
    return block, payload.meta.injected_keys


@pytest.fixture(scope="module")
def keyword_store() -> InMemoryStore:
    store = InMemoryStore()
    fill(store)
    assert len(store.search(("memory",), limit=N + 1)) == N
    return store


@pytest.fixture(scope="module")
def semantic_store() -> InMemoryStore:
    store = InMemoryStore(index={"dims": 128, "embed": WordHashEmbeddings(128)})
    fill(store)
    return store


def test_with_only_a_budget_the_relevant_entry_leads_and_the_rest_is_reported(
    keyword_store: InMemoryStore,
) -> None:
    # Only a budget set: the default selector ranks by relevance (keyword on a store without
    # an index), and what does not fit is listed or counted, never dropped silently.
    block, injected = compile_question(keyword_store, MemoryConfig(token_budget=BUDGET))
    assert 0 < len(injected) < 100
    assert injected[0] == TARGET
    assert "every 30 days" in block
    counted = re.search(r"(\d+) more stored entries are not shown here", block)
    assert counted is not None
    indexed = N - int(counted.group(1)) - len(injected)  # the compact rows in between
    assert 0 <= indexed < 100


@pytest.mark.parametrize("selector", [Relevant(), Rerank()], ids=["relevant", "rerank"])
def test_keyword_path_injects_the_relevant_entry(
    keyword_store: InMemoryStore, selector: Relevant | Rerank
) -> None:
    config = MemoryConfig(token_budget=BUDGET, selector=selector)
    block, injected = compile_question(keyword_store, config)
    assert injected[0] == TARGET
    assert "every 30 days" in block


def test_semantic_path_injects_the_relevant_entry(semantic_store: InMemoryStore) -> None:
    config = MemoryConfig(token_budget=BUDGET, selector=Relevant(search_limit=20, fill=False))
    block, injected = compile_question(semantic_store, config)
    assert injected[0] == TARGET
    # Without filling, only the semantic and keyword hits are candidates: the search and the
    # keyword index, not a scan, chose them.
    assert len(injected) <= 20
    assert "every 30 days" in block


def test_semantic_path_fills_the_budget_after_the_relevant_entries(
    semantic_store: InMemoryStore,
) -> None:
    config = MemoryConfig(token_budget=BUDGET, selector=Relevant(search_limit=20))
    block, injected = compile_question(semantic_store, config)
    assert injected[0] == TARGET
    assert len(injected) > 20  # the next best entries use the rest of the budget
    assert "every 30 days" in block


def test_recall_mode_at_scale_shows_the_relevant_entry_and_an_index(
    keyword_store: InMemoryStore,
) -> None:
    config = MemoryConfig(token_budget=BUDGET, selector=Relevant(limit=3), recall="index")
    chef = ContextChef(store=keyword_store, memory=config, clock=lambda: T0 + timedelta(days=1))
    payload = chef.compile([HumanMessage(QUESTION)])
    text = payload.messages[0].text
    block = text[text.rindex("<memory>") :]
    assert approximate_tokens(block) <= BUDGET
    assert payload.meta.injected_keys[0] == TARGET
    assert len(payload.meta.indexed_keys) > 10
    assert "<memory_index>" in block and "recall_memory" in block
    assert set(payload.meta.omitted.values()) == {"budget"}
