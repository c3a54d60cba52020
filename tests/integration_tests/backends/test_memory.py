"""`MemorySuite` on SQLite, the file system and PostgreSQL."""

from __future__ import annotations

from tests.support.suites.memory import MemorySuite


class TestMemory(MemorySuite):
    """The whole `Memory` suite on each backend of this folder's `store` fixture."""
