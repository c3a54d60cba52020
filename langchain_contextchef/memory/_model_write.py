"""The model path: every write a model asks for, through tools, reflection or `create_memory`.

Checks, in order: `allowed_keys` (for the key and every superseded key), the type, existence
(and the compare-and-set version), the supersede targets, the write gate, then the host's
`on_memory_update` veto (which sees the redacted value). Every check runs before the first
write, and every refusal is a `WriteResult` the caller words for the model; a refused write
leaves the store unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_contextchef._context_paths import memory_uri
from langchain_contextchef._plan import Call, Plan
from langchain_contextchef.consent import ConsentAction
from langchain_contextchef.entry import EntryStatus, MemoryEntry, Provenance
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.memory import _consent
from langchain_contextchef.memory._checks import UNSET, check_key, check_text
from langchain_contextchef.memory._context import MemoryContext, read_one
from langchain_contextchef.memory._section import exclusive, guessable
from langchain_contextchef.memory._texts import Refusal
from langchain_contextchef.memory._write import (
    gate_check,
    read_before_write,
    remove,
    type_refusal,
    write,
)
from langchain_contextchef.memory.results import WriteResult, WriteStatus

__all__ = ["check_allowed", "check_writable", "model_delete", "model_write", "veto"]


def check_allowed(ctx: MemoryContext, key: str) -> WriteResult | None:
    """A `not_allowed` result when `allowed_keys` excludes `key`, else `None`."""
    allowed = ctx.allowed_keys
    if allowed is not None and key not in allowed:
        return WriteResult("not_allowed", key, allowed_keys=allowed)
    return None


def veto(ctx: MemoryContext, key: str, value: str | None, old: str | None) -> Plan[bool]:
    """Ask the host's `on_memory_update` hook; `True` when there is none."""
    hook = ctx.config.on_memory_update
    if hook is None:
        return True
    verdict = yield Call(hook, (key, value, old), "on_memory_update")
    return bool(verdict)


def check_writable(existing: MemoryEntry, expected_version: int | None) -> WriteResult | None:
    """A refusal when `existing` is held for review or is not at `expected_version`, else `None`.

    A held entry cannot be changed, and a compare-and-set must name the current version.
    """
    if existing.status == "quarantined":
        return WriteResult("refused", existing.key, refusal=Refusal("held", existing.key))
    if expected_version is not None and existing.version != expected_version:
        refusal = Refusal(
            "stale", existing.key, current=existing, expected_version=expected_version
        )
        return WriteResult("stale", existing.key, existing, refusal=refusal)
    return None


