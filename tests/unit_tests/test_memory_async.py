"""The async twins of Memory on `InMemoryStore`: the shared `AsyncMemorySuite`."""

from __future__ import annotations

from tests.support.suites.memory_async import AsyncMemorySuite


class TestAsyncMemory(AsyncMemorySuite):
    """The whole async `Memory` suite on the unit tests' `astore`, an `InMemoryStore`."""
