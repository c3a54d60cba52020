"""Governed writes: gate policies, provenance, types, history, revert, compare-and-set, limits.

The tests that check what a governed write leaves in a store are the shared `GovernanceSuite`,
run here on `InMemoryStore`.
"""

from __future__ import annotations

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.entry import Provenance
from langchain_contextchef.gate import CustomCheck, Finding, WriteCandidate, WriteGate, seed_policy
from langchain_contextchef.tools import ahandle_tool, handle_tool
from tests.support.stores import dump
from tests.support.suites.governance import (
    INJECTION,
    OPENAI_KEY,
    GovernanceSuite,
    mem,
    prompt_text,
)


class TestGovernance(GovernanceSuite):
    """The governance suite on the unit tests' `store`, an `InMemoryStore`."""


def test_redact_stores_the_redacted_value_and_tells_the_model() -> None:
    memory = mem(gate=WriteGate(secrets="redact"))
    text = handle_tool("create_memory", {"key": "db", "value": f"token {OPENAI_KEY}"}, memory)
    assert text.startswith("Created context://memory/db. Note: the write to context://memory/db")
    assert "[REDACTED:" in text and OPENAI_KEY not in text
    stored = memory.get("db")
    assert stored is not None and stored.startswith("token [REDACTED:") and "sk-proj" not in stored


def test_the_veto_sees_the_redacted_value() -> None:
    seen: list[tuple[str, str | None, str | None]] = []

    def veto(key: str, new: str | None, old: str | None) -> bool:
        seen.append((key, new, old))
        return True

    memory = mem(gate=WriteGate(secrets="redact"), on_memory_update=veto)
    memory.create_memory("db", f"token {OPENAI_KEY}")
    assert len(seen) == 1 and seen[0][1] is not None and OPENAI_KEY not in seen[0][1]


def test_gate_order_allowed_keys_then_existence_then_gate_then_veto() -> None:
    calls: list[str] = []

    def veto(key: str, new: str | None, old: str | None) -> bool:
        calls.append(key)
        return False

    memory = mem(allowed_keys=["a"], on_memory_update=veto)
    memory.set("a", "x")
    assert memory.create_memory("b", OPENAI_KEY).status == "not_allowed"
    assert memory.create_memory("a", OPENAI_KEY).status == "already_exists"
    assert memory.update_memory("a", OPENAI_KEY).status == "refused"
    assert calls == []  # the gate refused before the veto ran
    assert memory.update_memory("a", "fine").status == "vetoed"
    assert calls == ["a"]


def test_a_quarantined_supersede_retires_nothing_until_approved() -> None:
    memory = mem(gate=WriteGate(injection="quarantine"))
    memory.set("city", "Brisbane")
    result = memory.create_memory("city2", INJECTION, supersedes=["city"])
    assert result.status == "quarantined"
    assert memory.get("city") == "Brisbane"
    memory.approve("city2")
    assert memory.get("city") is None
    assert memory.history("city")[0].superseded_by == "city2"


def test_custom_checks_and_seed_policy() -> None:
    def no_acme(candidate: WriteCandidate) -> Finding | None:
        if "acme" in candidate.value.lower():
            return Finding("no_acme", "policy", "memory may not name competitors")
        return None

    memory = mem(gate=WriteGate(checks=[CustomCheck("no_acme", no_acme)]))
    text = handle_tool("create_memory", {"key": "k", "value": "Acme is cheaper"}, memory)
    assert text == (
        "Error: the write to context://memory/k was refused: memory may not name competitors."
    )
    strict = mem(gate=WriteGate(checks=[seed_policy(0.9)]))
    assert strict.create_memory("city", "Sydney").status == "refused"  # no source, no confidence
    sure = Provenance(written_by="model", source="message_991", confidence=0.95)
    assert strict.create_memory("city", "Sydney", provenance=sure).status == "created"


def test_gate_none_disables_and_developer_writes_are_trusted_by_default() -> None:
    assert mem(gate=None).create_memory("k", OPENAI_KEY).status == "created"
    memory = mem()
    assert memory.set("k", OPENAI_KEY).value == OPENAI_KEY
    checked = mem(gate=WriteGate(gate_developer_writes=True))
    with pytest.raises(ValueError, match=r"^The write to context://memory/k was refused"):
        checked.set("k", OPENAI_KEY)
    assert checked.list() == []


