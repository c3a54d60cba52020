"""When a compile's clock advance is flushed to disk, and when it may skip the flush.

A compile whose only write is the clock's advance, in a scope where no entry's expiry counts
turns and turns are counted per model call, sends that write unsynced (`Io(synced=False)`):
the clock still counts every compile (other processes see each advance at once), a power cut
may only take `meta.turn` back. Everything a turn TTL or a per-message marker depends on,
and every sweep, is flushed as before. The cross-process count is checked by
`tests/integration_tests/test_memory_restart.py` and `test_concurrency.py`.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.base import GetOp, Op, PutOp, Result
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore

from langchain_contextchef import ContextChef, Turns
from langchain_contextchef._sections import batch_unsynced
from langchain_contextchef.memory import META_NAMESPACE
from langchain_contextchef.store import FileSystemStore

MESSAGES = [HumanMessage("What do I prefer?", id="u1")]


class RecordingStore(InMemoryStore):
    """An `InMemoryStore` that records which writes were sent synced and which unsynced."""

    def __init__(self) -> None:
        super().__init__()
        self.synced: list[list[str]] = []
        self.unsynced: list[list[str]] = []

    @staticmethod
    def _writes(ops: Iterable[Op]) -> list[str]:
        return [f"{'/'.join(op.namespace)}:{op.key}" for op in ops if isinstance(op, PutOp)]

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        if writes := self._writes(ops):
            self.synced.append(writes)
        return super().batch(ops)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return self.batch(ops)

    def batch_unsynced(self, ops: Sequence[Op]) -> list[Result]:
        self.unsynced.append(self._writes(ops))
        return super().batch(ops)

    async def abatch_unsynced(self, ops: Sequence[Op]) -> list[Result]:
        return self.batch_unsynced(ops)

    def reset(self) -> None:
        self.synced, self.unsynced = [], []


CLOCK = f"{META_NAMESPACE}:clock"


def test_a_clock_only_advance_is_unsynced_and_still_counts_every_compile() -> None:
    store = RecordingStore()
    chef = ContextChef(store=store)
    chef.get_memory().set("editor", "vim")
    store.reset()
    turns = [chef.compile(MESSAGES).meta.turn for _ in range(3)]
    assert turns == [1, 2, 3]
    assert store.unsynced == [[CLOCK]] * 3
    assert store.synced == []
    assert chef.get_memory().turn == 3


def test_a_turn_ttl_in_the_scope_makes_every_advance_synced_until_it_expires() -> None:
    store = RecordingStore()
    chef = ContextChef(store=store)
    memory = chef.get_memory()
    memory.set("editor", "vim")
    memory.set("task", "fix the parser", ttl=Turns(2))
    store.reset()
    shown = [chef.compile(MESSAGES).meta.injected_keys for _ in range(4)]
    assert shown == [["editor", "task"], ["editor", "task"], ["editor"], ["editor"]]
    # Two compiles show the entry, the third sweeps it (one synced batch with the clock),
    # the fourth finds no turn TTL left and advances unsynced.
    assert store.synced[:2] == [[CLOCK], [CLOCK]]
    assert CLOCK in store.synced[2] and len(store.synced) == 3
    assert store.unsynced == [[CLOCK]]
    assert memory.turn == 4


def test_counting_per_user_message_keeps_every_advance_synced() -> None:
    store = RecordingStore()
    chef = ContextChef(store=store, turn_unit="user_message")
    chef.get_memory().set("editor", "vim")
    store.reset()
    assert [chef.compile(MESSAGES).meta.turn for _ in range(2)] == [1, 1]
    later = [*MESSAGES, HumanMessage("And now?", id="u2")]
    assert chef.compile(later).meta.turn == 2
    assert store.unsynced == []
    assert store.synced == [[CLOCK], [CLOCK]]


@pytest.mark.asyncio
async def test_the_async_compile_takes_the_same_unsynced_path() -> None:
    store = RecordingStore()
    chef = ContextChef(store=store)
    await chef.get_memory().aset("editor", "vim")
    store.reset()
    assert [(await chef.acompile(MESSAGES)).meta.turn for _ in range(2)] == [1, 2]
    assert store.unsynced == [[CLOCK], [CLOCK]]
    assert store.synced == []


def test_filesystem_store_unsynced_batch_skips_fsync_and_is_seen_by_another_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / ".context"
    writer, reader = FileSystemStore(root), FileSystemStore(root)
    writer.put(("meta",), "clock", {"turn": 1})
    reader.get(("meta",), "clock")  # the reader caches the first version
    calls: list[int] = []
    real = os.fsync

    def counted(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)
    writer.batch_unsynced([PutOp(("meta",), "clock", {"turn": 2})])
    assert calls == []
    item = reader.get(("meta",), "clock")
    assert item is not None and item.value == {"turn": 2}
    writer.batch([PutOp(("meta",), "clock", {"turn": 3})])
    assert len(calls) == 2  # the ordinary batch flushes the file and its folder


def test_sqlite_unsynced_batch_writes_and_restores_the_sync_mode(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    conn.execute("PRAGMA synchronous=FULL")
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    batch_unsynced(store, [PutOp(("meta",), "clock", {"turn": 7})])
    conn.set_trace_callback(None)
    assert "PRAGMA synchronous=OFF" in seen
    assert conn.execute("PRAGMA synchronous").fetchone() == (2,)
    other = SqliteStore(sqlite3.connect(path, check_same_thread=False, isolation_level=None))
    got = other.get(("meta",), "clock")
    assert got is not None and got.value == {"turn": 7}
    other.conn.close()
    conn.close()


def test_sqlite_in_a_transaction_of_its_own_gets_an_ordinary_batch(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    conn.execute("BEGIN")
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    with pytest.raises(sqlite3.OperationalError):
        # Not ours to commit: the unsynced path steps aside, and SqliteStore's own batch
        # refuses to nest a transaction, as it always does.
        batch_unsynced(store, [PutOp(("meta",), "clock", {"turn": 1})])
    assert not any("synchronous" in line for line in seen)
    conn.execute("ROLLBACK")
    conn.close()


def test_a_batch_with_reads_is_never_run_unsynced_on_sqlite(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "store.db", check_same_thread=False, isolation_level=None)
    store = SqliteStore(conn)
    store.setup()
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    ops: list[Any] = [GetOp(("meta",), "clock"), PutOp(("meta",), "clock", {"turn": 1})]
    assert batch_unsynced(store, ops)[0] is None
    assert not any("synchronous" in line for line in seen)
    conn.close()


def test_filesystem_store_unsynced_overwrite_is_in_place_and_seen_by_another_store(
    tmp_path: Path,
) -> None:
    root = tmp_path / ".context"
    writer, reader = FileSystemStore(root), FileSystemStore(root)
    writer.put(("meta",), "clock", {"turn": 10, "note": "a longer first value"})
    path = next(p for p in root.rglob("*.json") if not p.name.startswith("."))
    inode, size = path.stat().st_ino, path.stat().st_size
    before = reader.get(("meta",), "clock")
    assert before is not None and before.value["turn"] == 10  # cached by the reader
    for turn in (11, 12):
        writer.batch_unsynced([PutOp(("meta",), "clock", {"turn": turn})])
        # Written over the same file, padded to its length: no rename, nothing truncated.
        assert (path.stat().st_ino, path.stat().st_size) == (inode, size)
        item = reader.get(("meta",), "clock")
        assert item is not None and item.value == {"turn": turn}
        assert reader.search(("meta",))[0].value == {"turn": turn}
        assert FileSystemStore(root).get(("meta",), "clock").value == {"turn": turn}  # type: ignore[union-attr]
    # A value longer than the file is renamed into place, as any write.
    writer.batch_unsynced([PutOp(("meta",), "clock", {"turn": 13, "note": "x" * 200})])
    assert path.stat().st_ino != inode
    item = reader.get(("meta",), "clock")
    assert item is not None and item.value["turn"] == 13
    assert reader.search(("meta",))[0].value["turn"] == 13
