"""What one turn is: a model call (the default) or a new user message (`turn_unit`)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, ContextChefMiddleware, MemoryConfig, Turns
from langchain_contextchef.compile import user_message_marker
from tests.support.models import RecordingModel, tool_call


def chef(**kwargs: Any) -> ContextChef:
    return ContextChef(store=InMemoryStore(), **kwargs)


# ---- the marker ------------------------------------------------------------------------------


def test_the_marker_is_the_last_user_messages_id_or_a_digest_of_position_and_content() -> None:
    with_id = [HumanMessage("a", id="m1"), AIMessage("b"), HumanMessage("c", id="m2")]
    assert user_message_marker(with_id) == "id:m2"
    assert user_message_marker([*with_id, AIMessage("d")]) == "id:m2"
    plain = [SystemMessage("s"), HumanMessage("yes")]
    again = [*plain, AIMessage("ok"), HumanMessage("yes")]
    assert user_message_marker(plain) == user_message_marker(
        [SystemMessage("s"), HumanMessage("yes")]
    )
    assert user_message_marker(plain) != user_message_marker(again)  # same words, later
    assert user_message_marker([SystemMessage("s")]) == "none"


# ---- the compile ---------------------------------------------------------------------------


def test_per_user_message_the_clock_advances_once_per_new_message() -> None:
    c = chef(turn_unit="user_message")
    first: list[BaseMessage] = [HumanMessage("q1", id="u1")]
    turns = [c.compile(first).meta.turn for _ in range(3)]
    assert turns == [1, 1, 1]
    later = [*first, AIMessage("a1"), HumanMessage("q2", id="u2")]
    assert [c.compile(later).meta.turn for _ in range(2)] == [2, 2]
    assert c.get_memory().turn == 2


def test_per_model_call_every_compile_is_a_turn() -> None:
    c = chef()
    assert c.turn_unit == "model_call"
    assert [c.compile([HumanMessage("q", id="u1")]).meta.turn for _ in range(3)] == [1, 2, 3]


def test_a_compile_may_override_the_chefs_unit_and_mixing_stays_consistent() -> None:
    c = chef()
    message = [HumanMessage("q", id="u1")]
    assert c.compile(message, turn_unit="user_message").meta.turn == 1
    assert c.compile(message, turn_unit="user_message").meta.turn == 1
    assert c.compile(message).meta.turn == 2  # a per-call compile advances and forgets the marker
    assert c.compile(message, turn_unit="user_message").meta.turn == 3
    with pytest.raises(ValueError, match="'model_call', 'user_message'"):
        c.compile(message, turn_unit="session")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'model_call', 'user_message'"):
        chef(turn_unit="request")  # type: ignore[arg-type]


def test_expiry_is_decided_on_the_turn_the_message_claimed() -> None:
    c = chef(turn_unit="user_message")
    memory = c.get_memory()
    memory.set("brief", "one turn", ttl=Turns(1))
    message: list[BaseMessage] = [HumanMessage("q1", id="u1")]
    assert [c.compile(message).meta.injected_keys for _ in range(3)] == [["brief"]] * 3
    following = [*message, AIMessage("a"), HumanMessage("q2", id="u2")]
    payload = c.compile(following)
    assert payload.meta.expired_keys == ["brief"] and payload.meta.injected_keys == []


# ---- an agent: three model calls for one user message --------------------------------------


@tool
def search_docs(query: str) -> str:
    """Search the documentation."""
    return f"Docs about {query}."


def three_calls_then_one() -> list[AIMessage]:
    """User message 1: save a task, search, answer (three model calls); message 2: answer."""
    return [
        tool_call("create_memory", {"key": "task", "value": "port the parser"}, "c1"),
        tool_call("search_docs", {"query": "parser"}, "c2"),
        AIMessage("Saved and searched."),
        AIMessage("Still on it."),
    ]


def run_agent(turn_unit: str | None, chef_unit: str = "model_call") -> RecordingModel:
    store = InMemoryStore()
    c = ContextChef(
        store=store,
        memory=MemoryConfig(default_ttl=Turns(2)),
        turn_unit=chef_unit,  # type: ignore[arg-type]
    )
    model = RecordingModel(script=three_calls_then_one())
    agent = create_agent(
        model,
        tools=[search_docs],
        middleware=[ContextChefMiddleware(c, turn_unit=turn_unit)],  # type: ignore[arg-type]
        checkpointer=InMemorySaver(),
    )
    config: Any = {"configurable": {"thread_id": "t"}}
    agent.invoke({"messages": [HumanMessage("Port the parser, please.")]}, config)
    agent.invoke({"messages": [HumanMessage("How is it going?")]}, config)
    assert len(model.calls) == 4
    return model


def shows_task(messages: list[BaseMessage]) -> bool:
    return any('<entry key="task"' in m.text for m in messages)


@pytest.mark.parametrize(
    ("middleware_unit", "chef_unit"), [("user_message", "model_call"), (None, "user_message")]
)
def test_a_turns_2_entry_survives_into_the_next_user_message(
    middleware_unit: str | None, chef_unit: str
) -> None:
    model = run_agent(middleware_unit, chef_unit)
    # Saved during the first call; shown in the two later calls of that message and in the
    # next user message.
    assert [shows_task(call) for call in model.calls] == [False, True, True, True]


def test_per_model_call_the_same_entry_is_gone_before_the_user_writes_again() -> None:
    model = run_agent(None)
    # Three model calls spent three turns: Turns(2) lasted for the two calls after the save.
    assert [shows_task(call) for call in model.calls] == [False, True, True, False]
