"""The audit trail as ops: one record per change, put in the same batch as the change.

Writers call `record_ops` while they build a change's batch (inside its exclusive section),
so a record and its change are stored together or not at all. Nothing here writes when the
memory was built without `MemoryConfig(audit=True)`: the ops lists are empty.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from datetime import datetime

from langgraph.store.base import PutOp

from langchain_contextchef._plan import Plan
from langchain_contextchef.audit import AuditAction, AuditRecord
from langchain_contextchef.entry import MemoryEntry, Provenance, format_time
from langchain_contextchef.memory._context import (
    AUDIT_NAMESPACE,
    MemoryContext,
    read_items,
)

__all__ = ["audit_ns", "entry_ops", "read_audit", "record_ops", "retired_ops", "write_action"]

# Records made in the same microsecond keep their order within this process.
_SEQUENCE = itertools.count()


def audit_ns(ctx: MemoryContext) -> tuple[str, ...]:
    """`scope + ("memory_audit",)`."""
    return (*ctx.scope, AUDIT_NAMESPACE)


def record_ops(ctx: MemoryContext, record: AuditRecord) -> list[PutOp]:
    """The op that appends `record` (none when auditing is off).

    The item key starts with the time, so the store's key order is the trail's order; a
    counter and a random tail keep keys unique across processes.
    """
    if not ctx.config.audit:
        return []
    key = f"{format_time(record.at)}-{next(_SEQUENCE) % 1_000_000:06d}-{uuid.uuid4().hex[:8]}"
    return [PutOp(audit_ns(ctx), key, record.to_stored(), index=False)]


def entry_ops(
    ctx: MemoryContext,
    action: AuditAction,
    entry: MemoryEntry,
    *,
    at: datetime,
    cause: Provenance | None,
    actor: str | None = None,
    note: str | None = None,
    proposal_id: str | None = None,
) -> list[PutOp]:
    """The ops that record one change to `entry` (its key, version and type)."""
    if not ctx.config.audit:
        return []
    who = actor or (cause.written_by if cause is not None else "expiry")
    record = AuditRecord(
        at=at,
        action=action,
        key=entry.key,
        actor=who,
        version=entry.version,
        type=entry.type,
        tool_call_id=cause.tool_call_id if cause is not None else None,
        proposal_id=proposal_id,
        note=note,
        scope=ctx.scope,
    )
    return record_ops(ctx, record)


def write_action(entry: MemoryEntry, previous: str | None) -> AuditAction:
    """The action a stored version records: held by the gate, created, or updated."""
    if entry.status == "quarantined":
        return "held"
    return "updated" if previous is not None else "created"


def read_audit(ctx: MemoryContext, key: str | None = None) -> Plan[list[AuditRecord]]:
    """The scope's audit records (only those about `key`, when given), oldest first."""
    items = yield from read_items(audit_ns(ctx))
    items = sorted(items, key=lambda item: item.key)
    records: list[AuditRecord] = []
    for item in items:
        record = AuditRecord.from_stored(item.value)
        if key is None or record.key == key:
            records.append(record)
    return records


def retired_ops(
    ctx: MemoryContext,
    action: AuditAction,
    entries: Sequence[MemoryEntry],
    *,
    at: datetime,
    cause: Provenance | None,
    actor: str | None = None,
    note: str | None = None,
) -> list[PutOp]:
    """The ops that record several entries leaving memory for the same reason."""
    ops: list[PutOp] = []
    for entry in entries:
        ops += entry_ops(ctx, action, entry, at=at, cause=cause, actor=actor, note=note)
    return ops
