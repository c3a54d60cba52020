"""Typed profiles on FileSystemStore, SQLite and PostgreSQL, with real processes.

A `create_agent` run whose scripted model fills the profile over three turns (valid edits
land with history and audit, invalid ones return `Error:` and change nothing), the profile
in the next prompt and after a restart, and two processes editing different fields of the
same profile at once (both land: no field is lost).
"""

from __future__ import annotations

import json
import multiprocessing
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langchain_contextchef import ContextChef
from langchain_contextchef.middleware import ContextChefMiddleware
from tests.integration_tests import _profile_worker as worker
from tests.integration_tests._concurrency_worker import open_store
from tests.support.models import RecordingModel, tool_call
from tests.support.stores import process_backend

pytestmark = pytest.mark.slow

EDITS = 8


@pytest.fixture(params=["filesystem", "sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    return process_backend(request, tmp_path)


@pytest.fixture
def scope() -> tuple[str, ...]:
    return ("users", uuid.uuid4().hex)


def _spawn() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))


def _script() -> list[AIMessage]:
    update = "modify_memory"
    return [
        # turn 1: a valid edit, then an answer
        tool_call(update, {"action": "update", "key": "user", "value": '{"name": "Ada"}'}, "t1"),
        AIMessage("Nice to meet you, Ada."),
        # turn 2: an invalid edit (age is an int), then a valid one
        tool_call(update, {"action": "update", "key": "user/age", "value": "thirty"}, "t2a"),
        tool_call(update, {"action": "update", "key": "user/age", "value": "36"}, "t2b"),
        AIMessage("Noted."),
        # turn 3: operations; one names a missing field (refused), one appends to a list
        tool_call(
            update,
            {"action": "update", "key": "user", "value": '[{"op": "remove", "path": "/city"}]'},
            "t3a",
        ),
        tool_call(
            update,
            {
                "action": "update",
                "key": "user",
                "value": '[{"op": "add", "path": "/languages/-", "value": "Go"}]',
            },
            "t3b",
        ),
        AIMessage("Got it."),
        # turn 4: only answers, so its prompt shows what memory holds
        AIMessage("You are Ada, 36, and you write Go."),
    ]


def test_an_agent_fills_a_profile_over_three_turns(
    backend: tuple[str, str], scope: tuple[str, ...]
) -> None:
    with open_store(*backend) as store:
        chef = ContextChef(store=store, memory=worker.CONFIG, scope=scope)
        memory = chef.get_memory()
        model = RecordingModel(script=_script())
        agent = create_agent(model, middleware=[ContextChefMiddleware(chef)])
        messages: list[Any] = []
        for text in ["I'm Ada.", "I'm 36.", "I write Go.", "Who am I?"]:
            state = agent.invoke({"messages": [*messages, HumanMessage(text)]})
            messages = state["messages"]
        results = {m.tool_call_id: m.content for m in messages if isinstance(m, ToolMessage)}
        assert results["t1"] == "Created context://memory/user."
        assert str(results["t2a"]).startswith(
            "Error: the profile context://memory/user was not changed: it does not fit "
            "UserProfile: age: Input should be a valid integer"
        )
        assert results["t2b"] == "Updated context://memory/user (field age)."
        assert results["t3a"] == (
            "Error: the profile context://memory/user was not changed: operation 1: nothing "
            "is stored at /city."
        )
        assert results["t3b"] == "Updated context://memory/user."
        # Only the three valid edits became versions; the refused ones left no trace.
        assert memory.profile("user") == worker.UserProfile(name="Ada", age=36, languages=["Go"])
        history = memory.history("user")
        assert [json.loads(r.entry.value) for r in history] == [
            {"name": "Ada"},
            {"name": "Ada", "age": 36},
            {"name": "Ada", "age": 36, "languages": ["Go"]},
        ]
        # Each replaced version records the tool call that replaced it.
        assert [r.tool_call_id for r in history] == ["t2b", "t3b", None]
        audit = memory.audit("user")
        assert [(r.action, r.actor, r.version, r.tool_call_id) for r in audit] == [
            ("created", "model", 1, "t1"),
            ("updated", "model", 2, "t2b"),
            ("updated", "model", 3, "t3b"),
        ]
        # The next prompt shows the profile, compactly.
        rendered = '<entry key="user" type="profile">{"name":"Ada","age":36,"languages":["Go"]}'
        last_prompt = "\n".join(str(m.content) for m in model.calls[-1])
        assert rendered in last_prompt
    # A restart: a new process opens the same backend and compiles.
    with _spawn() as pool:
        text = pool.submit(worker.compile_once, *backend, scope).result(timeout=300)
    assert rendered in text
    assert "Profile user: {name: str, city: str, age: int, languages: [str]" in text
    with open_store(*backend) as store:
        memory = ContextChef(store=store, memory=worker.CONFIG, scope=scope).get_memory()
        assert memory.profile("user") == worker.UserProfile(name="Ada", age=36, languages=["Go"])
        assert [r.version for r in memory.history("user")] == [1, 2, 3]


def test_two_processes_editing_different_fields_both_land(
    backend: tuple[str, str], scope: tuple[str, ...]
) -> None:
    with open_store(*backend) as store:  # an empty profile: every edit below is an update
        ContextChef(store=store, memory=worker.CONFIG, scope=scope).get_memory().set_profile(
            "user", {}
        )
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, _spawn() as pool:
        barrier = manager.Barrier(2)
        futures = [
            pool.submit(worker.edit_field, *backend, scope, field, EDITS, barrier)
            for field in ("editor", "shell")
        ]
        replies = [f.result(timeout=600) for f in futures]
    assert replies == [
        ["Updated context://memory/user (field editor)."] * EDITS,
        ["Updated context://memory/user (field shell)."] * EDITS,
    ]
    with open_store(*backend) as store:
        memory = ContextChef(store=store, memory=worker.CONFIG, scope=scope).get_memory()
        final = memory.profile("user")
        assert final == worker.UserProfile(editor=f"editor-{EDITS - 1}", shell=f"shell-{EDITS - 1}")
        history = memory.history("user")
        assert [r.version for r in history] == list(range(1, 2 * EDITS + 2))
        # Every version keeps what the other process wrote before it: no edit was lost.
        seen = {"editor": -1, "shell": -1}
        for record in history:
            doc = json.loads(record.entry.value)
            for field in seen:
                value = int(doc[field].rsplit("-", 1)[1]) if field in doc else -1
                assert value >= seen[field]
                seen[field] = value
