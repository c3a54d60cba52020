"""A compile follows changes, not stored size: the scope's stamp and the process's cached slot.

Two `RecordingStore`s over one `InMemoryStore` stand for two processes: each has its own
cached slot (slots are per store object), and each sees the other's writes only through the
stamp they share.
"""

from __future__ import annotations

import random
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, Memory, MemoryEntry
from langchain_contextchef.memory import cache_stats, clear_cache, set_cache_limit
from langchain_contextchef.memory._cache import slot_for
from langchain_contextchef.memory._stamp import LOG_LIMIT
from langchain_contextchef.store import FileSystemStore
from tests.support.stores import RecordingStore


def _two_processes() -> tuple[InMemoryStore, RecordingStore, RecordingStore]:
    shared = InMemoryStore()
    return shared, RecordingStore(shared), RecordingStore(shared)


def test_an_unchanged_scope_costs_two_small_reads_and_the_clock() -> None:
    _, store, _ = _two_processes()
    memory = Memory(store)
    for i in range(50):
        memory.set(f"k{i}", f"v{i}")
    memory.read_for_compile()
    store.trips.clear()
    read = memory.read_for_compile()
    assert len(read.selected) == 50
    assert store.trips == [["get clock", "get stamp"], ["put clock"]]


def test_a_write_in_this_process_leaves_the_next_compile_without_a_scan() -> None:
    _, store, _ = _two_processes()
    memory = Memory(store)
    memory.set("a", "1")
    memory.read_for_compile()
    memory.set("b", "2")
    memory.delete("a")
    store.trips.clear()
    read = memory.read_for_compile()
    assert [e.key for e in read.selected] == ["b"]
    assert store.trips == [["get clock", "get stamp"], ["put clock"]]


def test_another_process_s_write_is_read_key_by_key() -> None:
    _, mine, theirs = _two_processes()
    reader, writer = Memory(mine), Memory(theirs)
    for i in range(20):
        writer.set(f"k{i}", "old")
    reader.read_for_compile()
    writer.set("k3", "new")
    writer.delete("k7")
    writer.set("extra", "added")
    mine.trips.clear()
    read = reader.read_for_compile()
    assert mine.trips[0] == ["get clock", "get stamp"]
    assert sorted(mine.trips[1]) == ["get extra", "get k3", "get k7"]
    assert len(mine.trips) == 3  # the changed keys, then the clock
    values = {e.key: e.value for e in read.selected}
    assert values["k3"] == "new" and "k7" not in values and values["extra"] == "added"


def test_more_changes_than_the_log_holds_mean_one_full_read() -> None:
    _, mine, theirs = _two_processes()
    reader, writer = Memory(mine), Memory(theirs)
    writer.set("first", "x")
    reader.read_for_compile()
    for i in range(LOG_LIMIT + 5):
        writer.set(f"k{i}", "v")
    mine.trips.clear()
    read = reader.read_for_compile()
    assert mine.trips[1] == ["search memory"]
    assert len(read.selected) == LOG_LIMIT + 6


def test_forget_starts_every_cache_over() -> None:
    _, mine, theirs = _two_processes()
    reader, writer = Memory(mine), Memory(theirs)
    writer.set("a", "1")
    assert [e.key for e in reader.read_for_compile().selected] == ["a"]
    writer.forget()
    writer.set("b", "2")  # a new stamp starts from scratch
    assert [e.key for e in reader.read_for_compile().selected] == ["b"]


def test_a_damaged_write_behind_the_cache_is_reported_not_served() -> None:
    _, mine, theirs = _two_processes()
    reader, writer = Memory(mine), Memory(theirs)
    writer.set("a", "1")
    reader.read_for_compile()
    writer.set("a", "2")
    item = writer.store.get(writer.namespace, "a")
    assert item is not None
    writer.store.put(writer.namespace, "a", {**item.value, "update_count": "x"})  # by hand
    writer.set("b", "3")  # a package write after it: the reader re-reads what changed
    read = reader.read_for_compile()
    assert [e.key for e in read.selected] == ["b"]


