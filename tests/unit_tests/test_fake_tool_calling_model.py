"""`FakeToolCallingModel`: a newcomer tests their own app with it, in every LangChain shape.

The app below is what a new user writes: their own tool (`book_table`) beside the memory tools,
in a `create_agent` agent. The tests script the model's replies and check what the app did:
the booking made, the memory stored, and what the model was shown on the next run.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, ContextChefMiddleware
from langchain_contextchef.testing import FakeToolCallingModel, tool_call
from tests.support.graphs import tool_loop

# ---- the newcomer's app ----------------------------------------------------------------------

BOOKINGS: list[tuple[str, str]] = []


@tool
def book_table(restaurant: str, time: str) -> str:
    """Book a table at a restaurant."""
    BOOKINGS.append((restaurant, time))
    return f"Booked {restaurant} at {time}."


def make_app(model: Any, store: InMemoryStore) -> tuple[Any, ContextChef]:
    chef = ContextChef(scope=("users", "{user_id}"))
    agent = create_agent(
        model,
        tools=[book_table],
        system_prompt="You book restaurants.",
        middleware=[ContextChefMiddleware(chef)],
        store=store,
    )
    return agent, chef


# ---- the newcomer's tests ----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _no_bookings() -> None:
    BOOKINGS.clear()


CONFIG = {"configurable": {"user_id": "alice"}}


def _memory_block(messages: list[BaseMessage]) -> str:
    text = "\n".join(m.text for m in messages)
    start = text.find("<memory>")
    return text[start : text.index("</memory>") + len("</memory>")] if start >= 0 else ""


def test_the_app_books_and_remembers_and_the_next_run_sees_it() -> None:
    def second_run(messages: list[BaseMessage]) -> Any:
        # A function of what the model receives: answer from the memory in the prompt.
        if "vegetarian" in _memory_block(messages):
            return "Booking somewhere vegetarian again."
        return "What do you like to eat?"

    first = FakeToolCallingModel(
        replies=[
            [
                tool_call("book_table", restaurant="Green Leaf", time="19:00"),
                tool_call("create_memory", key="diet", value="vegetarian"),
            ],
            "Booked Green Leaf at 19:00; noted that you're vegetarian.",
        ]
    )
    store = InMemoryStore()
    agent, chef = make_app(first, store)
    said = "Book Green Leaf at 7pm, I'm vegetarian."
    result = agent.invoke({"messages": [HumanMessage(said)]}, CONFIG)

    assert BOOKINGS == [("Green Leaf", "19:00")]
    assert chef.get_memory(CONFIG, store=store).get("diet") == "vegetarian"
    tool_results = sorted(m.text for m in result["messages"] if m.type == "tool")
    assert tool_results == ["Booked Green Leaf at 19:00.", "Created context://memory/diet."]
    assert result["messages"][-1].text.startswith("Booked Green Leaf")
    assert set(first.tool_names) == {
        "book_table",
        "create_memory",
        "modify_memory",
        "recall_memory",
    }
    assert "vegetarian" not in _memory_block(first.requests[0])  # nothing remembered yet

    second = FakeToolCallingModel(respond=second_run)
    agent, _ = make_app(second, store)
    answer = agent.invoke({"messages": [HumanMessage("Book dinner.")]}, CONFIG)
    assert answer["messages"][-1].text == "Booking somewhere vegetarian again."
    assert "vegetarian" in _memory_block(second.requests[0])

    # Bob's run shows him none of Alice's memory.
    bob = FakeToolCallingModel(respond=second_run)
    agent, _ = make_app(bob, store)
    other = agent.invoke(
        {"messages": [HumanMessage("Book dinner.")]}, {"configurable": {"user_id": "bob"}}
    )
    assert other["messages"][-1].text == "What do you like to eat?"


async def test_async_streaming_agent_run() -> None:
    model = FakeToolCallingModel(
        replies=[[tool_call("book_table", restaurant="Oak", time="20:00")], "All set for eight."]
    )
    agent, _ = make_app(model, InMemoryStore())
    tokens: list[str] = []
    async for chunk, _meta in agent.astream(
        {"messages": [HumanMessage("Oak at 8")]}, CONFIG, stream_mode="messages"
    ):
        if isinstance(chunk, AIMessageChunk) and chunk.text:
            tokens.append(chunk.text)
    assert BOOKINGS == [("Oak", "20:00")]
    assert tokens == ["All ", "set ", "for ", "eight."]


def test_a_tool_node_graph_with_a_checkpointer() -> None:
    chef = ContextChef(scope=("users", "{user_id}"))
    model = FakeToolCallingModel(
        replies=[[tool_call("create_memory", key="city", value="Porto")], "Noted: Porto."]
    )
    store = InMemoryStore()
    graph = tool_loop(
        chef.prompt | model.bind_tools([book_table, *chef.tools]),
        [book_table, *chef.tools],
        store,
        InMemorySaver(),
    )
    config = {"configurable": {"user_id": "alice", "thread_id": "t1"}}
    out = graph.invoke({"messages": [HumanMessage("I live in Porto.")]}, config)
    assert out["messages"][-1].text == "Noted: Porto."
    assert chef.get_memory(config, store=store).get("city") == "Porto"
    # The second model call saw the new entry in its prompt.
    assert "Porto" in _memory_block(model.requests[1])


async def test_an_lcel_chain_sync_and_async() -> None:
    chef = ContextChef(store=InMemoryStore())
    chef.get_memory().set("lang", "Go")
    model = FakeToolCallingModel(
        replies=[tool_call("modify_memory", action="update", key="lang", value="Rust"), "ok"]
    )
    chain = chef.prompt | model.bind_tools(chef.tools)
    reply = chain.invoke([HumanMessage("I switched to Rust.")])
    assert isinstance(reply, AIMessage) and reply.tool_calls[0]["id"] == "call_0_0"
    (result,) = [chef.handle_tool(call) for call in reply.tool_calls]
    assert "Error" not in result.text and chef.get_memory().get("lang") == "Rust"
    assert "Go" in _memory_block(model.requests[0])
    assert (await chain.ainvoke([HumanMessage("thanks")])).text == "ok"
    assert "Rust" in _memory_block(model.requests[1])


def test_an_unbound_tool_or_a_missing_reply_fails_the_test_clearly() -> None:
    model = FakeToolCallingModel(replies=[tool_call("send_email", to="x")])
    agent, _ = make_app(model, InMemoryStore())
    with pytest.raises(ValueError, match=r"'send_email'.*book_table"):
        agent.invoke({"messages": [HumanMessage("hi")]}, CONFIG)

    short = FakeToolCallingModel(replies=["one"])
    assert short.invoke("a").text == "one"
    with pytest.raises(ValueError, match="1 replies but was called 2 times"):
        short.invoke("b")


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({}, ValueError, "either replies"),
        ({"replies": ["a"], "respond": lambda m: "a"}, ValueError, "either replies"),
        ({"replies": [42]}, TypeError, "must be text"),
        ({"replies": [[{"args": {}}]]}, TypeError, "must be text"),
    ],
)
def test_a_bad_script_is_refused_when_the_model_is_made(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        FakeToolCallingModel(**kwargs)
