"""Load a `Memory.snapshot()` into a scope through the developer path, so history keeps the past.

`Memory.restore` replaces a scope's entries wholesale and keeps nothing of what it overwrites,
which suits a test fixture or a preview copy but not a person importing a file into a store
that already holds memory. `import_snapshot` writes each imported entry with `Memory.set` and
removes the keys the snapshot lacks with `Memory.delete`, so every version it replaces or
removes stays in `Memory.history`, with the import named as its cause.

The price of going through `set`: an imported entry is a new version written now (its
`updated_at` is the import time, its version continues the key's count), and its provenance
says `written_by="import"`, with the original observation time, confidence and sensitivity.
An entry whose content already matches the scope is left alone, so importing the same file
twice writes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any

from langgraph.store.memory import InMemoryStore

from langchain_contextchef.entry import MemoryEntry, Provenance
from langchain_contextchef.memory._memory import Memory
from langchain_contextchef.memory.config import MemoryConfig
from langchain_contextchef.ttl import TTL, Turns

__all__ = ["ImportReport", "import_snapshot", "read_snapshot"]


@dataclass(frozen=True)
class ImportReport:
    """What `import_snapshot` did.

    Attributes:
        written: Keys written as a new entry or a new version.
        unchanged: Keys whose stored content already matched the snapshot.
        removed: Keys the snapshot lacks, deleted from the scope (kept in history).
        turn: The turn clock the scope has after the import.
    """

    written: tuple[str, ...]
    unchanged: tuple[str, ...]
    removed: tuple[str, ...]
    turn: int


def read_snapshot(snapshot: Mapping[str, Any]) -> tuple[list[MemoryEntry], int]:
    """Validate a snapshot and return its entries and turn clock.

    Args:
        snapshot: What `Memory.snapshot()` returned, e.g. read back from a JSON file.

    Returns:
        The entries in snapshot order and the turn clock.

    Raises:
        ValueError: If the snapshot is malformed, holds a quarantined entry (an import would
            release it without review), or an entry with both a turn and a time expiry.
    """
    # `Memory.restore` is the one validator of the snapshot format; a throwaway store keeps
    # the caller's store out of it.
    staging = Memory(InMemoryStore(), MemoryConfig(memory_types=None))
    try:
        staging.restore(snapshot)
    except TypeError as exc:
        raise ValueError(str(exc)) from exc
    entries = staging.list()
    held = [e.key for e in entries if e.status == "quarantined"]
    if held:
        msg = (
            f"The snapshot holds quarantined entries ({', '.join(held)}); importing would release "
            "them without review. Approve or delete them where they came from, then export again."
        )
        raise ValueError(msg)
    both = [e.key for e in entries if e.expires_at_turn is not None and e.expires_at is not None]
    if both:
        msg = (
            f"The snapshot entries {', '.join(both)} expire both at a turn and at a time; an "
            "import can keep only one. Edit the file to keep one of expires_at_turn/expires_at."
        )
        raise ValueError(msg)
    return entries, staging.turn


def import_snapshot(
    memory: Memory,
    snapshot: Mapping[str, Any],
    *,
    source: str,
    now: datetime | None = None,
) -> ImportReport:
    """Make `memory`'s scope hold exactly the snapshot's entries, keeping what it replaces.

    The whole import first runs against an in-memory copy of the scope, so a snapshot that a
    write would refuse (an unknown memory type, a bad TTL) fails before the real store is
    touched.

    Args:
        memory: The scope to import into. Its `MemoryConfig` decides which types are accepted.
        snapshot: A `Memory.snapshot()` result.
        source: Where the snapshot came from (a file name), recorded in each entry's provenance.
        now: The wall-clock time that time-based expiries are counted from; now by default.

    Returns:
        Which keys were written, left unchanged or removed, and the resulting turn clock.

    Raises:
        ValueError: If the snapshot is malformed or a write refuses one of its entries; the
            store is then unchanged.
    """
    entries, turn = read_snapshot(snapshot)
    moment = now if now is not None else datetime.now(timezone.utc)
    # The rehearsal runs no hooks: they would see writes that never happen.
    quiet = replace(
        memory.config, on_memory_update=None, on_memory_changed=None, on_memory_expired=None
    )
    rehearsal = Memory(InMemoryStore(), quiet, scope=memory.scope)
    rehearsal.restore(memory.snapshot())
    _apply(rehearsal, entries, turn, source=source, now=moment)
    return _apply(memory, entries, turn, source=source, now=moment)


def _apply(
    memory: Memory, entries: list[MemoryEntry], turn: int, *, source: str, now: datetime
) -> ImportReport:
    current = {entry.key: entry for entry in memory.list()}
    if memory.turn != turn:
        # The clock first, so the turn-based expiries written below count from the snapshot's
        # turn. `restore` with the scope's own entries changes nothing but the clock.
        memory.restore({**memory.snapshot(), "turn": turn})
    incoming = {entry.key for entry in entries}
    removed = [key for key in current if key not in incoming]
    for key in removed:
        memory.delete(key)
    written: list[str] = []
    unchanged: list[str] = []
    for entry in entries:
        old = current.get(entry.key)
        if old is not None and _same_content(old, entry):
            unchanged.append(entry.key)
            continue
        if old is not None and _set_would_keep_a_field(old, entry):
            memory.delete(entry.key)
        memory.set(
            entry.key,
            entry.value,
            description=entry.description,
            ttl=_ttl(entry, turn, now),
            importance=entry.importance,
            type=entry.type,
            provenance=_provenance(entry, source),
        )
        written.append(entry.key)
    return ImportReport(tuple(written), tuple(unchanged), tuple(removed), turn)


def _same_content(old: MemoryEntry, new: MemoryEntry) -> bool:
    return (
        old.status == "active"
        and (old.value, old.description, old.importance, old.type)
        == (new.value, new.description, new.importance, new.type)
        and (old.expires_at_turn, old.expires_at) == (new.expires_at_turn, new.expires_at)
    )


def _set_would_keep_a_field(old: MemoryEntry, new: MemoryEntry) -> bool:
    # `Memory.set` reads `None` as "keep the current one" for these fields; an imported entry
    # without them must not inherit the replaced entry's, so that key is deleted first.
    return any(
        before is not None and after is None
        for before, after in (
            (old.description, new.description),
            (old.importance, new.importance),
            (old.type, new.type),
        )
    )


def _ttl(entry: MemoryEntry, turn: int, now: datetime) -> TTL:
    if entry.expires_at_turn is not None:
        return Turns(max(entry.expires_at_turn - turn, 0))
    if entry.expires_at is not None:
        return max(entry.expires_at - now, timedelta(0))
    return None


def _provenance(entry: MemoryEntry, source: str) -> Provenance:
    original = entry.provenance or Provenance()
    return Provenance(
        written_by="import",
        observed_at=original.observed_at or entry.updated_at,
        source=source,
        confidence=original.confidence,
        sensitivity=original.sensitivity,
    )