def test_the_cache_is_bounded_and_evicts_least_recently_used_scopes() -> None:
    store = InMemoryStore()
    set_cache_limit(200_000)
    try:
        for tenant in range(40):
            memory = Memory(store, scope=("t", str(tenant)))
            for i in range(20):
                memory.set(f"k{i}", "x" * 200)
            memory.read_for_compile()
        stats = cache_stats()
        assert stats["bytes"] <= 200_000 + 30_000  # within one scope of the limit
        # The most recent scope is cached; the first was evicted and is read whole again.
        assert slot_for(store, ("t", "39")).token is not None
        first = RecordingStore(store)
        assert len(Memory(first, scope=("t", "0")).read_for_compile().selected) == 20
    finally:
        set_cache_limit(256 * 1024 * 1024)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 5), st.sampled_from("swdcx")), max_size=40)
)
def test_cached_compiles_always_match_a_fresh_read(steps: list[tuple[int, int, str]]) -> None:
    # "x" is a migration behind the package's back: the stamp removed and an entry put raw,
    # as in a scope written before stamps existed. Every cache must then start over.
    shared = InMemoryStore()
    processes = [ContextChef(store=RecordingStore(shared)) for _ in range(3)]
    rng = random.Random(len(steps))
    for who, key, action in steps:
        memory = processes[who % 3].get_memory()
        if action == "s":
            memory.set(f"k{key}", f"v{rng.random()}", ttl=rng.choice([None, 1, 2]))
        elif action == "w":
            memory.create_memory(f"m{key}", "x")
        elif action == "d":
            memory.delete(f"k{key}")
        elif action == "x":
            now = datetime.now(timezone.utc)
            raw = MemoryEntry(key=f"r{key}", value="raw", created_at=now, updated_at=now)
            shared.delete(memory.meta_namespace, "stamp")
            shared.put(memory.namespace, raw.key, raw.to_stored())
        else:
            payload = processes[who % 3].compile([HumanMessage("hi")])
            fresh = {e.key: e.value for e in Memory(RecordingStore(shared)).list()}
            shown = set(payload.meta.injected_keys)
            assert shown == set(fresh), (shown, fresh)


def test_a_write_behind_the_package_s_back_is_noticed_where_the_store_lists_newest_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("langchain_contextchef.memory._cache.EXTERNAL_CHECK_SECONDS", 0.0)
    store = FileSystemStore(tmp_path / ".context")
    memory = Memory(store)
    memory.set("a", "1")
    memory.set("b", "2")
    assert [e.key for e in memory.read_for_compile().selected] == ["a", "b"]
    raw = store.get(memory.namespace, "a")
    assert raw is not None
    store.put(memory.namespace, "a", {**raw.value, "value": "edited by hand"})  # no stamp
    read = memory.read_for_compile()
    assert {e.key: e.value for e in read.selected} == {"a": "edited by hand", "b": "2"}


def test_without_the_check_a_write_behind_the_back_waits_for_the_next_package_write() -> None:
    store = InMemoryStore()  # lists in insertion order: no newest-first check
    memory = Memory(store)
    memory.set("a", "1")
    memory.read_for_compile()
    raw = store.get(memory.namespace, "a")
    assert raw is not None
    store.put(memory.namespace, "a", {**raw.value, "value": "edited by hand"})
    assert memory.read_for_compile().selected[0].value == "1"  # documented staleness
    memory.set("a", "through the package")
    assert memory.read_for_compile().selected[0].value == "through the package"


def test_clear_cache_makes_a_raw_write_visible_to_a_process_that_cached_the_scope() -> None:
    _, mine, other = _two_processes()
    memory = Memory(mine)
    memory.set("a", "1")
    memory.read_for_compile()
    item = other.get(memory.namespace, "a")
    assert item is not None
    other.put(memory.namespace, "a", {**item.value, "value": "raw"})  # bypasses the package
    # InMemoryStore lists in insertion order, so nothing tells the cached process...
    assert [e.value for e in memory.read_for_compile().selected] == ["1"]
    clear_cache(other)  # another store object's slots: this process's cache is untouched
    assert [e.value for e in memory.read_for_compile().selected] == ["1"]
    clear_cache(mine)
    assert [e.value for e in memory.read_for_compile().selected] == ["raw"]
    memory.read_for_compile()
    clear_cache()  # every store
    mine.trips.clear()
    memory.read_for_compile()
    assert any(trip.startswith("search") for batch in mine.trips for trip in batch)


def test_a_scope_written_without_a_stamp_gets_one_at_its_first_compile() -> None:
    shared = InMemoryStore()
    writer = Memory(shared)
    writer.set("a", "1")
    for i in range(5):  # written straight into the store, as before stamps existed
        item = shared.get(writer.namespace, "a")
        assert item is not None
        shared.put(writer.namespace, f"raw{i}", dict(item.value))
    shared.delete(writer.meta_namespace, "stamp")
    store = RecordingStore(shared)
    memory = Memory(store)
    first = memory.read_for_compile()
    assert len(first.selected) == 6
    assert any("put stamp" in trip for batch in store.trips for trip in batch)
    store.trips.clear()
    assert len(memory.read_for_compile().selected) == 6
    assert store.trips == [["get clock", "get stamp"], ["put clock"]]


def test_a_write_never_trusts_entries_cached_without_a_stamp_before_its_section() -> None:
    shared = InMemoryStore()
    memory = Memory(shared)
    memory.set("a", "1")
    shared.delete(memory.meta_namespace, "stamp")
    # What a compile that wrote nothing leaves for a scope without a stamp: entries, no token.
    slot = slot_for(shared, memory.scope)
    slot.reset(None, memory.list(), [])
    now = datetime.now(timezone.utc)
    raw = MemoryEntry(key="raw", value="behind the back", created_at=now, updated_at=now)
    shared.put(memory.namespace, raw.key, raw.to_stored())
    memory.set("b", "2")  # creates the stamp; the entries held before it are not current
    assert {e.key for e in memory.read_for_compile().selected} == {"a", "b", "raw"}