@guessable
def model_write(
    ctx: MemoryContext,
    key: str,
    value: str,
    *,
    description: str | None,
    provenance: Provenance | None,
    must_exist: bool,
    type: str | None = None,
    supersedes: Sequence[str] = (),
    expected_version: int | None = None,
    ttl: Any = UNSET,
    importance: float | None = None,
    known: MemoryEntry | None | Any = UNSET,
) -> Plan[WriteResult]:
    """Create (`must_exist=False`) or update (`must_exist=True`) an entry for the model.

    Args:
        ctx: The scope.
        key: The entry's key.
        value: The new text.
        description: A description; `None` keeps the current one on update.
        provenance: Where the fact came from; defaults to "written by the model".
        must_exist: Update (`True`) or create (`False`).
        type: A memory type; `None` keeps the current one on update.
        supersedes: Keys of entries the new one retires to history.
        expected_version: Compare-and-set: the version the writer saw.
        ttl: For internal callers only (a rename keeps the source's expiry); the model
            never sets it.
        importance: Likewise, for a rename.
        known: The entry the caller has just read at `key`, so it is not read again.

    Returns:
        What happened.
    """
    check_key(key)
    check_text("value", value)
    check_text("description", description, optional=True)
    check_text("type", type, optional=True)
    retire_keys = tuple(dict.fromkeys(supersedes))
    for target in (key, *retire_keys):
        refused = check_allowed(ctx, check_key(target))
        if refused is not None:
            return refused
    if key in retire_keys:
        return WriteResult("refused", key, refusal=Refusal("self_supersede", key))
    bad_type = type_refusal(ctx, key, type)
    if bad_type is not None:
        return WriteResult("refused", key, refusal=bad_type)
    if provenance is None:
        provenance = Provenance(written_by="model")
    action: ConsentAction = "update" if must_exist else "create"
    replayed = yield from _consent.replay(ctx, action, key, provenance)
    if replayed is not None:  # settled by a person on an earlier run of this graph task
        return replayed
    try:
        before = yield from read_before_write(
            ctx, key, retire_keys, ttl=ttl, may_be_new=not must_exist, known=known
        )
    except DamagedEntryError as damaged:
        return WriteResult("refused", key, refusal=Refusal("damaged", damaged.key))
    existing = before.existing
    if existing is None and must_exist:
        return WriteResult("not_found", key)
    if existing is not None:
        guarded = check_writable(existing, expected_version)
        if guarded is not None:
            return guarded
        if not must_exist:
            return WriteResult("already_exists", key, existing)
    retire: list[MemoryEntry] = []
    for old_key, old in zip(retire_keys, before.retire, strict=True):
        if old is None:
            return WriteResult("refused", key, refusal=Refusal("missing_supersede", old_key))
        if old.status == "quarantined":
            return WriteResult("refused", key, refusal=Refusal("held", old_key))
        retire.append(old)
    decision = yield from gate_check(
        ctx, key, value, description, type, provenance, existing, before.count
    )
    status: EntryStatus = "active"
    if decision is not None:
        if decision.action == "reject":
            return WriteResult("refused", key, refusal=Refusal("gate", key, decision=decision))
        # The veto and the store see the redacted text, never the original.
        value, description = decision.value, decision.description
        if decision.action == "quarantine":
            status = "quarantined"
    old_value = existing.value if existing is not None else None
    if not (yield from veto(ctx, key, value, old_value)):
        return WriteResult("vetoed", key)
    for old in retire:
        if not (yield from veto(ctx, old.key, None, old.value)):
            return WriteResult("vetoed", key)
    consent = None
    if status == "active":  # a write the gate holds is already waiting for review
        version = existing.version + 1 if existing is not None else before.last_version + 1
        consent = yield from _consent.ask(
            ctx, action, key, value=value, description=description, type=type,
            provenance=provenance, existing=existing, supersedes=retire, version=version,
        )  # fmt: skip
        if consent is not None and consent.outcome is not None:
            return consent.outcome  # waits for the person, or the person declined it
        if consent is not None:
            value, description = consent.value or value, consent.description
    entry = yield from write(
        ctx,
        key,
        value,
        description=description,
        ttl=ttl,
        importance=importance,
        type=type,
        provenance=provenance,
        existing=existing,
        turn=before.turn,
        last_version=before.last_version,
        status=status,
        retire=retire,
        extra=consent.extra if consent is not None else (),
    )
    if decision is not None and decision.action == "quarantine":
        held = Refusal("gate", key, decision=decision)
        return WriteResult("quarantined", key, entry, refusal=held)
    notice = decision.notice(memory_uri(key)) if decision is not None else None
    done: WriteStatus = "updated" if must_exist else "created"
    result = WriteResult(done, key, entry, notice=notice, superseded=tuple(e.key for e in retire))
    return consent.finish(result) if consent is not None else result


@exclusive
def model_delete(
    ctx: MemoryContext,
    key: str,
    *,
    provenance: Provenance | None = None,
    expected_version: int | None = None,
    known: MemoryEntry | None | Any = UNSET,
) -> Plan[WriteResult]:
    """Delete an entry for the model: allowed keys, existence, version, then the veto.

    Args:
        ctx: The scope.
        key: The entry's key.
        provenance: Who asked; recorded in the history record.
        expected_version: Compare-and-set: the version the writer saw.
        known: The entry the caller has just read at `key`, so it is not read again.

    Returns:
        What happened; the deleted version is kept in history.
    """
    check_key(key)
    refused = check_allowed(ctx, key)
    if refused is not None:
        return refused
    cause = provenance if provenance is not None else Provenance(written_by="model")
    replayed = yield from _consent.replay(ctx, "delete", key, cause)
    if replayed is not None:
        return replayed
    try:
        existing = (yield from read_one(ctx, key)) if known is UNSET else known
    except DamagedEntryError:
        return WriteResult("refused", key, refusal=Refusal("damaged", key))
    if existing is None:
        return WriteResult("not_found", key)
    guarded = check_writable(existing, expected_version)
    if guarded is not None:
        return guarded
    if not (yield from veto(ctx, key, None, existing.value)):
        return WriteResult("vetoed", key)
    consent = yield from _consent.ask(
        ctx, "delete", key, value=None, description=None, type=None,
        provenance=cause, existing=existing, version=existing.version,
    )  # fmt: skip
    if consent is not None and consent.outcome is not None:
        return consent.outcome
    yield from remove(ctx, existing, cause, extra=consent.extra if consent is not None else ())
    result = WriteResult("deleted", key, existing)
    return consent.finish(result) if consent is not None else result
