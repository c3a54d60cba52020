"""Property: dispatch never raises on model input, and every `Error:` leaves the store unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.tools import CONTEXT_COMMANDS, OWNED_TOOL_NAMES, handle_tool

ARG_NAMES = [
    "key", "value", "description", "action", "command", "path", "file_text", "old_str",
    "new_str", "insert_line", "insert_text", "new_path", "query",
]  # fmt: skip
WORDS = [
    "lang", "tone", "blocked", "veto", "update", "delete", "upsert", *CONTEXT_COMMANDS,
    "memory/", "memory/lang", "context://memory/tone", "notes/", "notes/plan.md",
    "notes/new.md", "vfs/x", "archive/", "../x", "memory/../x", "memory/a//b", "Py", "step",
    "", " ", "\x00", "a\nb",
]  # fmt: skip

scalars = st.one_of(
    st.sampled_from(WORDS),
    st.text(max_size=30),
    st.integers(min_value=-5, max_value=10),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3), max_leaves=5)
argument_dicts = st.dictionaries(
    st.one_of(st.sampled_from(ARG_NAMES), st.text(max_size=8)), values, max_size=8
)
arguments = st.one_of(
    argument_dicts,
    argument_dicts.map(json.dumps),
    st.text(max_size=60),
    st.sampled_from(["", "  ", "[]", "null", "42", '"s"', "{", '{"key": }', "{}"]),
    st.none(),
)
calls = st.lists(st.tuples(st.sampled_from(sorted(OWNED_TOOL_NAMES)), arguments), max_size=4)


def veto(key: str, value: str | None, old: str | None) -> bool:
    return key != "blocked" and "veto" not in (value or "")


def seeded(store: BaseStore, allowed: list[str] | None) -> Memory:
    memory = Memory(store, MemoryConfig(allowed_keys=allowed, on_memory_update=veto))
    memory.set("lang", "Python\nstep one\nstep two", description="language")
    memory.set("tone", "dry")
    memory.set("blocked", "locked value")
    handle_tool(
        "context", {"command": "create", "path": "notes/plan.md", "file_text": "step"}, memory
    )
    return memory


def dump(store: BaseStore) -> list[tuple[Any, ...]]:
    out = []
    for ns in store.list_namespaces(limit=10_000):
        for item in store.search(ns, limit=10_000):
            if tuple(item.namespace) == tuple(ns):
                value = json.dumps(item.value, sort_keys=True)
                out.append((tuple(ns), item.key, value, item.updated_at.isoformat()))
    return sorted(out)


def files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".locks" not in p.parts
    }


def check(memory: Memory, calls: list[tuple[str, Any]], root: Path | None = None) -> None:
    for name, args in calls:
        before = dump(memory.store)
        before_files = files(root) if root is not None else None
        text = handle_tool(name, args, memory, tool_call_id="prop")
        assert isinstance(text, str) and text
        if text.startswith("Error:"):
            assert dump(memory.store) == before, (name, args, text)
            if root is not None:
                assert files(root) == before_files, (name, args, text)


@pytest.mark.parametrize("allowed", [None, ["lang", "tone", "blocked", "notes"]])
@settings(max_examples=150, deadline=None)
@given(calls=calls)
def test_in_memory_store(allowed: list[str] | None, calls: list[tuple[str, Any]]) -> None:
    check(seeded(InMemoryStore(), allowed), calls)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(calls=calls)
def test_filesystem_store(
    tmp_path_factory: pytest.TempPathFactory, calls: list[tuple[str, Any]]
) -> None:
    root = tmp_path_factory.mktemp("fs") / ".context"
    store = FileSystemStore(root)
    check(seeded(store, ["lang", "tone", "blocked"]), calls, root)


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(sorted(OWNED_TOOL_NAMES)), args=arguments)
def test_targeted_context_calls(name: str, args: Any) -> None:
    # Most random dicts fail at the first check; this also drives well-formed context calls.
    memory = seeded(InMemoryStore(), None)
    check(memory, [(name, args)])


context_calls = st.fixed_dictionaries(
    {"command": st.sampled_from([*CONTEXT_COMMANDS, "edit"]), "path": st.sampled_from(WORDS)},
    optional={n: values for n in ARG_NAMES if n not in ("command", "path")},
)


@settings(max_examples=300, deadline=None)
@given(args=st.lists(context_calls, max_size=4))
def test_well_formed_context_calls(args: list[dict[str, Any]]) -> None:
    memory = seeded(InMemoryStore(), ["lang", "tone", "blocked"])
    check(memory, [("context", a) for a in args])
