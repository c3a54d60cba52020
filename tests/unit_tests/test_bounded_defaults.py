"""The defaults keep the prompt and every tool result bounded, and hide nothing silently.

With the default `MemoryConfig` the memory block has a token budget and a relevance selector,
and what does not fit in full is listed in `<memory_index>` or counted, every entry staying
readable by key; notes have a size limit; folder listings and searches come one page at a
time, headed by their total.
"""

from __future__ import annotations

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.store.base import PutOp
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import token_counter
from langchain_contextchef.memory.config import DEFAULT_TOKEN_BUDGET
from langchain_contextchef.selectors import Relevant

_WORDS = [
    "garden",
    "kettle",
    "harbour",
    "lantern",
    "meadow",
    "orchard",
    "pebble",
    "quarry",
    "ribbon",
    "saddle",
    "timber",
    "umbrella",
    "valley",
    "window",
    "yarrow",
    "zephyr",
    "anchor",
    "basket",
    "candle",
    "dahlia",
]


def _prose(i: int, size: int) -> str:
    """Plain words (nothing the write gate flags), `size` characters, different per `i`."""
    words = [_WORDS[(i * 7 + n * 3 + n // 5) % len(_WORDS)] for n in range(size // 4)]
    text = f"Note {i} about the {_WORDS[i % len(_WORDS)]} project: " + " ".join(words)
    return text[:size]


def _memory_block(payload_text: str) -> str:
    # The instruction above the block names <memory> too; the block (and its index) is last.
    return payload_text[payload_text.rindex("<memory>") :]


def test_300_large_model_writes_stay_within_the_default_budget_and_readable_by_key() -> None:
    chef = ContextChef(store=InMemoryStore())  # every default
    count = token_counter(MemoryConfig().token_counter).text
    written: dict[str, str] = {}
    for i in range(300):
        key, value = f"note_{i:03d}", _prose(i, 4_000)
        result = chef.handle_tool(
            {"name": "create_memory", "arguments": {"key": key, "value": value}}
        )
        assert not str(result).startswith("Error"), result
        written[key] = value
        if i % 10 == 9:
            question = f"What did I note about the {_WORDS[i % len(_WORDS)]} project?"
            payload = chef.compile([SystemMessage("sys"), HumanMessage(question)])
            block = _memory_block(payload.messages[1].text)
            assert count(block) <= DEFAULT_TOKEN_BUDGET
            assert payload.meta.tokens["memory"] <= DEFAULT_TOKEN_BUDGET
            meta = payload.meta
            # Nothing hidden silently: every key is shown, listed, or counted as over budget.
            seen = set(meta.injected_keys) | set(meta.indexed_keys) | set(meta.omitted)
            assert seen == set(written)
            assert set(meta.omitted.values()) <= {"budget"}
            assert 0 < len(meta.injected_keys) < len(written) or len(written) <= 1
    # Recall mode keeps room for index rows even when full entries could fill the budget.
    assert len(meta.indexed_keys) >= 10
    assert "<memory_index>" in block
    assert f"{len(meta.omitted)} more stored entries are not shown here" in block
    for key, value in written.items():
        assert chef.handle_tool({"name": "recall_memory", "arguments": {"key": key}}) == value


def test_only_a_budget_set_still_selects_by_relevance() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(token_budget=300))
    memory = chef.get_memory()
    for i in range(40):
        memory.set(f"filler_{i:02d}", _prose(i, 400))
    memory.set("pets", "Has a cat named Miso.")
    for i in range(40, 60):
        memory.set(f"filler_{i:02d}", _prose(i, 400))
    payload = chef.compile([HumanMessage("What is my cat called?")])
    assert payload.meta.injected_keys[0] == "pets"
    assert isinstance(MemoryConfig(token_budget=300).active_selector, Relevant)


def test_token_budget_none_injects_everything_in_creation_order() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig(token_budget=None))
    memory = chef.get_memory()
    keys = [f"k{i:02d}" for i in range(30)]
    for i, key in enumerate(keys):
        memory.set(key, _prose(i, 2_000))
    payload = chef.compile([HumanMessage("What is my cat called?")])
    assert payload.meta.injected_keys == keys
    assert payload.meta.indexed_keys == [] and payload.meta.omitted == {}


def test_a_one_megabyte_note_is_refused_with_the_limit() -> None:
    chef = ContextChef(store=InMemoryStore(), tools="unified")
    text = "plain words " * 87_382  # about 1 MB
    reply = chef.handle_tool(
        {
            "name": "context",
            "arguments": {"command": "create", "path": "notes/big.md", "file_text": text},
        }
    )
    assert str(reply).startswith("Error:")
    assert "the limit is 100,000" in str(reply)
    listing = chef.handle_tool(
        {"name": "context", "arguments": {"command": "view", "path": "notes/"}}
    )
    assert "big.md" not in str(listing)  # nothing stored


def test_a_folder_view_of_100000_keys_is_one_page_with_the_total() -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, tools="unified")
    memory = chef.get_memory()
    memory.set("k000000", "first")  # through the API, so the scope exists as usual
    entry = memory.get_entry("k000000")
    assert entry is not None
    ops = [
        PutOp(memory.namespace, f"k{i:06d}", {**entry.to_stored(), "value": f"v{i}"}, index=False)
        for i in range(1, 100_000)
    ]
    store.batch(ops)

    def view(**extra: object) -> str:
        args = {"command": "view", "path": "memory/", **extra}
        return str(chef.handle_tool({"name": "context", "arguments": args}))

    first = view()
    lines = first.splitlines()
    assert lines[0] == "context://memory/ (100,000 entries; showing 1 to 100):"
    assert len(lines) == 102 and lines[1].startswith("- context://memory/k000000")
    assert "offset=100" in lines[-1]
    second = view(offset=100).splitlines()
    assert second[0] == "context://memory/ (100,000 entries; showing 101 to 200):"
    assert second[1].startswith("- context://memory/k000100")
    assert len(first) < 10_000
    assert view(offset=-1).startswith("Error:")


def test_a_search_is_paged_with_its_total() -> None:
    chef = ContextChef(store=InMemoryStore(), tools="unified")
    memory = chef.get_memory()
    for i in range(120):
        memory.set(f"k{i:03d}", f"value {i}")

    def search(**extra: object) -> list[str]:
        args = {"command": "search", "path": "memory/", "query": "value", **extra}
        return str(chef.handle_tool({"name": "context", "arguments": args})).splitlines()

    head, *hits = search()
    assert head == '120 matches for "value" under context://memory/ (showing 1 to 50):'
    assert len(hits) == 51 and hits[0].startswith("- context://memory/k000")
    assert "offset=50" in hits[-1]
    head, *hits = search(offset=100)
    assert head.endswith("(showing 101 to 120):") and len(hits) == 20
    assert hits[-1].startswith("- context://memory/k119")
    assert search(offset=500)[0].startswith("120 matches") and len(search(offset=500)) == 1
