"""Memory on `InMemoryStore`: the shared `MemorySuite`, plus the checks that need no store."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.memory import Memory, MemoryConfig
from tests.support.suites.memory import MemorySuite


class TestMemory(MemorySuite):
    """The whole `Memory` suite on the unit tests' `store`, an `InMemoryStore`."""


def test_config_properties() -> None:
    memory = Memory(InMemoryStore(), MemoryConfig(allowed_keys=["persona", "lang"]))
    assert memory.allowed_keys == ("persona", "lang")
    assert memory.placement == "after_system"
    assert Memory(InMemoryStore()).allowed_keys is None
    tail = MemoryConfig(memory_placement="before_history_tail")
    assert Memory(InMemoryStore(), tail).placement == "before_history_tail"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"allowed_keys": "persona"}, "list of non-empty strings"),
        ({"allowed_keys": ["ok", ""]}, "list of non-empty strings"),
        ({"allowed_keys": ["ok", 3]}, "list of non-empty strings"),
        ({"allowed_keys": ["a", "a"]}, "duplicates"),
        ({"memory_placement": "top"}, "after_system"),
        ({"default_ttl": True}, "Invalid ttl"),
    ],
)
def test_bad_config_fails_at_construction(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        MemoryConfig(**kwargs)
