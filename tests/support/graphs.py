"""The plain agent loop as a LangGraph `StateGraph`, for tests that run tools inside a graph."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.store.base import BaseStore


def tool_loop(
    model: Runnable[Any, BaseMessage],
    tools: Sequence[Any],
    store: BaseStore,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
) -> Any:
    """`model` answers; its tool calls run in a `ToolNode` and go back to it, until it stops."""

    def call_model(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", route, ["tools", END])
    graph.add_edge("tools", "model")
    return graph.compile(store=store, checkpointer=checkpointer)
