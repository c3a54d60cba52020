"""The memory tools inside a LangGraph graph: ToolNode, the graph's store, a scripted model."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.tools import default_resolver, make_tools
from tests.support.graphs import tool_loop


class RecordingModel(GenericFakeChatModel):
    """Replays scripted replies and keeps every input it was called with."""

    seen: list[list[BaseMessage]] = []

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def script() -> list[AIMessage]:
    return [
        AIMessage(
            content="",
            tool_calls=[
                {
                    "name": "create_memory",
                    "args": {"key": "lang", "value": "Python"},
                    "id": "call-1",
                },
                {"name": "create_memory", "args": {"key": "pet", "value": "cat"}, "id": "call-2"},
            ],
        ),
        AIMessage(content="Noted."),
    ]


def test_create_memory_through_tool_node_uses_the_graph_store() -> None:
    store = InMemoryStore()
    config = MemoryConfig(allowed_keys=["lang"])
    # No store given: the tools find the graph's store through get_store().
    tools = make_tools(
        mode="legacy",
        allowed_keys=["lang"],
        resolver=default_resolver(config, scope=("users", "{user_id}")),
    )
    model = RecordingModel(messages=iter(script()), seen=[])
    app = tool_loop(model, tools, store)

    result = app.invoke(
        {"messages": [HumanMessage("I write Python and have a cat.")]},
        {"configurable": {"user_id": "ada"}},
    )

    results = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert [(m.tool_call_id, m.content, m.status) for m in results] == [
        ("call-1", "Created context://memory/lang.", "success"),
        (
            "call-2",
            "Error: context://memory/pet is not an allowed memory key. Allowed keys: lang.",
            "error",
        ),
    ]
    memory = Memory(store, config, scope=("users", "ada"))
    entry = memory.get_entry("lang")
    assert entry is not None and entry.value == "Python"
    assert entry.provenance is not None
    assert (entry.provenance.written_by, entry.provenance.tool_call_id) == ("model", "call-1")
    assert memory.get("pet") is None
    # The second model call sees the tool results of the first.
    assert len(model.seen) == 2
    second_input = model.seen[1]
    assert [m.content for m in second_input if isinstance(m, ToolMessage)] == [
        "Created context://memory/lang.",
        "Error: context://memory/pet is not an allowed memory key. Allowed keys: lang.",
    ]


async def test_unified_context_tool_async_through_tool_node() -> None:
    store = InMemoryStore()
    (context,) = make_tools(mode="unified", allowed_keys=None, resolver=default_resolver())
    model = RecordingModel(
        messages=iter(
            [
                AIMessage(
                    content="",
                    tool_calls=[
                        {
                            "name": "context",
                            "args": {
                                "command": "create",
                                "path": "notes/plan.md",
                                "file_text": "ship",
                            },
                            "id": "c1",
                        },
                        {
                            "name": "context",
                            "args": {
                                "command": "create",
                                "path": "memory/goal",
                                "file_text": "launch",
                            },
                            "id": "c2",
                        },
                    ],
                ),
                AIMessage(
                    content="",
                    tool_calls=[
                        {
                            "name": "context",
                            "args": {"command": "view", "path": "notes/plan.md"},
                            "id": "c3",
                        }
                    ],
                ),
                AIMessage(content="Done."),
            ]
        ),
        seen=[],
    )
    app = tool_loop(model, [context], store)

    result = await app.ainvoke({"messages": [HumanMessage("Plan the launch.")]})

    texts = [m.content for m in result["messages"] if isinstance(m, ToolMessage)]
    assert texts == [
        "Created context://notes/plan.md.",
        "Created context://memory/goal.",
        "     1\tship",
    ]
    assert Memory(store).get("goal") == "launch"
    assert store.get(("notes",), "plan.md") is not None
    assert any(m.content == "     1\tship" for m in model.seen[2] if isinstance(m, ToolMessage))
