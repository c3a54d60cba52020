"""`ContextChefMiddleware` inside a real `create_agent` run with a scripted chat model.

The model records every message list it receives, so the tests read exactly what a provider
would have been sent, and compare it with the agent's saved state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import SummarizationMiddleware
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from pydantic import BaseModel

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.errors import ContextChefError
from langchain_contextchef.memory import MemoryConfig
from langchain_contextchef.middleware import ContextChefMiddleware
from tests.support.models import RecordingModel, remember_then_answer, text_of

CONFIG: Any = {"configurable": {"user_id": "alice"}}
SCOPE = ("users", "{user_id}")


def stored(chef: ContextChef, store: BaseStore) -> dict[str, str]:
    return {e.key: e.value for e in chef.get_memory(CONFIG, store=store).list()}


@dataclass
class Setup:
    chef: ContextChef
    store: BaseStore
    agent_store: BaseStore | None


def make_setup(explicit_store: bool, placement: str = "after_system") -> Setup:
    store = InMemoryStore()
    memory = MemoryConfig(memory_placement=placement)  # type: ignore[arg-type]
    if explicit_store:
        return Setup(ContextChef(store=store, scope=SCOPE, memory=memory), store, None)
    return Setup(ContextChef(scope=SCOPE, memory=memory), store, store)


# ---- the main loop: read, write through the ToolNode, read again --------------------------


@pytest.mark.parametrize("explicit_store", [False, True], ids=["agent_store", "chef_store"])
@pytest.mark.parametrize("placement", ["after_system", "before_history_tail"])
@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_model_sees_memory_writes_it_and_sees_the_write(
    explicit_store: bool, placement: str, mode: str
) -> None:
    setup = make_setup(explicit_store, placement)
    setup.chef.get_memory(CONFIG, store=setup.store).set("lang", "Python")
    model = RecordingModel(script=remember_then_answer())
    agent = create_agent(
        model,
        system_prompt="You are helpful.",
        middleware=[ContextChefMiddleware(setup.chef)],
        store=setup.agent_store,
    )
    request = {"messages": [HumanMessage("Please keep replies dry.")]}
    if mode == "sync":
        result = agent.invoke(request, CONFIG)
    else:
        result = await agent.ainvoke(request, CONFIG)

    first, second = model.calls
    assert "Python" in text_of(first) and "<memory>" in text_of(first)
    assert "dry" not in text_of(first).replace("Please keep replies dry.", "")
    assert '<entry key="tone"' in text_of(second)
    assert stored(setup.chef, setup.store) == {"lang": "Python", "tone": "dry"}

    tool_result = next(m for m in result["messages"] if isinstance(m, ToolMessage))
    assert tool_result.status == "success" and "tone" in tool_result.text
    # The injected block lives in requests only, never in the saved conversation.
    assert all("<memory>" not in m.text for m in result["messages"])
    assert result["messages"][0].content == "Please keep replies dry."
    # One compile per model call, so the clock advanced exactly twice.
    assert setup.chef.get_memory(CONFIG, store=setup.store).turn == 2

    if placement == "before_history_tail":
        # The memory data follows the tool result as a user turn of its own.
        assert isinstance(second[-2], ToolMessage) and isinstance(second[-1], HumanMessage)
        assert "<memory>" in second[-1].text
        assert all("<memory>" not in m.text for m in second[:-1])


def test_system_prompt_stays_its_own_block_and_the_layer_is_one_system_message() -> None:
    setup = make_setup(explicit_store=True)
    setup.chef.get_memory(CONFIG, store=setup.store).set("lang", "Python")
    model = RecordingModel(script=[AIMessage("Hi.")])
    agent = create_agent(
        model, system_prompt="You are helpful.", middleware=[ContextChefMiddleware(setup.chef)]
    )
    agent.invoke({"messages": [HumanMessage("Hello")]}, CONFIG)

    (call,) = model.calls
    assert [type(m) for m in call] == [SystemMessage, HumanMessage]
    blocks = call[0].content
    assert isinstance(blocks, list) and len(blocks) == 2
    assert blocks[0] == {"type": "text", "text": "You are helpful."}
    assert isinstance(blocks[1], dict) and "<memory>" in blocks[1]["text"]
    assert call[1].content == "Hello"


def test_no_system_prompt_gives_a_single_memory_system_message() -> None:
    setup = make_setup(explicit_store=True)
    setup.chef.get_memory(CONFIG, store=setup.store).set("lang", "Python")
    model = RecordingModel(script=[AIMessage("Hi.")])
    agent = create_agent(model, middleware=[ContextChefMiddleware(setup.chef)])
    agent.invoke({"messages": [HumanMessage("Hello")]}, CONFIG)

    (call,) = model.calls
    assert isinstance(call[0], SystemMessage) and "Python" in call[0].text
    assert sum(isinstance(m, SystemMessage) for m in call) == 1


def test_memory_is_never_persisted_across_runs_of_one_thread() -> None:
    setup = make_setup(explicit_store=True, placement="before_history_tail")
    setup.chef.get_memory(CONFIG, store=setup.store).set("lang", "Python")
    model = RecordingModel(script=[AIMessage("One."), AIMessage("Two.")])
    agent = create_agent(
        model, middleware=[ContextChefMiddleware(setup.chef)], checkpointer=InMemorySaver()
    )
    config = {"configurable": {"user_id": "alice", "thread_id": "t1"}}
    agent.invoke({"messages": [HumanMessage("first")]}, config)
    result = agent.invoke({"messages": [HumanMessage("second")]}, config)

    second = model.calls[1]
    # Exactly one block in the request, on the newest user turn; the old turn is clean.
    assert text_of(second).count("<memory>") == 1
    assert second[1].content == "first"
    assert "<memory>" in second[-1].text
    assert [m.text for m in result["messages"]] == ["first", "One.", "second", "Two."]


# ---- dynamic state ---------------------------------------------------------------------------


class Task(BaseModel):
    active_file: str


def test_dynamic_state_from_the_agent_state_key() -> None:
    setup = make_setup(explicit_store=True)
    model = RecordingModel(script=[AIMessage("ok")])
    agent = create_agent(model, middleware=[ContextChefMiddleware(setup.chef)])
    result = agent.invoke(
        {"messages": [HumanMessage("go")], "dynamic_state": {"active_file": "auth.py"}}, CONFIG
    )

    (call,) = model.calls
    assert "<dynamic_state>" in call[-1].text and "auth.py" in call[-1].text
    assert result["messages"][0].content == "go"
    assert all("<dynamic_state>" not in m.text for m in result["messages"])


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_dynamic_state_callable_sees_state_and_runtime(mode: str) -> None:
    setup = make_setup(explicit_store=True)
    seen: list[tuple[int, Any]] = []

    def from_state(state: Any, runtime: Any) -> Task:
        seen.append((len(state["messages"]), runtime.context))
        return Task(active_file=f"file{len(state['messages'])}.py")

    model = RecordingModel(script=[AIMessage("ok")])
    agent = create_agent(
        model, middleware=[ContextChefMiddleware(setup.chef, dynamic_state=from_state)]
    )
    request = {"messages": [HumanMessage("go")], "dynamic_state": {"active_file": "ignored.py"}}
    if mode == "sync":
        agent.invoke(request, CONFIG)
    else:
        await agent.ainvoke(request, CONFIG)

    assert seen == [(1, None)]
    assert "file1.py" in model.calls[0][-1].text
    assert "ignored.py" not in text_of(model.calls[0])


async def test_async_dynamic_state_callable_works_on_ainvoke_and_is_refused_on_invoke() -> None:
    setup = make_setup(explicit_store=True)

    async def from_state(state: Any, runtime: Any) -> dict[str, str]:
        return {"phase": "review"}

    middleware = ContextChefMiddleware(setup.chef, dynamic_state=from_state)
    model = RecordingModel(script=[AIMessage("ok")])
    agent = create_agent(model, middleware=[middleware])
    await agent.ainvoke({"messages": [HumanMessage("go")]}, CONFIG)
    assert "review" in model.calls[0][-1].text

    with pytest.raises(TypeError, match="ainvoke"):
        create_agent(RecordingModel(script=[]), middleware=[middleware]).invoke(
            {"messages": [HumanMessage("go")]}, CONFIG
        )


# ---- composition and construction -----------------------------------------------------------


def test_summarization_never_sees_or_keeps_the_memory_block() -> None:
    setup = make_setup(explicit_store=True, placement="before_history_tail")
    setup.chef.get_memory(CONFIG, store=setup.store).set("lang", "Python")
    summarizer = RecordingModel(script=[AIMessage("SUMMARY: the user chatted.")])
    model = RecordingModel(script=[AIMessage("Fine.")])
    agent = create_agent(
        model,
        middleware=[
            SummarizationMiddleware(summarizer, trigger=("tokens", 60), keep=("messages", 2)),
            ContextChefMiddleware(setup.chef),
        ],
    )
    history: list[BaseMessage] = []
    for i in range(4):
        history += [HumanMessage(f"question {i} " + "x" * 80), AIMessage(f"answer {i} " + "y" * 80)]
    result = agent.invoke({"messages": [*history, HumanMessage("and now?")]}, CONFIG)

    assert len(summarizer.calls) == 1, "the low token trigger must have summarised"
    assert "<memory>" not in text_of(summarizer.calls[0])
    saved = text_of(result["messages"])
    assert "SUMMARY: the user chatted." in saved
    assert "<memory>" not in saved and "Python" not in saved
    (call,) = model.calls
    assert text_of(call).count("<memory>") == 1 and "Python" in call[-1].text


def test_tools_are_the_chefs_and_memory_none_registers_none() -> None:
    chef = ContextChef(scope=SCOPE)
    middleware = ContextChefMiddleware(chef)
    assert [t.name for t in middleware.tools] == [t.name for t in chef.tools]
    # Recall mode is the default: the legacy tools include recall_memory.
    assert {t.name for t in middleware.tools} == {"create_memory", "modify_memory", "recall_memory"}
    assert list(ContextChefMiddleware(ContextChef(memory=None)).tools) == []


def test_memory_disabled_still_passes_dynamic_state_and_leaves_the_system_prompt() -> None:
    chef = ContextChef(memory=None)
    model = RecordingModel(script=[AIMessage("ok")])
    agent = create_agent(model, system_prompt="Be brief.", middleware=[ContextChefMiddleware(chef)])
    agent.invoke({"messages": [HumanMessage("go")], "dynamic_state": {"phase": "plan"}})

    (call,) = model.calls
    assert call[0] == SystemMessage("Be brief.")
    assert "plan" in call[-1].text and "<memory>" not in text_of(call)


def test_rejects_a_non_chef_with_guidance() -> None:
    bad: Callable[..., Any] = ContextChefMiddleware
    with pytest.raises(TypeError, match="needs a ContextChef"):
        bad(object())


def test_chef_without_any_store_fails_with_guidance() -> None:
    chef = ContextChef(scope=SCOPE)
    agent = create_agent(RecordingModel(script=[]), middleware=[ContextChefMiddleware(chef)])
    with pytest.raises(ContextChefError, match=r"graph.compile\(store=...\)"):
        agent.invoke({"messages": [HumanMessage("go")]}, CONFIG)


# ---- breakpoint placement on hand-made requests ----------------------------------------------

CC = {"type": "ephemeral", "ttl": "5m"}


def run_request(
    messages: list[Any], *, memory: bool = True, settings: dict[str, Any] | None = None
) -> Any:
    """One wrap_model_call on a request shaped like the caching middleware leaves it."""
    from langchain.agents.middleware.types import ModelRequest, ModelResponse
    from langgraph.runtime import Runtime

    store = InMemoryStore()
    chef = ContextChef(store=store, memory=MemoryConfig(memory_placement="before_history_tail"))
    if memory:
        chef.get_memory().set("lang", "Python")
    system = SystemMessage([{"type": "text", "text": "You help.", "cache_control": CC}])
    request = ModelRequest(
        model=RecordingModel(script=[]),
        messages=messages,
        system_message=system,
        model_settings={"cache_control": CC, "temperature": 0} if settings is None else settings,
        state={"messages": messages},
        runtime=Runtime(store=store),
    )
    seen: list[Any] = []

    def handler(final: Any) -> Any:
        seen.append(final)
        return ModelResponse(result=[AIMessage("ok")])

    ContextChefMiddleware(chef).wrap_model_call(request, handler)
    (final,) = seen
    assert request.messages == messages and request.system_message is system  # untouched
    return final


def marked(content: Any) -> list[Any]:
    return [b for b in content if isinstance(b, dict) and "cache_control" in b]


def test_breakpoint_moves_from_settings_to_the_users_own_text() -> None:
    final = run_request([HumanMessage("Hello")])
    assert final.model_settings == {"temperature": 0}
    content = final.messages[-1].content
    assert content[0] == {"type": "text", "text": "Hello", "cache_control": CC}
    assert "<memory>" in content[1]["text"] and "Hello" not in content[1]["text"]
    assert "cache_control" not in content[1]
    # The system prompt keeps its own (stable) breakpoint, our instruction follows untagged.
    system = final.system_message.content
    assert system[0] == {"type": "text", "text": "You help.", "cache_control": CC}
    assert len(marked(system)) == 1 and "<memory>" not in system[1]["text"]


def test_breakpoint_on_the_last_original_block_of_a_block_list() -> None:
    user = HumanMessage([{"type": "text", "text": "look"}, "again"])
    final = run_request([user])
    content = final.messages[-1].content
    assert content[:2] == [
        {"type": "text", "text": "look"},
        {"type": "text", "text": "again", "cache_control": CC},
    ]
    assert "<memory>" in content[2]["text"] and len(content) == 3
    assert user.content == [{"type": "text", "text": "look"}, "again"]


def test_breakpoint_on_the_trailing_tool_result() -> None:
    history = [
        HumanMessage("Weather?"),
        AIMessage("", tool_calls=[{"name": "w", "args": {}, "id": "c1"}]),
        ToolMessage("rain", tool_call_id="c1"),
    ]
    final = run_request(history)
    tool, tail = final.messages[-2:]
    assert tool.content == [{"type": "text", "text": "rain", "cache_control": CC}]
    assert isinstance(tail, HumanMessage) and "<memory>" in tail.text
    assert "cache_control" not in final.model_settings
    assert history[2].content == "rain"


def test_no_stable_turn_before_the_tail_drops_the_message_breakpoint() -> None:
    final = run_request([AIMessage("{")])
    assert "cache_control" not in final.model_settings
    assert all(not isinstance(m.content, list) or not marked(m.content) for m in final.messages)
    empty = run_request([HumanMessage("")])
    assert "cache_control" not in empty.model_settings
    (only,) = empty.messages[-1].content  # the memory block alone, untagged
    assert "<memory>" in only["text"] and "cache_control" not in only


def test_without_a_tail_the_newest_turn_carries_the_breakpoint() -> None:
    final = run_request([HumanMessage("Hello")], memory=False)
    assert "cache_control" not in final.model_settings
    assert final.messages[-1].content == [{"type": "text", "text": "Hello", "cache_control": CC}]
    prefill = run_request([HumanMessage("JSON please"), AIMessage("{")], memory=False)
    assert prefill.model_settings["cache_control"] == CC  # nothing volatile: provider default


def test_without_caching_settings_nothing_is_tagged() -> None:
    final = run_request([HumanMessage("Hello")], settings={})
    assert final.model_settings == {}
    # The memory data is a block of its own after the user's text, as the splice laid it out.
    own, tail = final.messages[-1].content
    assert own == {"type": "text", "text": "Hello"}
    assert tail["text"].startswith("<memory>") and "cache_control" not in tail


# ---- one system message: the same layout through chef.prompt and the middleware ------------


@pytest.mark.parametrize("placement", ["after_system", "before_history_tail"])
@pytest.mark.parametrize("layout", ["separate", "merged"])
def test_merged_system_layout_is_the_same_through_lcel_and_the_middleware(
    placement: str, layout: str
) -> None:
    store = InMemoryStore()
    chef = ContextChef(
        store=store,
        memory=MemoryConfig(memory_placement=placement),  # type: ignore[arg-type]
        system_layout=layout,  # type: ignore[arg-type]
    )
    chef.get_memory().set("lang", "Python")
    model = RecordingModel(script=[AIMessage("Hi.")])
    agent = create_agent(
        model, system_prompt="You are helpful.", middleware=[ContextChefMiddleware(chef)]
    )
    agent.invoke({"messages": [HumanMessage("Hello")]})
    (sent,) = model.calls
    lcel = chef.prompt.invoke([SystemMessage("You are helpful."), HumanMessage("Hello")])

    def shape(messages: list[BaseMessage]) -> list[tuple[str, Any]]:
        return [(m.type, m.content) for m in messages]

    if layout == "merged":
        # One system message in both paths, byte for byte the same request.
        assert shape(sent) == shape(lcel.to_messages())
        assert sum(isinstance(m, SystemMessage) for m in sent) == 1
        assert sent[0].content.startswith("You are helpful.\n\n")
    else:
        # The middleware sends one system message of blocks, chef.prompt two messages.
        assert [m.type for m in lcel.to_messages()][:2] == ["system", "system"]
        assert sent[0].content[0] == {"type": "text", "text": "You are helpful."}
