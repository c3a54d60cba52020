"""Consent: model writes a person must approve, through LangGraph interrupts or the store.

Inside a graph with a checkpointer a covered write pauses the graph (`interrupt`), and the
resume value decides; the store holds exactly the approved or edited value, or nothing.
Outside a graph the proposal waits in the store for `approve_proposal` / `reject_proposal`.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.consent import ConsentPolicy, parse_decision
from langchain_contextchef.entry import Provenance
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.render import parse_memory_block
from langchain_contextchef.tools import default_resolver, handle_tool, make_tools
from tests.support.graphs import tool_loop
from tests.support.models import RecordingModel, text_of, tool_call

DECISIONS: list[tuple[str, Any, str | None]] = [
    ("approve", "approve", "dry"),
    ("edit", {"type": "edit", "value": "bone dry"}, "bone dry"),
    ("reject", {"type": "reject", "reason": "not my tone"}, None),
]


def tool_messages(messages: list[BaseMessage]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


def state_graph(
    model: RecordingModel, config: MemoryConfig, store: InMemoryStore, mode: str = "legacy"
) -> Any:
    resolver = default_resolver(config)
    tools = make_tools(mode=mode, allowed_keys=None, resolver=resolver)  # type: ignore[arg-type]
    return tool_loop(model, tools, store, InMemorySaver())


@pytest.mark.parametrize(("name", "resume", "expected"), DECISIONS, ids=[d[0] for d in DECISIONS])
def test_a_state_graph_pauses_on_the_write_and_resumes_with_the_decision(
    name: str, resume: Any, expected: str | None
) -> None:
    store = InMemoryStore()
    config = MemoryConfig(consent=ConsentPolicy(types=["preference"]), audit=True)
    memory = Memory(store, config)
    memory.set("lang", "Python", type="fact")
    args = {"key": "tone", "value": "dry", "type": "preference"}
    model = RecordingModel(script=[tool_call("create_memory", args, "call-7"), AIMessage("ok")])
    app = state_graph(model, config, store)
    thread = {"configurable": {"thread_id": name}}

    paused = app.invoke({"messages": [HumanMessage("Keep it dry.")]}, thread)
    (asked,) = paused["__interrupt__"]
    assert asked.value["action"] == "create" and asked.value["key"] == "tone"
    assert asked.value["new_value"] == "dry" and asked.value["old_value"] is None
    assert asked.value["type"] == "preference"
    assert asked.value["provenance"]["tool_call_id"] == "call-7"
    assert memory.get("tone") is None  # nothing is stored while the person decides
    assert len(model.calls) == 1

    done = app.invoke(Command(resume=resume), thread)
    assert "__interrupt__" not in done
    assert memory.get("tone") == expected
    assert memory.get("lang") == "Python"
    (result,) = tool_messages(done["messages"])
    if expected is None:
        assert result.status == "error" and "declined" in result.text
        assert "not my tone" in result.text
        assert [e.key for e in memory.list()] == ["lang"]
    else:
        assert result.status == "success" and result.text.startswith("Created")
        entry = memory.get_entry("tone")
        assert entry is not None and entry.version == 1
        assert entry.provenance is not None and entry.provenance.tool_call_id == "call-7"
    if name == "edit":
        assert "bone dry" in result.text
    actions = [(r.action, r.actor) for r in memory.audit("tone")]
    settled = {"approve": "approved", "edit": "edited", "reject": "rejected"}[name]
    assert (f"proposal_{settled}", "user") in actions
    assert (("created", "model") in actions) == (expected is not None)
    # The graph went on to the model with the tool's result.
    assert len(model.calls) == 2 and model.calls[1][-1].text == result.text


@pytest.mark.parametrize(("name", "resume", "expected"), DECISIONS, ids=[d[0] for d in DECISIONS])
async def test_create_agent_pauses_on_the_write_and_resumes_with_the_decision(
    name: str, resume: Any, expected: str | None
) -> None:
    store = InMemoryStore()
    config = MemoryConfig(consent=ConsentPolicy())
    chef = ContextChef(store=store, scope=("users", "{user_id}"), memory=config)
    memory = chef.get_memory({"configurable": {"user_id": "ada"}})
    memory.set("tone", "formal")
    args = {"action": "update", "key": "tone", "value": "dry"}
    model = RecordingModel(script=[tool_call("modify_memory", args), AIMessage("ok")])
    agent = create_agent(
        model, middleware=[ContextChefMiddleware(chef)], checkpointer=InMemorySaver()
    )
    thread: Any = {"configurable": {"user_id": "ada", "thread_id": name}}

    paused = await agent.ainvoke({"messages": [HumanMessage("Be dry.")]}, thread)
    (asked,) = paused["__interrupt__"]
    assert (asked.value["action"], asked.value["old_value"]) == ("update", "formal")
    assert memory.get("tone") == "formal"

    done = await agent.ainvoke(Command(resume=resume), thread)
    assert memory.get("tone") == (expected or "formal")
    entry = memory.get_entry("tone")
    assert entry is not None and entry.version == (1 if expected is None else 2)
    (result,) = tool_messages(done["messages"])
    assert (result.status == "error") == (expected is None)
    # The next model call saw the memory block with what the person decided.
    shown = [e.value for e in parse_memory_block(text_of(model.calls[1])) if e.key == "tone"]
    assert shown == [expected or "formal"]


def test_a_bad_resume_value_raises_a_clear_error_and_writes_nothing() -> None:
    store = InMemoryStore()
    config = MemoryConfig(consent=ConsentPolicy())
    model = RecordingModel(script=[tool_call("create_memory", {"key": "k", "value": "v"})])
    app = state_graph(model, config, store)
    thread = {"configurable": {"thread_id": "bad"}}
    app.invoke({"messages": [HumanMessage("x")]}, thread)
    with pytest.raises(ValueError, match="approve"):
        app.invoke(Command(resume={"type": "edit"}), thread)
    assert Memory(store, config).get("k") is None
    assert Memory(store, config).proposals() == []


def test_a_rename_asks_twice_and_the_rerun_never_copies_again() -> None:
    # Two interrupts in one tool call: on the second resume LangGraph reruns the node from
    # its start, so the approved copy must be replayed, not made again (or refused).
    store = InMemoryStore()
    config = MemoryConfig(consent=ConsentPolicy(), audit=True)
    Memory(store, config).set("old", "v1")
    move = {"command": "rename", "path": "memory/old", "new_path": "memory/new"}
    model = RecordingModel(script=[tool_call("context", move), AIMessage("ok")])
    app = state_graph(model, config, store, mode="unified")
    thread = {"configurable": {"thread_id": "mv"}}

    first = app.invoke({"messages": [HumanMessage("rename")]}, thread)
    assert [i.value["action"] for i in first["__interrupt__"]] == ["create"]
    second = app.invoke(Command(resume="approve"), thread)
    assert [i.value["action"] for i in second["__interrupt__"]] == ["delete"]
    memory = Memory(store, config)
    assert (memory.get("new"), memory.get("old")) == ("v1", "v1")
    done = app.invoke(Command(resume="approve"), thread)
    assert (memory.get("new"), memory.get("old")) == ("v1", None)
    (result,) = tool_messages(done["messages"])
    assert result.text == "Renamed context://memory/old to context://memory/new."
    created = [r for r in memory.audit("new") if r.action == "created"]
    assert len(created) == 1


def test_outside_a_graph_the_write_waits_in_the_store() -> None:
    memory = Memory(InMemoryStore(), MemoryConfig(consent=ConsentPolicy(keys=["user/*"])))
    memory.set("user/city", "Oslo")
    text = handle_tool(
        "modify_memory", {"action": "update", "key": "user/city", "value": "Bergen"}, memory
    )
    assert "awaits the user's approval" in text and not text.startswith("Error")
    assert memory.get("user/city") == "Oslo"
    assert handle_tool("create_memory", {"key": "lang", "value": "Go"}, memory).startswith(
        "Created"
    )
    (waiting,) = memory.proposals()
    assert (waiting.action, waiting.old_value, waiting.value) == ("update", "Oslo", "Bergen")
    result = memory.approve_proposal(waiting.id, value="Trondheim")
    assert result.status == "updated" and memory.get("user/city") == "Trondheim"
    assert memory.proposals() == []
    with pytest.raises(ValueError, match="it is edited"):
        memory.approve_proposal(waiting.id)


def test_a_stored_proposal_against_an_old_version_cannot_be_approved() -> None:
    memory = Memory(InMemoryStore(), MemoryConfig(consent=ConsentPolicy()))
    memory.set("tone", "formal")
    assert memory.update_memory("tone", "dry").status == "proposed"
    memory.set("tone", "warm")  # the developer changed it meanwhile
    (waiting,) = memory.proposals()
    with pytest.raises(ValueError, match="changed since"):
        memory.approve_proposal(waiting.id)
    assert memory.get("tone") == "warm"
    assert memory.reject_proposal(waiting.id, reason="stale").status == "rejected"
    assert memory.proposals() == [] and memory.get("tone") == "warm"


def test_deletes_wait_too_and_developer_writes_never_do() -> None:
    memory = Memory(InMemoryStore(), MemoryConfig(consent=ConsentPolicy(actions=["delete"])))
    memory.set("tone", "dry")  # the developer path never asks
    assert memory.create_memory("lang", "Go").status == "created"
    assert memory.delete_memory("tone").status == "proposed"
    assert memory.get("tone") == "dry"
    (waiting,) = memory.proposals()
    assert memory.approve_proposal(waiting.id).status == "deleted"
    assert memory.get("tone") is None
    assert memory.history("tone")[-1].status == "deleted"


def test_a_graph_without_a_checkpointer_queues_instead_of_interrupting() -> None:
    store = InMemoryStore()
    config = MemoryConfig(consent=ConsentPolicy())
    tools = make_tools(mode="legacy", allowed_keys=None, resolver=default_resolver(config))
    graph = StateGraph(MessagesState)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "tools")
    app = graph.compile(store=store)
    call = tool_call("create_memory", {"key": "tone", "value": "dry"})
    out = app.invoke({"messages": [call]})
    assert "__interrupt__" not in out
    assert "awaits the user's approval" in out["messages"][-1].text
    assert [p.key for p in Memory(store, config).proposals()] == ["tone"]


def test_the_gate_runs_before_anyone_is_asked() -> None:
    memory = Memory(InMemoryStore(), MemoryConfig(consent=ConsentPolicy()))
    leaked = memory.create_memory("key", "sk-proj-" + "a1B2c3D4" * 6)
    assert leaked.status == "refused" and memory.proposals() == []


@pytest.mark.parametrize(
    "bad", [None, 3, "maybe", {"type": "edit", "value": "  "}, {"type": "reject", "reason": 1}]
)
def test_parse_decision_refuses_what_is_not_a_decision(bad: Any) -> None:
    with pytest.raises(ValueError, match="approve|reason"):
        parse_decision(bad)


def test_a_policy_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="actions"):
        ConsentPolicy(actions=["publish"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="developer"):
        ConsentPolicy(writers=["developer"])
    with pytest.raises(TypeError, match="ConsentPolicy"):
        MemoryConfig(consent="yes")  # type: ignore[arg-type]


def test_a_reflectors_write_inside_a_graph_waits_in_the_store() -> None:
    # A reflector's write follows its own model call in the same node; pausing there would
    # run (and pay for) that call again on resume, so it never interrupts.
    store = InMemoryStore()
    memory = Memory(store, MemoryConfig(consent=ConsentPolicy()))

    def reflect(state: MessagesState) -> dict[str, list[BaseMessage]]:
        source = Provenance(written_by="reflection", confidence=0.9)
        result = memory.create_memory("tone", "dry", provenance=source)
        return {"messages": [AIMessage(result.status)]}

    graph = StateGraph(MessagesState)
    graph.add_node("reflect", reflect)
    graph.add_edge(START, "reflect")
    app = graph.compile(checkpointer=InMemorySaver())
    out = app.invoke({"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": "r"}})
    assert "__interrupt__" not in out and out["messages"][-1].text == "proposed"
    (waiting,) = memory.proposals()
    assert waiting.provenance.written_by == "reflection" and memory.get("tone") is None


def test_a_direct_model_write_in_a_node_is_replayed_by_task_not_repeated() -> None:
    # No tool call id: the proposal is identified by the graph task, so a node that asks
    # twice gets each answer once and writes each entry once.
    store = InMemoryStore()
    config = MemoryConfig(consent=ConsentPolicy(), audit=True)
    memory = Memory(store, config)

    def save(state: MessagesState) -> dict[str, list[BaseMessage]]:
        first = memory.create_memory("a", "A")
        second = memory.create_memory("b", "B")
        return {"messages": [AIMessage(f"{first.status} {second.status}")]}

    graph = StateGraph(MessagesState)
    graph.add_node("save", save)
    graph.add_edge(START, "save")
    app = graph.compile(checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "direct"}}
    asked = app.invoke({"messages": [HumanMessage("x")]}, thread)["__interrupt__"]
    assert [i.value["key"] for i in asked] == ["a"]
    asked = app.invoke(Command(resume="approve"), thread)["__interrupt__"]
    assert [i.value["key"] for i in asked] == ["b"]
    done = app.invoke(Command(resume="reject"), thread)
    assert done["messages"][-1].text == "created rejected"
    assert (memory.get("a"), memory.get("b")) == ("A", None)
    assert [r.action for r in memory.audit("a")] == ["proposal_approved", "created"]
