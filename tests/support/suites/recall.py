"""The recall suite: recall mode, the recall tool, `last_recalled_at` and eviction on the
`store` fixture.

Subclass `RecallSuite` in a test module whose fixtures provide `store`: the unit tests run it
on `InMemoryStore`, the integration tests on SQLite, the file system and PostgreSQL.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.store.base import BaseStore

from langchain_contextchef import ContextChef, Memory, MemoryConfig
from langchain_contextchef.entry import MemoryChangeEvent
from langchain_contextchef.selectors import Relevant
from tests.support.clocks import NOW, FakeClock


def one_second_clock() -> FakeClock:
    """A clock whose readings are one second apart, the first one second after `NOW`."""
    return FakeClock(start=NOW + timedelta(seconds=1), tick=timedelta(seconds=1))


def index_element(text: str) -> ET.Element:
    """The `<memory_index>` element of a rendered block."""
    start = text.index("<memory_index>")
    end = text.index("</memory_index>") + len("</memory_index>")
    return ET.fromstring(text[start:end])


def recall_chef(store: BaseStore, **config: object) -> ContextChef:
    """A chef in recall mode that injects the one most relevant entry in full."""
    memory = MemoryConfig(recall="index", selector=Relevant(limit=1), **config)  # type: ignore[arg-type]
    return ContextChef(store=store, memory=memory, clock=one_second_clock())


class RecallSuite:
    """Recall mode and eviction against the `store` fixture."""

    def test_recall_mode_injects_selected_in_full_and_indexes_the_rest(
        self, store: BaseStore
    ) -> None:
        chef = recall_chef(store)
        memory = chef.get_memory()
        memory.set("pets", "Has a cat named Miso", description="The user's pets")
        memory.set("lang", "Writes Rust at work", description="Programming languages", type="fact")
        memory.set("tone", "Dry humour welcome")
        payload = chef.compile([SystemMessage("sys"), HumanMessage("what is my cat called?")])
        text = payload.messages[1].text
        assert payload.meta.injected_keys == ["pets"]
        assert payload.meta.indexed_keys == ["lang", "tone"]
        assert payload.meta.omitted == {}
        assert "Has a cat named Miso" in text and "Writes Rust" not in text
        rows = index_element(text).findall("item")
        assert [(r.get("key"), r.get("type"), r.text) for r in rows] == [
            ("lang", "fact", "Programming languages"),
            ("tone", None, None),
        ]

    def test_recall_tool_reads_in_full_and_records_the_time(self, store: BaseStore) -> None:
        chef = recall_chef(store)
        memory = chef.get_memory()
        memory.set("lang", "Writes Rust at work")
        before = memory.get_entry("lang")
        assert before is not None and before.last_recalled_at is None
        text = chef.handle_tool({"name": "recall_memory", "arguments": {"key": "lang"}})
        assert text == "Writes Rust at work"
        after = memory.get_entry("lang")
        assert after is not None and after.last_recalled_at is not None
        assert after.last_recalled_at > before.updated_at
        # Recording a recall is not a change.
        assert (after.version, after.updated_at, after.value) == (
            before.version,
            before.updated_at,
            before.value,
        )
        missing = chef.handle_tool({"name": "recall_memory", "arguments": {"key": "nope"}})
        assert missing == "Error: nothing is stored at context://memory/nope."

    def test_context_view_also_records_the_recall(self, store: BaseStore) -> None:
        chef = ContextChef(store=store, memory=MemoryConfig(recall="index"), tools="unified")
        memory = chef.get_memory()
        memory.set("lang", "Rust")
        view = {"name": "context", "arguments": {"command": "view", "path": "memory/lang"}}
        assert chef.handle_tool(view) == "Rust"
        entry = memory.get_entry("lang")
        assert entry is not None and entry.last_recalled_at is not None

    # ---- eviction --------------------------------------------------------------------------------

    def test_eviction_removes_the_least_recently_used_never_the_written_key(
        self,
        store: BaseStore,
    ) -> None:
        events: list[MemoryChangeEvent] = []
        memory = Memory(
            store,
            MemoryConfig(recall="index", max_entries=3, on_memory_changed=events.append),
            clock=one_second_clock(),
        )
        for key in ["a", "b", "c"]:
            memory.set(key, key)
        memory.recall("a")  # a is now the most recently used
        memory.set("b", "b2")  # b is rewritten: also recent
        memory.set("d", "d")
        assert sorted(e.key for e in memory.list()) == ["a", "b", "d"]
        assert [(e.type, e.key) for e in events if e.type == "evict"] == [("evict", "c")]
        history = memory.history("c")
        assert history and "evicted" in (history[-1].note or "")

    def test_the_written_key_survives_even_when_it_is_the_oldest(self, store: BaseStore) -> None:
        clock = one_second_clock()
        memory = Memory(store, MemoryConfig(max_entries=1), clock=clock)
        memory.set("existing", "recent")
        for _ in range(3):
            memory.recall("existing")
        memory.set("new", "just written")
        assert [e.key for e in memory.list()] == ["new"]

    def test_the_model_is_told_once_next_turn(self, store: BaseStore) -> None:
        chef = ContextChef(
            store=store, memory=MemoryConfig(max_entries=2), clock=one_second_clock()
        )
        memory = chef.get_memory()
        memory.set("a", "1")
        memory.set("b", "2")
        chef.handle_tool({"name": "create_memory", "arguments": {"key": "c", "value": "3"}})
        first = chef.compile([HumanMessage("hi")])
        assert first.meta.evicted_keys == ["a"]
        assert (
            'Removed since your last turn to keep memory within its size limit, and no longer stored: "a".'
            in (first.messages[0].text)
        )
        second = chef.compile([HumanMessage("hi again")])
        assert second.meta.evicted_keys == []
        assert "Removed since your last turn" not in second.messages[0].text
