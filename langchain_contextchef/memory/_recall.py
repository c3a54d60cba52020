"""Recall and eviction: the least-recently-used pair behind recall mode and `max_entries`.

A full read by the model (`recall_memory`, `context view`) records `last_recalled_at`; when a
new key pushes the scope over `max_entries`, the entries whose last use is oldest are retired
to history, and the next compile tells the model which keys went.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from langgraph.store.base import PutOp

from langchain_contextchef._plan import Io, Plan, gather
from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry, Provenance
from langchain_contextchef.memory import _audit
from langchain_contextchef.memory._context import (
    EVICTED_KEY,
    MemoryContext,
    entries_of,
    evicted_op,
    read_one,
    scan_op,
)
from langchain_contextchef.memory._events import changed
from langchain_contextchef.memory._history import archive
from langchain_contextchef.memory._section import exclusive

__all__ = ["enforce_cap", "evicted_note_ops", "recall_entry"]


def _last_use(entry: MemoryEntry) -> datetime:
    # Never recalled: the last write stands in; a recent write also counts as a use.
    recalled = entry.last_recalled_at
    return entry.updated_at if recalled is None else max(recalled, entry.updated_at)


def enforce_cap(ctx: MemoryContext, written: str) -> Plan[list[str]]:
    """After a new key was written: evict the least recently used entries over the cap.

    The entry just written is never a candidate. Evicted entries are archived in history,
    audited as `deleted` by the actor `eviction` (with auditing on), reported through
    `on_memory_changed` (`evict`), and added to the note the next compile renders for the
    model.
    """
    cap = ctx.config.max_entries
    if cap is None:
        return []
    got = yield from gather(items=scan_op(ctx.entries_ns), noted=evicted_op(ctx))
    entries = entries_of(ctx, got.items)
    excess = len(entries) - cap
    if excess <= 0:
        return []
    candidates = sorted(
        (e for e in entries if e.key != written),
        key=lambda e: (_last_use(e), e.created_at, e.key),
    )
    victims = candidates[:excess]
    now = ctx.now()
    cause = Provenance(written_by="developer", source="eviction")
    why = f"evicted: over max_entries={cap}"
    ops: list[Any] = []
    for victim in victims:
        ops += archive(ctx, victim, "deleted", now=now, cause=cause, note=why)
    # The audit records ride in the eviction's own batch, so neither lands without the other.
    ops += _audit.retired_ops(
        ctx, "deleted", victims, at=now, cause=cause, actor="eviction", note=why
    )
    yield Io(ops)
    keys = [v.key for v in victims]

    # Inside the write's exclusive section, so the note read above is still current.
    noted = got.noted.value.get("keys") if got.noted is not None else []
    # A note damaged by hand (not a list of keys) is replaced, never a reason to fail.
    kept = [k for k in noted if isinstance(k, str)] if isinstance(noted, list) else []
    note = [k for k in kept if k not in keys] + keys
    yield Io([PutOp(ctx.meta_ns, EVICTED_KEY, {"keys": note}, index=False)])
    for victim in victims:
        yield from changed(
            ctx, MemoryChangeEvent("evict", victim.key, None, victim.value, ctx.scope)
        )
    return keys


def evicted_note_ops(ctx: MemoryContext, noted: list[str], reported: list[str]) -> list[PutOp]:
    """The op that clears the keys a compile reported from the eviction note (none if none)."""
    if not reported:
        return []
    left = [k for k in noted if k not in set(reported)]
    return [PutOp(ctx.meta_ns, EVICTED_KEY, {"keys": left}, index=False)]


@exclusive
def recall_entry(ctx: MemoryContext, key: str) -> Plan[MemoryEntry | None]:
    """Read one entry in full; an active entry gets `last_recalled_at = now` when tracked.

    Recording a recall is not a change: no version bump, no history, no change event, and no
    new embedding (the indexed text did not change).
    """
    entry = yield from read_one(ctx, key)
    if entry is None or entry.status != "active" or not ctx.config.tracks_recall:
        return entry
    touched = entry.evolve(last_recalled_at=ctx.now())
    yield Io([PutOp(ctx.entries_ns, key, touched.to_stored(), index=False)])
    return touched
