"""Sections run as one PostgreSQL transaction (`_sections/_pg_txn.py`), and kept SQLite locks.

On a sync `PostgresStore` over one connection the plan driver runs each exclusive section as
one transaction that holds the store's connection between round trips. These tests show what
must still hold: user code inside a section (hooks that use the same store directly) runs on
a free connection and sees the section's writes; writers on two connections stay exclusive;
a section that raises keeps the writes it was told succeeded. The sync SQLite sections keep
one lock descriptor per scope; two store objects of one process still exclude each other.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langgraph.store.base import BaseStore

from langchain_contextchef import Memory, MemoryConfig
from langchain_contextchef._sections import transaction_of
from langchain_contextchef.chef import ContextChef

pytestmark = pytest.mark.slow

WRITERS = 4
ROUNDS = 15


def _increment(memory: Memory) -> None:
    """Compare-and-set until it wins: read the version, write the next number at it."""
    while True:
        view = memory.get_entry("n")
        assert view is not None
        result = memory.update_memory("n", str(int(view.value) + 1), version=view.version)
        if result.status == "updated":
            return
        assert result.status == "stale", result


@pytest.fixture
def pg_store(pg_database: str) -> Iterator[BaseStore]:
    from langgraph.store.postgres import PostgresStore

    with PostgresStore.from_conn_string(pg_database) as store:
        store.setup()
        yield store


def test_hooks_inside_a_section_use_the_store_directly_and_see_its_write(
    pg_store: BaseStore,
) -> None:
    seen: list[Any] = []

    def changed(event: Any) -> None:
        # User code inside the write's section: the store's connection must be free (no
        # deadlock on its lock) and the section's write already visible.
        assert transaction_of(pg_store) is None or transaction_of(pg_store).mode == "session"  # type: ignore[union-attr]
        seen.append(pg_store.get(("t", "memory"), event.key))
        pg_store.put(("t", "log"), uuid.uuid4().hex, {"key": event.key})

    chef = ContextChef(store=pg_store, memory=MemoryConfig(on_memory_changed=changed), scope=("t",))
    call = {"name": "create_memory", "args": {"key": "tabs", "value": "Tabs."}, "id": "c1"}
    result = chef.handle_tool(call)
    assert isinstance(result, ToolMessage) and result.status == "success", result
    assert seen and seen[0] is not None and seen[0].value["value"] == "Tabs."
    assert [item.value["key"] for item in pg_store.search(("t", "log"))] == ["tabs"]
    # The section went on after the hook (session lock) and ended: the next write works.
    call = {
        "name": "modify_memory",
        "args": {"action": "update", "key": "tabs", "value": "Spaces."},
        "id": "c2",
    }
    second = chef.handle_tool(call)
    assert isinstance(second, ToolMessage) and second.status == "success", second
    assert [r.version for r in chef.get_memory().history("tabs")] == [1, 2]


def test_a_section_that_raises_keeps_the_writes_it_reported(pg_store: BaseStore) -> None:
    def boom(event: Any) -> None:
        raise RuntimeError("hook failed")

    memory = Memory(pg_store, MemoryConfig(on_memory_changed=boom), scope=("r",))
    with pytest.raises(RuntimeError, match="hook failed"):
        memory.set("k", "v1")
    fresh = Memory(pg_store, scope=("r",))
    assert fresh.get("k") == "v1"
    fresh.set("k", "v2")  # the scope is not left locked
    assert [r.version for r in fresh.history("k")] == [1, 2]


def test_writers_on_separate_connections_never_lose_an_update(pg_database: str) -> None:
    from langgraph.store.postgres import PostgresStore

    scope = ("race", uuid.uuid4().hex)
    with PostgresStore.from_conn_string(pg_database) as setup_store:
        setup_store.setup()
        Memory(setup_store, scope=scope).set("n", "0")
    barrier = threading.Barrier(WRITERS)
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            with PostgresStore.from_conn_string(pg_database) as store:
                memory = Memory(store, scope=scope)
                barrier.wait()
                for _ in range(ROUNDS):
                    _increment(memory)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors
    with PostgresStore.from_conn_string(pg_database) as store:
        memory = Memory(store, scope=scope)
        assert memory.get("n") == str(WRITERS * ROUNDS)
        assert len(memory.history("n")) == WRITERS * ROUNDS + 1


def test_two_sqlite_store_objects_of_one_process_exclude_each_other(tmp_path: Path) -> None:
    from langgraph.store.sqlite import SqliteStore

    path = str(tmp_path / "store.db")
    stores = []
    for _ in range(2):
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        store = SqliteStore(conn)
        store.setup()
        stores.append(store)
    Memory(stores[0], scope=("s",)).set("n", "0")
    errors: list[BaseException] = []

    def writer(store: BaseStore) -> None:
        try:
            memory = Memory(store, scope=("s",))
            for _ in range(ROUNDS):
                _increment(memory)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(stores[i % 2],)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors
    memory = Memory(stores[0], scope=("s",))
    assert memory.get("n") == str(WRITERS * ROUNDS)
    assert len(memory.history("n")) == WRITERS * ROUNDS + 1
