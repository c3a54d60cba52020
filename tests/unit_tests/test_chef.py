"""ContextChef: compile (sweep, advance, select, render, splice), the prompt runnable, tools.

The compile and tool-call tests that read and write a store are the shared `ChefSuite`, run
here on `InMemoryStore`; the rest need no particular store.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.prompt_values import ChatPromptValue
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import (
    ContextChef,
    ContextChefError,
    FileSystemStore,
    MemoryConfig,
    ScopeError,
)
from tests.support.events import EventRecorder
from tests.support.suites.chef import HISTORY, ChefSuite, chef_on


class TestChef(ChefSuite):
    """The `ContextChef` suite on the unit tests' `store`, an `InMemoryStore`."""


async def test_acompile_matches_compile() -> None:
    sync_store, async_store = InMemoryStore(), InMemoryStore()
    for store in (sync_store, async_store):
        chef_on(store).get_memory().set("lang", "Python", description="d")
    sync = chef_on(sync_store).compile(HISTORY, dynamic_state={"a": 1})
    asynchronous = await chef_on(async_store).acompile(HISTORY, dynamic_state={"a": 1})
    assert [m.text for m in sync.messages] == [m.text for m in asynchronous.messages]
    assert sync.meta == asynchronous.meta


def test_memory_disabled_compiles_dynamic_state_only() -> None:
    chef = ContextChef(store=InMemoryStore(), memory=None)
    payload = chef.compile(HISTORY, dynamic_state={"step": 1})
    assert payload.tools == []
    assert [m.type for m in payload.messages] == ["system", "human"]
    assert "<dynamic_state>" in payload.messages[-1].text
    with pytest.raises(ContextChefError, match="memory=None"):
        chef.get_memory()


def test_a_folder_path_opens_a_file_system_store(tmp_path: Path) -> None:
    chef = ContextChef(store=tmp_path / ".context")
    assert isinstance(chef.store, FileSystemStore)
    chef.get_memory().set("k", "v")
    # The entry is in that folder: a store opened there independently reads it back.
    reopened = ContextChef(store=FileSystemStore(tmp_path / ".context"))
    assert reopened.get_memory().get("k") == "v"


def test_no_store_outside_a_graph_is_a_clear_error() -> None:
    with pytest.raises(ContextChefError, match="graph.compile\\(store=...\\)"):
        ContextChef().compile(HISTORY)


def test_a_bad_option_is_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="legacy"):
        ContextChef(store=InMemoryStore(), tools="both")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="last_user"):
        ContextChef(store=InMemoryStore(), dynamic_state_placement="top")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="BaseStore"):
        ContextChef(store=42)  # type: ignore[arg-type]


async def test_ahandle_tool_writes_through_the_model_path() -> None:
    chef = chef_on(InMemoryStore(), memory=MemoryConfig(allowed_keys=["lang"]))
    refused = await chef.ahandle_tool(
        {"name": "create_memory", "arguments": {"key": "x", "value": "1"}}
    )
    assert isinstance(refused, str) and "Allowed keys" in refused
    created = await chef.ahandle_tool(
        {"name": "create_memory", "arguments": {"key": "lang", "value": "Go"}}
    )
    assert created == "Created context://memory/lang."


# ---- the prompt runnable -------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        [HumanMessage("Hi")],
        [("user", "Hi")],
        ChatPromptValue(messages=[HumanMessage("Hi")]),
        "Hi",
        {"messages": [HumanMessage("Hi")]},
    ],
    ids=["messages", "tuples", "prompt-value", "string", "state"],
)
def test_the_runnable_accepts_every_input_shape(value: Any) -> None:
    chef = chef_on(InMemoryStore())
    chef.get_memory().set("lang", "Python")
    out = chef.prompt.invoke(value)
    assert isinstance(out, ChatPromptValue)
    messages = out.to_messages()
    assert messages[-1].text == "Hi"
    assert "Python" in messages[0].text


def test_the_runnable_reads_dynamic_state_from_a_state_mapping() -> None:
    chef = chef_on(InMemoryStore())
    out = chef.prompt.invoke({"messages": [HumanMessage("Hi")], "dynamic_state": {"step": 3}})
    assert "<step>3</step>" in out.to_messages()[-1].text


