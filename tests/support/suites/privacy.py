"""The privacy suite: retention (sweep and purge), the audit trail and encryption at rest, on
the `store` fixture.

Subclass `PrivacySuite` in a test module whose fixtures provide `store` (and `astore` for the
async case): the unit tests run it on `InMemoryStore`, the integration tests on SQLite, the
file system and PostgreSQL.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore, Op, PutOp

from langchain_contextchef import ContextChef, Memory, MemoryConfig
from langchain_contextchef.encryption import DecryptionError, EncryptedStore, generate_key
from langchain_contextchef.memory import apurge_store, purge_store
from langchain_contextchef.memory._snapshot_import import import_snapshot
from langchain_contextchef.reflection import MemoryReflector, ReflectionResult
from langchain_contextchef.retention import RetentionPolicy
from langchain_contextchef.tools import handle_tool
from tests.support.clocks import FakeClock
from tests.support.stores import RecordingStore, adump, dump
from tests.support.suites.reflection import CONVERSATION, PNPM, make

POLICY = RetentionPolicy(max_age={"event": timedelta(days=30)}, default=timedelta(days=365))


def raw_text(store: BaseStore) -> str:
    """Every namespace, key and value the store returns, as one text."""
    return json.dumps(dump(store))


def batch_of_audit(store: RecordingStore, memory: Memory, key: str, action: str) -> list[Op]:
    """The one batch that put the audit record of `action` on `key`."""
    audit_ns = (*memory.scope, "memory_audit")
    found = [
        ops
        for ops in store.batches
        for op in ops
        if isinstance(op, PutOp)
        and op.namespace == audit_ns
        and op.value is not None
        and (op.value["key"], op.value["action"]) == (key, action)
    ]
    assert len(found) == 1, (key, action, len(found))
    return found[0]


def writes_in(ops: list[Op], namespace: tuple[str, ...]) -> set[tuple[str, bool]]:
    """The (key, is a deletion) pairs `ops` puts into `namespace`."""
    return {
        (op.key, op.value is None)
        for op in ops
        if isinstance(op, PutOp) and op.namespace == namespace
    }


class PrivacySuite:
    """Retention, audit and encryption against the `store` fixture."""

    # ---- retention -------------------------------------------------------------------------

    def test_the_sweep_retires_entries_past_their_types_age(self, store: BaseStore) -> None:
        clock = FakeClock()
        config = MemoryConfig(retention=POLICY, audit=True)
        chef = ContextChef(store=store, memory=config, clock=clock)
        memory = chef.get_memory()
        memory.set("trip", "Oslo in May", type="event")
        memory.set("lang", "Python", type="fact")
        memory.set("note", "untyped")
        clock.advance(days=29)
        first = chef.compile([HumanMessage("hi")])
        assert first.meta.expired_keys == []
        memory.set("note", "rewritten")  # a write restarts the age
        clock.advance(days=2)
        second = chef.compile([HumanMessage("hi")])
        assert second.meta.expired_keys == ["trip"]
        assert "Oslo" not in "\n".join(m.text for m in second.messages)
        assert [e.key for e in memory.list()] == ["lang", "note"]
        assert memory.get("trip") is None
        (kept,) = memory.history("trip")
        assert kept.status == "expired" and "retention" in (kept.note or "")
        assert [(r.action, r.actor) for r in memory.audit("trip")][-1] == (
            "retained_out",
            "retention",
        )
        clock.advance(days=400)
        third = chef.compile([HumanMessage("hi")])
        assert sorted(third.meta.expired_keys) == ["lang", "note"]
        assert memory.list() == []

    def test_erase_keeps_no_history(self, store: BaseStore) -> None:
        clock = FakeClock()
        policy = RetentionPolicy(default=timedelta(days=1), erase=True)
        memory = Memory(store, MemoryConfig(retention=policy), scope=("u",), clock=clock)
        memory.set("tone", "formal")
        memory.set("tone", "dry")
        clock.advance(days=2)
        report = memory.purge()
        assert report.removed == ("tone",) and report.erased and report.history == 1
        assert memory.history("tone") == []
        assert "formal" not in raw_text(store) and "dry" not in raw_text(store)
        assert memory.set("tone", "warm").version == 3  # versions are never reused

    def test_purge_store_reaches_every_scope_and_only_what_is_due(self, store: BaseStore) -> None:
        clock = FakeClock()
        config = MemoryConfig(retention=POLICY, audit=True)
        for user in ("ada", "bob", "cy"):
            memory = Memory(store, config, scope=("users", user), clock=clock)
            memory.set("trip", f"{user} travels", type="event")
            memory.set("lang", "Python", type="fact")
        Memory(store, config, scope=("teams", "x"), clock=clock).set("trip", "t", type="event")
        clock.advance(days=31)
        summary = purge_store(store, config, prefix=("users",), clock=clock)
        assert summary.scopes == 3 and summary.removed == 3
        for user in ("ada", "bob", "cy"):
            memory = Memory(store, config, scope=("users", user), clock=clock)
            assert [e.key for e in memory.list()] == ["lang"]
        assert Memory(store, config, scope=("teams", "x")).get("trip") == "t"
        again = purge_store(store, config, prefix=("users",), clock=clock)
        assert (again.scopes, again.reports) == (3, [])

    async def test_apurge_store_drops_old_history_and_audit(self, astore: BaseStore) -> None:
        clock = FakeClock()
        policy = RetentionPolicy(default=timedelta(days=365), history_max_age=timedelta(days=7))
        config = MemoryConfig(retention=policy, audit=True)
        memory = Memory(astore, config, scope=("u",), clock=clock)
        await memory.aset("tone", "formal")
        await memory.aset("tone", "dry")
        clock.advance(days=8)
        summary = await apurge_store(astore, config, clock=clock)
        (report,) = summary.reports
        assert (report.removed, report.history, report.audit) == ((), 1, 2)
        assert await memory.aget("tone") == "dry"
        assert [r.status for r in await memory.ahistory("tone")] == ["current"]
        assert await memory.aaudit() == []

    # ---- audit ---------------------------------------------------------------------------------

    def test_every_change_is_audited_with_its_actor(self, store: BaseStore) -> None:
        memory = Memory(store, MemoryConfig(audit=True), scope=("a",))
        memory.set("home", "Brisbane")
        memory.create_memory("city", "Sydney", supersedes=["home"])
        memory.update_memory("city", "Perth")
        memory.delete_memory("city")
        memory.revert("city")
        rows = [(r.action, r.key, r.actor, r.version) for r in memory.audit()]
        assert rows == [
            ("created", "home", "developer", 1),
            ("created", "city", "model", 1),
            ("superseded", "home", "model", 1),
            ("updated", "city", "model", 2),
            ("deleted", "city", "model", 2),
            ("created", "city", "model", 3),
        ]
        lines = memory.export_audit("city").splitlines()
        assert [json.loads(line)["action"] for line in lines] == [
            "created",
            "updated",
            "deleted",
            "created",
        ]
        assert "Perth" not in memory.export_audit()  # the trail never holds values
        assert memory.forget().deleted["memory_audit"] == 6

    def test_the_audit_names_the_tool_call_the_reflector_and_the_import(
        self, store: BaseStore
    ) -> None:
        memory = Memory(store, MemoryConfig(audit=True), scope=("who",))
        memory.set("city", "Oslo")
        update = {"action": "update", "key": "city", "value": "Bergen"}
        assert handle_tool("modify_memory", update, memory, tool_call_id="call-9") == (
            "Updated context://memory/city."
        )
        (by_tool,) = [r for r in memory.audit("city") if r.action == "updated"]
        assert (by_tool.actor, by_tool.tool_call_id, by_tool.version) == ("model", "call-9", 2)
        assert memory.history("city")[0].tool_call_id == "call-9"

        report = MemoryReflector(make(ReflectionResult(candidates=[PNPM])), memory).invoke(
            CONVERSATION
        )
        assert report.created_keys == ["package-manager"]
        (reflected,) = memory.audit("package-manager")
        assert (reflected.action, reflected.actor, reflected.version) == (
            "created",
            "reflection",
            1,
        )
        assert reflected.tool_call_id is None

        snapshot = memory.snapshot()
        for entry in snapshot["entries"]:
            if entry["key"] == "city":
                entry["value"] = "Tromso"
        snapshot["entries"].append({**snapshot["entries"][0], "key": "lang", "value": "Python"})
        imported = import_snapshot(memory, snapshot, source="backup.json")
        assert sorted(imported.written) == ["city", "lang"]
        assert [(r.action, r.actor, r.version) for r in memory.audit("city")][-1] == (
            "updated",
            "import",
            3,
        )
        assert [(r.action, r.actor, r.version) for r in memory.audit("lang")] == [
            ("created", "import", 1)
        ]
        # The unchanged key got no record: an import writes (and audits) only what differs.
        assert [r.actor for r in memory.audit("package-manager")] == ["reflection"]

    def test_restore_and_eviction_are_audited_in_the_batch_of_the_change(
        self, store: BaseStore
    ) -> None:
        recorder = RecordingStore(store)
        config = MemoryConfig(audit=True, max_entries=2)
        memory = Memory(recorder, config, scope=("r",), clock=FakeClock())
        entries_ns, history_ns = memory.namespace, memory.history_namespace
        memory.set("a", "one")
        memory.set("b", "two")
        saved = memory.snapshot()
        memory.set("c", "three")  # over the cap: "a", used least recently, is evicted

        (evicted,) = memory.audit("a")[1:]
        assert (evicted.action, evicted.actor, evicted.version) == ("deleted", "eviction", 1)
        assert "max_entries=2" in (evicted.note or "")
        together = batch_of_audit(recorder, memory, "a", "deleted")
        assert ("a", True) in writes_in(together, entries_ns)
        assert ("a@1", False) in writes_in(together, history_ns)

        memory.set("b", "changed")
        before = len(memory.audit())
        memory.restore(saved)  # back to a@1, b@1: "c" goes, "a" and "b" come back
        rows = [(r.action, r.key, r.actor, r.version) for r in memory.audit()[before:]]
        assert rows == [
            ("deleted", "c", "developer", 1),
            ("restored", "a", "developer", 2),
            ("restored", "b", "developer", 3),
        ]
        assert [(e.key, e.version, e.value) for e in memory.list()] == [
            ("a", 2, "one"),
            ("b", 3, "two"),
        ]
        together = batch_of_audit(recorder, memory, "a", "restored")
        assert batch_of_audit(recorder, memory, "b", "restored") is together
        assert batch_of_audit(recorder, memory, "c", "deleted") is together
        assert writes_in(together, entries_ns) >= {("a", False), ("b", False), ("c", True)}
        assert writes_in(together, history_ns) >= {("b@2", False), ("c@1", False)}

        memory.restore(memory.snapshot())  # nothing changes, so nothing is recorded
        assert len(memory.audit()) == before + 3

    async def test_arestore_is_audited(self, astore: BaseStore) -> None:
        memory = Memory(astore, MemoryConfig(audit=True), scope=("ar",))
        await memory.aset("tone", "dry")
        saved = await memory.asnapshot()
        await memory.aset("tone", "warm")
        await memory.aset("extra", "gone soon")
        await memory.arestore(saved)
        rows = [(r.action, r.key, r.actor, r.version) for r in await memory.aaudit()]
        assert rows[-2:] == [
            ("deleted", "extra", "developer", 1),
            ("restored", "tone", "developer", 3),
        ]
        assert await memory.aget("tone") == "dry"

    # ---- encryption ----------------------------------------------------------------------------

    def test_an_encrypted_store_holds_no_plaintext_and_works_as_usual(
        self, store: BaseStore
    ) -> None:
        key = generate_key()
        sealed = EncryptedStore(store, key)
        config = MemoryConfig(audit=True)
        chef = ContextChef(store=sealed, memory=config)
        memory = chef.get_memory()
        memory.set("card", "SECRET-CARD-4111", description="SECRET-DESC-payment")
        memory.set("card", "SECRET-CARD-4222")
        memory.create_memory("city", "SECRET-CITY-Oslo", type="fact")
        compiled = chef.compile([HumanMessage("hi")])
        assert "SECRET-CARD-4222" in "\n".join(m.text for m in compiled.messages)
        assert memory.history("card")[0].entry.value == "SECRET-CARD-4111"
        assert "SECRET" not in raw_text(store)
        receipt = memory.forget()
        assert receipt.verified and receipt.deleted["memory"] == 2

    def test_rotation_reencrypts_everything_and_a_wrong_key_changes_nothing(
        self, store: BaseStore
    ) -> None:
        old, new = generate_key(), generate_key()
        Memory(EncryptedStore(store, old), scope=("u",)).set("tone", "SECRET-dry")
        before = dump(store)
        with pytest.raises(DecryptionError, match="does not match"):
            Memory(EncryptedStore(store, new), scope=("u",)).set("tone", "overwrite")
        assert dump(store) == before
        rotated = EncryptedStore(store, [new, old]).rotate()
        assert rotated == len(before)
        after = dump(store)
        assert [row[:2] for row in after] == [row[:2] for row in before]
        assert all(a[2] != b[2] for a, b in zip(after, before, strict=True))
        assert Memory(EncryptedStore(store, new), scope=("u",)).get("tone") == "SECRET-dry"
        with pytest.raises(DecryptionError):
            Memory(EncryptedStore(store, old), scope=("u",)).get("tone")
        assert "SECRET" not in raw_text(store)

    async def test_async_rotation(self, astore: BaseStore) -> None:
        old, new = generate_key(), generate_key()
        await Memory(EncryptedStore(astore, old)).aset("tone", "SECRET-dry")
        assert await EncryptedStore(astore, [new, old]).arotate() >= 2
        assert await Memory(EncryptedStore(astore, new)).aget("tone") == "SECRET-dry"
        assert "SECRET" not in json.dumps(await adump(astore))
