"""Governed history, as plans `Memory` runs: history records, review, revert and forget.

Kept apart from `memory.py` so the core read and write paths stay readable. Every write that
replaces or removes an entry keeps the old version here, under `scope + ("memory_history",)`;
the plans below read those records back (`history`), restore one (`revert`), release what the
gate held (`approve`), and erase a whole scope (`forget`). Every function takes the `Memory`
whose namespaces, clock and write path it uses; none does I/O except through plan steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from langgraph.store.base import GetOp, Item, PutOp

from langchain_contextchef._driver import Io, Plan
from langchain_contextchef.entry import (
    HistoryRecord,
    HistoryStatus,
    MemoryEntry,
    Provenance,
    history_key,
)

if TYPE_CHECKING:
    from langchain_contextchef.memory import Memory

# Beside the turn clock: the last version of a key that left memory, so a re-created key
# continues the count and its history items (`<key>@<version>`) never overwrite older ones.
VERSION_PREFIX = "version:"


# ---- history records --------------------------------------------------------------------------


def version_marker_op(memory: Memory, key: str) -> GetOp:
    """The op that reads the last version of `key` that left memory (answer with `last_version`)."""
    return GetOp(memory.meta_namespace, VERSION_PREFIX + key, refresh_ttl=False)


def last_version(marker: Item | None) -> int:
    """The version a `version_marker_op` found, or 0 when the key never left memory."""
    return int(marker.value.get("version", 0)) if marker is not None else 0


def archive(
    memory: Memory,
    entry: MemoryEntry,
    status: HistoryStatus,
    *,
    now: datetime,
    cause: Provenance | None,
    superseded_by: str | None = None,
    note: str | None = None,
) -> list[PutOp]:
    """Ops that keep `entry` in history; a version leaving memory also records its number."""
    record = HistoryRecord(
        key=entry.key,
        version=entry.version,
        status=status,
        entry=entry,
        recorded_at=now,
        changed_by=cause.written_by if cause is not None else None,
        tool_call_id=cause.tool_call_id if cause is not None else None,
        superseded_by=superseded_by,
        note=note,
    )
    key = history_key(entry.key, entry.version)
    ops = [PutOp(memory.history_namespace, key, record.to_stored(), index=False)]
    if status != "updated":
        marker = {"version": entry.version}
        ops.append(PutOp(memory.meta_namespace, VERSION_PREFIX + entry.key, marker, index=False))
    return ops


def retire(
    memory: Memory,
    entry: MemoryEntry,
    status: HistoryStatus,
    *,
    now: datetime,
    cause: Provenance | None,
    superseded_by: str | None = None,
    note: str | None = None,
) -> list[PutOp]:
    """Ops that take `entry` out of memory and keep it in history (delete, supersede, expire)."""
    ops = [PutOp(memory.namespace, entry.key, None)]
    ops += archive(
        memory, entry, status, now=now, cause=cause, superseded_by=superseded_by, note=note
    )
    return ops


def read_history(memory: Memory, key: str) -> Plan[tuple[list[HistoryRecord], MemoryEntry | None]]:
    """The kept versions of `key` (oldest first) and its live entry, in one batch."""
    search = memory._scan_op(memory.history_namespace, filter={"key": key})
    items, current = yield Io([search, memory._entry_op(key)])
    records = [
        HistoryRecord.from_stored(item.value)
        for item in items
        if tuple(item.namespace) == memory.history_namespace and item.value.get("key") == key
    ]
    records.sort(key=lambda r: (r.version, r.recorded_at or r.entry.updated_at))
    return records, memory._entry_of(current)


def history(memory: Memory, key: str) -> Plan[list[HistoryRecord]]:
    """Every kept version of `key`, with the live one appended as `current`."""
    records, current = yield from read_history(memory, key)
    if current is not None:
        records.append(HistoryRecord(key, current.version, "current", current))
    return records


# ---- review and revert ------------------------------------------------------------------------


def quarantined(memory: Memory) -> Plan[list[MemoryEntry]]:
    """The entries the gate holds for review, in creation order."""
    entries, _ = yield from memory._read_all()
    return [e for e in entries if e.status == "quarantined"]


def approve(memory: Memory, key: str) -> Plan[MemoryEntry]:
    """Make a quarantined entry active and retire the active entries it supersedes.

    Raises:
        ValueError: If nothing is stored at `key` or it is not quarantined.
    """
    entry = yield from memory._read_one(key)
    if entry is None or entry.status != "quarantined":
        state = "nothing is stored there" if entry is None else "it is not quarantined"
        msg = f"Cannot approve {key!r}: {state}. memory.quarantined() lists what awaits review."
        raise ValueError(msg)
    olds = yield Io([memory._entry_op(k) for k in entry.supersedes])
    retiring = [
        old
        for item in olds
        if (old := memory._entry_of(item)) is not None and old.status == "active"
    ]
    approved = entry.evolve(status="active")
    yield from memory._store(
        approved,
        previous=None,
        archived=(),
        retire=retiring,
        now=memory._now(),
        cause=Provenance(written_by="developer"),
    )
    return approved


def revert(memory: Memory, key: str, version: int | None) -> Plan[MemoryEntry]:
    """Write an earlier version of `key` again, as a new version (the default TTL applies).

    Raises:
        TypeError: If `version` is not an int or `None`.
        ValueError: If history holds no such earlier version.
    """
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        msg = f"version must be an int or None, got {version!r}."
        raise TypeError(msg)
    records, current = yield from read_history(memory, key)
    known = sorted({r.version for r in records})
    if version is None:
        older = [r for r in records if current is None or r.version < current.version]
        if not older:
            msg = (
                f"Cannot revert {key!r}: it has no earlier version. memory.history(key) lists them."
            )
            raise ValueError(msg)
        target = older[-1]
    else:
        if current is not None and version == current.version:
            msg = f"Cannot revert {key!r} to version {version}: that is the current version."
            raise ValueError(msg)
        matches = [r for r in records if r.version == version]
        if not matches:
            msg = (
                f"Cannot revert {key!r} to version {version}: history holds versions "
                f"{known or 'none'}. memory.history(key) lists them."
            )
            raise ValueError(msg)
        target = matches[-1]
    old = target.entry
    ttl = memory.config.default_ttl
    before = yield from memory._read_before_write(key, (), ttl=ttl, may_be_new=False)
    # The new version must outnumber every kept one, even those whose marker was lost.
    last = max([before.last_version, *known])
    return (
        yield from memory._write(
            key,
            old.value,
            description=old.description,
            ttl=ttl,
            importance=old.importance,
            type=old.type,
            provenance=old.provenance,
            existing=current,
            turn=before.turn,
            last_version=last,
            note=f"replaced by a revert to version {target.version}",
        )
    )


# ---- forget -----------------------------------------------------------------------------------


def forget(memory: Memory, labels: Sequence[str]) -> Plan[tuple[dict[str, int], dict[str, int]]]:
    """Delete every item under each `scope + (label,)`, then re-read them all.

    Returns:
        Items deleted per label, and items the re-read still found per label.
    """
    namespaces = [(*memory.scope, label) for label in labels]

    def search_all() -> list[Any]:
        return [memory._scan_op(ns) for ns in namespaces]

    def own(namespace: tuple[str, ...], items: Sequence[Item]) -> list[Item]:
        # A search is a prefix match; delete only this exact namespace, never a deeper one.
        return [item for item in items if tuple(item.namespace) == namespace]

    found = yield Io(search_all())
    doomed = [own(ns, items) for ns, items in zip(namespaces, found, strict=True)]
    deletes = [
        PutOp(ns, item.key, None)
        for ns, items in zip(namespaces, doomed, strict=True)
        for item in items
    ]
    if deletes:
        yield Io(deletes)
    left = yield Io(search_all())
    remaining = {
        label: len(own(ns, items))
        for label, ns, items in zip(labels, namespaces, left, strict=True)
    }
    deleted = {label: len(items) for label, items in zip(labels, doomed, strict=True)}
    return deleted, remaining
