"""ContextChef: compile (sweep, advance, select, render, splice), the prompt runnable, tools."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.prompt_values import ChatPromptValue
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from pydantic import BaseModel, ValidationError

from langchain_contextchef import (
    CompileInput,
    ContextChef,
    ContextChefError,
    FileSystemStore,
    MemoryConfig,
    ScopeError,
    ToolNotOwnedError,
)
from langchain_contextchef.render import ANCHOR_LINE, parse_memory_block

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)


def clock() -> datetime:
    return NOW


def chef_on(store: BaseStore, **kwargs: Any) -> ContextChef:
    kwargs.setdefault("clock", clock)
    return ContextChef(store=store, **kwargs)


HISTORY = [SystemMessage("You help."), HumanMessage("Hi")]


# ---- compile -------------------------------------------------------------------------------


def test_compile_injects_memory_after_the_system_prompt(store: BaseStore) -> None:
    chef = chef_on(store)
    chef.get_memory().set("lang", "Python", description="Primary language")
    payload = chef.compile(HISTORY)
    assert [m.type for m in payload.messages] == ["system", "system", "human"]
    assert payload.messages[0] is HISTORY[0]
    assert payload.messages[2] is HISTORY[1], "untouched messages are the caller's own"
    (entry,) = parse_memory_block(payload.messages[1].text)
    assert (entry.key, entry.value, entry.description) == ("lang", "Python", "Primary language")
    assert payload.meta.injected_keys == ["lang"]
    assert payload.meta.expired_keys == []
    assert payload.meta.turn == 1


def test_compile_sweeps_then_advances_then_injects(store: BaseStore) -> None:
    chef = chef_on(store)
    memory = chef.get_memory()
    memory.set("a_short", "1", ttl=1)
    memory.set("b_long", "2", ttl=2)
    first = chef.compile(HISTORY)
    second = chef.compile(HISTORY)
    third = chef.compile(HISTORY)
    assert [p.meta.injected_keys for p in (first, second, third)] == [
        ["a_short", "b_long"],
        ["b_long"],
        [],
    ]
    assert [p.meta.expired_keys for p in (first, second, third)] == [[], ["a_short"], ["b_long"]]
    assert [p.meta.turn for p in (first, second, third)] == [1, 2, 3]
    assert "<memory>" not in third.messages[1].text


def test_the_selector_decides_what_is_injected(store: BaseStore) -> None:
    def only_rules(entries: list[Any]) -> list[Any]:
        return [e for e in entries if e.type == "rule"]

    chef = chef_on(store, memory=MemoryConfig(selector=only_rules))
    chef.get_memory().set("a", "x", type="fact")
    chef.get_memory().set("b", "y", type="rule")
    payload = chef.compile(HISTORY)
    assert payload.meta.injected_keys == ["b"]
    assert [e.key for e in parse_memory_block(payload.messages[1].text)] == ["b"]


def test_the_block_is_byte_stable_until_memory_changes(store: BaseStore) -> None:
    chef = chef_on(store)
    chef.get_memory().set("b", "2")
    chef.get_memory().set("a", "1")
    first = chef.compile(HISTORY).messages
    second = chef.compile(HISTORY).messages
    assert [m.text for m in first] == [m.text for m in second]
    chef.get_memory().set("a", "changed")
    assert chef.compile(HISTORY).messages[1].text != first[1].text


def test_before_history_tail_keeps_the_top_stable(store: BaseStore) -> None:
    chef = chef_on(store, memory=MemoryConfig(memory_placement="before_history_tail"))
    chef.get_memory().set("lang", "Python")
    payload = chef.compile(HISTORY)
    assert "<memory>" not in payload.messages[1].text
    assert payload.messages[-1].text.startswith("Hi\n\n")
    assert parse_memory_block(payload.messages[-1].text)[0].value == "Python"
    chef.get_memory().set("lang", "Rust")
    again = chef.compile(HISTORY)
    assert again.messages[1].text == payload.messages[1].text


def test_tools_are_the_same_objects_on_every_compile(store: BaseStore) -> None:
    chef = chef_on(store, memory=MemoryConfig(allowed_keys=["lang"]))
    first = chef.compile(HISTORY).tools
    chef.handle_tool({"name": "create_memory", "arguments": {"key": "lang", "value": "Go"}})
    second = chef.compile(HISTORY).tools
    assert [t.name for t in first] == ["create_memory", "modify_memory"]
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert [t.tool_call_schema.model_json_schema() for t in first] == [
        t.tool_call_schema.model_json_schema() for t in second
    ]


def test_unified_tools_offer_one_context_tool(store: BaseStore) -> None:
    chef = chef_on(store, tools="unified")
    assert [t.name for t in chef.tools] == ["context"]
    chef.get_memory().set("lang", "Python")
    assert "context://memory/" in chef.compile(HISTORY).messages[1].text


class Task(BaseModel):
    active_file: str
    todo: list[str]


def test_dynamic_state_and_implicit_context_land_in_the_tail(store: BaseStore) -> None:
    seen: list[CompileInput] = []

    def retrieve(request: CompileInput) -> str:
        seen.append(request)
        return "doc: the deploy runbook"

    chef = chef_on(store, on_before_compile=retrieve, dynamic_state_schema=Task)
    payload = chef.compile(HISTORY, dynamic_state={"active_file": "auth.py", "todo": ["a"]})
    tail = payload.messages[-1].text
    assert tail.index("Hi") < tail.index("<dynamic_state>") < tail.index("<implicit_context>")
    assert tail.endswith(ANCHOR_LINE)
    assert "auth.py" in tail and "deploy runbook" in tail
    assert seen[0].messages == HISTORY
    assert seen[0].dynamic_state == {"active_file": "auth.py", "todo": ["a"]}


def test_invalid_dynamic_state_raises_before_memory_moves(store: BaseStore) -> None:
    chef = chef_on(store, dynamic_state_schema=Task)
    chef.get_memory().set("k", "v", ttl=1)
    with pytest.raises(ValidationError):
        chef.compile(HISTORY, dynamic_state={"active_file": 3})
    assert chef.get_memory().turn == 0
    assert chef.get_memory().get("k") == "v"


def test_system_dynamic_state_stays_in_the_leading_system_run(store: BaseStore) -> None:
    chef = chef_on(store, dynamic_state_placement="system")
    payload = chef.compile(HISTORY, dynamic_state={"step": 2})
    assert [m.type for m in payload.messages] == ["system", "system", "system", "human"]
    assert "<dynamic_state>" in payload.messages[2].text
    assert payload.messages[-1] is HISTORY[-1]


def test_compile_never_mutates_the_callers_messages(store: BaseStore) -> None:
    chef = chef_on(store, memory=MemoryConfig(memory_placement="before_history_tail"))
    chef.get_memory().set("k", "v")
    history = [HumanMessage(content=[{"type": "text", "text": "Hi"}])]
    before = json.dumps([m.model_dump() for m in history], sort_keys=True, default=str)
    chef.compile(history, dynamic_state={"x": 1})
    assert json.dumps([m.model_dump() for m in history], sort_keys=True, default=str) == before


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


def test_scope_templates_are_filled_from_config(store: BaseStore) -> None:
    chef = chef_on(store, scope=("users", "{user_id}"))
    alice = {"configurable": {"user_id": "alice"}}
    chef.get_memory(alice).set("k", "alice's")
    payload = chef.compile(HISTORY, config=alice)
    assert payload.meta.scope == ("users", "alice")
    assert "alice's" in payload.messages[1].text
    bob = chef.compile(HISTORY, config={"configurable": {"user_id": "bob"}})
    assert bob.meta.injected_keys == []
    with pytest.raises(ScopeError, match="user_id"):
        chef.compile(HISTORY)


# ---- handle_tool ---------------------------------------------------------------------------


def test_handle_tool_with_a_tool_call_returns_a_tool_message(store: BaseStore) -> None:
    chef = chef_on(store)
    call = {"name": "create_memory", "args": {"key": "k", "value": "v"}, "id": "call-7"}
    reply = chef.handle_tool(call)  # type: ignore[arg-type]
    assert isinstance(reply, ToolMessage)
    assert (reply.tool_call_id, reply.status, reply.content) == (
        "call-7",
        "success",
        "Created context://memory/k.",
    )
    again = chef.handle_tool(call)  # type: ignore[arg-type]
    assert isinstance(again, ToolMessage)
    assert again.status == "error" and again.content.startswith("Error:")


def test_handle_tool_with_json_arguments_returns_text(store: BaseStore) -> None:
    chef = chef_on(store)
    text = chef.handle_tool({"name": "create_memory", "arguments": '{"key": "k", "value": "v"}'})
    assert text == "Created context://memory/k."
    assert chef.handle_tool({"name": "create_memory", "arguments": "{not json"}) == (
        "Error: the tool arguments were not valid JSON."
    )
    assert chef.get_memory().get("k") == "v"


def test_handle_tool_refuses_foreign_tools_and_malformed_calls(store: BaseStore) -> None:
    chef = chef_on(store)
    assert chef.owns_tool("context") and chef.owns_tool("modify_memory")
    assert not chef.owns_tool("search_web")
    with pytest.raises(ToolNotOwnedError, match="owns_tool"):
        chef.handle_tool({"name": "search_web", "arguments": "{}"})
    with pytest.raises(TypeError, match="ToolCall"):
        chef.handle_tool(["create_memory"])  # type: ignore[arg-type]


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


class Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.runs: list[tuple[str | None, str | None]] = []
        self.events: list[tuple[str, Any]] = []

    def on_chain_start(self, serialized: Any, inputs: Any, **kwargs: Any) -> None:
        self.runs.append((kwargs.get("run_type"), kwargs.get("name")))

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.events.append((name, data))


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
    recorder = Recorder()
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
