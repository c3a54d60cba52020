"""The async `Memory` suite: the async twins, async hooks and events, on the `astore` fixture.

Subclass `AsyncMemorySuite` in a test module whose fixtures provide `astore`, a store with a
working async API: the unit tests run it on `InMemoryStore`, the integration tests on
LangGraph's async SQLite store, the file system and PostgreSQL.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from langchain_core.runnables import RunnableLambda
from langgraph.store.base import BaseStore

from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry
from langchain_contextchef.memory import Memory, MemoryConfig
from tests.support.clocks import NOW, FakeClock
from tests.support.events import MEMORY_CHANGED as EVENT
from tests.support.events import AsyncEventRecorder, event_data
from tests.support.stores import RecordingStore, adump


class AsyncMemorySuite:
    """The async `Memory` API against the `astore` fixture, starting from an empty store."""

    async def test_aset_aget_adelete_alist(self, astore: BaseStore) -> None:
        memory = Memory(astore, clock=FakeClock())
        await memory.aset("lang", "Python", description="language", importance=2)
        await memory.aset("style", "terse")
        assert await memory.aget("lang") == "Python"
        entry = await memory.aget_entry("lang")
        assert entry is not None
        assert (entry.description, entry.importance, entry.created_at) == ("language", 2, NOW)
        assert [e.key for e in await memory.alist()] == ["lang", "style"]
        assert await memory.adelete("lang") is True
        assert await memory.adelete("lang") is False
        assert await memory.aget("lang") is None
        assert await memory.aget_entry("lang") is None
        assert [e.key for e in await memory.alist()] == ["style"]

    async def test_async_model_path_with_an_async_veto(self, astore: BaseStore) -> None:
        calls: list[tuple[str, str | None, str | None]] = []

        async def veto(key: str, value: str | None, old: str | None) -> bool:
            await asyncio.sleep(0)
            calls.append((key, value, old))
            return value != "blocked"

        memory = Memory(astore, MemoryConfig(allowed_keys=["a", "b"], on_memory_update=veto))
        assert (await memory.acreate_memory("a", "1", "first")).status == "created"
        assert (await memory.acreate_memory("a", "again")).status == "already_exists"
        assert (await memory.acreate_memory("zzz", "1")).status == "not_allowed"
        assert (await memory.acreate_memory("b", "blocked")).status == "vetoed"
        assert (await memory.aupdate_memory("b", "1")).status == "not_found"
        updated = await memory.aupdate_memory("a", "2")
        assert updated.status == "updated"
        assert updated.entry is not None
        assert (updated.entry.value, updated.entry.update_count, updated.entry.description) == (
            "2",
            2,
            "first",
        )
        assert (await memory.aupdate_memory("a", "blocked")).status == "vetoed"
        assert (await memory.adelete_memory("zzz")).status == "not_allowed"
        assert (await memory.adelete_memory("a")).status == "deleted"
        assert (await memory.adelete_memory("a")).status == "not_found"
        assert await memory.alist() == []
        assert calls == [
            ("a", "1", None),
            ("b", "blocked", None),
            ("a", "2", "1"),
            ("a", "blocked", "2"),
            ("a", None, "2"),
        ]

    async def test_a_sync_veto_works_on_the_async_path(self, astore: BaseStore) -> None:
        memory = Memory(astore, MemoryConfig(on_memory_update=lambda key, value, old: False))
        assert (await memory.acreate_memory("k", "v")).status == "vetoed"
        assert await memory.aget("k") is None

    async def test_async_hooks_are_awaited_around_the_sweep(self, astore: BaseStore) -> None:
        log: list[tuple[str, str, bool]] = []
        memory: Memory

        async def expired(entry: MemoryEntry) -> None:
            await asyncio.sleep(0)
            log.append(("expired", entry.key, await memory.aget(entry.key) is not None))

        async def changed(event: MemoryChangeEvent) -> None:
            await asyncio.sleep(0)
            log.append((event.type, event.key, await memory.aget(event.key) is not None))

        memory = Memory(
            astore,
            MemoryConfig(on_memory_expired=expired, on_memory_changed=changed),
            clock=FakeClock(),
        )
        await memory.aset("zeta", "1", ttl=0)
        await memory.aset("keep", "2")
        await memory.aset("alpha", "3", ttl=0)
        read = await memory.aread_for_compile()
        assert read.expired_keys == ["zeta", "alpha"]
        assert [e.key for e in read.selected] == ["keep"]
        assert log == [
            ("set", "zeta", True),
            ("set", "keep", True),
            ("set", "alpha", True),
            ("expired", "zeta", True),
            ("expired", "alpha", True),
            ("expire", "zeta", False),
            ("expire", "alpha", False),
        ]

    async def test_async_turn_ttls_and_the_persisted_clock(self, astore: BaseStore) -> None:
        memory = Memory(astore, clock=FakeClock())
        await memory.aset("t0", "zero", ttl=0)
        await memory.aset("t1", "one", ttl={"turns": 1})
        await memory.aset("t2", "two", ttl=2)
        rows = []
        for _ in range(3):
            # A fresh Memory each time: the count continues from the store.
            read = await Memory(astore).aread_for_compile()
            rows.append((read.expired_keys, [e.key for e in read.selected], read.turn))
        assert rows == [
            (["t0"], ["t1", "t2"], 1),
            (["t1"], ["t2"], 2),
            (["t2"], [], 3),
        ]
        assert await memory.aturn() == 3

    async def test_async_wall_clock_ttl(self, astore: BaseStore) -> None:
        clock = FakeClock(tick=timedelta(0))
        memory = Memory(astore, clock=clock)
        await memory.aset("token", "abc", ttl=timedelta(seconds=30))
        clock.advance(seconds=29)
        assert (await memory.aread_for_compile()).expired_keys == []
        clock.advance(seconds=1)
        assert (await memory.aread_for_compile()).expired_keys == ["token"]

    async def test_async_rewrite_clears_the_ttl(self, astore: BaseStore) -> None:
        memory = Memory(astore, MemoryConfig(default_ttl=1))
        await memory.aset("k", "v1")
        await memory.aset("k", "v2", ttl=None)
        for _ in range(3):
            assert (await memory.aread_for_compile()).expired_keys == []
        assert await memory.aget("k") == "v2"

    async def test_async_default_ttl_applies_to_model_writes(self, astore: BaseStore) -> None:
        memory = Memory(astore, MemoryConfig(default_ttl={"turns": 2}))
        await memory.aread_for_compile()
        created = await memory.acreate_memory("k", "v")
        assert created.entry is not None
        assert created.entry.expires_at_turn == 3

    async def test_async_selector_runs_once_after_the_sweep(self, astore: BaseStore) -> None:
        calls: list[list[str]] = []

        def selector(entries: list[MemoryEntry]) -> list[MemoryEntry]:
            calls.append([e.key for e in entries])
            return entries[:1]

        memory = Memory(astore, MemoryConfig(selector=selector), clock=FakeClock())
        await memory.aset("gone", "x", ttl=0)
        await memory.aset("b", "1")
        await memory.aset("a", "2")
        read = await memory.aread_for_compile()
        assert calls == [["b", "a"]]
        assert [e.key for e in read.selected] == ["b"]

    async def test_async_compile_round_trips(self, astore: BaseStore) -> None:
        writer = Memory(astore, clock=FakeClock())
        await writer.aset("a", "1", ttl=0)
        await writer.aset("b", "2")
        recording = RecordingStore(astore)
        await Memory(recording).aread_for_compile()
        assert recording.trips == [
            ["search memory", "get clock", "get stamp"],
            ["delete a", "history a@1", "put version:a", "put clock", "put stamp"],
        ]

    async def test_async_snapshot_and_restore(self, astore: BaseStore) -> None:
        memory = Memory(astore, clock=FakeClock())
        await memory.aset("b", "1", ttl=3)
        await memory.aset("a", "2")
        await memory.aread_for_compile()
        before = await memory.alist()
        snapshot = await memory.asnapshot()
        assert snapshot["turn"] == 1
        await memory.aset("c", "3")
        await memory.adelete("b")
        await memory.aread_for_compile()
        await memory.arestore(snapshot)
        after = await memory.alist()
        assert [(e.key, e.value, e.expires_at_turn) for e in after] == [
            (e.key, e.value, e.expires_at_turn) for e in before
        ]
        # "a" was untouched and stays as it was; "b" came back as a new version after its delete.
        assert after[1] == before[1]
        assert [(r.version, r.status) for r in await memory.ahistory("b")] == [
            (1, "deleted"),
            (2, "current"),
        ]
        assert await memory.aturn() == 1

    async def test_a_bad_snapshot_leaves_the_async_store_unchanged(self, astore: BaseStore) -> None:
        memory = Memory(astore)
        await memory.aset("k", "v")
        before = await adump(astore)
        bad = {"version": 1, "turn": 0, "entries": [{"key": "x", "value": 1}]}
        with pytest.raises(ValueError, match="malformed"):
            await memory.arestore(bad)
        assert await adump(astore) == before

    @pytest.mark.parametrize(
        ("call", "error", "match"),
        [
            (lambda m: m.aset("", "v"), ValueError, "non-empty string"),
            (lambda m: m.aset("k", 3), TypeError, "must be a string, got int"),
            (lambda m: m.aset("k", "v", ttl={"turns": -1}), ValueError, "Accepted TTLs"),
            (lambda m: m.aset("k", "v", importance="x"), ValueError, "finite number"),
            (lambda m: m.acreate_memory("k", None), TypeError, "got NoneType"),
            (lambda m: m.adelete(""), ValueError, "non-empty string"),
        ],
        ids=["empty key", "int value", "bad ttl", "bad importance", "None value", "delete empty"],
    )
    async def test_async_bad_input_leaves_the_store_unchanged(
        self, astore: BaseStore, call: Any, error: type[Exception], match: str
    ) -> None:
        memory = Memory(astore)
        await memory.aset("k", "kept")
        before = await adump(astore)
        with pytest.raises(error, match=match):
            await call(memory)
        assert await adump(astore) == before

    async def test_inside_an_async_run_changes_are_custom_events(self, astore: BaseStore) -> None:
        hooked: list[MemoryChangeEvent] = []

        async def changed(event: MemoryChangeEvent) -> None:
            hooked.append(event)

        memory = Memory(astore, MemoryConfig(on_memory_changed=changed), scope=("s",))

        async def work(_: Any) -> str:
            await memory.aset("k", "v1")
            await memory.acreate_memory("m", "a")
            await memory.adelete("k")
            await memory.aset("t", "x", ttl=0)
            await memory.aread_for_compile()
            return "done"

        recorder = AsyncEventRecorder()
        assert await RunnableLambda(work).ainvoke(None, {"callbacks": [recorder]}) == "done"
        assert [e.type for e in hooked] == ["set", "set", "delete", "set", "expire"]
        assert recorder.events == [(EVENT, event_data(event)) for event in hooked]

    async def test_outside_an_async_run_only_hooks_fire(
        self, astore: BaseStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        dispatched: list[str] = []

        async def fake_dispatch(name: str, data: Any, **kwargs: Any) -> None:
            dispatched.append(name)

        monkeypatch.setattr("langchain_contextchef._plan.adispatch_custom_event", fake_dispatch)
        hooked: list[MemoryChangeEvent] = []
        memory = Memory(astore, MemoryConfig(on_memory_changed=hooked.append))
        await memory.aset("k", "v", ttl=0)
        await memory.aread_for_compile()
        assert [e.type for e in hooked] == ["set", "expire"]
        assert dispatched == []
