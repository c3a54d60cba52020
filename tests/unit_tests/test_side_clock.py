"""On a SQLite file, a compile's clock-only advance is no database write (`_side_clock`).

While nothing in the scope depends on the clock's exact value surviving a power cut, the
advance goes to the record beside the scope's lock file; the database sees only reads. A turn
TTL, turns per user message or a sweep write the clock item again, in the database. The
processes' view of it is in `tests/integration_tests/test_clock_record.py`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.base import GetOp, Item, PutOp
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef import ContextChef, Turns
from langchain_contextchef._sections import run_batch

MESSAGES = [HumanMessage("What do I prefer?", id="u1")]
META = ("memory_meta",)


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Iterator[tuple[SqliteStore, list[str]]]:
    """A SqliteStore on a file, and the SQL statements it runs from now on that write rows.

    (Every batch, reads too, runs in a transaction of its own: its `COMMIT` writes nothing
    when nothing changed, so only the statements that change rows are collected.)
    """
    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    writes: list[str] = []

    def seen(sql: str) -> None:
        if sql.lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            writes.append(sql)

    conn.set_trace_callback(seen)
    yield store, writes
    conn.close()


def _stored_clock(store: SqliteStore) -> dict[str, object]:
    item = store.get(META, "clock")
    assert item is not None
    return dict(item.value)


def test_compiles_without_a_turn_ttl_write_nothing_to_the_database_after_the_first(
    sqlite_file: tuple[SqliteStore, list[str]],
) -> None:
    store, writes = sqlite_file
    chef = ContextChef(store=store)
    chef.get_memory().set("editor", "vim")
    assert chef.compile(MESSAGES).meta.turn == 1  # gives the stored clock its record's id
    writes.clear()
    assert [chef.compile(MESSAGES).meta.turn for _ in range(4)] == [2, 3, 4, 5]
    assert writes == []
    assert chef.get_memory().turn == 5
    stored = _stored_clock(store)
    assert stored["turn"] == 1 and isinstance(stored["sidecar"], str)


def test_a_turn_ttl_writes_the_clock_to_the_database_while_it_stands(
    sqlite_file: tuple[SqliteStore, list[str]],
) -> None:
    store, writes = sqlite_file
    chef = ContextChef(store=store)
    memory = chef.get_memory()
    memory.set("editor", "vim")
    for _ in range(3):
        chef.compile(MESSAGES)
    memory.set("task", "fix the parser", ttl=Turns(2))  # counts from turn 3, the exact one
    shown, wrote = [], []
    for _ in range(4):
        writes.clear()
        shown.append(chef.compile(MESSAGES).meta)
        wrote.append(bool(writes))
    assert [(m.turn, m.injected_keys) for m in shown] == [
        (4, ["editor", "task"]),
        (5, ["editor", "task"]),
        (6, ["editor"]),
        (7, ["editor"]),
    ]
    # Two compiles with the entry standing and the one that swept it wrote the database; the
    # fourth found no turn TTL and went beside it again.
    assert wrote == [True, True, True, False]
    assert _stored_clock(store)["turn"] == 6
    assert memory.turn == 7


def test_the_record_counts_only_for_the_clock_that_names_it(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    run_batch(store, [PutOp(META, "clock", {"turn": 4})], synced=False)
    first = _stored_clock(store)
    assert first["turn"] == 4 and isinstance(first["sidecar"], str)  # the id, in the database
    run_batch(store, [PutOp(META, "clock", {"turn": 9, "sidecar": first["sidecar"]})], False)
    assert _stored_clock(store)["turn"] == 4  # the advance went beside it
    (got,) = run_batch(store, [GetOp(META, "clock")], synced=True)
    assert isinstance(got, Item) and got.value["turn"] == 9
    # A clock written with another id, or none, is read as written.
    store.put(META, "clock", {"turn": 2, "marker": "m1"})
    (got,) = run_batch(store, [GetOp(META, "clock")], synced=True)
    assert isinstance(got, Item) and got.value == {"turn": 2, "marker": "m1"}
    # A stored turn past the record's wins (a flushed write caught up), marker and all.
    ahead = {"turn": 12, "marker": "m2", "sidecar": first["sidecar"]}
    store.put(META, "clock", ahead)
    (got,) = run_batch(store, [GetOp(META, "clock")], synced=True)
    assert isinstance(got, Item) and got.value == ahead
    conn.close()


def test_an_in_memory_database_keeps_its_clock_in_the_database() -> None:
    conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    chef = ContextChef(store=store)
    chef.get_memory().set("editor", "vim")
    assert [chef.compile(MESSAGES).meta.turn for _ in range(3)] == [1, 2, 3]
    assert _stored_clock(store) == {"turn": 3}
    conn.close()