def test_the_runnable_is_traced_as_a_prompt_run_with_events() -> None:
    chef = chef_on(InMemoryStore())
    chef.get_memory().set("gone", "x", ttl=0)
    recorder = EventRecorder()
    chef.prompt.invoke([HumanMessage("Hi")], {"callbacks": [recorder]})
    assert recorder.runs[0] == ("prompt", "ContextChefPrompt")
    names = [name for name, _ in recorder.events]
    assert names == ["contextchef_memory_changed", "contextchef_compile"]
    assert recorder.events[0][1]["type"] == "expire"
    assert recorder.events[1][1]["expired_keys"] == ["gone"]
    assert set(recorder.events[1][1]) >= {"omitted", "indexed_keys", "evicted_keys", "tokens"}


def test_the_runnable_passes_config_to_scope_templates() -> None:
    chef = chef_on(InMemoryStore(), scope=("users", "{user_id}"))
    config = {"configurable": {"user_id": "alice"}}
    chef.get_memory(config).set("k", "alice-only")
    assert "alice-only" in chef.prompt.invoke("Hi", config).to_messages()[0].text
    with pytest.raises(ScopeError):
        chef.prompt.invoke("Hi")


def test_the_runnable_composes_with_a_chat_model_in_lcel() -> None:
    chef = chef_on(InMemoryStore())
    chef.get_memory().set("lang", "Python")
    model = GenericFakeChatModel(messages=iter([AIMessage("ok")]))
    assert (chef.prompt | model).invoke([HumanMessage("Hi")]).content == "ok"


async def test_the_runnable_works_async() -> None:
    chef = chef_on(InMemoryStore())
    chef.get_memory().set("lang", "Python")
    out = await chef.prompt.ainvoke([HumanMessage("Hi")])
    assert "Python" in out.to_messages()[0].text


# ---- cache stability on the real Anthropic request payload ---------------------------------


def _anthropic_payload(chef: ContextChef, history: list[Any]) -> dict[str, Any]:
    model = ChatAnthropic(model="claude-sonnet-4-5", api_key="sk-test")  # type: ignore[call-arg]
    bound = model.bind_tools(chef.tools)
    payload = chef.compile(history).messages
    return bound.bound._get_request_payload(payload, **bound.kwargs)  # type: ignore[attr-defined,no-any-return]


def test_memory_changes_leave_the_anthropic_prefix_byte_identical() -> None:
    history = [
        SystemMessage("You help."),
        HumanMessage("Plan the release."),
        AIMessage(
            "",
            tool_calls=[{"name": "create_memory", "args": {"key": "a", "value": "b"}, "id": "t1"}],
        ),
        ToolMessage("Created context://memory/a.", tool_call_id="t1"),
        AIMessage("Done."),
        HumanMessage("Next step?"),
    ]
    tail_chef = chef_on(
        InMemoryStore(), memory=MemoryConfig(memory_placement="before_history_tail")
    )
    tail_chef.get_memory().set("lang", "Python")
    before = _anthropic_payload(tail_chef, history)
    tail_chef.get_memory().set("lang", "Rust")
    after = _anthropic_payload(tail_chef, history)

    def dump(value: Any) -> str:
        return json.dumps(value, sort_keys=True)

    assert dump(before["tools"]) == dump(after["tools"])
    assert dump(before["system"]) == dump(after["system"])
    assert dump(before["messages"][:-1]) == dump(after["messages"][:-1])
    assert dump(before["messages"][-1]) != dump(after["messages"][-1])

    top_chef = chef_on(InMemoryStore())
    top_chef.get_memory().set("lang", "Python")
    top_before = _anthropic_payload(top_chef, history)
    top_chef.get_memory().set("lang", "Rust")
    top_after = _anthropic_payload(top_chef, history)
    # after_system: the memory data is in `system`, so the whole cached prefix changes.
    assert dump(top_before["system"]) != dump(top_after["system"])
    assert dump(top_before["messages"]) == dump(top_after["messages"])
