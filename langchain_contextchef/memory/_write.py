"""The write core both paths share, and the developer path on top of it.

A write reads what it must check (`read_before_write`, one batch), decides, then changes the
store in one batch (`store_entry`): the new version, the history record of the one it
replaces, and the retirement of what it supersedes. Then it reports the changes and, for a
new key, keeps the scope within `max_entries`.

The developer path (`set_entry`, `delete_entry`) bypasses `allowed_keys` and the veto; the
gate applies only when it was built with `gate_developer_writes=True`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph.store.base import PutOp

from langchain_contextchef._plan import Invoke, Io, Plan, gather
from langchain_contextchef.audit import AuditAction
from langchain_contextchef.entry import (
    EntryStatus,
    HistoryStatus,
    MemoryChangeEvent,
    MemoryEntry,
    Provenance,
)
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.gate import GateDecision, WriteCandidate
from langchain_contextchef.memory import _audit, _history
from langchain_contextchef.memory import _texts as texts
from langchain_contextchef.memory._checks import (
    UNSET,
    check_importance,
    check_key,
    check_supersedes,
    check_text,
)
from langchain_contextchef.memory._context import (
    MemoryContext,
    checked_entry,
    clock_op,
    entry_of,
    entry_op,
    entry_put,
    own,
    scan_op,
    turn_of,
)
from langchain_contextchef.memory._events import changed
from langchain_contextchef.memory._recall import enforce_cap
from langchain_contextchef.memory._section import exclusive
from langchain_contextchef.memory._texts import Refusal
from langchain_contextchef.profiles import PROFILE_TYPE
from langchain_contextchef.ttl import ResolvedExpiry, Turns, parse_ttl, resolve_ttl

__all__ = [
    "KNOWN_ABSENT",
    "BeforeWrite",
    "delete_entry",
    "gate_check",
    "judge",
    "judge_note",
    "read_before_write",
    "remove",
    "set_entry",
    "store_entry",
    "type_refusal",
    "write",
]


logger = logging.getLogger(__name__)


class _KnownAbsent:
    def __repr__(self) -> str:
        return "KNOWN_ABSENT"


KNOWN_ABSENT: Any = _KnownAbsent()
"""Pass as `known` when the caller has just read that nothing is stored at the key."""


@dataclass(frozen=True, slots=True)
class BeforeWrite:
    """What a write reads before deciding.

    Attributes:
        existing: The entry stored at the key now.
        last_version: The last version of the key that left memory (0 if none; read only
            when the key may be new).
        retire: The entry at each `supersedes` key, `None` where nothing is stored.
        turn: The turn clock, read only when the write's TTL counts turns (else 0).
        count: Entries in the scope, read only for the gate's entry limit (else 0).
    """

    existing: MemoryEntry | None
    last_version: int
    retire: list[MemoryEntry | None]
    turn: int
    count: int


def _needs_turn(ctx: MemoryContext, ttl: Any) -> bool:
    if isinstance(ttl, ResolvedExpiry):
        return False
    return isinstance(ctx.default_ttl if ttl is UNSET else parse_ttl(ttl), Turns)


def read_before_write(
    ctx: MemoryContext,
    key: str,
    retire_keys: Sequence[str],
    *,
    ttl: Any,
    may_be_new: bool,
    known: MemoryEntry | None | Any = UNSET,
    repair: bool = False,
) -> Plan[BeforeWrite]:
    """Everything a write of `key` checks first, in one batch (none when nothing is needed).

    Args:
        ctx: The scope.
        key: The key to write.
        retire_keys: Keys the write supersedes.
        ttl: The write's TTL argument (`UNSET` for the default).
        may_be_new: Whether the key may not exist yet (then the scope may be counted).
        known: The entry the caller has just read at `key` (or `KNOWN_ABSENT`), so it is
            not read again; `UNSET` reads it.
        repair: A damaged item at `key` is to be replaced (the developer path): it counts as
            absent, and the new version continues past every version known for the key.

    Raises:
        DamagedEntryError: If the item at `key` (without `repair`) or at a superseded key
            cannot be read as an entry.
    """
    gate = ctx.config.gate
    counting = may_be_new and gate is not None and gate.max_entries is not None
    read_entry = known is UNSET
    existing: MemoryEntry | None = None if known is KNOWN_ABSENT or read_entry else known
    # The marker matters only for a key that may be new: it continues the version count.
    read_marker = may_be_new and (read_entry or existing is None)
    got = yield from gather(
        entry=entry_op(ctx, key) if read_entry else None,
        marker=_history.version_marker_op(ctx, key) if read_marker else None,
        retire=[entry_op(ctx, k) for k in retire_keys],
        clock=clock_op(ctx) if _needs_turn(ctx, ttl) else None,
        scan=scan_op(ctx.entries_ns) if counting else None,
    )
    last = _history.last_version(got.marker)
    if read_entry:
        try:
            existing = yield from checked_entry(ctx, key, got.entry)
        except DamagedEntryError:
            if not repair:
                raise
            # Never reuse a version number: history records are keyed by it.
            last = max(last, (yield from _history.highest_version(ctx, key)))
            logger.warning("Replacing the damaged memory entry %r in %r.", key, ctx.scope)
    return BeforeWrite(
        existing=existing,
        last_version=last,
        retire=[entry_of(item) for item in got.retire],
        turn=turn_of(got.clock),
        # Counted, not parsed: only this exact namespace counts.
        count=len(own(ctx.entries_ns, got.scan)) if counting else 0,
    )


def type_refusal(ctx: MemoryContext, key: str, type_: str | None) -> Refusal | None:
    """The refusal for a type outside `memory_types`, or `None` when the type is fine."""
    allowed = ctx.memory_types
    if type_ is None or allowed is None or type_ in allowed:
        return None
    profiles = ctx.config.profile_schemas
    if type_ == PROFILE_TYPE and profiles is not None and key in profiles:
        return None  # a declared profile carries its own type, whatever memory_types says
    return Refusal("type", key, allowed_types=allowed, type=type_)


def judge(ctx: MemoryContext, candidate: WriteCandidate) -> Plan[GateDecision | None]:
    """The gate's verdict on a write, or `None` when the memory has no gate.

    The deterministic checks first; then, when the gate has a second line and the write
    still stands, the model check as an `Invoke` step (`ainvoke` on the async path), which
    enforces its own timeout and failure policy. It runs inside the write's exclusive
    section, so other writers of the scope wait for it (at most its timeout).
    """
    gate = ctx.config.gate
    if gate is None:
        return None
    decision = gate.check_deterministic(candidate)
    review = gate.second_line_input(candidate, decision)
    if review is not None and gate.second_line is not None:
        verdict = yield Invoke(gate.second_line, review)
        decision = gate.combine(decision, verdict)
    return decision


def judge_note(
    ctx: MemoryContext, path: str, text: str, provenance: Provenance, *, is_new: bool
) -> Plan[GateDecision | None]:
    """The gate's verdict on a note's whole text after an edit (see `judge`)."""
    candidate = WriteCandidate.note(
        path, text, provenance=provenance, written_by=provenance.written_by, is_new=is_new
    )
    return (yield from judge(ctx, candidate))


def gate_check(
    ctx: MemoryContext,
    key: str,
    value: str,
    description: str | None,
    type_: str | None,
    provenance: Provenance | None,
    existing: MemoryEntry | None,
    entry_count: int,
) -> Plan[GateDecision | None]:
    """The gate's verdict on an entry write (see `judge`)."""
    if ctx.config.gate is None:
        return None
    candidate = WriteCandidate(
        key=key,
        value=value,
        description=description,
        type=type_ if type_ is not None else (existing.type if existing else None),
        provenance=provenance,
        written_by=provenance.written_by if provenance is not None else "developer",
        is_new=existing is None,
        entry_count=entry_count,
    )
    return (yield from judge(ctx, candidate))


