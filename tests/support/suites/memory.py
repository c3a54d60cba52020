"""The `Memory` suite: the developer path, the model path, TTL, the turn clock, hooks, events,
snapshots, round trips and bad input, on whatever store the subclass provides.

Subclass `MemorySuite` in a test module whose fixtures provide `store`: the unit tests run it
on `InMemoryStore`, the integration tests on SQLite, the file system and PostgreSQL.
"""

from __future__ import annotations

import gc
import json
import warnings
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langchain_core.runnables import RunnableLambda
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry, Provenance
from langchain_contextchef.memory import Memory, MemoryConfig
from langchain_contextchef.ttl import Turns
from tests.support.clocks import NOW, FakeClock
from tests.support.events import MEMORY_CHANGED as EVENT
from tests.support.events import EventRecorder, VetoLog, event_data
from tests.support.stores import RecordingStore, dump


def _no_unawaited_coroutine(record: list[warnings.WarningMessage]) -> bool:
    gc.collect()
    return not any("never awaited" in str(w.message) for w in record)


NAN = float("nan")

BAD_CALLS: list[tuple[str, Callable[[Memory], Any], type[Exception], str]] = [
    ("empty key", lambda m: m.set("", "v"), ValueError, "non-empty string"),
    ("blank key", lambda m: m.set("   ", "v"), ValueError, "non-empty string"),
    ("None key", lambda m: m.set(None, "v"), ValueError, "non-empty string"),
    ("int key", lambda m: m.set(3, "v"), ValueError, "non-empty string"),
    ("NUL in key", lambda m: m.set("a\x00b", "v"), ValueError, "NUL"),
    ("int value", lambda m: m.set("k", 5), TypeError, "value must be a string"),
    ("None value", lambda m: m.set("k", None), TypeError, "value must be a string"),
    ("dict value", lambda m: m.set("k", {"a": 1}), TypeError, "value must be a string"),
    ("rewrite int value", lambda m: m.set("lang", 7), TypeError, "value must be a string"),
    ("bad description", lambda m: m.set("k", "v", description=3), TypeError, "description"),
    ("bad type", lambda m: m.set("k", "v", type=1), TypeError, "type"),
    ("negative ttl", lambda m: m.set("lang", "v", ttl=-1), ValueError, "Invalid ttl"),
    ("bool ttl", lambda m: m.set("lang", "v", ttl=True), ValueError, "Invalid ttl"),
    ("NaN ms ttl", lambda m: m.set("k", "v", ttl={"ms": NAN}), ValueError, "Invalid ttl"),
    ("unknown ttl key", lambda m: m.set("k", "v", ttl={"days": 1}), ValueError, "Invalid ttl"),
    ("str importance", lambda m: m.set("k", "v", importance="high"), ValueError, "importance"),
    ("NaN importance", lambda m: m.set("lang", "v", importance=NAN), ValueError, "importance"),
    ("inf importance", lambda m: m.set("k", "v", importance=float("inf")), ValueError, "finite"),
    ("bool importance", lambda m: m.set("k", "v", importance=True), ValueError, "importance"),
    ("delete empty key", lambda m: m.delete(""), ValueError, "non-empty string"),
    ("get empty key", lambda m: m.get(""), ValueError, "non-empty string"),
    ("create empty key", lambda m: m.create_memory("", "v"), ValueError, "non-empty string"),
    ("create int value", lambda m: m.create_memory("k", 1), TypeError, "value must be a string"),
    ("update None value", lambda m: m.update_memory("lang", None), TypeError, "value"),
    ("update bad desc", lambda m: m.update_memory("lang", "v", 5), TypeError, "description"),
    ("delete_memory blank", lambda m: m.delete_memory(" "), ValueError, "non-empty string"),
]


def _good_snapshot() -> dict[str, Any]:
    source = Memory(InMemoryStore(), clock=FakeClock())
    source.set("a", "1")
    source.set("b", "2")
    return source.snapshot()


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    snapshot = _good_snapshot()
    target: Any = snapshot
    for step in path[:-1]:
        target = target[step]
    if value is _DROP:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return snapshot


_DROP = object()

BAD_SNAPSHOTS: list[tuple[str, Any, str]] = [
    ("not a mapping", [1, 2], "Not a memory snapshot"),
    ("None", None, "Not a memory snapshot"),
    ("no version", _with(("version",), _DROP), "Not a memory snapshot"),
    ("future version", _with(("version",), 2), "Not a memory snapshot"),
    ("negative turn", _with(("turn",), -1), "turn must be a non-negative int"),
    ("string turn", _with(("turn",), "3"), "turn must be a non-negative int"),
    ("bool turn", _with(("turn",), True), "turn must be a non-negative int"),
    ("entries not a list", _with(("entries",), {"a": {}}), "entries must be a list"),
    ("entry not a mapping", _with(("entries", 0), "a=1"), "must be a mapping"),
    ("empty key", _with(("entries", 0, "key"), ""), "non-empty string"),
    ("missing key", _with(("entries", 0, "key"), _DROP), "non-empty string"),
    ("duplicate key", _with(("entries", 1, "key"), "a"), "twice"),
    ("int value", _with(("entries", 0, "value"), 5), "malformed"),
    ("missing created_at", _with(("entries", 0, "created_at"), _DROP), "malformed"),
    ("bad timestamp", _with(("entries", 1, "updated_at"), "yesterday"), "malformed"),
    ("bad update_count", _with(("entries", 0, "update_count"), "many"), "malformed"),
    ("bad importance", _with(("entries", 0, "importance"), "high"), "malformed"),
    ("bad expires_at_turn", _with(("entries", 0, "expires_at_turn"), "soon"), "malformed"),
    ("bad status", _with(("entries", 0, "status"), "deleted"), "malformed"),
    ("bad description", _with(("entries", 0, "description"), 12), "malformed"),
    ("zero update_count", _with(("entries", 0, "update_count"), 0), "malformed"),
]


