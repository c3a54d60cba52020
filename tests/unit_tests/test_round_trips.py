"""Store round trips per tool command: each plan reads what it needs once, in one batch.

Before the memory engine's redesign a `context` `str_replace` cost 3 batches (the entry was
read, read again before the write, then written) and a `rename` 6. Handlers now pass what
they have read on to the write plans.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.store.base import Op, Result
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.memory import Memory
from langchain_contextchef.tools import handle_tool


class CountingStore(InMemoryStore):
    """An `InMemoryStore` that counts `batch` calls (one call = one round trip)."""

    def __init__(self) -> None:
        super().__init__()
        self.batches = 0

    def batch(self, ops: Any) -> list[Result]:
        self.batches += 1
        return super().batch(ops)


def _trips(memory: Memory, name: str, args: dict[str, Any]) -> tuple[int, str]:
    store = memory.store
    assert isinstance(store, CountingStore)
    before = store.batches
    text = handle_tool(name, args, memory)
    return store.batches - before, text


@pytest.fixture
def memory() -> Memory:
    memory = Memory(CountingStore())
    memory.set("lang", "Python 3.11")
    return memory


@pytest.mark.parametrize(
    ("name", "args", "trips", "text"),
    [
        ("create_memory", {"key": "tone", "value": "dry"}, 2, "Created"),
        ("context", {"command": "create", "path": "memory/tone", "file_text": "dry"}, 2, "Created"),
        (
            "context",
            {"command": "str_replace", "path": "memory/lang", "old_str": "3.11", "new_str": "3.12"},
            2,
            "Edited",
        ),
        (
            "context",
            {"command": "insert", "path": "memory/lang", "insert_line": 1, "insert_text": "x"},
            2,
            "Inserted",
        ),
        ("modify_memory", {"action": "update", "key": "lang", "value": "Go"}, 2, "Updated"),
        ("modify_memory", {"action": "delete", "key": "lang"}, 2, "Deleted"),
        ("context", {"command": "delete", "path": "memory/lang"}, 2, "Deleted"),
        (
            "context",
            {"command": "rename", "path": "memory/lang", "new_path": "memory/language"},
            4,
            "Renamed",
        ),
    ],
)
def test_each_command_costs_the_fewest_round_trips(
    memory: Memory, name: str, args: dict[str, Any], trips: int, text: str
) -> None:
    used, reply = _trips(memory, name, args)
    assert reply.startswith(text), reply
    assert used == trips


def test_a_refused_edit_costs_one_read_and_no_write(memory: Memory) -> None:
    args = {"command": "str_replace", "path": "memory/lang", "old_str": "Rust", "new_str": "Go"}
    used, reply = _trips(memory, "context", args)
    assert reply.startswith("Error: old_str was not found")
    assert used == 1
    assert memory.get("lang") == "Python 3.11"


def test_an_argument_mistake_costs_no_round_trip(memory: Memory) -> None:
    used, reply = _trips(memory, "context", {"command": "rename", "path": "memory/lang"})
    assert reply == 'Error: the "new_path" argument is required and must be a non-empty string.'
    assert used == 0


def test_ops_are_plain_langgraph_ops() -> None:
    # The counting store sees LangGraph's own op types: nothing bypasses `batch`.
    store = CountingStore()
    seen: list[type[Op]] = []
    original = store.batch

    def spy(ops: Any) -> list[Result]:
        ops = list(ops)
        seen.extend(type(op) for op in ops)
        return original(ops)

    store.batch = spy  # type: ignore[method-assign]
    handle_tool("create_memory", {"key": "k", "value": "v"}, Memory(store))
    assert {t.__name__ for t in seen} <= {"GetOp", "PutOp", "SearchOp"}