def write(
    ctx: MemoryContext,
    key: str,
    value: str,
    *,
    description: str | None,
    ttl: Any,
    importance: float | None,
    type: str | None,
    provenance: Provenance | None,
    existing: MemoryEntry | None,
    turn: int,
    last_version: int = 0,
    status: EntryStatus = "active",
    retire: Sequence[MemoryEntry] = (),
    note: str | None = None,
    extra: Sequence[PutOp] = (),
) -> Plan[MemoryEntry]:
    """Write the new version of `key` (every check has passed) and return it.

    `extra` ops (a settled consent proposal, its audit record) go in the same batch.
    """
    now = ctx.now()
    if isinstance(ttl, ResolvedExpiry):  # an absolute expiry carried over (a rename)
        expiry = ttl
    else:
        parsed = ctx.default_ttl if ttl is UNSET else parse_ttl(ttl)
        expiry = resolve_ttl(parsed, turn=turn, now=now)
    supersedes = tuple(e.key for e in retire)
    if existing is None:
        entry = MemoryEntry(
            key=key,
            value=value,
            description=description,
            created_at=now,
            updated_at=now,
            update_count=last_version + 1,
            importance=importance,
            expires_at_turn=expiry.at_turn,
            expires_at=expiry.at_time,
            type=type,
            status=status,
            provenance=provenance,
            supersedes=supersedes,
        )
    else:
        # The expiry is replaced wholesale: a rewrite without a TTL never keeps a stale one.
        entry = existing.evolve(
            value=value,
            description=existing.description if description is None else description,
            updated_at=max(now, existing.updated_at),
            update_count=existing.update_count + 1,
            importance=existing.importance if importance is None else importance,
            expires_at_turn=expiry.at_turn,
            expires_at=expiry.at_time,
            type=existing.type if type is None else type,
            status=status,
            provenance=provenance if provenance is not None else existing.provenance,
            supersedes=supersedes or existing.supersedes,
        )
    archived: list[PutOp] = []
    if existing is not None:
        archived = _history.archive(ctx, existing, "updated", now=now, cause=provenance, note=note)
    # A quarantined entry retires nothing yet: `approve` does it, so the old facts stay
    # visible until someone vouches for the new one.
    yield from store_entry(
        ctx,
        entry,
        previous=existing.value if existing is not None else None,
        archived=archived,
        retire=retire if status == "active" else (),
        now=now,
        cause=provenance,
        extra=extra,
        before=existing,
    )
    if existing is None:
        yield from enforce_cap(ctx, key)
    return entry


