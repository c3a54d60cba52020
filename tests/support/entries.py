"""Memory entries made by hand, dated back from one instant, for selector and relevance tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from langchain_contextchef.entry import MemoryEntry
from tests.support.clocks import NOW

T0 = NOW
"""The instant `entry` dates back from."""


def entry(key: str, value: str = "v", *, age_days: float = 0, **fields: object) -> MemoryEntry:
    """An entry written (and last updated) `age_days` before `T0`."""
    moment = T0 - timedelta(days=age_days)
    return MemoryEntry(key=key, value=value, created_at=moment, updated_at=moment, **fields)  # type: ignore[arg-type]


def keys(entries: Sequence[MemoryEntry]) -> list[str]:
    """The keys of `entries`, in order."""
    return [e.key for e in entries]
