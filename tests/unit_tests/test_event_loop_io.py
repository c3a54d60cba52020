"""FileSystemStore's async paths do no file system call on the event loop.

LangGraph Server's dev mode (`langgraph dev`) fails a run that makes a blocking call on the
event loop, using the `blockbuster` package; so does this test. The scope lock used to open
its lock file (creating `.locks/`) on the loop before falling back to a worker thread.
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import HumanMessage

from langchain_contextchef import ContextChef, FileSystemStore
from tests.support.optional import require

blockbuster = require("blockbuster", 'pip install "langgraph-cli[inmem]" (in the test group)')


async def test_async_memory_on_a_filesystem_store_never_blocks_the_loop(tmp_path: Path) -> None:
    store = FileSystemStore(tmp_path / "ctx")
    chef = ContextChef(store=store, scope=("users", "{user_id}"))
    config = {"configurable": {"user_id": "alice"}}
    with blockbuster.blockbuster_ctx():
        memory = chef.get_memory(config)
        await memory.aset("lang", "Python", description="The language the user writes")
        call = {"name": "create_memory", "args": {"key": "tone", "value": "dry"}, "id": "c1"}
        result = await chef.ahandle_tool(call, config=config)
        payload = await chef.acompile([HumanMessage("Hi")], config=config)
        async with store.alock(("users", "alice")):
            found = await store.asearch(("users", "alice", "memory"))
    assert result.content == "Created context://memory/tone."
    assert "Python" in payload.messages[0].text and "dry" in payload.messages[0].text
    assert sorted(item.key for item in found) == ["lang", "tone"]
