"""`AsyncMemorySuite` on async SQLite, the file system and PostgreSQL, and file-system locking."""

from __future__ import annotations

import asyncio
from pathlib import Path

from langchain_contextchef.memory import Memory
from langchain_contextchef.store import FileSystemStore
from tests.support.suites.memory_async import AsyncMemorySuite


class TestAsyncMemory(AsyncMemorySuite):
    """The whole async `Memory` suite on each backend of this folder's `astore` fixture."""


async def test_concurrent_async_compiles_on_the_file_system_never_lose_a_turn(
    tmp_path: Path,
) -> None:
    store = FileSystemStore(tmp_path / ".context")
    memory = Memory(store)
    await asyncio.gather(*(memory.aread_for_compile() for _ in range(20)))
    assert await memory.aturn() == 20
