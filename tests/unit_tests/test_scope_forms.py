"""Every wrong form of a scope fails closed at every door, and writes nothing.

The forms: a string (a tuple missing its comma, or an `a/b` path), a brace that is not a
complete template, an empty id, a non-string id. The doors: the developer API (`ContextChef`,
`Memory`, `get_memory`), `handle_tool`, the LangChain tools inside a graph, the middleware.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, ContextChefMiddleware, Memory
from langchain_contextchef.errors import ScopeError
from langchain_contextchef.tools import default_resolver, make_tools

STRING_SCOPES = ["{user_id}", "users/{user_id}", "users"]
BAD_LABELS = [("users", "{user_id"), ("users", "user_id}"), ("users", "{}"), ("{1x}",)]
BAD_IDS: list[Any] = ["", " ", "bob ", 1, True, None]


def _everything(store: InMemoryStore) -> list[Any]:
    return [
        (ns, item.key, item.value) for ns in store.list_namespaces() for item in store.search(ns)
    ]


@pytest.mark.parametrize("scope", STRING_SCOPES)
def test_a_string_scope_is_refused_showing_the_tuple_to_write(scope: str) -> None:
    with pytest.raises(TypeError, match=r"Write scope=\("):
        ContextChef(store=InMemoryStore(), scope=scope)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not the string"):
        Memory(InMemoryStore(), scope=scope)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not the string"):
        default_resolver(store=InMemoryStore(), scope=scope)({})  # type: ignore[arg-type]


@pytest.mark.parametrize("scope", BAD_LABELS)
def test_a_brace_outside_a_template_is_refused(scope: tuple[str, ...]) -> None:
    with pytest.raises(ScopeError, match="brace|non-empty"):
        ContextChef(store=InMemoryStore(), scope=scope)


def test_memory_refuses_a_scope_that_still_holds_a_template() -> None:
    with pytest.raises(ScopeError, match="resolved scope"):
        Memory(InMemoryStore(), scope=("users", "{user_id}"))


@pytest.mark.parametrize("user_id", BAD_IDS)
def test_a_bad_id_fails_at_the_developer_api_and_writes_nothing(user_id: Any) -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, scope=("users", "{user_id}"))
    config = {"configurable": {"user_id": user_id}}
    with pytest.raises(ScopeError, match="user_id"):
        chef.get_memory(config)
    with pytest.raises(ScopeError, match="user_id"):
        chef.compile([HumanMessage("hi")], config=config)
    assert _everything(store) == []


@pytest.mark.parametrize("user_id", BAD_IDS)
def test_a_bad_id_fails_at_handle_tool_and_writes_nothing(user_id: Any) -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, scope=("users", "{user_id}"))
    call = {"name": "create_memory", "args": {"key": "k", "value": "v"}, "id": "1"}
    with pytest.raises(ScopeError, match="user_id"):
        chef.handle_tool(call, config={"configurable": {"user_id": user_id}})
    assert _everything(store) == []


class _ToolCaller(GenericFakeChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def _calling_model() -> _ToolCaller:
    call = {"name": "create_memory", "args": {"key": "k", "value": "v"}, "id": "c1"}
    return _ToolCaller(messages=iter([AIMessage("", tool_calls=[call]), AIMessage("done")]))


@pytest.mark.parametrize("user_id", BAD_IDS)
def test_a_bad_id_fails_in_a_graph_with_the_tools_and_writes_nothing(user_id: Any) -> None:
    store = InMemoryStore()
    chef = ContextChef(scope=("users", "{user_id}"))
    model = _calling_model()

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(chef.tools, handle_tool_errors=False))
    graph.add_edge(START, "agent")
    graph.add_edge("agent", "tools")
    graph.add_edge("tools", END)
    app = graph.compile(store=store)
    with pytest.raises(ScopeError, match="user_id"):
        app.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"user_id": user_id}})
    assert _everything(store) == []


@pytest.mark.parametrize("user_id", BAD_IDS)
def test_a_bad_id_fails_in_the_middleware_and_writes_nothing(user_id: Any) -> None:
    store = InMemoryStore()
    chef = ContextChef(scope=("users", "{user_id}"))
    agent = create_agent(_calling_model(), middleware=[ContextChefMiddleware(chef)], store=store)
    with pytest.raises(ScopeError, match="user_id"):
        agent.invoke({"messages": [("user", "hi")]}, {"configurable": {"user_id": user_id}})
    assert _everything(store) == []


def test_make_tools_with_a_bad_resolver_scope_fails_on_the_first_call() -> None:
    store = InMemoryStore()
    (tool,) = make_tools(
        mode="unified", allowed_keys=None, resolver=default_resolver(store=store, scope=("{u",))
    )
    with pytest.raises(ScopeError, match="brace"):
        tool.invoke({"command": "view", "path": "memory/"})
    assert _everything(store) == []
