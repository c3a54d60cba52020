"""The documented LangGraph pattern: `chef.prompt` in a model node, `ToolNode(chef.tools)`.

The chef has no store of its own; the graph is compiled with one, and both the prompt step and
the tools find it (and the user's scope) at run time.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.memory import MemoryConfig
from tests.support.models import RecordingModel, remember_then_answer, text_of

CONFIG: Any = {"configurable": {"user_id": "alice"}}


def build_graph(chef: ContextChef, model: RecordingModel, store: BaseStore) -> Any:
    bound = model.bind_tools(chef.tools)

    def call_model(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        prompt = chef.prompt.invoke(state, config)
        return {"messages": [bound.invoke(prompt, config)]}

    async def acall_model(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        prompt = await chef.prompt.ainvoke(state, config)
        return {"messages": [await bound.ainvoke(prompt, config)]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", RunnableLambda(call_model, afunc=acall_model))
    graph.add_node("tools", ToolNode(chef.tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile(store=store)


@pytest.mark.parametrize("placement", ["after_system", "before_history_tail"])
@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_second_model_call_sees_what_the_first_wrote(placement: str, mode: str) -> None:
    store = InMemoryStore()
    chef = ContextChef(
        scope=("users", "{user_id}"),
        memory=MemoryConfig(memory_placement=placement),  # type: ignore[arg-type]
    )
    chef.get_memory(CONFIG, store=store).set("lang", "Python")
    model = RecordingModel(script=remember_then_answer())
    graph = build_graph(chef, model, store)

    request = {"messages": [HumanMessage("Keep replies dry.")]}
    if mode == "sync":
        result = graph.invoke(request, CONFIG)
    else:
        result = await graph.ainvoke(request, CONFIG)

    first, second = model.calls
    assert "Python" in text_of(first) and '<entry key="tone"' not in text_of(first)
    assert '<entry key="tone"' in text_of(second)
    item = store.get(("users", "alice", "memory"), "tone")
    assert item is not None and item.value["value"] == "dry"
    tool_result = next(m for m in result["messages"] if isinstance(m, ToolMessage))
    assert tool_result.status == "success"
    # The prompt step shapes model input only; graph state keeps the plain conversation.
    assert all("<memory>" not in m.text for m in result["messages"])
    assert isinstance(result["messages"][-1], AIMessage) and result["messages"][-1].text == "Noted."
    assert chef.get_memory(CONFIG, store=store).turn == 2


def test_compile_inside_a_node_is_the_same_pattern_without_the_runnable() -> None:
    store = InMemoryStore()
    chef = ContextChef(scope=("users", "{user_id}"))
    chef.get_memory(CONFIG, store=store).set("lang", "Python")
    model = RecordingModel(script=remember_then_answer())
    bound = model.bind_tools(chef.tools)

    def call_model(state: MessagesState, config: RunnableConfig) -> dict[str, Any]:
        payload = chef.compile(state["messages"], config=config)
        return {"messages": [bound.invoke(payload.messages, config)]}

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode(chef.tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", tools_condition)
    graph.add_edge("tools", "model")
    graph.compile(store=store).invoke({"messages": [HumanMessage("Keep replies dry.")]}, CONFIG)

    assert '<entry key="tone"' in text_of(model.calls[1])
    assert chef.get_memory(CONFIG, store=store).get("tone") == "dry"
