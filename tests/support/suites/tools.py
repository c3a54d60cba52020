"""The tools suite: the memory tools and their dispatcher on the `local_store` and `astore`
fixtures.

Subclass `ToolsSuite` in a test module whose fixtures provide `local_store` and `astore`: the
unit tests run it on `InMemoryStore`, the integration tests on SQLite, the file system and
(async) PostgreSQL.
"""

from __future__ import annotations

from langgraph.store.base import BaseStore

from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.tools import ahandle_tool, dispatch, handle_tool
from tests.support.stores import adump, dump


class ToolsSuite:
    """Tool calls against a store: results, refusals that leave it unchanged, provenance."""

    # ---- backends --------------------------------------------------------------------------------

    def test_subset_on_every_local_backend(self, local_store: BaseStore) -> None:
        memory = Memory(local_store, MemoryConfig(allowed_keys=["lang", "tone"]))
        assert handle_tool("create_memory", '{"key": "lang", "value": "Python"}', memory) == (
            "Created context://memory/lang."
        )
        before = dump(local_store)
        assert handle_tool("create_memory", {"key": "x", "value": "v"}, memory).startswith(
            "Error: context://memory/x is not an allowed memory key."
        )
        assert handle_tool(
            "context", {"command": "insert", "path": "memory/lang"}, memory
        ).startswith("Error: ")
        assert dump(local_store) == before
        plan = dispatch(
            "context",
            {"command": "str_replace", "path": "memory/lang", "old_str": "Py", "new_str": "Cy"},
            memory,
        )
        assert memory.run(plan) == "Edited context://memory/lang."
        assert handle_tool("context", {"command": "view", "path": "memory/"}, memory) == (
            "context://memory/ (1 entry):\n- context://memory/lang"
        )
        args = {"command": "create", "path": "notes/n.md", "file_text": "hello"}
        assert handle_tool("context", args, memory) == "Created context://notes/n.md."
        assert (
            handle_tool("context", {"command": "view", "path": "notes/n.md"}, memory)
            == "     1\thello"
        )
        assert handle_tool("modify_memory", {"action": "delete", "key": "lang"}, memory) == (
            "Deleted context://memory/lang."
        )
        assert memory.list() == []

    async def test_async_subset(self, astore: BaseStore) -> None:
        memory = Memory(astore, MemoryConfig(allowed_keys=["lang"]))
        plan = dispatch(
            "create_memory", {"key": "lang", "value": "Python"}, memory, tool_call_id="t1"
        )
        assert await memory.arun(plan) == "Created context://memory/lang."
        before = await adump(astore)
        assert (
            await ahandle_tool("create_memory", {"key": "lang", "value": "Go"}, memory)
        ).startswith("Error: context://memory/lang already exists.")
        assert await adump(astore) == before
        args = {"command": "rename", "path": "memory/lang", "new_path": "memory/other"}
        assert (await ahandle_tool("context", args, memory)).startswith(
            "Error: context://memory/other is not an allowed memory key."
        )
        assert (
            await ahandle_tool("context", {"command": "view", "path": "memory/lang"}, memory)
            == "Python"
        )
        entry = await memory.aget_entry("lang")
        assert entry is not None and entry.provenance is not None
        assert entry.provenance.tool_call_id == "t1"
