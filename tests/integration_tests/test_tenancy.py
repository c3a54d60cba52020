"""Two (three) users writing the same keys through every path never see each other's memory.

Scope `("users", "{user_id}")`; user ids "alice", "bob" and "alice.smith" (a `.` must be
encoded, and "alice" is a prefix of its encoding). Every path writes the same keys: the
developer API, `handle_tool`, the LangChain tools, the middleware inside `create_agent`
(configurable user id and a `context_schema` runtime context). A missing user id fails closed
with a `ScopeError` naming the field and writes nothing. Runs on every store backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.store.base import BaseStore

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.errors import ScopeError
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.scope import encode_label
from tests.support.models import RecordingModel, text_of, tool_call

USERS = ["alice", "bob", "alice.smith"]
SCOPE = ("users", "{user_id}")


def cfg(user: str) -> Any:
    return {"configurable": {"user_id": user}}


def namespace(user: str) -> tuple[str, ...]:
    return ("users", encode_label(user), "memory")


def everything(store: BaseStore) -> list[tuple[tuple[str, ...], str, Any]]:
    """Every item in the store, across all namespaces."""
    rows = []
    for ns in store.list_namespaces(limit=10_000):
        rows += [(ns, item.key, item.value) for item in store.search(ns, limit=10_000)]
    return sorted(rows, key=lambda row: (row[0], row[1]))


def own_values(chef: ContextChef, store: BaseStore, user: str) -> dict[str, str]:
    return {e.key: e.value for e in chef.get_memory(cfg(user), store=store).list()}


@dataclass
class UserContext:
    user_id: str


def agent_writes(chef: ContextChef, store: BaseStore, user: str, key: str, **run: Any) -> str:
    """Run an agent whose model writes `key` for this user; returns what its second call saw."""
    model = RecordingModel(
        script=[tool_call("create_memory", {"key": key, "value": f"{user}:{key}"}), AIMessage("ok")]
    )
    agent = create_agent(
        model,
        middleware=[ContextChefMiddleware(chef)],
        store=store,
        context_schema=UserContext if "context" in run else None,
    )
    result = agent.invoke({"messages": [HumanMessage("remember")]}, **run)
    tool_result = next(m for m in result["messages"] if isinstance(m, ToolMessage))
    assert tool_result.status == "success", tool_result.text
    return text_of(model.calls[1])


def test_same_keys_through_every_path_stay_isolated(store: BaseStore) -> None:
    chef = ContextChef(scope=SCOPE)  # no store: the agent's or the given one is used
    chef_with_store = ContextChef(store=store, scope=SCOPE)
    create = chef_with_store.tools[0]
    seen_by_model: dict[str, str] = {}

    for user in USERS:
        chef.get_memory(cfg(user), store=store).set("dev", f"{user}:dev")
        reply = chef_with_store.handle_tool(
            {"name": "create_memory", "args": {"key": "call", "value": f"{user}:call"}, "id": "1"},
            config=cfg(user),
        )
        assert isinstance(reply, ToolMessage) and reply.status == "success", reply
        text = chef_with_store.handle_tool(
            {"name": "create_memory", "arguments": f'{{"key": "json", "value": "{user}:json"}}'},
            config=cfg(user),
        )
        assert isinstance(text, str) and not text.startswith("Error"), text
        assert not create.invoke({"key": "tool", "value": f"{user}:tool"}, cfg(user)).startswith(
            "Error"
        )
        agent_writes(chef, store, user, "agent", config=cfg(user))
        seen_by_model[user] = agent_writes(
            chef, store, user, "ctx", context=UserContext(user_id=user)
        )

    keys = {"dev", "call", "json", "tool", "agent", "ctx"}
    for user in USERS:
        expected = {key: f"{user}:{key}" for key in keys}
        assert own_values(chef_with_store, store, user) == expected
        found = store.search(namespace(user), limit=1000)
        assert {item.key: item.value["value"] for item in found} == expected
        assert {tuple(item.namespace) for item in found} == {namespace(user)}
        for other in USERS:
            if other != user:
                assert f"{other}:" not in seen_by_model[user]
        assert f"{user}:agent" in seen_by_model[user] and f"{user}:ctx" in seen_by_model[user]

    # Nothing was written anywhere else: one memory namespace and one clock per user.
    namespaces = {row[0] for row in everything(store)}
    expected_namespaces = {namespace(u) for u in USERS}
    expected_namespaces |= {("users", encode_label(u), "memory_meta") for u in USERS}
    assert namespaces == expected_namespaces


def test_turn_clocks_and_compiles_are_per_user(store: BaseStore) -> None:
    chef = ContextChef(store=store, scope=SCOPE)
    for user in USERS:
        chef.get_memory(cfg(user)).set("tone", f"{user}-tone")
    alice_1 = chef.compile([HumanMessage("hi")], config=cfg("alice"))
    chef.compile([HumanMessage("hi")], config=cfg("alice"))
    bob = chef.compile([HumanMessage("hi")], config=cfg("bob"))

    assert "alice-tone" in text_of(alice_1.messages) and "bob-tone" not in text_of(alice_1.messages)
    assert "bob-tone" in text_of(bob.messages) and "alice" not in text_of(bob.messages)
    assert [chef.get_memory(cfg(u)).turn for u in USERS] == [2, 1, 0]
    assert bob.meta.scope == ("users", "bob")


# ---- a missing user id fails closed, everywhere, and writes nothing --------------------------


def fails_closed(action: Any) -> None:
    with pytest.raises(ScopeError, match="'user_id'"):
        action()


@pytest.mark.parametrize("config", [None, {}, {"configurable": {}}, cfg("")])
def test_missing_user_id_fails_closed_on_every_path(store: BaseStore, config: Any) -> None:
    chef = ContextChef(store=store, scope=SCOPE)
    chef.get_memory(cfg("alice")).set("tone", "alice-tone")
    before = everything(store)
    call = {"name": "create_memory", "args": {"key": "tone", "value": "leak"}, "id": "1"}

    fails_closed(lambda: chef.get_memory(config))
    fails_closed(lambda: chef.compile([HumanMessage("hi")], config=config))
    fails_closed(lambda: chef.handle_tool(call, config=config))
    fails_closed(lambda: chef.tools[0].invoke({"key": "tone", "value": "leak"}, config))

    model = RecordingModel(script=[call_that_would_leak()])
    agent = create_agent(model, middleware=[ContextChefMiddleware(chef)])
    fails_closed(lambda: agent.invoke({"messages": [HumanMessage("hi")]}, config))
    assert model.calls == [], "the model must never be called without a scope"

    agent_store_chef = ContextChef(scope=SCOPE)
    agent = create_agent(
        RecordingModel(script=[]),
        middleware=[ContextChefMiddleware(agent_store_chef)],
        store=store,
        context_schema=UserContext,
    )
    fails_closed(
        lambda: agent.invoke({"messages": [HumanMessage("hi")]}, config, context=UserContext(""))
    )

    assert everything(store) == before
    assert chef.get_memory(cfg("alice")).turn == 0


def call_that_would_leak() -> AIMessage:
    return tool_call("create_memory", {"key": "tone", "value": "leak"})
