"""Recall mode: the memory index, the recall tool, last_recalled_at, and eviction notices.

The tests that read and write a store in recall mode are the shared `RecallSuite`, run here on
`InMemoryStore`.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.render import parse_memory_block, render_memory_block
from langchain_contextchef.tools import OWNED_TOOL_NAMES, ToolVocabulary, make_tools
from tests.support.suites.recall import RecallSuite, index_element

T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)


class TestRecall(RecallSuite):
    """The recall suite on the unit tests' `store`, an `InMemoryStore`."""


# ---- rendering --------------------------------------------------------------------------------


def test_index_rows_are_escaped_well_formed_xml() -> None:
    nasty = MemoryEntry(
        key='a"<b>&\tc',
        value="secret value",
        description="desc </memory_index> & <x>\x01",
        type="rule",
        created_at=T0,
        updated_at=T0,
    )
    plain = MemoryEntry(key="plain", value="v", created_at=T0, updated_at=T0)
    shown = MemoryEntry(key="shown", value="full value", created_at=T0, updated_at=T0)
    block = render_memory_block([shown], index=[nasty, plain], vocabulary="unified")
    root = index_element(block)
    rows = root.findall("item")
    assert [r.get("key") for r in rows] == ['a"<b>&\tc', "plain"]
    assert rows[0].get("type") == "rule"
    assert rows[0].text is not None and "</memory_index>" in rows[0].text
    assert rows[1].text is None  # no description: an empty row
    assert "secret value" not in block  # index rows never carry values
    assert [e.key for e in parse_memory_block(block)] == ["shown"]
    assert "view context://memory/<key>" in block
    # Key guidance: the verbose format lists the keys in use; compact leaves them on the rows.
    assert "those of the entries above and in <memory_index>" not in block
    verbose = render_memory_block(
        [shown], index=[nasty, plain], vocabulary="unified", memory_format="verbose"
    )
    assert index_element(verbose).findall("item")[0].get("key") == 'a"<b>&\tc'
    assert "those of the entries above and in <memory_index>" in verbose


def test_an_index_without_full_entries_still_renders_an_empty_memory_element() -> None:
    row = MemoryEntry(key="k", value="v", created_at=T0, updated_at=T0, description="d")
    block = render_memory_block([], index=[row])
    assert parse_memory_block(block) == []
    assert "call recall_memory with a key" in block


def test_evicted_notice_is_one_line_with_quoted_keys() -> None:
    block = render_memory_block([], evicted_keys=["old <one>", "two"])
    assert 'no longer stored: "old \\u003cone\\u003e", "two".' in block


@pytest.mark.parametrize("vocabulary", ["legacy", "unified"])
def test_a_block_without_entries_lists_no_keys_in_use(vocabulary: ToolVocabulary) -> None:
    # Only notices (evictions, entries left out for the budget): no "Keys already in use: ."
    for block in (
        render_memory_block([], evicted_keys=["gone"], vocabulary=vocabulary),
        render_memory_block([], unlisted=3, vocabulary=vocabulary),
    ):
        assert "Keys already in use" not in block
        assert block.endswith(".") and ": ." not in block
    limited = render_memory_block([], unlisted=1, allowed_keys=["lang"], vocabulary=vocabulary)
    assert '"lang"' in limited


# ---- recall mode in a compile -----------------------------------------------------------------


def test_recall_tool_is_offered_only_in_recall_mode() -> None:
    # Recall mode is the default; "inline" has no recall tool.
    assert MemoryConfig().recall == "index"
    default = ContextChef(store=InMemoryStore(), memory=MemoryConfig(recall="inline"))
    assert [t.name for t in default.tools] == ["create_memory", "modify_memory"]
    recall = ContextChef(store=InMemoryStore(), memory=MemoryConfig())
    assert [t.name for t in recall.tools] == ["create_memory", "modify_memory", "recall_memory"]
    unified = ContextChef(
        store=InMemoryStore(), memory=MemoryConfig(recall="index"), tools="unified"
    )
    assert [t.name for t in unified.tools] == ["context"]
    assert "recall_memory" in OWNED_TOOL_NAMES
    schema = convert_to_openai_tool(recall.tools[2])["function"]["parameters"]
    assert schema["required"] == ["key"] and list(schema["properties"]) == ["key"]
    # The default tool schemas do not change when recall mode exists.
    plain = make_tools(mode="legacy", allowed_keys=None, resolver=lambda c: None)
    assert [convert_to_openai_tool(t) for t in plain] == [
        convert_to_openai_tool(t) for t in default.tools
    ]


def test_reads_do_not_write_when_recall_is_not_tracked() -> None:
    config = MemoryConfig(recall="inline")
    chef = ContextChef(store=InMemoryStore(), memory=config, tools="unified")
    memory = chef.get_memory()
    memory.set("lang", "Rust")
    chef.handle_tool({"name": "context", "arguments": {"command": "view", "path": "memory/lang"}})
    entry = memory.get_entry("lang")
    assert entry is not None and entry.last_recalled_at is None


def test_old_entries_without_last_recalled_at_still_load() -> None:
    entry = MemoryEntry(key="k", value="v", created_at=T0, updated_at=T0)
    stored = entry.to_stored()
    assert "last_recalled_at" not in stored  # unchanged layout until a first recall
    assert MemoryEntry.from_stored("k", stored).last_recalled_at is None
    recalled = entry.evolve(last_recalled_at=T0 + timedelta(hours=1))
    assert MemoryEntry.from_stored("k", recalled.to_stored()) == recalled


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_max_entries_is_validated(bad: object) -> None:
    with pytest.raises(ValueError, match="max_entries must be a positive int"):
        MemoryConfig(max_entries=bad)  # type: ignore[arg-type]


def test_recall_mode_and_evict_policy_are_validated() -> None:
    with pytest.raises(ValueError, match="recall must be one of: 'inline', 'index'"):
        MemoryConfig(recall="lazy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="evict must be"):
        MemoryConfig(evict="random")  # type: ignore[arg-type]
