"""Governed history: review of held entries, history, revert and forget, as plans.

Every write that replaces or removes an entry keeps the old version in history (see
`_history`); these plans read those records back (`history`), write one again as a new
version (`revert`), release what the gate held (`approve`), and erase a whole scope
(`forget`) with a re-read that proves nothing is left.
"""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.store.base import PutOp

from langchain_contextchef._plan import Io, Plan, gather
from langchain_contextchef.entry import HistoryRecord, MemoryEntry, Provenance
from langchain_contextchef.memory._context import (
    MemoryContext,
    entry_of,
    entry_op,
    own,
    read_entries,
    read_one,
    scan_op,
)
from langchain_contextchef.memory._history import read_history
from langchain_contextchef.memory._section import exclusive
from langchain_contextchef.memory._write import read_before_write, store_entry, write
from langchain_contextchef.memory.results import ForgetReceipt

__all__ = ["approve", "forget", "history", "quarantined", "revert"]


def history(ctx: MemoryContext, key: str) -> Plan[list[HistoryRecord]]:
    """Every kept version of `key`, with the live one appended as `current`."""
    records, current = yield from read_history(ctx, key)
    if current is not None:
        records.append(HistoryRecord(key, current.version, "current", current))
    return records


def quarantined(ctx: MemoryContext) -> Plan[list[MemoryEntry]]:
    """The entries the gate holds for review, in creation order."""
    entries = yield from read_entries(ctx)
    return [e for e in entries if e.status == "quarantined"]


@exclusive
def approve(ctx: MemoryContext, key: str) -> Plan[MemoryEntry]:
    """Make a quarantined entry active and retire the active entries it supersedes.

    Raises:
        ValueError: If nothing is stored at `key` or it is not quarantined.
    """
    entry = yield from read_one(ctx, key)
    if entry is None or entry.status != "quarantined":
        state = "nothing is stored there" if entry is None else "it is not quarantined"
        msg = f"Cannot approve {key!r}: {state}. memory.quarantined() lists what awaits review."
        raise ValueError(msg)
    got = yield from gather(olds=[entry_op(ctx, k) for k in entry.supersedes])
    retiring = [
        old for item in got.olds if (old := entry_of(item)) is not None and old.status == "active"
    ]
    approved = entry.evolve(status="active")
    yield from store_entry(
        ctx,
        approved,
        previous=None,
        archived=(),
        retire=retiring,
        now=ctx.now(),
        cause=Provenance(written_by="developer"),
        action="approved",
        before=entry,
    )
    return approved


def _revert_target(
    key: str, version: int | None, records: list[HistoryRecord], current: MemoryEntry | None
) -> HistoryRecord:
    if version is None:
        older = [r for r in records if current is None or r.version < current.version]
        if not older:
            msg = (
                f"Cannot revert {key!r}: it has no earlier version. memory.history(key) lists them."
            )
            raise ValueError(msg)
        return older[-1]
    if current is not None and version == current.version:
        msg = f"Cannot revert {key!r} to version {version}: that is the current version."
        raise ValueError(msg)
    matches = [r for r in records if r.version == version]
    if not matches:
        known = sorted({r.version for r in records})
        msg = (
            f"Cannot revert {key!r} to version {version}: history holds versions "
            f"{known or 'none'}. memory.history(key) lists them."
        )
        raise ValueError(msg)
    return matches[-1]


@exclusive
def revert(ctx: MemoryContext, key: str, version: int | None) -> Plan[MemoryEntry]:
    """Write an earlier version of `key` again, as a new version (the default TTL applies).

    Raises:
        TypeError: If `version` is not an int or `None`.
        ValueError: If history holds no such earlier version.
    """
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        msg = f"version must be an int or None, got {version!r}."
        raise TypeError(msg)
    records, current = yield from read_history(ctx, key)
    target = _revert_target(key, version, records, current)
    old = target.entry
    ttl = ctx.config.default_ttl
    before = yield from read_before_write(
        ctx, key, (), ttl=ttl, may_be_new=current is None, known=current
    )
    # The new version must outnumber every kept one, even those whose marker was lost.
    last = max([before.last_version, *(r.version for r in records)])
    return (
        yield from write(
            ctx,
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


@exclusive
def forget(ctx: MemoryContext, labels: Sequence[str]) -> Plan[ForgetReceipt]:
    """Delete every item under each `scope + (label,)`, then re-read them all.

    Deletes by exact namespace, so a deeper or longer-named scope is never touched.
    """
    namespaces = [(*ctx.scope, label) for label in labels]
    found = yield from gather(scans=[scan_op(ns) for ns in namespaces])
    doomed = [own(ns, items) for ns, items in zip(namespaces, found.scans, strict=True)]
    deletes = [PutOp(item.namespace, item.key, None) for items in doomed for item in items]
    if deletes:
        yield Io(deletes)
    left = yield from gather(scans=[scan_op(ns) for ns in namespaces])
    remaining = {
        label: len(own(ns, items))
        for label, ns, items in zip(labels, namespaces, left.scans, strict=True)
    }
    deleted = {label: len(items) for label, items in zip(labels, doomed, strict=True)}
    return ForgetReceipt(ctx.scope, deleted, remaining, not any(remaining.values()))
