"""Consent at its edges, through a graph with a checkpointer and `Command(resume=...)`.

* Bypass: consent is judged on every entry a write changes. A `supersedes` list that would
  retire an entry the policy covers (by type, by key pattern, or a delete-only policy) pauses
  the graph, and so does an update that changes the type of a covered entry.
* Wedge: a resume value that is not a decision raises a clear error and leaves the question
  pending, so a later valid resume (plain, or addressed by interrupt id) is applied.
* Stale approval: a person approves what they were shown; if the entry changed while the
  graph waited, the approval is refused ("changed since") and nothing is written.

Runs on every store backend; the checkpoint is LangGraph's `SqliteSaver` on a file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langgraph.types import Command

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.consent import ConsentPolicy
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.middleware import ContextChefMiddleware
from langchain_contextchef.tools import default_resolver, make_tools
from tests.support.graphs import tool_loop
from tests.support.models import RecordingModel, tool_call
from tests.support.stores import dump

SCOPE = ("users", "ada")
RUN = {"user_id": "ada"}


@pytest.fixture
def checkpointer(tmp_path: Path) -> Iterator[SqliteSaver]:
    conn = sqlite3.connect(tmp_path / "checkpoints.db", check_same_thread=False)
    yield SqliteSaver(conn)
    conn.close()


def entries(store: BaseStore) -> list[Any]:
    """Everything stored but the proposals (a pause records what the person is shown)."""
    return [row for row in dump(store) if row[0][-1] != "memory_proposals"]


def tool_messages(messages: list[BaseMessage]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


def app_for(
    store: BaseStore,
    checkpointer: SqliteSaver,
    config: MemoryConfig,
    call: AIMessage,
    mode: str = "legacy",
) -> Any:
    resolver = default_resolver(config, scope=("users", "{user_id}"))
    tools = make_tools(mode=mode, allowed_keys=None, resolver=resolver)  # type: ignore[arg-type]
    model = RecordingModel(script=[call, AIMessage("ok")])
    return tool_loop(model, tools, store, checkpointer)


def thread(name: str) -> Any:
    return {"configurable": {"thread_id": name, **RUN}}


# ---- bypass: supersedes and type changes ------------------------------------------------------

POLICIES = {
    "by type": ConsentPolicy(types=["preference"]),
    "by key pattern": ConsentPolicy(keys=["user/*"]),
    "delete only": ConsentPolicy(actions=["delete"]),
}

SUPERSEDING_CALLS = {
    "create_memory": (
        "legacy",
        {"key": "style", "value": "dry", "type": "fact", "supersedes": ["user/tone"]},
    ),
    "context create": (
        "unified",
        {
            "command": "create",
            "path": "memory/style",
            "file_text": "dry",
            "type": "fact",
            "supersedes": ["user/tone"],
        },
    ),
}


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("via", sorted(SUPERSEDING_CALLS))
def test_retiring_a_covered_entry_through_supersedes_asks_first(
    store: BaseStore, checkpointer: SqliteSaver, policy: str, via: str
) -> None:
    config = MemoryConfig(consent=POLICIES[policy])
    memory = Memory(store, config, scope=SCOPE)
    memory.set("user/tone", "formal", type="preference")
    before = entries(store)
    mode, args = SUPERSEDING_CALLS[via]
    name = "context" if mode == "unified" else "create_memory"
    app = app_for(store, checkpointer, config, tool_call(name, args), mode)

    paused = app.invoke({"messages": [HumanMessage("Be dry.")]}, thread(via + policy))
    (asked,) = paused["__interrupt__"]
    assert (asked.value["key"], asked.value["supersedes"]) == ("style", ["user/tone"])
    assert entries(store) == before  # nothing retired while the person decides

    done = app.invoke(Command(resume={"type": "reject"}), thread(via + policy))
    (result,) = tool_messages(done["messages"])
    assert result.status == "error" and "declined" in result.text
    assert memory.get("user/tone") == "formal" and memory.get("style") is None
    assert [e.key for e in memory.list()] == ["user/tone"]


def test_approving_the_superseding_write_retires_the_entry(
    store: BaseStore, checkpointer: SqliteSaver
) -> None:
    config = MemoryConfig(consent=ConsentPolicy(actions=["delete"]))
    memory = Memory(store, config, scope=SCOPE)
    memory.set("user/tone", "formal", type="preference")
    _, args = SUPERSEDING_CALLS["create_memory"]
    app = app_for(store, checkpointer, config, tool_call("create_memory", args))
    app.invoke({"messages": [HumanMessage("Be dry.")]}, thread("approve"))
    done = app.invoke(Command(resume="approve"), thread("approve"))
    (result,) = tool_messages(done["messages"])
    assert result.status == "success" and "supersedes context://memory/user/tone" in result.text
    assert memory.get("style") == "dry" and memory.get("user/tone") is None


@pytest.mark.parametrize(("old_type", "new_type"), [("preference", "fact"), ("fact", "preference")])
def test_changing_the_type_on_an_update_asks_under_both_types(
    store: BaseStore, checkpointer: SqliteSaver, old_type: str, new_type: str
) -> None:
    config = MemoryConfig(consent=ConsentPolicy(types=["preference"]))
    memory = Memory(store, config, scope=SCOPE)
    memory.set("tone", "formal", type=old_type)
    before = entries(store)
    args = {"action": "update", "key": "tone", "value": "dry", "type": new_type}
    app = app_for(store, checkpointer, config, tool_call("modify_memory", args))

    paused = app.invoke({"messages": [HumanMessage("Be dry.")]}, thread(old_type))
    (asked,) = paused["__interrupt__"]
    assert (asked.value["old_type"], asked.value["type"]) == (old_type, new_type)
    assert entries(store) == before

    app.invoke(Command(resume={"type": "reject"}), thread(old_type))
    entry = memory.get_entry("tone")
    assert entry is not None and (entry.value, entry.type) == ("formal", old_type)


def test_an_update_within_uncovered_types_still_goes_through(
    store: BaseStore, checkpointer: SqliteSaver
) -> None:
    # The rule judges the entry's types, not every write: fact -> event asks nobody.
    config = MemoryConfig(consent=ConsentPolicy(types=["preference"]))
    memory = Memory(store, config, scope=SCOPE)
    memory.set("city", "Oslo", type="fact")
    args = {"action": "update", "key": "city", "value": "Bergen", "type": "event"}
    app = app_for(store, checkpointer, config, tool_call("modify_memory", args))
    done = app.invoke({"messages": [HumanMessage("I moved.")]}, thread("free"))
    assert "__interrupt__" not in done
    assert memory.get("city") == "Bergen"


# ---- wedge: a bad resume leaves the question pending ------------------------------------------

BAD_RESUMES: list[Any] = [{"type": "bogus"}, {"type": "edit"}, 42, ["approve"]]


@pytest.mark.parametrize("addressed", ["plain", "by interrupt id"])
def test_bad_resumes_fail_clearly_and_a_later_valid_one_is_applied(
    store: BaseStore, checkpointer: SqliteSaver, addressed: str
) -> None:
    config = MemoryConfig(consent=ConsentPolicy(), audit=True)
    memory = Memory(store, config, scope=SCOPE)
    args = {"key": "tone", "value": "dry"}
    app = app_for(store, checkpointer, config, tool_call("create_memory", args))
    paused = app.invoke({"messages": [HumanMessage("Be dry.")]}, thread(addressed))
    (asked,) = paused["__interrupt__"]
    before = dump(store)

    for bad in BAD_RESUMES:
        resume = {asked.id: bad} if addressed == "by interrupt id" else bad
        with pytest.raises(ValueError, match="the question is still waiting"):
            app.invoke(Command(resume=resume), thread(addressed))
        assert dump(store) == before
        assert [i.id for i in app.get_state(thread(addressed)).interrupts] == [asked.id]

    resume = {asked.id: "approve"} if addressed == "by interrupt id" else "approve"
    done = app.invoke(Command(resume=resume), thread(addressed))
    assert "__interrupt__" not in done
    (result,) = tool_messages(done["messages"])
    assert result.status == "success" and result.text.endswith("The user approved it.")
    assert memory.get("tone") == "dry"
    assert [r.action for r in memory.audit("tone")] == ["proposal_approved", "created"]


def test_a_bad_answer_to_the_second_question_of_a_rename_keeps_the_first(
    store: BaseStore, checkpointer: SqliteSaver
) -> None:
    # The rerun skips the bad answer exactly as the failed run did, so the copy's approval
    # is not handed to the delete, and the copy is made once.
    config = MemoryConfig(consent=ConsentPolicy(), audit=True)
    memory = Memory(store, config, scope=SCOPE)
    memory.set("old", "v1")
    move = {"command": "rename", "path": "memory/old", "new_path": "memory/new"}
    app = app_for(store, checkpointer, config, tool_call("context", move), "unified")
    first = app.invoke({"messages": [HumanMessage("rename")]}, thread("mv"))
    assert [i.value["action"] for i in first["__interrupt__"]] == ["create"]
    second = app.invoke(Command(resume="approve"), thread("mv"))
    assert [i.value["action"] for i in second["__interrupt__"]] == ["delete"]
    with pytest.raises(ValueError, match="A delete cannot be edited"):
        app.invoke(Command(resume={"type": "edit", "value": "v2"}), thread("mv"))
    assert (memory.get("new"), memory.get("old")) == ("v1", "v1")

    done = app.invoke(Command(resume={"type": "reject"}), thread("mv"))
    (result,) = tool_messages(done["messages"])
    assert "declined" in result.text
    assert (memory.get("new"), memory.get("old")) == ("v1", "v1")
    assert [r.action for r in memory.audit("new")] == ["proposal_approved", "created"]
    assert [r.action for r in memory.audit("old")][-1] == "proposal_rejected"


async def test_create_agent_answers_after_a_bad_resume() -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, memory=MemoryConfig(consent=ConsentPolicy()))
    script = [tool_call("create_memory", {"key": "k", "value": "v"}), AIMessage("ok")]
    model = RecordingModel(script=script)
    agent = create_agent(
        model, middleware=[ContextChefMiddleware(chef)], checkpointer=InMemorySaver()
    )
    run: Any = {"configurable": {"thread_id": "agent"}}
    (asked,) = (await agent.ainvoke({"messages": [HumanMessage("x")]}, run))["__interrupt__"]
    with pytest.raises(ValueError, match="still waiting"):
        await agent.ainvoke(Command(resume={"type": "bogus"}), run)
    done = await agent.ainvoke(Command(resume={asked.id: "approve"}), run)
    assert [m.status for m in tool_messages(done["messages"])] == ["success"]
    assert chef.get_memory().get("k") == "v"


# ---- stale approval: the person approves the version they were shown --------------------------

STALE_CASES = {
    "update": ("modify_memory", {"action": "update", "key": "tone", "value": "dry"}, "dry"),
    "delete": ("modify_memory", {"action": "delete", "key": "tone"}, None),
    "str_replace": (
        "context",
        {"command": "str_replace", "path": "memory/tone", "old_str": "formal", "new_str": "dry"},
        "dry",
    ),
}


EDIT = {"type": "edit", "value": "bone dry"}
# A delete cannot be edited (the wedge tests cover that refusal).
ANSWERS = [(case, "approve") for case in sorted(STALE_CASES)] + [
    (case, EDIT) for case in sorted(STALE_CASES) if case != "delete"
]


@pytest.mark.parametrize(("case", "answer"), ANSWERS)
def test_an_approval_is_refused_when_the_entry_changed_while_waiting(
    store: BaseStore, checkpointer: SqliteSaver, case: str, answer: Any
) -> None:
    name, args, _ = STALE_CASES[case]
    config = MemoryConfig(consent=ConsentPolicy(), audit=True)
    memory = Memory(store, config, scope=SCOPE)
    memory.set("tone", "formal and warm" if case == "str_replace" else "formal")
    mode = "unified" if name == "context" else "legacy"
    app = app_for(store, checkpointer, config, tool_call(name, args), mode)
    paused = app.invoke({"messages": [HumanMessage("Be dry.")]}, thread(case))
    (asked,) = paused["__interrupt__"]
    assert asked.value["version"] == 1

    # Someone changes it while the person decides (an edit's old text is still there).
    changed = "formal and casual" if case == "str_replace" else "casual"
    memory.set("tone", changed)
    done = app.invoke(Command(resume=answer), thread(case))

    (result,) = tool_messages(done["messages"])
    assert result.status == "error"
    assert "context://memory/tone changed since the user was asked" in result.text
    assert f"they saw version 1, and it is now version 2, holding:\n{changed}\n" in result.text
    entry = memory.get_entry("tone")
    assert entry is not None and (entry.value, entry.version) == (changed, 2)
    assert memory.proposals() == []
    (settled,) = [r for r in memory.audit("tone") if r.action.startswith("proposal_")]
    assert settled.action == "proposal_rejected" and "changed since" in (settled.note or "")


@pytest.mark.parametrize("case", sorted(STALE_CASES))
def test_an_approval_of_an_unchanged_entry_still_applies(
    store: BaseStore, checkpointer: SqliteSaver, case: str
) -> None:
    name, args, expected = STALE_CASES[case]
    config = MemoryConfig(consent=ConsentPolicy())
    memory = Memory(store, config, scope=SCOPE)
    memory.set("tone", "formal")
    mode = "unified" if name == "context" else "legacy"
    app = app_for(store, checkpointer, config, tool_call(name, args), mode)
    app.invoke({"messages": [HumanMessage("Be dry.")]}, thread(case))
    # While the graph waits, the question is not a stored proposal anyone else can settle.
    assert memory.proposals() == []
    done = app.invoke(Command(resume="approve"), thread(case))
    (result,) = tool_messages(done["messages"])
    assert result.status == "success", result.text
    assert memory.get("tone") == expected