class MemorySuite:
    """`Memory` against the `store` fixture; every test starts from an empty store."""

    # ---- basics: set / get / delete / list -------------------------------------------------------

    def test_set_get_delete_list(self, store: BaseStore) -> None:
        memory = Memory(store)
        memory.set("lang", "Python")
        memory.set("style", "terse")
        assert memory.get("lang") == "Python"
        assert [e.key for e in memory.list()] == ["lang", "style"]
        assert memory.delete("lang") is True
        assert memory.get("lang") is None
        assert [e.key for e in memory.list()] == ["style"]

    def test_get_and_get_entry_of_an_unknown_key_are_none(self, store: BaseStore) -> None:
        memory = Memory(store)
        assert memory.get("nope") is None
        assert memory.get_entry("nope") is None
        assert memory.delete("nope") is False

    def test_get_entry_returns_the_whole_entry(self, store: BaseStore) -> None:
        clock = FakeClock()
        memory = Memory(store, clock=clock)
        memory.set("lang", "Python", description="Primary language", importance=10, type="fact")
        entry = memory.get_entry("lang")
        assert entry == MemoryEntry(
            key="lang",
            value="Python",
            description="Primary language",
            created_at=NOW,
            updated_at=NOW,
            update_count=1,
            importance=10,
            type="fact",
            provenance=Provenance(written_by="developer"),
        )
        assert entry.version == 1

    def test_set_stamps_times_from_the_real_clock(self, store: BaseStore) -> None:
        memory = Memory(store)
        before = datetime.now(timezone.utc)
        memory.set("k", "v")
        after = datetime.now(timezone.utc)
        entry = memory.get_entry("k")
        assert entry is not None
        assert before <= entry.created_at <= after
        assert entry.updated_at == entry.created_at
        assert entry.update_count == 1

    def test_a_rewrite_keeps_creation_time_and_counts_updates(self, store: BaseStore) -> None:
        clock = FakeClock()
        memory = Memory(store, clock=clock)
        memory.set("k", "v1", description="what k is", importance=3)
        clock.advance(seconds=5)
        memory.set("k", "v2")
        entry = memory.get_entry("k")
        assert entry is not None
        assert entry.value == "v2"
        assert entry.created_at == NOW
        assert entry.updated_at > NOW + timedelta(seconds=4)
        assert entry.update_count == 2
        # Unset description and importance keep the previous ones.
        assert entry.description == "what k is"
        assert entry.importance == 3

    def test_updated_at_never_goes_backwards(self, store: BaseStore) -> None:
        clock = FakeClock(tick=timedelta(0))
        memory = Memory(store, clock=clock)
        memory.set("k", "v1")
        clock.advance(hours=-1)
        memory.set("k", "v2")
        entry = memory.get_entry("k")
        assert entry is not None
        assert entry.updated_at == NOW

    def test_list_returns_entries_with_metadata(self, store: BaseStore) -> None:
        memory = Memory(store)
        memory.set("a", "1", importance=0.5)
        memory.set("a", "2")
        (entry,) = memory.list()
        assert (entry.key, entry.value, entry.update_count, entry.importance) == ("a", "2", 2, 0.5)

    @pytest.mark.parametrize(
        "key",
        [
            "a/b",
            "dots.in.key",
            "with space",
            "ключ",
            "emoji-🙂",
            "%2E",
            "../up",
            "UPPER",
            "x" * 200,
        ],
    )
    def test_unusual_keys_round_trip(self, store: BaseStore, key: str) -> None:
        memory = Memory(store)
        memory.set(key, "value of " + key)
        assert memory.get(key) == "value of " + key
        assert [e.key for e in memory.list()] == [key]
        assert [e.key for e in memory.read_for_compile().selected] == [key]
        assert memory.delete(key) is True
        assert memory.list() == []

    def test_unusual_values_round_trip(self, store: BaseStore) -> None:
        memory = Memory(store)
        value = 'line 1\nline 2\t"quoted" <tag> & ü 🙂 \\ </memory>'
        memory.set("k", value, description="")
        entry = memory.get_entry("k")
        assert entry is not None
        assert entry.value == value
        assert entry.description == ""

    def test_a_new_memory_on_the_same_store_sees_entries_and_turn(self, store: BaseStore) -> None:
        first = Memory(store)
        first.set("k", "v", ttl=3)
        first.read_for_compile()
        second = Memory(store)
        assert second.turn == 1
        assert second.get("k") == "v"
        assert [e.key for e in second.read_for_compile().selected] == ["k"]
        assert [e.key for e in Memory(store).read_for_compile().selected] == ["k"]
        assert Memory(store).read_for_compile().expired_keys == ["k"]
        assert Memory(store).turn == 4

    # ---- creation order, whatever the backend ----------------------------------------------------

    def test_entries_come_in_creation_order_on_every_backend(self, store: BaseStore) -> None:
        memory = Memory(store, clock=FakeClock())
        for key in ["zeta", "alpha", "mid", "Beta", "10", "9"]:
            memory.set(key, key.upper())
        order = ["zeta", "alpha", "mid", "Beta", "10", "9"]
        assert [e.key for e in memory.list()] == order
        assert [e.key for e in memory.read_for_compile().selected] == order
        # A rewrite keeps its place; a delete and re-create moves to the end.
        memory.set("zeta", "again")
        assert [e.key for e in memory.list()] == order
        memory.delete("alpha")
        memory.set("alpha", "back")
        assert [e.key for e in memory.list()] == ["zeta", "mid", "Beta", "10", "9", "alpha"]

    def test_same_instant_writes_are_ordered_by_key(self, store: BaseStore) -> None:
        memory = Memory(store, clock=FakeClock(tick=timedelta(0)))
        for key in ["c", "a", "b"]:
            memory.set(key, key)
        assert [e.key for e in memory.list()] == ["a", "b", "c"]

    def test_compiles_are_stable_until_memory_changes(self, store: BaseStore) -> None:
        memory = Memory(store, clock=FakeClock())
        memory.set("persona", "senior engineer", description="role")
        memory.set("lang", "Python", importance=2)
        first = memory.read_for_compile()
        second = memory.read_for_compile()
        assert first.selected == second.selected
        assert first.entries == second.entries
        assert (first.turn, second.turn) == (1, 2)

    # ---- snapshot / restore ----------------------------------------------------------------------

    def test_snapshot_is_json_and_holds_entries_and_turn(self, store: BaseStore) -> None:
        memory = Memory(store, clock=FakeClock())
        memory.set("lang", "Python", ttl=5, description="language")
        memory.set("token", "abc", ttl=timedelta(hours=1), importance=1.5)
        memory.read_for_compile()
        memory.read_for_compile()
        snapshot = memory.snapshot()
        assert json.loads(json.dumps(snapshot)) == snapshot
        assert snapshot["turn"] == 2
        assert [e["key"] for e in snapshot["entries"]] == ["lang", "token"]
        assert snapshot["entries"][0]["value"] == "Python"
        assert snapshot["entries"][0]["update_count"] == 1

    def test_empty_snapshot(self, store: BaseStore) -> None:
        snapshot = Memory(store).snapshot()
        assert snapshot["turn"] == 0
        assert snapshot["entries"] == []

    def test_restore_replaces_contents_and_turn(self, store: BaseStore) -> None:
        source = Memory(InMemoryStore(), clock=FakeClock())
        source.set("new1", "a")
        source.set("new2", "b")
        snapshot = source.snapshot()
        snapshot["turn"] = 5

        memory = Memory(store)
        memory.set("old", "gone soon")
        memory.set("new1", "will be replaced")
        memory.restore(snapshot)
        assert memory.get("old") is None
        assert memory.get("new1") == "a"
        assert memory.get("new2") == "b"
        assert memory.turn == 5
        assert [e.key for e in memory.list()] == ["new1", "new2"]

    def test_snapshot_mutate_restore_round_trips(self, store: BaseStore) -> None:
        memory = Memory(store, clock=FakeClock())
        memory.set("b", "1", ttl=4, description="d")
        memory.set("a", "2", ttl={"ms": 60_000}, importance=7)
        memory.read_for_compile()
        before = memory.list()
        snapshot = memory.snapshot()

        memory.set("b", "changed", ttl=None)
        memory.delete("a")
        memory.set("c", "extra")
        memory.read_for_compile()

        memory.restore(snapshot)
        after = memory.list()
        fields = ("key", "value", "description", "importance", "expires_at_turn", "expires_at")
        assert [[getattr(e, f) for f in fields] for e in after] == [
            [getattr(e, f) for f in fields] for e in before
        ]
        # What the restore replaced is in history, and no version number was reused.
        assert [(r.version, r.status, r.entry.value) for r in memory.history("b")] == [
            (1, "updated", "1"),
            (2, "updated", "changed"),
            (3, "current", "1"),
        ]
        assert [(r.version, r.status) for r in memory.history("a")] == [
            (1, "deleted"),
            (2, "current"),
        ]
        assert [(r.version, r.status) for r in memory.history("c")] == [(1, "deleted")]
        assert memory.turn == 1
        # Restored expiries are live again: "b" still has 3 compiles to go.
        assert [Memory(store).read_for_compile().turn for _ in range(3)] == [2, 3, 4]
        assert "b" in memory.read_for_compile().expired_keys

    def test_restore_keeps_other_scopes_untouched(self, store: BaseStore) -> None:
        other = Memory(store, scope=("other",))
        other.set("keep", "me")
        other.read_for_compile()
        Memory(store).restore({"version": 1, "turn": 0, "entries": []})
        assert other.get("keep") == "me"
        assert other.turn == 1

    def test_quarantined_entries_are_kept_but_not_injected(self, store: BaseStore) -> None:
        source = Memory(InMemoryStore(), clock=FakeClock())
        source.set("ok", "shown")
        source.set("held", "hidden")
        snapshot = source.snapshot()
        snapshot["entries"][1]["status"] = "quarantined"
        memory = Memory(store)
        memory.restore(snapshot)
        read = memory.read_for_compile()
        assert [e.key for e in read.entries] == ["ok", "held"]
        assert [e.key for e in read.selected] == ["ok"]

    def test_create_memory_creates(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        result = memory.create_memory("lang", "Python", "Primary language")
        assert result.status == "created"
        assert result.ok
        assert result.entry is not None
        assert (result.entry.key, result.entry.value, result.entry.update_count) == (
            "lang",
            "Python",
            1,
        )
        assert result.entry.description == "Primary language"
        assert memory.get_entry("lang") == result.entry
        assert veto.calls == [("lang", "Python", None)]

    def test_create_memory_refuses_an_existing_key(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        memory.set("lang", "Python")
        result = memory.create_memory("lang", "Rust")
        assert result.status == "already_exists"
        assert not result.ok
        assert result.entry is not None
        assert result.entry.value == "Python"
        entry = memory.get_entry("lang")
        assert entry is not None
        assert (entry.value, entry.update_count) == ("Python", 1)
        assert veto.calls == []  # existence is checked before the veto

    def test_create_memory_with_a_disallowed_key_stores_nothing(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(allowed_keys=["lang", "style"], on_memory_update=veto))
        result = memory.create_memory("tone", "dry")
        assert result.status == "not_allowed"
        assert result.allowed_keys == ("lang", "style")
        assert result.entry is None
        assert memory.get("tone") is None
        assert veto.calls == []  # allowed_keys is checked before the veto
        assert memory.create_memory("lang", "Python").status == "created"

    @pytest.mark.parametrize("verdict", [False, None, 0, ""])
    def test_a_falsy_veto_blocks_create(self, store: BaseStore, verdict: Any) -> None:
        veto = VetoLog(verdict)
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        result = memory.create_memory("k", "v")
        assert result.status == "vetoed"
        assert result.entry is None
        assert memory.get("k") is None
        assert veto.calls == [("k", "v", None)]

    def test_update_memory_updates(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        memory.set("k", "v1", description="first")
        result = memory.update_memory("k", "v2")
        assert result.status == "updated"
        assert result.entry is not None
        assert (result.entry.value, result.entry.update_count) == ("v2", 2)
        assert result.entry.description == "first"  # omitted description is kept
        assert veto.calls == [("k", "v2", "v1")]
        described = memory.update_memory("k", "v3", "second")
        assert described.entry is not None
        assert described.entry.description == "second"
        assert memory.get_entry("k") == described.entry

    def test_update_memory_of_a_missing_key_is_not_found(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        result = memory.update_memory("ghost", "v")
        assert result.status == "not_found"
        assert memory.get("ghost") is None
        assert veto.calls == []

    def test_update_memory_of_a_disallowed_key_changes_nothing(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(allowed_keys=["lang"], on_memory_update=veto))
        memory.set("style", "terse")  # developer writes are not limited
        result = memory.update_memory("style", "verbose")
        assert result.status == "not_allowed"
        assert memory.get("style") == "terse"
        assert veto.calls == []

    def test_a_vetoed_update_changes_nothing(self, store: BaseStore) -> None:
        veto = VetoLog(False)
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        memory.set("k", "old")
        assert memory.update_memory("k", "new").status == "vetoed"
        entry = memory.get_entry("k")
        assert entry is not None
        assert (entry.value, entry.update_count) == ("old", 1)
        assert veto.calls == [("k", "new", "old")]

    def test_delete_memory(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        memory.set("k", "v")
        result = memory.delete_memory("k")
        assert result.status == "deleted"
        assert result.entry is not None
        assert result.entry.value == "v"
        assert memory.get("k") is None
        assert veto.calls == [("k", None, "v")]
        assert memory.delete_memory("k").status == "not_found"
        assert len(veto.calls) == 1

    def test_delete_memory_of_a_disallowed_key_keeps_it(self, store: BaseStore) -> None:
        veto = VetoLog()
        memory = Memory(store, MemoryConfig(allowed_keys=["lang"], on_memory_update=veto))
        memory.set("style", "terse")
        assert memory.delete_memory("style").status == "not_allowed"
        assert memory.get("style") == "terse"
        assert veto.calls == []

    def test_a_vetoed_delete_keeps_the_entry(self, store: BaseStore) -> None:
        veto = VetoLog(False)
        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        memory.set("k", "v")
        assert memory.delete_memory("k").status == "vetoed"
        assert memory.get("k") == "v"
        assert veto.calls == [("k", None, "v")]

    def test_a_write_once_veto(self, store: BaseStore) -> None:
        memory = Memory(
            store,
            MemoryConfig(on_memory_update=lambda key, value, old: old is None or key != "persona"),
        )
        assert memory.create_memory("persona", "v1").status == "created"
        assert memory.update_memory("persona", "v2").status == "vetoed"
        assert memory.update_memory("persona", "v2").entry is None
        assert memory.get("persona") == "v1"

    def test_developer_writes_bypass_allowed_keys_and_the_veto(self, store: BaseStore) -> None:
        veto = VetoLog(False)
        memory = Memory(store, MemoryConfig(allowed_keys=["lang"], on_memory_update=veto))
        memory.set("anything", "v")
        memory.set("anything", "v2")
        assert memory.get("anything") == "v2"
        assert memory.delete("anything") is True
        assert veto.calls == []

    def test_a_veto_that_raises_propagates_and_writes_nothing(self, store: BaseStore) -> None:
        def veto(key: str, value: str | None, old: str | None) -> bool:
            raise RuntimeError("policy service down")

        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        with pytest.raises(RuntimeError, match="policy service down"):
            memory.create_memory("k", "v")
        assert memory.get("k") is None

    def test_model_writes_record_provenance(self, store: BaseStore) -> None:
        memory = Memory(store)
        provenance = Provenance(written_by="model", tool_call_id="call_1", confidence=0.9)
        memory.create_memory("k", "v", provenance=provenance)
        entry = memory.get_entry("k")
        assert entry is not None
        assert entry.provenance == provenance

    def test_an_empty_allowed_keys_refuses_every_model_write(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(allowed_keys=[]))
        assert memory.create_memory("k", "v").status == "not_allowed"
        assert memory.get("k") is None

    # ---- TTL in turns ----------------------------------------------------------------------------

    def test_bare_int_default_ttl_is_turns(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(default_ttl=3))
        memory.set("k", "v")
        entry = memory.get_entry("k")
        assert entry is not None
        assert (entry.expires_at_turn, entry.expires_at) == (3, None)

    def test_turns_count_from_the_current_turn(self, store: BaseStore) -> None:
        memory = Memory(store)
        memory.read_for_compile()
        memory.set("k", "v", ttl={"turns": 5})
        entry = memory.get_entry("k")
        assert entry is not None
        assert entry.expires_at_turn == 6

    def test_turn_ttls_survive_exactly_that_many_compiles(self, store: BaseStore) -> None:
        memory = Memory(store, clock=FakeClock())
        memory.set("t0", "zero", ttl=0)
        memory.set("t1", "one", ttl={"turns": 1})
        memory.set("t2", "two", ttl=Turns(2))
        rows = []
        for _ in range(3):
            read = memory.read_for_compile()
            rows.append((read.expired_keys, [e.key for e in read.selected], read.turn))
        assert rows == [
            (["t0"], ["t1", "t2"], 1),
            (["t1"], ["t2"], 2),
            (["t2"], [], 3),
        ]

    @pytest.mark.parametrize("n", [1, 2, 3, 5])
    def test_a_ttl_of_n_turns_is_injected_in_exactly_n_compiles(
        self, store: BaseStore, n: int
    ) -> None:
        memory = Memory(store)
        memory.read_for_compile()
        memory.read_for_compile()  # written mid-conversation, not at turn 0
        memory.set("k", "v", ttl=n)
        injected = [bool(memory.read_for_compile().selected) for _ in range(n + 3)]
        assert injected == [True] * n + [False] * 3

    def test_ttl_none_overrides_the_default(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(default_ttl=2))
        memory.set("forever", "v", ttl=None)
        for _ in range(3):
            memory.read_for_compile()
        assert memory.get("forever") == "v"

    def test_a_per_entry_ttl_overrides_the_default(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(default_ttl=10))
        memory.set("short", "v", ttl=1)
        memory.read_for_compile()
        assert memory.read_for_compile().expired_keys == ["short"]

    def test_without_a_default_nothing_expires(self, store: BaseStore) -> None:
        memory = Memory(store)
        memory.set("k", "v")
        for _ in range(100):
            assert memory.read_for_compile().expired_keys == []
        assert memory.turn == 100
        assert memory.get("k") == "v"

    def test_rewriting_refreshes_the_default_ttl(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(default_ttl=2))
        memory.set("k", "v1")  # expires at turn 2
        memory.read_for_compile()
        memory.set("k", "v2")  # turn 1: now expires at turn 3
        assert memory.read_for_compile().expired_keys == []
        assert memory.read_for_compile().expired_keys == []
        assert memory.read_for_compile().expired_keys == ["k"]

    def test_compile_sweeps_before_injection(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(default_ttl=1), clock=FakeClock())
        memory.set("temp", "t")
        memory.set("perm", "p", ttl=None)
        first = memory.read_for_compile()
        assert (first.expired_keys, [e.key for e in first.selected]) == ([], ["temp", "perm"])
        second = memory.read_for_compile()
        assert (second.expired_keys, [e.key for e in second.selected]) == (["temp"], ["perm"])
        assert [e.key for e in second.entries] == ["perm"]
        assert memory.get("temp") is None

    def test_expired_but_unswept_entries_are_still_readable(self, store: BaseStore) -> None:
        clock = FakeClock(tick=timedelta(0))
        memory = Memory(store, clock=clock)
        memory.set("token", "abc", ttl=timedelta(seconds=1))
        clock.advance(seconds=2)
        assert memory.get("token") == "abc"
        assert [e.key for e in memory.list()] == ["token"]
        assert memory.read_for_compile().expired_keys == ["token"]
        assert memory.get("token") is None

    # ---- TTL in wall-clock time ------------------------------------------------------------------

    def test_wall_clock_ttl_with_an_injected_clock(self, store: BaseStore) -> None:
        clock = FakeClock(tick=timedelta(0))
        memory = Memory(store, clock=clock)
        memory.set("token", "abc", ttl={"ms": 5000})
        entry = memory.get_entry("token")
        assert entry is not None
        assert (entry.expires_at, entry.expires_at_turn) == (NOW + timedelta(seconds=5), None)
        clock.advance(milliseconds=4999)
        assert memory.read_for_compile().expired_keys == []
        clock.advance(milliseconds=1)
        assert memory.read_for_compile().expired_keys == ["token"]

    def test_timedelta_ttl_is_wall_clock(self, store: BaseStore) -> None:
        clock = FakeClock(tick=timedelta(0))
        memory = Memory(store, clock=clock)
        memory.set("token", "abc", ttl=timedelta(hours=1))
        for _ in range(50):  # turns do not age it
            assert memory.read_for_compile().expired_keys == []
        clock.advance(hours=1)
        assert memory.read_for_compile().expired_keys == ["token"]

    def test_a_zero_duration_is_swept_at_the_next_compile(self, store: BaseStore) -> None:
        memory = Memory(store, clock=FakeClock(tick=timedelta(0)))
        memory.set("gone", "v", ttl={"ms": 0})
        read = memory.read_for_compile()
        assert read.expired_keys == ["gone"]
        assert read.selected == []

    def test_a_wall_clock_default_ttl(self, store: BaseStore) -> None:
        clock = FakeClock(tick=timedelta(0))
        memory = Memory(store, MemoryConfig(default_ttl=timedelta(minutes=1)), clock=clock)
        memory.create_memory("k", "v")
        entry = memory.get_entry("k")
        assert entry is not None
        assert entry.expires_at == NOW + timedelta(minutes=1)

    # ---- a rewrite replaces the expiry wholesale -------------------------------------------------

    def test_a_rewrite_with_ttl_none_clears_the_expiry(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(default_ttl=2))
        memory.set("k", "v1")
        memory.set("k", "v2", ttl=None)
        entry = memory.get_entry("k")
        assert entry is not None
        assert (entry.expires_at_turn, entry.expires_at) == (None, None)
        for _ in range(5):
            memory.read_for_compile()
        assert memory.get("k") == "v2"

    def test_switching_ttl_kind_drops_the_other_kind(self, store: BaseStore) -> None:
        clock = FakeClock(tick=timedelta(0))
        memory = Memory(store, clock=clock)
        memory.set("k", "v", ttl=2)
        memory.set("k", "v", ttl={"ms": 1000})
        entry = memory.get_entry("k")
        assert entry is not None
        assert (entry.expires_at_turn, entry.expires_at) == (None, NOW + timedelta(seconds=1))
        memory.set("k", "v", ttl=Turns(4))
        entry = memory.get_entry("k")
        assert entry is not None
        assert (entry.expires_at_turn, entry.expires_at) == (4, None)

    def test_an_unset_ttl_on_rewrite_takes_the_default_not_the_old_expiry(
        self, store: BaseStore
    ) -> None:
        memory = Memory(store)
        memory.set("k", "v", ttl=1)
        memory.set("k", "v2")  # no default: never expires
        for _ in range(3):
            assert memory.read_for_compile().expired_keys == []

    def test_default_ttl_applies_to_model_writes(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(default_ttl=2))
        memory.read_for_compile()
        created = memory.create_memory("k", "v")
        assert created.entry is not None
        assert created.entry.expires_at_turn == 3
        memory.read_for_compile()
        updated = memory.update_memory("k", "v2")
        assert updated.entry is not None
        assert updated.entry.expires_at_turn == 4
        stored = memory.get_entry("k")
        assert stored is not None
        assert stored.expires_at_turn == 4

    # ---- hooks: on_memory_expired and on_memory_changed ------------------------------------------

    def test_expiry_hooks_fire_in_order_around_the_deletion(self, store: BaseStore) -> None:
        log: list[tuple[str, str, bool]] = []
        memory: Memory

        def expired(entry: MemoryEntry) -> None:
            log.append(("expired", entry.key, memory.get(entry.key) is not None))

        def changed(event: MemoryChangeEvent) -> None:
            log.append((event.type, event.key, memory.get(event.key) is not None))

        memory = Memory(
            store,
            MemoryConfig(on_memory_expired=expired, on_memory_changed=changed),
            clock=FakeClock(),
        )
        for key in ["zeta", "alpha", "keep", "mid"]:
            memory.set(key, key, ttl=None if key == "keep" else 1)
        log.clear()
        memory.read_for_compile()
        assert log == []
        read = memory.read_for_compile()
        assert read.expired_keys == ["zeta", "alpha", "mid"]
        # on_memory_expired sees each entry still stored; on_memory_changed sees it gone.
        assert log == [
            ("expired", "zeta", True),
            ("expired", "alpha", True),
            ("expired", "mid", True),
            ("expire", "zeta", False),
            ("expire", "alpha", False),
            ("expire", "mid", False),
        ]

    def test_on_memory_expired_gets_the_full_entry(self, store: BaseStore) -> None:
        seen: list[MemoryEntry] = []
        memory = Memory(store, MemoryConfig(on_memory_expired=seen.append))
        memory.set("k", "v", ttl=1, description="d", importance=4)
        stored = memory.get_entry("k")
        memory.read_for_compile()
        memory.read_for_compile()
        assert seen == [stored]

    def test_an_expired_hook_that_raises_keeps_the_entry_and_the_turn(
        self, store: BaseStore
    ) -> None:
        def expired(entry: MemoryEntry) -> None:
            raise RuntimeError("audit log unavailable")

        memory = Memory(store, MemoryConfig(on_memory_expired=expired))
        memory.set("k", "v", ttl=0)
        before = dump(store)
        with pytest.raises(RuntimeError, match="audit log unavailable"):
            memory.read_for_compile()
        assert dump(store) == before
        assert memory.turn == 0

    def test_on_memory_changed_for_every_kind_of_write(self, store: BaseStore) -> None:
        events: list[MemoryChangeEvent] = []
        memory = Memory(store, MemoryConfig(on_memory_changed=events.append), scope=("team",))
        memory.set("k", "v1")
        memory.set("k", "v2")
        memory.delete("k")
        memory.delete("k")  # nothing to delete: no event
        memory.create_memory("m", "a")
        memory.update_memory("m", "b")
        memory.delete_memory("m")
        memory.set("t", "x", ttl=0)
        memory.read_for_compile()
        scope = ("team",)
        assert events == [
            MemoryChangeEvent("set", "k", "v1", None, scope),
            MemoryChangeEvent("set", "k", "v2", "v1", scope),
            MemoryChangeEvent("delete", "k", None, "v2", scope),
            MemoryChangeEvent("set", "m", "a", None, scope),
            MemoryChangeEvent("set", "m", "b", "a", scope),
            MemoryChangeEvent("delete", "m", None, "b", scope),
            MemoryChangeEvent("set", "t", "x", None, scope),
            MemoryChangeEvent("expire", "t", None, "x", scope),
        ]

    def test_refused_model_writes_fire_no_change(self, store: BaseStore) -> None:
        events: list[MemoryChangeEvent] = []
        memory = Memory(
            store,
            MemoryConfig(
                allowed_keys=["k"],
                on_memory_update=lambda key, value, old: value != "blocked",
                on_memory_changed=events.append,
            ),
        )
        memory.create_memory("other", "v")
        memory.create_memory("k", "blocked")
        memory.update_memory("k", "v")
        memory.delete_memory("k")
        assert events == []

    def test_a_changed_hook_that_raises_propagates_after_the_write(self, store: BaseStore) -> None:
        def changed(event: MemoryChangeEvent) -> None:
            raise RuntimeError("notifier broke")

        memory = Memory(store, MemoryConfig(on_memory_changed=changed))
        with pytest.raises(RuntimeError, match="notifier broke"):
            memory.set("k", "v")
        assert memory.get("k") == "v"  # a notification: the write already happened

    # ---- selector --------------------------------------------------------------------------------

    def test_the_selector_runs_once_per_compile_after_the_sweep(self, store: BaseStore) -> None:
        calls: list[list[str]] = []

        def selector(entries: list[MemoryEntry]) -> list[MemoryEntry]:
            calls.append([e.key for e in entries])
            return entries

        memory = Memory(store, MemoryConfig(selector=selector), clock=FakeClock())
        memory.set("short", "s", ttl=1)
        memory.set("long", "l")
        memory.read_for_compile()
        memory.read_for_compile()
        assert calls == [["short", "long"], ["long"]]

    def test_the_selector_filters_sorts_and_truncates(self, store: BaseStore) -> None:
        def top_two(entries: list[MemoryEntry]) -> list[MemoryEntry]:
            return sorted(entries, key=lambda e: -(e.importance or 0))[:2]

        memory = Memory(store, MemoryConfig(selector=top_two), clock=FakeClock())
        memory.set("low", "1", importance=1)
        memory.set("high", "9", importance=9)
        memory.set("mid", "5", importance=5)
        read = memory.read_for_compile()
        assert [e.key for e in read.selected] == ["high", "mid"]
        assert [e.key for e in read.entries] == ["low", "high", "mid"]
        # The selector chooses what is injected, never what is stored.
        assert [e.key for e in memory.list()] == ["low", "high", "mid"]

    def test_a_selector_returning_nothing_injects_nothing(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(selector=lambda entries: []))
        memory.set("k", "v")
        assert memory.read_for_compile().selected == []
        assert memory.get("k") == "v"

    def test_the_selector_gets_full_entries(self, store: BaseStore) -> None:
        seen: list[MemoryEntry] = []

        def selector(entries: list[MemoryEntry]) -> list[MemoryEntry]:
            seen.extend(entries)
            return entries

        memory = Memory(store, MemoryConfig(selector=selector))
        memory.set("k", "v", description="d", importance=2, type="fact")
        memory.read_for_compile()
        assert seen == [memory.get_entry("k")]

    def test_a_selector_error_propagates_out_of_compile(self, store: BaseStore) -> None:
        def selector(entries: list[MemoryEntry]) -> list[MemoryEntry]:
            raise ValueError("bad selector")

        memory = Memory(store, MemoryConfig(selector=selector))
        memory.set("k", "v")
        with pytest.raises(ValueError, match="bad selector"):
            memory.read_for_compile()
        # The selector runs last: the clock has already advanced.
        assert memory.turn == 1

    # ---- round-trips: one bulk read per compile --------------------------------------------------

    def test_a_compile_is_one_read_and_the_clock_advance(self, store: BaseStore) -> None:
        writer = Memory(store, clock=FakeClock())
        for key in ["a", "b", "c"]:
            writer.set(key, key)
        recording = RecordingStore(store)
        read = Memory(recording).read_for_compile()
        assert [e.key for e in read.selected] == ["a", "b", "c"]
        # The stamp (what changed since this process last read the scope) rides along.
        assert recording.trips == [["search memory", "get clock", "get stamp"], ["put clock"]]

    def test_a_compile_deletes_every_expired_entry_in_one_batch(self, store: BaseStore) -> None:
        writer = Memory(store, clock=FakeClock())
        writer.set("z", "1", ttl=0)
        writer.set("keep", "2")
        writer.set("a", "3", ttl=0)
        recording = RecordingStore(store)
        read = Memory(recording).read_for_compile()
        assert read.expired_keys == ["z", "a"]
        # Expired versions move to history in the same batch as the deletes and the clock's
        # advance: the compile claims its turn and sweeps on it in one write.
        assert recording.trips == [
            ["search memory", "get clock", "get stamp"],
            [
                "delete z",
                "history z@1",
                "put version:z",
                "delete a",
                "history a@1",
                "put version:a",
                "put clock",
                "put stamp",
            ],
        ]

    def test_a_scoped_compile_reads_only_its_namespace(self, store: BaseStore) -> None:
        recording = RecordingStore(store)
        Memory(recording, scope=("users", "u1")).read_for_compile()
        assert recording.trips[0] == ["search users/u1/memory", "get clock", "get stamp"]

    def test_developer_writes_are_one_read_and_one_write(self, store: BaseStore) -> None:
        recording = RecordingStore(store)
        memory = Memory(recording)
        memory.set("k", "v")
        memory.set("t", "v", ttl=3)  # a turn TTL also reads the clock, in the same round-trip
        memory.delete("k")
        # Each read also fetches the key's last removed version, so a re-created key never
        # reuses a version number; a delete keeps the old version in history in the same batch.
        # Every write advances the scope's stamp in its own batch.
        assert recording.trips == [
            ["get k", "get version:k", "get stamp"],
            ["put k", "put stamp"],
            ["get t", "get version:t", "get clock", "get stamp"],
            ["put t", "put stamp"],
            ["get k", "get stamp"],
            ["delete k", "history k@1", "put version:k", "put stamp"],
        ]

    # ---- LangChain custom events -----------------------------------------------------------------

    def test_inside_a_run_every_change_is_also_a_custom_event(self, store: BaseStore) -> None:
        hooked: list[MemoryChangeEvent] = []
        memory = Memory(store, MemoryConfig(on_memory_changed=hooked.append), scope=("s",))

        def work(_: Any) -> str:
            memory.set("k", "v1")
            memory.set("k", "v2")
            memory.delete("k")
            memory.create_memory("m", "a")
            memory.set("t", "x", ttl=0)
            memory.read_for_compile()
            return "done"

        recorder = EventRecorder()
        assert RunnableLambda(work).invoke(None, {"callbacks": [recorder]}) == "done"
        assert len(hooked) == 6
        assert recorder.events == [(EVENT, event_data(event)) for event in hooked]
        assert recorder.events[-1] == (
            EVENT,
            {"type": "expire", "key": "t", "value": None, "old_value": "x", "scope": ["s"]},
        )

    def test_outside_a_run_only_the_hooks_fire(
        self, store: BaseStore, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        dispatched: list[str] = []
        monkeypatch.setattr(
            "langchain_contextchef._plan.dispatch_custom_event",
            lambda name, data, **kwargs: dispatched.append(name),
        )
        hooked: list[MemoryChangeEvent] = []
        memory = Memory(store, MemoryConfig(on_memory_changed=hooked.append))
        memory.set("k", "v", ttl=0)
        memory.read_for_compile()
        memory.set("j", "v")
        memory.delete("j")
        assert [e.type for e in hooked] == ["set", "expire", "set", "delete"]
        assert dispatched == []

    def test_an_async_veto_on_the_sync_path_is_a_clear_type_error(self, store: BaseStore) -> None:
        async def veto(key: str, value: str | None, old: str | None) -> bool:
            return True

        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        before = dump(store)
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            with pytest.raises(TypeError, match=r"on_memory_update hook is async.*async method"):
                memory.create_memory("k", "v")
            assert _no_unawaited_coroutine(record)
        assert dump(store) == before

    def test_an_async_expired_hook_on_the_sync_path_changes_nothing(self, store: BaseStore) -> None:
        async def expired(entry: MemoryEntry) -> None:
            return None

        memory = Memory(store, MemoryConfig(on_memory_expired=expired))
        memory.set("k", "v", ttl=0)
        before = dump(store)
        with pytest.raises(TypeError, match=r"on_memory_expired.*async method"):
            memory.read_for_compile()
        assert dump(store) == before
        assert memory.turn == 0

    def test_an_async_changed_hook_on_the_sync_path_says_to_use_the_async_method(
        self,
        store: BaseStore,
    ) -> None:
        async def changed(event: MemoryChangeEvent) -> None:
            return None

        memory = Memory(store, MemoryConfig(on_memory_changed=changed))
        with pytest.raises(TypeError, match=r"on_memory_changed.*`aset`"):
            memory.set("k", "v")

    def test_an_async_changed_hook_never_leaves_a_sync_compile_half_done(
        self, store: BaseStore
    ) -> None:
        async def changed(event: MemoryChangeEvent) -> None:
            return None

        memory = Memory(store, MemoryConfig(on_memory_changed=changed))
        Memory(store).set("k", "v", ttl=0)
        before = dump(store)
        with pytest.raises(TypeError, match=r"on_memory_changed.*async method"):
            memory.read_for_compile()
        # Refused before any I/O: the expired entry is not swept behind the clock's back.
        assert dump(store) == before
        assert memory.turn == 0

    def test_an_async_callable_object_is_refused_too(self, store: BaseStore) -> None:
        class Notifier:
            async def __call__(self, event: MemoryChangeEvent) -> None:
                return None

        memory = Memory(store, MemoryConfig(on_memory_changed=Notifier()))
        with pytest.raises(TypeError, match="on_memory_changed hook is async"):
            memory.delete("k")

    def test_a_sync_hook_returning_an_awaitable_is_still_caught(self, store: BaseStore) -> None:
        async def later() -> bool:
            return True

        memory = Memory(store, MemoryConfig(on_memory_update=lambda key, value, old: later()))
        before = dump(store)
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            with pytest.raises(TypeError, match="on_memory_update hook returned an awaitable"):
                memory.create_memory("k", "v")
            assert _no_unawaited_coroutine(record)
        assert dump(store) == before

    def test_an_async_veto_does_not_block_sync_developer_writes(self, store: BaseStore) -> None:
        async def veto(key: str, value: str | None, old: str | None) -> bool:
            return False

        memory = Memory(store, MemoryConfig(on_memory_update=veto))
        memory.set("k", "v")  # the developer path never consults the veto
        assert memory.delete("k") is True

    @pytest.mark.parametrize(
        ("call", "error", "match"),
        [case[1:] for case in BAD_CALLS],
        ids=[case[0] for case in BAD_CALLS],
    )
    def test_bad_input_raises_and_leaves_the_store_unchanged(
        self, store: BaseStore, call: Callable[[Memory], Any], error: type[Exception], match: str
    ) -> None:
        events: list[MemoryChangeEvent] = []
        memory = Memory(store, MemoryConfig(on_memory_changed=events.append))
        memory.set("lang", "Python", ttl=3)
        memory.read_for_compile()
        events.clear()
        before = dump(store)
        with pytest.raises(error, match=match):
            call(memory)
        assert dump(store) == before
        assert events == []

    @pytest.mark.parametrize(
        ("snapshot", "match"),
        [case[1:] for case in BAD_SNAPSHOTS],
        ids=[case[0] for case in BAD_SNAPSHOTS],
    )
    def test_a_bad_snapshot_raises_and_leaves_the_store_unchanged(
        self, store: BaseStore, snapshot: Any, match: str
    ) -> None:
        memory = Memory(store)
        memory.set("lang", "Python")
        memory.read_for_compile()
        before = dump(store)
        with pytest.raises(ValueError, match=match):
            memory.restore(snapshot)
        assert dump(store) == before
        assert memory.turn == 1
