"""Retention: how long an entry may live, by memory type, and what happens past that age.

A `RetentionPolicy` in `MemoryConfig(retention=...)` gives each memory type a maximum age,
counted from the entry's last write (`updated_at`), and a default for the other types and for
untyped entries. It is enforced in two places:

* every compile's sweep retires entries past their age before selection, so they are never
  injected again and `Memory.list()` no longer returns them;
* `purge` (`Memory.purge()` for one scope, `purge_store(store, config)` for every scope under
  a prefix, `contextchef purge` from a cron job) does the same without a compile, and also
  drops history records, audit records and settled proposals past their age.

What is retired goes to history with status `expired` (and a note naming the rule), unless
the policy says `erase=True`: then the entry and every kept version of it are deleted.

Example:
    ```python
    from datetime import datetime, timedelta, timezone
    from langchain_contextchef.entry import MemoryEntry
    from langchain_contextchef.retention import RetentionPolicy

    policy = RetentionPolicy(max_age={"event": timedelta(days=30)}, default=None)
    then = datetime(2026, 1, 1, tzinfo=timezone.utc)
    entry = MemoryEntry("trip", "Oslo in May", then, then, type="event")
    assert policy.overdue(entry, then + timedelta(days=31))
    assert not policy.overdue(entry.evolve(type="fact"), then + timedelta(days=3650))
    ```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from langchain_contextchef.entry import MemoryEntry

__all__ = ["RetentionPolicy"]


def _age(name: str, value: Any) -> timedelta | None:
    if value is None:
        return None
    if not isinstance(value, timedelta) or value <= timedelta(0):
        msg = f"RetentionPolicy {name} must be a positive timedelta or None, got {value!r}."
        raise ValueError(msg)
    return value


@dataclass(frozen=True, kw_only=True)
class RetentionPolicy:
    """The maximum age of entries, per memory type, and what purging does with them.

    Attributes:
        max_age: Memory type -> the longest an entry of that type lives after its last write.
        default: The maximum age of untyped entries and of types not in `max_age` (`None`:
            they are kept).
        erase: Delete retired entries with every kept version of them instead of moving them
            to history.
        history_max_age: Purge drops history records older than this (`None`: the entry's
            own maximum age applies to its history too).
    """

    max_age: Mapping[str, timedelta] = field(default_factory=dict)
    default: timedelta | None = None
    erase: bool = False
    history_max_age: timedelta | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.max_age, Mapping):
            msg = "RetentionPolicy max_age must map memory types to timedelta values."
            raise TypeError(msg)
        ages = {str(t): _age(f"max_age[{t!r}]", age) for t, age in self.max_age.items()}
        object.__setattr__(self, "max_age", ages)
        _age("default", self.default)
        _age("history_max_age", self.history_max_age)

    def limit_for(self, type: str | None) -> timedelta | None:
        """The maximum age of an entry of `type` (`None`: kept for ever)."""
        if type is not None and type in self.max_age:
            return self.max_age[type]
        return self.default

    def overdue(self, entry: MemoryEntry, now: datetime) -> bool:
        """Whether `entry` has outlived its type's maximum age at `now`."""
        limit = self.limit_for(entry.type)
        return limit is not None and now - entry.updated_at >= limit

    def record_overdue(self, type: str | None, recorded_at: datetime, now: datetime) -> bool:
        """Whether a history or audit record made at `recorded_at` is past its age at `now`."""
        limit = self.history_max_age or self.limit_for(type)
        return limit is not None and now - recorded_at >= limit

    def reason(self, entry: MemoryEntry) -> str:
        """The note recorded in history for an entry this policy retired."""
        limit = self.limit_for(entry.type)
        kind = f"type {entry.type!r}" if entry.type in self.max_age else "the default"
        return f"retention: older than {limit} ({kind})"
