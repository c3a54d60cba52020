"""The `ContextChef` suite: compile (sweep, advance, select, render, splice) and tool calls on
the `store` fixture.

Subclass `ChefSuite` in a test module whose fixtures provide `store`: the unit tests run it on
`InMemoryStore`, the integration tests on SQLite, the file system and PostgreSQL.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from langgraph.store.base import BaseStore
from pydantic import BaseModel, ValidationError

from langchain_contextchef import ContextChef, MemoryConfig, ScopeError
from langchain_contextchef.chef import CompileInput
from langchain_contextchef.errors import ToolNotOwnedError
from langchain_contextchef.render import ANCHOR_LINE, parse_memory_block
from tests.support.clocks import FakeClock

HISTORY = [SystemMessage("You help."), HumanMessage("Hi")]


def chef_on(store: BaseStore, **kwargs: Any) -> ContextChef:
    """A `ContextChef` on `store` whose clock stands still at `tests.support.clocks.NOW`."""
    kwargs.setdefault("clock", FakeClock(tick=timedelta(0)))
    return ContextChef(store=store, **kwargs)


class Task(BaseModel):
    active_file: str
    todo: list[str]


class ChefSuite:
    """`ContextChef.compile` and `handle_tool` against the `store` fixture."""

    # ---- compile -------------------------------------------------------------------------------

    def test_compile_injects_memory_after_the_system_prompt(self, store: BaseStore) -> None:
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

    def test_compile_sweeps_then_advances_then_injects(self, store: BaseStore) -> None:
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
        assert [p.meta.expired_keys for p in (first, second, third)] == [
            [],
            ["a_short"],
            ["b_long"],
        ]
        assert [p.meta.turn for p in (first, second, third)] == [1, 2, 3]
        assert "<memory>" not in third.messages[1].text

    def test_the_selector_decides_what_is_injected(self, store: BaseStore) -> None:
        def only_rules(entries: list[Any]) -> list[Any]:
            return [e for e in entries if e.type == "rule"]

        chef = chef_on(store, memory=MemoryConfig(selector=only_rules))
        chef.get_memory().set("a", "x", type="fact")
        chef.get_memory().set("b", "y", type="rule")
        payload = chef.compile(HISTORY)
        assert payload.meta.injected_keys == ["b"]
        assert [e.key for e in parse_memory_block(payload.messages[1].text)] == ["b"]

    def test_the_block_is_byte_stable_until_memory_changes(self, store: BaseStore) -> None:
        chef = chef_on(store)
        chef.get_memory().set("b", "2")
        chef.get_memory().set("a", "1")
        first = chef.compile(HISTORY).messages
        second = chef.compile(HISTORY).messages
        assert [m.text for m in first] == [m.text for m in second]
        chef.get_memory().set("a", "changed")
        assert chef.compile(HISTORY).messages[1].text != first[1].text

    def test_before_history_tail_keeps_the_top_stable(self, store: BaseStore) -> None:
        chef = chef_on(store, memory=MemoryConfig(memory_placement="before_history_tail"))
        chef.get_memory().set("lang", "Python")
        payload = chef.compile(HISTORY)
        assert "<memory>" not in payload.messages[1].text
        # The user's text and the memory data are separate content blocks of the last turn.
        own, data = payload.messages[-1].content
        assert own == {"type": "text", "text": "Hi"}
        assert parse_memory_block(data["text"])[0].value == "Python"
        chef.get_memory().set("lang", "Rust")
        again = chef.compile(HISTORY)
        assert again.messages[1].text == payload.messages[1].text

    def test_tools_are_the_same_objects_on_every_compile(self, store: BaseStore) -> None:
        chef = chef_on(store, memory=MemoryConfig(allowed_keys=["lang"]))
        first = chef.compile(HISTORY).tools
        chef.handle_tool({"name": "create_memory", "arguments": {"key": "lang", "value": "Go"}})
        second = chef.compile(HISTORY).tools
        # Recall mode is the default, so the legacy tools include recall_memory.
        assert [t.name for t in first] == ["create_memory", "modify_memory", "recall_memory"]
        assert all(a is b for a, b in zip(first, second, strict=True))
        assert [t.tool_call_schema.model_json_schema() for t in first] == [
            t.tool_call_schema.model_json_schema() for t in second
        ]

    def test_unified_tools_offer_one_context_tool(self, store: BaseStore) -> None:
        chef = chef_on(store, tools="unified")
        assert [t.name for t in chef.tools] == ["context"]
        chef.get_memory().set("lang", "Python")
        assert "context://memory/" in chef.compile(HISTORY).messages[1].text

    def test_dynamic_state_and_implicit_context_land_in_the_tail(self, store: BaseStore) -> None:
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

    def test_invalid_dynamic_state_raises_before_memory_moves(self, store: BaseStore) -> None:
        chef = chef_on(store, dynamic_state_schema=Task)
        chef.get_memory().set("k", "v", ttl=1)
        with pytest.raises(ValidationError):
            chef.compile(HISTORY, dynamic_state={"active_file": 3})
        assert chef.get_memory().turn == 0
        assert chef.get_memory().get("k") == "v"

    def test_system_dynamic_state_stays_in_the_leading_system_run(self, store: BaseStore) -> None:
        chef = chef_on(store, dynamic_state_placement="system")
        payload = chef.compile(HISTORY, dynamic_state={"step": 2})
        assert [m.type for m in payload.messages] == ["system", "system", "system", "human"]
        assert "<dynamic_state>" in payload.messages[2].text
        assert payload.messages[-1] is HISTORY[-1]

    def test_compile_never_mutates_the_callers_messages(self, store: BaseStore) -> None:
        chef = chef_on(store, memory=MemoryConfig(memory_placement="before_history_tail"))
        chef.get_memory().set("k", "v")
        history = [HumanMessage(content=[{"type": "text", "text": "Hi"}])]
        before = json.dumps([m.model_dump() for m in history], sort_keys=True, default=str)
        chef.compile(history, dynamic_state={"x": 1})
        assert json.dumps([m.model_dump() for m in history], sort_keys=True, default=str) == before

    def test_scope_templates_are_filled_from_config(self, store: BaseStore) -> None:
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

    def test_handle_tool_with_a_tool_call_returns_a_tool_message(self, store: BaseStore) -> None:
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

    def test_handle_tool_with_json_arguments_returns_text(self, store: BaseStore) -> None:
        chef = chef_on(store)
        text = chef.handle_tool(
            {"name": "create_memory", "arguments": '{"key": "k", "value": "v"}'}
        )
        assert text == "Created context://memory/k."
        assert chef.handle_tool({"name": "create_memory", "arguments": "{not json"}) == (
            "Error: the tool arguments were not valid JSON."
        )
        assert chef.get_memory().get("k") == "v"

    def test_handle_tool_refuses_foreign_tools_and_malformed_calls(self, store: BaseStore) -> None:
        chef = chef_on(store)
        assert chef.owns_tool("context") and chef.owns_tool("modify_memory")
        assert not chef.owns_tool("search_web")
        with pytest.raises(ToolNotOwnedError, match="owns_tool"):
            chef.handle_tool({"name": "search_web", "arguments": "{}"})
        with pytest.raises(TypeError, match="ToolCall"):
            chef.handle_tool(["create_memory"])  # type: ignore[arg-type]
