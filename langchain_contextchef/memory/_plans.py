"""The memory plans other layers compose: the tools, the compile step and reflection.

A plan is built over `memory.context` and run through `memory.run(plan, fires=...)` (sync)
or `memory.arun(plan)`. Composing plans (`yield from` inside a larger plan) keeps a whole
tool call or compile in one sync and one async execution, with no second body.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.memory import Memory
    from langchain_contextchef.memory.config import MODEL_WRITE
    from langchain_contextchef.memory._plans import model_write, read_one


    def create_once(ctx, key, value):
        if (yield from read_one(ctx, key)) is not None:
            return "exists"
        result = yield from model_write(
            ctx, key, value, description=None, provenance=None, must_exist=False
        )
        return result.status


    memory = Memory(InMemoryStore())
    assert memory.run(create_once(memory.context, "tone", "dry"), fires=MODEL_WRITE) == "created"
    assert memory.run(create_once(memory.context, "tone", "dry"), fires=MODEL_WRITE) == "exists"
    ```
"""

from __future__ import annotations

from langchain_contextchef.memory._compile_read import compile_read
from langchain_contextchef.memory._consent import replay as consent_replay
from langchain_contextchef.memory._context import (
    read_all,
    read_entries,
    read_items,
    read_many,
    read_one,
    read_turn,
)
from langchain_contextchef.memory._model_write import (
    check_allowed,
    check_writable,
    model_delete,
    model_write,
)
from langchain_contextchef.memory._profiles import edit_profile
from langchain_contextchef.memory._recall import recall_entry
from langchain_contextchef.memory._section import exclusively
from langchain_contextchef.memory._write import KNOWN_ABSENT, judge_note

__all__ = [
    "KNOWN_ABSENT",
    "check_allowed",
    "check_writable",
    "compile_read",
    "edit_profile",
    "exclusively",
    "consent_replay",
    "judge_note",
    "model_delete",
    "model_write",
    "read_all",
    "read_entries",
    "read_items",
    "read_many",
    "read_one",
    "read_turn",
    "recall_entry",
]
