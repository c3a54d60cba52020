"""History records: how a version that leaves memory is kept, and how it is read back.

Every write that replaces or removes an entry keeps the old version under
`scope + ("memory_history",)` as `<key>@<version>`. A version that leaves memory for good
(delete, supersede, expire) also records its number beside the turn clock, so a re-created
key continues the count and its history records never overwrite older ones.
"""

from __future__ import annotations

from datetime import datetime

from langgraph.store.base import GetOp, Item, PutOp

from langchain_contextchef._plan import Plan, gather
from langchain_contextchef.entry import (
    HistoryRecord,
    HistoryStatus,
    MemoryEntry,
    Provenance,
    history_key,
)
from langchain_contextchef.memory._context import (
    MemoryContext,
    entry_of,
    entry_op,
    own,
    scan_op,
)

__all__ = [
    "archive",
    "highest_version",
    "last_version",
    "read_history",
    "version_marker_op",
]

# Beside the turn clock: the last version of a key that left memory.
_VERSION_PREFIX = "version:"


def version_marker_op(ctx: MemoryContext, key: str) -> GetOp:
    """The op that reads the last version of `key` that left memory (answer with `last_version`)."""
    return GetOp(ctx.meta_ns, _VERSION_PREFIX + key, refresh_ttl=False)


def last_version(marker: Item | None) -> int:
    """The version a `version_marker_op` found, or 0 when the key never left memory."""
    return int(marker.value.get("version", 0)) if marker is not None else 0


def archive(
    ctx: MemoryContext,
    entry: MemoryEntry,
    status: HistoryStatus,
    *,
    now: datetime,
    cause: Provenance | None,
    superseded_by: str | None = None,
    note: str | None = None,
) -> list[PutOp]:
    """Ops that keep `entry` in history.

    An `updated` version is only archived (the write carrying these ops puts its successor in
    the same slot); any other status (delete, supersede, expire) also takes the entry out of
    memory and records its version number, so a re-created key continues the count.
    """
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
    kept = PutOp(
        ctx.history_ns, history_key(entry.key, entry.version), record.to_stored(), index=False
    )
    if status == "updated":
        return [kept]
    marker = PutOp(
        ctx.meta_ns, _VERSION_PREFIX + entry.key, {"version": entry.version}, index=False
    )
    return [PutOp(ctx.entries_ns, entry.key, None), kept, marker]


def highest_version(ctx: MemoryContext, key: str) -> Plan[int]:
    """The highest version history holds for `key` (0 when none)."""
    got = yield from gather(records=scan_op(ctx.history_ns, filter={"key": key}))
    versions = [
        item.value.get("version", 0)
        for item in own(ctx.history_ns, got.records)
        if item.value.get("key") == key
    ]
    return max((v for v in versions if isinstance(v, int) and not isinstance(v, bool)), default=0)


def read_history(
    ctx: MemoryContext, key: str
) -> Plan[tuple[list[HistoryRecord], MemoryEntry | None]]:
    """The kept versions of `key` (oldest first) and its live entry, in one batch."""
    got = yield from gather(
        records=scan_op(ctx.history_ns, filter={"key": key}), current=entry_op(ctx, key)
    )
    records = [
        HistoryRecord.from_stored(item.value)
        for item in own(ctx.history_ns, got.records)
        if item.value.get("key") == key
    ]
    records.sort(key=lambda r: (r.version, r.recorded_at or r.entry.updated_at))
    return records, entry_of(got.current)