def store_entry(
    ctx: MemoryContext,
    entry: MemoryEntry,
    *,
    previous: str | None,
    archived: Sequence[PutOp],
    retire: Sequence[MemoryEntry],
    now: datetime,
    cause: Provenance | None,
    action: AuditAction | None = None,
    extra: Sequence[PutOp] = (),
    before: MemoryEntry | None = None,
) -> Plan[None]:
    """Put `entry` and retire what it supersedes in one batch, then report the changes.

    `before` is the stored version it replaces, so an unchanged text is not embedded again.

    The batch also holds the audit records of the change (`action` defaults to created,
    updated or held) and any `extra` ops the caller adds.
    """
    ops: list[Any] = [entry_put(ctx, entry, before)]
    ops += archived
    for old in retire:
        ops += _history.archive(
            ctx, old, "superseded", now=now, cause=cause, superseded_by=entry.key
        )
    done = action or _audit.write_action(entry, previous)
    ops += _audit.entry_ops(ctx, done, entry, at=now, cause=cause)
    ops += _audit.retired_ops(ctx, "superseded", retire, at=now, cause=cause)
    ops += extra
    yield Io(ops)
    yield from changed(ctx, MemoryChangeEvent("set", entry.key, entry.value, previous, ctx.scope))
    for old in retire:
        event = MemoryChangeEvent("supersede", old.key, None, old.value, ctx.scope)
        yield from changed(ctx, event)


def remove(
    ctx: MemoryContext,
    existing: MemoryEntry,
    cause: Provenance,
    status: HistoryStatus = "deleted",
    extra: Sequence[PutOp] = (),
) -> Plan[None]:
    """Take `existing` out of memory into history (with its audit record), then report it."""
    now = ctx.now()
    ops = _history.archive(ctx, existing, status, now=now, cause=cause)
    ops += _audit.entry_ops(ctx, "deleted", existing, at=now, cause=cause)
    yield Io([*ops, *extra])
    yield from changed(
        ctx, MemoryChangeEvent("delete", existing.key, None, existing.value, ctx.scope)
    )


# ---- the developer path -----------------------------------------------------------------------


@exclusive
def set_entry(
    ctx: MemoryContext,
    key: str,
    value: str,
    *,
    description: str | None,
    ttl: Any,
    importance: float | None,
    type: str | None,
    provenance: Provenance | None,
    supersedes: Sequence[str] = (),
) -> Plan[MemoryEntry]:
    """`Memory.set`: write directly, keeping the previous version in history.

    Raises:
        ValueError: For a bad key, TTL, importance or type, a missing supersede target, or a
            write the gate rejects (only with `gate_developer_writes=True`).
        TypeError: For a value, description or type that is not a string.
    """
    check_key(key)
    check_text("value", value)
    check_text("description", description, optional=True)
    check_text("type", type, optional=True)
    check_importance(importance)
    refused = type_refusal(ctx, key, type)
    if refused is not None:
        raise ValueError(texts.reason(refused))
    retire_keys = check_supersedes(key, supersedes)
    if provenance is None:
        provenance = Provenance(written_by="developer")
    before = yield from read_before_write(
        ctx, key, retire_keys, ttl=ttl, may_be_new=True, repair=True
    )
    retiring: list[MemoryEntry] = []
    for old_key, old in zip(retire_keys, before.retire, strict=True):
        if old is None:
            msg = f"Cannot supersede {old_key!r}: no entry has that key. Check memory.list()."
            raise ValueError(msg)
        retiring.append(old)
    status: EntryStatus = "active"
    decision = yield from gate_check(
        ctx, key, value, description, type, provenance, before.existing, before.count
    )
    if decision is not None:
        if decision.action == "reject":
            raise ValueError(texts.developer_message(Refusal("gate", key, decision=decision)))
        value, description = decision.value, decision.description
        if decision.action == "quarantine":
            status = "quarantined"
    return (
        yield from write(
            ctx,
            key,
            value,
            description=description,
            ttl=ttl,
            importance=importance,
            type=type,
            provenance=provenance,
            existing=before.existing,
            turn=before.turn,
            last_version=before.last_version,
            status=status,
            retire=retiring,
        )
    )


@exclusive
def delete_entry(ctx: MemoryContext, key: str) -> Plan[bool]:
    """`Memory.delete`: remove directly, keeping the deleted version in history.

    A damaged item is removed too (there is no readable version to keep).
    """
    check_key(key)
    (item,) = yield Io([entry_op(ctx, key)])
    try:
        existing = yield from checked_entry(ctx, key, item)
    except DamagedEntryError:
        logger.warning("Removing the damaged memory entry %r in %r.", key, ctx.scope)
        yield Io([PutOp(ctx.entries_ns, key, None)])
        return True
    if existing is None:
        return False
    yield from remove(ctx, existing, Provenance(written_by="developer"))
    return True
