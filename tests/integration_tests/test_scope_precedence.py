"""An explicit `config` inside a graph run of another tenant: it never silently loses.

A graph node runs with the LangGraph runtime context of bob and calls the chef with an
explicit `config` for alice. The one rule: the context and `config["configurable"]` (what the
call passes, else the run's own) never override each other, so here the call raises
`ScopeError` naming both values, and neither alice's nor bob's memory is read or written
(before, the run's context won and the call acted on bob). Passing `context=` for alice as
well addresses alice. Runs on every store backend, sync and async.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, ToolCall
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.store.base import BaseStore

from langchain_contextchef import ContextChef
from langchain_contextchef.errors import ScopeError
from tests.support.stores import adump, dump, make_local_store

SCOPE = ("users", "{user_id}")
ALICE = {"configurable": {"user_id": "alice"}}
MISMATCH = (
    r"two different values for 'user_id': 'bob' from the runtime context and 'alice' from "
    r"config\[\"configurable\"\]"
)


@dataclass
class UserContext:
    user_id: str


def call(key: str) -> ToolCall:
    return {
        "name": "create_memory",
        "args": {"key": key, "value": "from the tool"},
        "id": "c1",
        "type": "tool_call",
    }


Action = Callable[[ContextChef], Any]

SYNC_ACTIONS: dict[str, Action] = {
    "get_memory": lambda chef: chef.get_memory(ALICE).set("k", "v"),
    "compile": lambda chef: chef.compile([HumanMessage("hi")], config=ALICE),
    "handle_tool": lambda chef: chef.handle_tool(call("k"), config=ALICE),
}

ASYNC_ACTIONS: dict[str, Callable[[ContextChef], Awaitable[Any]]] = {
    "acompile": lambda chef: chef.acompile([HumanMessage("hi")], config=ALICE),
    "ahandle_tool": lambda chef: chef.ahandle_tool(call("k"), config=ALICE),
}


def graph(store: BaseStore, node: Any) -> Any:
    builder = StateGraph(MessagesState, context_schema=UserContext)
    builder.add_node("work", node)
    builder.add_edge(START, "work")
    builder.add_edge("work", END)
    return builder.compile(store=store)


def seeded(store: BaseStore) -> ContextChef:
    chef = ContextChef(store=store, scope=SCOPE)
    for user in ("alice", "bob"):
        chef.get_memory({"configurable": {"user_id": user}}).set("who", user)
    return chef


async def aseeded(store: BaseStore) -> ContextChef:
    chef = ContextChef(store=store, scope=SCOPE)
    for user in ("alice", "bob"):
        await chef.get_memory({"configurable": {"user_id": user}}).aset("who", user)
    return chef


@pytest.fixture
async def aiosqlite_store(tmp_path: Path) -> AsyncIterator[BaseStore]:
    """LangGraph's `AsyncSqliteStore` on a temporary file."""
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    async with AsyncSqliteStore.from_conn_string(str(tmp_path / "store.db")) as store:
        await store.setup()
        yield store


@pytest.fixture(params=["memory", "filesystem", "sqlite", "postgres"])
def astore(request: pytest.FixtureRequest, tmp_path: Path) -> BaseStore:
    """Every backend through its async API (`AsyncSqliteStore`, `AsyncPostgresStore`)."""
    # A plain fixture that picks an async one: an async fixture cannot request another
    # async fixture by name while the event loop is already running.
    if request.param in ("memory", "filesystem"):
        built: BaseStore = make_local_store(request.param, tmp_path)
        return built
    name = "aiosqlite_store" if request.param == "sqlite" else "apg_store"
    picked: BaseStore = request.getfixturevalue(name)
    return picked


@pytest.mark.parametrize("action", sorted(SYNC_ACTIONS))
def test_explicit_config_for_another_tenant_raises_inside_the_run(
    store: BaseStore, action: str
) -> None:
    chef = seeded(store)
    before = dump(store)

    def node(state: MessagesState) -> dict[str, Any]:
        SYNC_ACTIONS[action](chef)
        return {}

    with pytest.raises(ScopeError, match=MISMATCH):
        graph(store, node).invoke({"messages": []}, context=UserContext("bob"))
    assert dump(store) == before


@pytest.mark.parametrize("action", sorted(ASYNC_ACTIONS))
async def test_async_explicit_config_for_another_tenant_raises_inside_the_run(
    astore: BaseStore, action: str
) -> None:
    store = astore
    chef = await aseeded(store)
    before = await adump(store)

    async def node(state: MessagesState) -> dict[str, Any]:
        await ASYNC_ACTIONS[action](chef)
        return {}

    with pytest.raises(ScopeError, match=MISMATCH):
        await graph(store, node).ainvoke({"messages": []}, context=UserContext("bob"))
    assert await adump(store) == before


def test_passing_context_too_addresses_the_other_tenant(store: BaseStore) -> None:
    chef = seeded(store)

    def node(state: MessagesState) -> dict[str, Any]:
        alice = {"user_id": "alice"}
        chef.get_memory(ALICE, context=alice).set("note", "for alice")
        reply = chef.handle_tool(call("tool"), config=ALICE, context=alice)
        assert reply.status == "success", reply
        payload = chef.compile([HumanMessage("hi")], config=ALICE, context=alice)
        assert sorted(payload.meta.injected_keys) == ["note", "tool", "who"]
        # Nothing passed: the run's own tenant.
        assert chef.get_memory().get("who") == "bob"
        return {}

    graph(store, node).invoke({"messages": []}, context=UserContext("bob"))
    for user, keys in (("alice", {"note", "tool", "who"}), ("bob", {"who"})):
        memory = chef.get_memory({"configurable": {"user_id": user}})
        assert {e.key for e in memory.list()} == keys
        assert memory.get("who") == user


def test_a_run_config_fills_the_scope_when_the_call_passes_none(store: BaseStore) -> None:
    # The other half of the rule: inside a run, a call that passes no config uses the run's.
    chef = seeded(store)
    seen: list[str | None] = []

    def node(state: MessagesState) -> dict[str, Any]:
        seen.append(chef.get_memory().get("who"))
        return {}

    builder = StateGraph(MessagesState)
    builder.add_node("work", node)
    builder.add_edge(START, "work")
    builder.add_edge("work", END)
    builder.compile(store=store).invoke({"messages": []}, {"configurable": {"user_id": "alice"}})
    assert seen == ["alice"]
