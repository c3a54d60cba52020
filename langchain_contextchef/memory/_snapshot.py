"""Snapshots: a JSON-serialisable copy of a scope's entries and turn clock, and its restore."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from langgraph.store.base import PutOp

from langchain_contextchef._plan import Io, Plan, gather
from langchain_contextchef.audit import AuditRecord
from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.memory import _audit, _history
from langchain_contextchef.memory._checks import check_importance, check_key, check_text
from langchain_contextchef.memory._context import (
    CLOCK_KEY,
    MemoryContext,
    entries_and_damaged,
    entry_put,
    read_all,
    scan_op,
)
from langchain_contextchef.memory._section import exclusive

__all__ = ["restore", "snapshot"]


def snapshot(ctx: MemoryContext) -> Plan[dict[str, Any]]:
    """Every entry (with its stored fields) and the turn clock, as plain data."""
    entries, turn = yield from read_all(ctx)
    return {
        "version": 1,
        "turn": turn,
        "entries": [{"key": e.key, **e.to_stored()} for e in entries],
    }


def restore(ctx: MemoryContext, data: Mapping[str, Any]) -> Plan[None]:
    """Replace the scope's entries and turn clock with a snapshot's (batches of `BATCH_OPS`).

    Entries the snapshot replaces or removes move to history (cause: a restore), and a
    restored entry whose version history already holds gets the next free version. With
    auditing on, the same batch records each written entry as `restored` and each removed
    one as `deleted` (actor `developer`); keys the snapshot leaves as they are get no record.

    Raises:
        ValueError: If the snapshot is malformed; nothing is read or written then.
    """
    restored, turn = _parse_snapshot(data)  # validate everything before touching the store
    yield from _replace(ctx, restored, turn)


@exclusive
def _replace(ctx: MemoryContext, restored: list[MemoryEntry], turn: int) -> Plan[None]:
    # What the restore replaces or removes is kept in history like any other change, and a
    # restored version never reuses a number history already holds for its key.
    got = yield from gather(items=scan_op(ctx.entries_ns))
    current, damaged = entries_and_damaged(ctx, got.items)
    by_key = {e.key: e for e in current}
    absent = [e.key for e in restored if e.key not in by_key]
    left: dict[str, int] = {}
    for start in range(0, len(absent), BATCH_OPS):
        chunk = absent[start : start + BATCH_OPS]
        markers = yield from gather(markers=[_history.version_marker_op(ctx, k) for k in chunk])
        left.update(zip(chunk, map(_history.last_version, markers.markers), strict=True))
    now = ctx.now()
    cause = Provenance(written_by="developer", source="restore")
    keep = {e.key for e in restored}
    # One group of ops per changed key, so a batch never splits a key's change in two.
    groups: list[list[Any]] = []
    for key in damaged:
        if key not in keep:
            # A damaged item has no entry to keep in history, but its removal is a change.
            ops: list[Any] = [PutOp(ctx.entries_ns, key, None)]
            groups.append(ops + _audit.record_ops(ctx, _damaged_record(ctx, key, now)))
    for gone in current:
        if gone.key not in keep:
            ops = _history.archive(ctx, gone, "deleted", now=now, cause=cause, note=_NOTE)
            ops += _audit.entry_ops(ctx, "deleted", gone, at=now, cause=cause, note=_REMOVED)
            groups.append(ops)
    for entry in restored:
        old = by_key.get(entry.key)
        if old == entry:
            continue  # already as the snapshot has it
        ops = []
        if old is not None:
            ops += _history.archive(ctx, old, "updated", now=now, cause=cause, note=_NOTE)
        floor = old.version if old is not None else left[entry.key]
        if entry.version <= floor:
            entry = entry.evolve(update_count=floor + 1)
        ops.append(entry_put(ctx, entry, old))
        ops += _audit.entry_ops(ctx, "restored", entry, at=now, cause=cause)
        groups.append(ops)
    groups.append([PutOp(ctx.meta_ns, CLOCK_KEY, {"turn": turn}, index=False)])
    for batch in _batches(groups):
        yield Io(batch)


BATCH_OPS = 2000
"""The most ops a restore sends in one batch. SQLite limits the variables of one statement
(32,766 by default, 250,000 in some builds), and LangGraph's `SqliteStore` writes a batch's
puts as one statement, so a restore of tens of thousands of entries is written in batches:
each is all-or-nothing, the turn clock comes last, and a restore that fails part-way can
simply be run again (what earlier batches replaced is in history)."""


def _batches(groups: list[list[Any]]) -> list[list[Any]]:
    batches: list[list[Any]] = [[]]
    for group in groups:
        if batches[-1] and len(batches[-1]) + len(group) > BATCH_OPS:
            batches.append([])
        batches[-1].extend(group)
    return batches


_NOTE = "replaced by a restore"
_REMOVED = "removed by a restore"


def _damaged_record(ctx: MemoryContext, key: str, now: datetime) -> AuditRecord:
    return AuditRecord(
        at=now,
        action="deleted",
        key=key,
        actor="developer",
        note="damaged item removed by a restore",
        scope=ctx.scope,
    )


def _parse_snapshot(snapshot: Mapping[str, Any]) -> tuple[list[MemoryEntry], int]:
    if not isinstance(snapshot, Mapping) or snapshot.get("version") != 1:
        msg = "Not a memory snapshot: expected a mapping with version 1 from Memory.snapshot()."
        raise ValueError(msg)
    turn = snapshot.get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        msg = f"A snapshot's turn must be a non-negative int, got {turn!r}."
        raise ValueError(msg)
    raw = snapshot.get("entries")
    if not isinstance(raw, list):
        msg = "A snapshot's entries must be a list."
        raise ValueError(msg)
    entries: list[MemoryEntry] = []
    seen: set[str] = set()
    for item in raw:
        if not isinstance(item, Mapping):
            msg = f"A snapshot entry must be a mapping, got {item!r}."
            raise ValueError(msg)
        key = check_key(item.get("key"))
        if key in seen:
            msg = f"A snapshot has the key {key!r} twice."
            raise ValueError(msg)
        seen.add(key)
        try:
            entry = MemoryEntry.from_stored(key, item)
            _check_restored(entry)
            entries.append(entry)
        except (KeyError, TypeError, ValueError) as exc:
            msg = f"The snapshot entry {key!r} is malformed: {exc}"
            raise ValueError(msg) from exc
    return entries, turn


def _check_restored(entry: MemoryEntry) -> None:
    # `from_stored` is lenient on purpose (it reads what is already stored); a snapshot is
    # outside input, so its fields are checked here before they can reach the store, where a
    # non-int expiry turn would make every later compile fail.
    check_text("value", entry.value)
    check_text("description", entry.description, optional=True)
    check_text("type", entry.type, optional=True)
    check_importance(entry.importance)
    turn = entry.expires_at_turn
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
        msg = f"expires_at_turn must be an int or None, got {turn!r}."
        raise ValueError(msg)
    if entry.update_count < 1:
        msg = f"update_count must be at least 1, got {entry.update_count!r}."
        raise ValueError(msg)
    if entry.status not in ("active", "quarantined"):
        msg = f"status must be 'active' or 'quarantined', got {entry.status!r}."
        raise ValueError(msg)