# ---- limits -----------------------------------------------------------------------------------


def test_limits_say_size_limit_and_what_to_do() -> None:
    memory = mem(gate=WriteGate(max_value_chars=10, max_description_chars=5, max_entries=2))
    text = handle_tool("create_memory", {"key": "a", "value": "x" * 11}, memory)
    assert "the value is 11 characters; the limit is 10" in text
    assert "Store a summary, or split it" in text
    text = handle_tool(
        "create_memory", {"key": "a", "value": "ok", "description": "toolong"}, memory
    )
    assert "the description is 7 characters; the limit is 5" in text
    for key in ("a", "b"):
        assert handle_tool("create_memory", {"key": key, "value": "ok"}, memory).startswith("Crea")
    text = handle_tool("create_memory", {"key": "c", "value": "ok"}, memory)
    assert text.startswith("Error: ") and "memory holds 2 entries; the limit is 2" in text
    assert "delete one that is no longer needed" in text
    # Updating an existing entry is not a new entry, so the entry limit does not apply.
    update = {"action": "update", "key": "a", "value": "new"}
    assert handle_tool("modify_memory", update, memory) == "Updated context://memory/a."
    assert [e.key for e in memory.list()] == ["a", "b"]


# ---- provenance and types ---------------------------------------------------------------------


def test_provenance_of_developer_model_and_explicit_writes() -> None:
    memory = mem()
    assert memory.set("dev", "x").provenance == Provenance(written_by="developer")
    handle_tool("create_memory", {"key": "m", "value": "y"}, memory, tool_call_id="call_7")
    entry = memory.get_entry("m")
    assert entry is not None
    assert entry.provenance == Provenance(written_by="model", tool_call_id="call_7")
    imported = Provenance(written_by="import", source="file.md", confidence=0.8)
    assert memory.set("imp", "z", provenance=imported).provenance == imported
    again = memory.get_entry("imp")
    assert again is not None and again.provenance == imported


def test_modify_memory_checks_the_type_its_schema_no_longer_lists() -> None:
    # modify_memory's schema sends `type` as a plain string (the enum is on create_memory
    # only), so dispatch is what keeps a made-up type out, with the stored entry untouched.
    memory = mem()
    handle_tool("create_memory", {"key": "k", "value": "v", "type": "rule"}, memory)
    update = {"action": "update", "key": "k", "value": "w", "type": "gossip"}
    text = handle_tool("modify_memory", update, memory)
    assert text.startswith('Error: "gossip" is not a memory type. Use one of: fact, preference')
    entry = memory.get_entry("k")
    assert entry is not None and (entry.value, entry.type) == ("v", "rule")
    update["type"] = "fact"
    handle_tool("modify_memory", update, memory)
    entry = memory.get_entry("k")
    assert entry is not None and (entry.value, entry.type) == ("w", "fact")


def test_types_are_checked_against_the_configured_set() -> None:
    memory = mem()
    text = handle_tool("create_memory", {"key": "k", "value": "v", "type": "gossip"}, memory)
    assert text == (
        'Error: "gossip" is not a memory type. Use one of: fact, preference, event, procedure, '
        "rule, project."
    )
    with pytest.raises(ValueError, match='"gossip" is not a memory type'):
        memory.set("k", "v", type="gossip")
    assert memory.list() == []
    handle_tool("create_memory", {"key": "k", "value": "v", "type": "rule"}, memory)
    entry = memory.get_entry("k")
    assert entry is not None and entry.type == "rule"
    custom = mem(memory_types=["note"])
    assert custom.create_memory("k", "v", type="note").status == "created"
    assert custom.create_memory("j", "v", type="fact").status == "refused"
    assert mem(memory_types=None).create_memory("k", "v", type="anything").status == "created"
    with pytest.raises(ValueError, match="memory_types"):
        MemoryConfig(memory_types="fact")


def test_the_block_shows_type_and_version() -> None:
    # The compact default shows the type but no version; the verbose format shows both.
    chef = ContextChef(store=InMemoryStore(), memory=MemoryConfig())
    chef.get_memory().set("lang", "Python", type="preference")
    chef.get_memory().set("lang", "Rust")
    assert '<entry key="lang" type="preference">Rust</entry>' in prompt_text(chef)
    verbose = ContextChef(store=chef.store, memory=MemoryConfig(memory_format="verbose"))
    assert '<entry key="lang" version="2" type="preference"' in prompt_text(verbose)


