"""The scope cache on the stores that list newest first: writes behind the package's back."""

from __future__ import annotations

import time

import pytest
from langgraph.store.base import BaseStore

from langchain_contextchef import Memory


def test_a_raw_write_is_noticed_at_the_next_check(
    store: BaseStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("langchain_contextchef.memory._cache.EXTERNAL_CHECK_SECONDS", 0.0)
    memory = Memory(store, scope=("cache", "behind"))
    memory.set("a", "1")
    memory.set("b", "2")
    assert [e.value for e in memory.read_for_compile().selected] == ["1", "2"]
    if type(store).__name__ == "SqliteStore":
        time.sleep(1.1)  # SQLite keeps update times in whole seconds: newest needs a later one
    raw = store.get(memory.namespace, "a")
    assert raw is not None
    store.put(memory.namespace, "a", {**raw.value, "value": "edited by hand"})  # no stamp
    read = memory.read_for_compile()
    assert {e.key: e.value for e in read.selected} == {"a": "edited by hand", "b": "2"}


def test_between_checks_the_cached_scope_is_served(
    store: BaseStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("langchain_contextchef.memory._cache.EXTERNAL_CHECK_SECONDS", 3600.0)
    memory = Memory(store, scope=("cache", "between"))
    memory.set("a", "1")
    memory.read_for_compile()
    memory.read_for_compile()  # the slot is trusted from here on, until the next check
    raw = store.get(memory.namespace, "a")
    assert raw is not None
    store.put(memory.namespace, "a", {**raw.value, "value": "edited by hand"})
    assert [e.value for e in memory.read_for_compile().selected] == ["1"]  # documented delay
    memory.set("b", "through the package")  # a package write re-reads what changed
    assert {e.key: e.value for e in memory.read_for_compile().selected}["b"] == (
        "through the package"
    )