def test_supersede_refusals_leave_the_store_unchanged() -> None:
    store = InMemoryStore()
    memory = mem(store, allowed_keys=["a", "b"])
    memory.set("a", "1")
    before = dump(store)
    assert handle_tool(
        "create_memory", {"key": "b", "value": "2", "supersedes": ["ghost"]}, memory
    ) == ("Error: context://memory/ghost is not an allowed memory key. Allowed keys: a, b.")
    text = handle_tool("create_memory", {"key": "b", "value": "2", "supersedes": ["b"]}, memory)
    assert text == "Error: context://memory/b cannot supersede itself; list only other keys."
    open_memory = mem(store)
    text = handle_tool(
        "create_memory", {"key": "b", "value": "2", "supersedes": ["zz"]}, open_memory
    )
    assert text.startswith("Error: cannot supersede context://memory/zz: nothing is stored")
    text = handle_tool("create_memory", {"key": "b", "value": "2", "supersedes": 5}, open_memory)
    assert text == 'Error: the "supersedes" argument must be a list of memory keys.'
    assert dump(store) == before
    with pytest.raises(ValueError, match="Cannot supersede 'zz'"):
        open_memory.set("b", "2", supersedes=["zz"])
    assert dump(store) == before


# ---- compare-and-set --------------------------------------------------------------------------


def test_a_stale_version_is_refused_with_the_current_value_and_version() -> None:
    store = InMemoryStore()
    memory = mem(store)
    memory.set("lang", "Python")
    memory.set("lang", "Rust")  # someone else moved it to version 2
    before = dump(store)
    expected = (
        "Error: context://memory/lang changed since you read it: you passed version 1, the "
        "current version is 2. Its current value is:\nRust\nApply your change to this value "
        "and pass version 2."
    )
    update = {"action": "update", "key": "lang", "value": "Go", "version": 1}
    assert handle_tool("modify_memory", update, memory) == expected
    delete = {"action": "delete", "key": "lang", "version": 1}
    assert handle_tool("modify_memory", delete, memory) == expected
    for command, extra in (
        ("str_replace", {"old_str": "Rust", "new_str": "Go"}),
        ("insert", {"insert_line": 0, "insert_text": "Go"}),
        ("delete", {}),
        ("rename", {"new_path": "memory/language"}),
    ):
        args = {"command": command, "path": "memory/lang", "version": 1, **extra}
        assert handle_tool("context", args, memory) == expected, command
    assert dump(store) == before
    bad = {"action": "update", "key": "lang", "value": "Go", "version": "two"}
    assert handle_tool("modify_memory", bad, memory).startswith('Error: the "version" argument')
    update["version"] = 2
    assert handle_tool("modify_memory", update, memory) == "Updated context://memory/lang."
    args = {"command": "str_replace", "path": "memory/lang", "old_str": "Go", "new_str": "Zig"}
    assert handle_tool("context", {**args, "version": 3}, memory) == "Edited context://memory/lang."


# ---- async twins ------------------------------------------------------------------------------


async def test_async_governance() -> None:
    memory = mem(gate=WriteGate(injection="quarantine", secrets="redact"))
    assert (await memory.acreate_memory("odd", INJECTION)).status == "quarantined"
    assert [e.key for e in await memory.aquarantined()] == ["odd"]
    assert (await memory.aapprove("odd")).status == "active"
    redacted = await memory.acreate_memory("db", OPENAI_KEY)
    assert redacted.status == "created" and redacted.notice is not None
    await memory.aset("tone", "formal")
    stale = await memory.aupdate_memory("tone", "x", version=7)
    assert stale.status == "stale" and stale.message is not None and "version 1" in stale.message
    assert (await memory.aupdate_memory("tone", "casual", version=1)).status == "updated"
    assert (await memory.adelete_memory("tone", version=2)).status == "deleted"
    assert [r.status for r in await memory.ahistory("tone")] == ["updated", "deleted"]
    assert (await memory.arevert("tone")).value == "casual"
    text = await ahandle_tool("create_memory", {"key": "t", "value": "v", "type": "bogus"}, memory)
    assert text.startswith('Error: "bogus" is not a memory type')
