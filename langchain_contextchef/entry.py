"""The shape of one memory entry, in Python and as stored in a LangGraph store.

A memory entry is one LangGraph `Item` in the `memory` namespace of a scope. Its `value`
is a JSON object with the fields below; `MemoryEntry.to_stored()` / `from_stored()` are the
only two places that know the stored layout, so every backend holds the same bytes.

Example:
    ```python
    from datetime import datetime, timezone
    from langchain_contextchef.entry import MemoryEntry

    now = datetime(2026, 5, 25, tzinfo=timezone.utc)
    entry = MemoryEntry(key="lang", value="Python", created_at=now, updated_at=now)
    assert MemoryEntry.from_stored("lang", entry.to_stored()) == entry
    ```
"""

from __future__ import annotations

import contextlib
import gc
import operator
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Literal, TypeAlias, cast

from langchain_contextchef._literals import DEFAULT_MEMORY_TYPES

__all__ = [
    "DEFAULT_MEMORY_TYPES",
    "EntryRenderer",
    "EntryStatus",
    "HistoryRecord",
    "HistoryStatus",
    "MemoryChangeEvent",
    "MemoryEntry",
    "Provenance",
    "WrittenBy",
    "format_time",
    "history_key",
    "parse_time",
]

WrittenBy: TypeAlias = Literal["model", "developer", "reflection", "import"]
"""Who wrote an entry: a model tool call, the developer's code, a reflector, or an import."""

EntryStatus: TypeAlias = Literal["active", "quarantined"]
"""`quarantined` entries are stored but never injected until a developer approves them."""

HistoryStatus: TypeAlias = Literal["updated", "deleted", "superseded", "expired", "current"]
"""Why a version left memory; `current` marks the live version at the end of `Memory.history`."""

EntryRenderer: TypeAlias = Callable[["MemoryEntry"], str]
"""A custom entry format: one entry -> its text inside `<memory>` (see `MemoryConfig`)."""


_NATIVE_Z = sys.version_info >= (3, 11)


def format_time(moment: datetime) -> str:
    """Format a moment as ISO-8601 UTC with microseconds, e.g. `2026-05-25T00:00:00.000000Z`."""
    # isoformat is several times faster than strftime and pads years before 1000 as well.
    utc = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return utc.isoformat(timespec="microseconds") + "Z"


def parse_time(text: str) -> datetime:
    """Parse a moment written by `format_time` (or any ISO-8601 string) as an aware UTC datetime."""
    if len(text) == 27 and text[-1] == "Z":  # what `format_time` writes: the fast path
        with contextlib.suppress(ValueError):
            if _NATIVE_Z:  # one call, no slice: fromisoformat reads `Z` as UTC from 3.11
                return datetime.fromisoformat(text)
            return datetime.fromisoformat(text[:-1]).replace(tzinfo=timezone.utc)
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def _opt_time(text: Any) -> datetime | None:
    return parse_time(text) if isinstance(text, str) else None


@dataclass(frozen=True)
class Provenance:
    """Where an entry came from.

    Attributes:
        written_by: The kind of writer.
        tool_call_id: The model's tool call id, for model writes.
        observed_at: When the fact was observed (defaults to the write time).
        source: An optional reference to the source (a message id, a URL, a file).
        confidence: The writer's confidence in the fact, from 0 to 1.
        sensitivity: A label such as `public`, `internal` or `restricted`.
    """

    written_by: WrittenBy = "developer"
    tool_call_id: str | None = None
    observed_at: datetime | None = None
    source: str | None = None
    confidence: float | None = None
    sensitivity: str | None = None

    def to_stored(self) -> dict[str, Any]:
        """Return the JSON-serialisable form."""
        return {
            "written_by": self.written_by,
            "tool_call_id": self.tool_call_id,
            "observed_at": format_time(self.observed_at) if self.observed_at else None,
            "source": self.source,
            "confidence": self.confidence,
            "sensitivity": self.sensitivity,
        }

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Provenance:
        """Rebuild provenance from its stored form."""
        return cls(
            written_by=data.get("written_by", "developer"),
            tool_call_id=data.get("tool_call_id"),
            observed_at=_opt_time(data.get("observed_at")),
            source=data.get("source"),
            confidence=data.get("confidence"),
            sensitivity=data.get("sensitivity"),
        )


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    """One remembered fact.

    Entries have slots, no `__dict__`: a cached scope holds one per stored item, so each
    costs about a third of the memory a dict-backed instance would.

    Attributes:
        key: The entry's key, unique within its scope.
        value: The remembered text.
        description: What the entry is for and when to consult it.
        created_at: First write (kept on updates).
        updated_at: Latest write.
        update_count: 1 on creation, +1 on every later write; also the entry's version.
        importance: Yours to set and interpret; the library never sorts by it.
        expires_at_turn: The turn at whose sweep the entry is deleted, if turn-based.
        expires_at: The moment from which the entry is deleted, if time-based.
        type: An optional memory type such as `preference`, `fact` or `rule`.
        status: `active`, or `quarantined` (stored, never injected).
        provenance: Who wrote it, from what, with which confidence.
        supersedes: Keys this entry retired when it was written (they live on in history);
            for a quarantined entry, the keys it will retire once approved.
        last_recalled_at: When the model last read the entry in full (recall mode), if ever.
    """

    key: str
    value: str
    created_at: datetime
    updated_at: datetime
    description: str | None = None
    update_count: int = 1
    importance: float | None = None
    expires_at_turn: int | None = None
    expires_at: datetime | None = None
    type: str | None = None
    status: EntryStatus = "active"
    provenance: Provenance | None = field(default=None)
    supersedes: tuple[str, ...] = ()
    last_recalled_at: datetime | None = None

    @property
    def version(self) -> int:
        """The version a compare-and-set write must name (equal to `update_count`)."""
        return self.update_count

    @property
    def can_expire(self) -> bool:
        """Whether the entry has an expiry at all (a turn or a moment)."""
        return self.expires_at_turn is not None or self.expires_at is not None

    def is_expired(self, *, turn: int, now: datetime) -> bool:
        """Whether a sweep at `turn` and `now` deletes this entry."""
        if self.expires_at_turn is not None and turn >= self.expires_at_turn:
            return True
        return self.expires_at is not None and now >= self.expires_at

    def evolve(self, **changes: Any) -> MemoryEntry:
        """Return a copy with some fields changed."""
        return replace(self, **changes)

    def to_stored(self) -> dict[str, Any]:
        """Return the JSON object stored as the LangGraph item's value (the key is the item key)."""
        created = format_time(self.created_at)
        stored: dict[str, Any] = {
            "value": self.value,
            "description": self.description,
            "created_at": created,
            # A new entry was created and updated at once: format the moment once.
            "updated_at": (
                created if self.updated_at == self.created_at else format_time(self.updated_at)
            ),
            "update_count": self.update_count,
            "importance": self.importance,
            "expires_at_turn": self.expires_at_turn,
            "expires_at": format_time(self.expires_at) if self.expires_at else None,
            "type": self.type,
            "status": self.status,
            "provenance": self.provenance.to_stored() if self.provenance else None,
        }
        if self.supersedes:  # only when set, so entries without it keep their stored bytes
            stored["supersedes"] = list(self.supersedes)
        if self.last_recalled_at is not None:  # likewise: absent until the first recall
            stored["last_recalled_at"] = format_time(self.last_recalled_at)
        return stored

    @classmethod
    def from_stored(
        cls, key: str, data: Mapping[str, Any], *, share: dict[str, str] | None = None
    ) -> MemoryEntry:
        """Rebuild an entry from a stored item value (strictly: every field is checked).

        Parsed entries are kept per scope by the memory engine's cache, not here.

        Args:
            key: The item's key.
            data: The item's value.
            share: A dict kept across the entries of one read: an entry whose description
                (or type) equals one read before gets the same string object, so a scope
                whose entries repeat a description holds it once.

        Raises:
            ValueError: If the value is not a memory entry, or a field has the wrong type.
        """
        if _NATIVE_Z and cls is MemoryEntry and type(data) is dict:
            entry = _read_common(key, data, share)
            if entry is not None:
                return entry
        return cls._parse(key, data, share)

    @classmethod
    def _parse(
        cls, key: str, data: Mapping[str, Any], share: dict[str, str] | None = None
    ) -> MemoryEntry:
        # Strict: a value written by hand or by another program with a wrong field type must
        # fail here, with the field named, not later in a render or a compile.
        value = data.get("value")
        if not isinstance(value, str):
            msg = f"The item {key!r} is not a memory entry: its 'value' field is not a string."
            raise ValueError(msg)
        provenance = data.get("provenance")
        if provenance is not None and not isinstance(provenance, Mapping):
            raise _bad_field(key, "provenance", provenance, "an object")
        supersedes = data.get("supersedes") or []
        if not isinstance(supersedes, list) or not all(isinstance(k, str) for k in supersedes):
            raise _bad_field(key, "supersedes", supersedes, "a list of keys")
        status = data.get("status", "active")
        if status not in ("active", "quarantined"):
            raise _bad_field(key, "status", status, "'active' or 'quarantined'")
        created_at = _time(key, data, "created_at", required=True)
        same_moment = data.get("updated_at") == data.get("created_at")  # a never-updated entry
        # Every field is checked as it is filled: fill a blank of the same layout with plain
        # slot stores, then make it a MemoryEntry (a frozen instance would need one
        # object.__setattr__ per field, which costs more than the parse on a cold read).
        entry = _Blank()
        entry.key = key
        entry.value = value
        entry.created_at = created_at
        entry.updated_at = (
            created_at if same_moment else _time(key, data, "updated_at", required=True)
        )
        entry.description = _optional(key, data, "description", str, "a string")
        if share is not None and entry.description is not None:
            entry.description = share.setdefault(entry.description, entry.description)
        entry.update_count = _count(key, data)
        entry.importance = _number(key, data, "importance")
        entry.expires_at_turn = _optional(key, data, "expires_at_turn", int, "an integer")
        entry.expires_at = _time(key, data, "expires_at")
        entry.type = _optional(key, data, "type", str, "a string")
        if share is not None and entry.type is not None:
            entry.type = share.setdefault(entry.type, entry.type)
        entry.status = "active" if status == "active" else "quarantined"  # not a copy each
        entry.provenance = _provenance(provenance) if provenance is not None else None
        entry.supersedes = tuple(supersedes) if supersedes else ()
        entry.last_recalled_at = _time(key, data, "last_recalled_at")
        if cls is not MemoryEntry:  # a subclass may add fields or a __dict__: its own init
            return cls(**{name: getattr(entry, name) for name in _Blank.__slots__})
        entry.__class__ = MemoryEntry  # type: ignore[assignment]
        return entry  # type: ignore[return-value]


def entries_from_stored(
    pairs: Iterable[tuple[str, Any]], share: dict[str, str] | None = None
) -> tuple[list[MemoryEntry], list[tuple[str, Exception]]]:
    """`MemoryEntry.from_stored` over many `(key, value)` pairs, in one loop.

    The same entries, in the same order, as calling `from_stored` on each pair (a value of
    the layout `to_stored` writes is read in one pass, any other strictly), without a call
    of `from_stored` per entry: a whole scope's read at 10,000 entries.

    Args:
        pairs: Item keys and values.
        share: As in `MemoryEntry.from_stored`, kept across all the pairs.

    Returns:
        The entries read, and for each pair that is not a readable entry its key and the
        error `from_stored` raises for it (a `ValueError`, `TypeError` or `KeyError`).

    Example:
        ```python
        from langchain_contextchef.entry import entries_from_stored

        moment = "2025-01-01T00:00:00Z"
        stored = {"value": "x", "created_at": moment, "updated_at": moment}
        entries, damaged = entries_from_stored([("a", stored), ("b", {})])
        assert [e.key for e in entries] == ["a"] and damaged[0][0] == "b"
        ```
    """
    entries: list[MemoryEntry] = []
    damaged: list[tuple[str, Exception]] = []
    keep = entries.append
    fast = _read_common if _NATIVE_Z else None
    strict = MemoryEntry._parse
    for key, data in pairs:
        try:
            entry = fast(key, data, share) if fast is not None and type(data) is dict else None
            keep(entry if entry is not None else strict(key, data, share))
        except (ValueError, TypeError, KeyError) as exc:
            damaged.append((key, exc))
    return entries, damaged


_fromisoformat = datetime.fromisoformat


_WRITTEN = operator.itemgetter(
    "value",
    "created_at",
    "updated_at",
    "update_count",
    "description",
    "type",
    "status",
    "importance",
    "expires_at_turn",
    "expires_at",
    "provenance",
)
_WRITTEN_COUNT = 11


def _is_utc_text(text: Any) -> bool:
    """Whether `text` has the form `format_time` writes (which `fromisoformat` reads as UTC)."""
    return type(text) is str and len(text) == 27 and text[-1] == "Z"


def _read_common(
    key: str, data: dict[str, Any], share: dict[str, str] | None
) -> MemoryEntry | None:
    """`MemoryEntry._parse` for the layout `to_stored` writes, in one pass; `None` otherwise.

    Only exact types are taken (a `str`, an `int`, `None`, times as `format_time` writes
    them, no supersedes, no recall time); anything else returns `None` and the strict parse
    reads it (and names what is wrong), so both give the same entry for the same value.
    From Python 3.11 only (`fromisoformat` reads the `Z`).
    """
    try:  # every field `to_stored` always writes, in one call
        (
            value,
            created,
            updated,
            count,
            description,
            kind,
            status,
            importance,
            turn,
            expires,
            provenance,
        ) = _WRITTEN(data)
    except KeyError:
        return None
    if len(data) != _WRITTEN_COUNT and (
        data.get("supersedes") or data.get("last_recalled_at") is not None
    ):
        return None
    if (
        type(value) is not str
        or type(created) is not str
        or len(created) != 27
        or created[-1] != "Z"
        or type(count) is not int
        or count < 1
        or (description is not None and type(description) is not str)
        or (kind is not None and type(kind) is not str)
        or status not in ("active", "quarantined")
        or (importance is not None and type(importance) not in (float, int))
        or (turn is not None and type(turn) is not int)
        or (provenance is not None and type(provenance) is not dict)
    ):
        return None
    try:
        created_at = _fromisoformat(created)
        if updated == created:
            updated_at = created_at
        elif _is_utc_text(updated):
            updated_at = _fromisoformat(cast("str", updated))
        else:
            return None
        if expires is not None:
            if not _is_utc_text(expires):
                return None
            expires = _fromisoformat(expires)
    except ValueError:
        return None
    if share is not None:
        if description is not None:
            description = share.setdefault(description, description)
        if kind is not None:
            kind = share.setdefault(kind, kind)
    entry = _Blank()
    entry.key = key
    entry.value = value
    entry.created_at = created_at
    entry.updated_at = updated_at
    entry.description = description
    entry.update_count = count
    entry.importance = importance
    entry.expires_at_turn = turn
    entry.expires_at = expires
    entry.type = kind
    entry.status = "active" if status == "active" else "quarantined"  # the constants
    entry.provenance = _provenance(provenance) if provenance is not None else None
    entry.supersedes = ()
    entry.last_recalled_at = None
    entry.__class__ = MemoryEntry  # type: ignore[assignment]
    return entry  # type: ignore[return-value]


class _Blank:
    """A mutable object with `MemoryEntry`'s slots, in the same order: the same layout.

    `MemoryEntry._parse` fills one and turns it into a `MemoryEntry` by assigning its class.
    """

    __slots__ = MemoryEntry.__slots__

    key: str
    value: str
    created_at: datetime
    updated_at: datetime
    description: str | None
    update_count: int
    importance: float | None
    expires_at_turn: int | None
    expires_at: datetime | None
    type: str | None
    status: EntryStatus
    provenance: Provenance | None
    supersedes: tuple[str, ...]
    last_recalled_at: datetime | None


# Most entries share one of a few provenances (written by the model, nothing else known):
# parsed once each, as the instances are immutable.
_COMMON_PROVENANCE: dict[Any, Provenance] = {}


def _provenance(data: Mapping[str, Any]) -> Provenance:
    if len(data) <= 6 and all(data.get(name) is None for name in _PROVENANCE_DETAILS):
        written_by = data.get("written_by", "developer")
        if isinstance(written_by, str) and len(_COMMON_PROVENANCE) < 64:
            shared = _COMMON_PROVENANCE.get(written_by)
            if shared is None:
                shared = _COMMON_PROVENANCE[written_by] = Provenance.from_stored(data)
            return shared
    return Provenance.from_stored(data)


_PROVENANCE_DETAILS = ("tool_call_id", "observed_at", "source", "confidence", "sensitivity")


def _bad_field(key: str, name: str, value: Any, expected: str) -> ValueError:
    return ValueError(
        f"The memory entry {key!r} is damaged: its {name!r} field should be {expected}, "
        f"got {type(value).__name__} {value!r:.60}."
    )


def _optional(key: str, data: Mapping[str, Any], name: str, kind: type, expected: str) -> Any:
    value = data.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, kind)):
        raise _bad_field(key, name, value, f"{expected} or null")
    return value


def _number(key: str, data: Mapping[str, Any], name: str) -> float | None:
    value = data.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise _bad_field(key, name, value, "a number or null")
    return value


def _count(key: str, data: Mapping[str, Any]) -> int:
    value = data.get("update_count", 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _bad_field(key, "update_count", value, "a positive integer")
    return value


def _time(key: str, data: Mapping[str, Any], name: str, *, required: bool = False) -> Any:
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise _bad_field(key, name, value, "an ISO-8601 time" + ("" if required else " or null"))
    try:
        return parse_time(value)
    except ValueError as exc:
        raise _bad_field(key, name, value, "an ISO-8601 time") from exc


_PAUSE_LOCK = threading.Lock()
_pauses = 0  # how many threads are inside `collector_paused` now
_resume = False  # whether the collector was enabled when the first of them came in


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a whole scope is parsed and indexed.

    A cold read builds tens of thousands of small objects that form no reference cycles
    (entries, their features, postings). With the collector on, their allocation triggers
    collections that walk every object the process holds, several times per read: about
    half of a cold compile at 10,000 entries. Inside this block it does not run; it is
    enabled again when the last thread inside leaves (only if it was enabled before), and
    its next collection then looks at the new objects once. Reference counting still frees
    everything as usual.

    Example:
        ```python
        import gc
        from langchain_contextchef.entry import collector_paused

        was = gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() == was
        ```
    """
    global _pauses, _resume
    with _PAUSE_LOCK:
        if not _pauses:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _PAUSE_LOCK:
            _pauses -= 1
            if not _pauses and _resume:
                gc.enable()


def history_key(key: str, version: int) -> str:
    """The key of one archived version in the history namespace: `<key>@<version>`.

    Versions are digits after the last `@`, so the form is unambiguous for any key (a key
    may itself contain `@`). Stores encode whatever characters a key holds.

    Example:
        ```python
        from langchain_contextchef.entry import history_key

        assert history_key("home_city", 3) == "home_city@3"
        ```
    """
    return f"{key}@{version}"


@dataclass(frozen=True)
class HistoryRecord:
    """One version of an entry, as kept in `scope + ("memory_history",)`.

    Attributes:
        key: The entry's key.
        version: The version this record holds (the entry's `update_count` at the time).
        status: Why the version left memory (`updated`, `deleted`, `superseded`, `expired`),
            or `current` for the live version that `Memory.history` lists last.
        entry: The entry as it was at that version.
        recorded_at: When the version left memory (`None` for `current`).
        changed_by: Who replaced or removed it (`None` for expiry and `current`).
        tool_call_id: The model's tool call id, when a model write caused the change.
        superseded_by: The key of the entry that superseded this one.
        note: Free text about the cause, e.g. `reverted to version 2`.
    """

    key: str
    version: int
    status: HistoryStatus
    entry: MemoryEntry
    recorded_at: datetime | None = None
    changed_by: WrittenBy | None = None
    tool_call_id: str | None = None
    superseded_by: str | None = None
    note: str | None = None

    def to_stored(self) -> dict[str, Any]:
        """Return the JSON object stored as the history item's value."""
        return {
            "key": self.key,
            "version": self.version,
            "status": self.status,
            "recorded_at": format_time(self.recorded_at) if self.recorded_at else None,
            "changed_by": self.changed_by,
            "tool_call_id": self.tool_call_id,
            "superseded_by": self.superseded_by,
            "note": self.note,
            "entry": self.entry.to_stored(),
        }

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> HistoryRecord:
        """Rebuild a record from a stored history item value.

        Raises:
            ValueError: If the value does not look like a history record.
        """
        key, entry = data.get("key"), data.get("entry")
        if not isinstance(key, str) or not isinstance(entry, Mapping):
            msg = "Not a memory history record: it needs a string 'key' and an 'entry' object."
            raise ValueError(msg)
        return cls(
            key=key,
            version=int(data.get("version", 0)),
            status=data.get("status", "updated"),
            entry=MemoryEntry.from_stored(key, entry),
            recorded_at=_opt_time(data.get("recorded_at")),
            changed_by=data.get("changed_by"),
            tool_call_id=data.get("tool_call_id"),
            superseded_by=data.get("superseded_by"),
            note=data.get("note"),
        )


@dataclass(frozen=True)
class MemoryChangeEvent:
    """A change to memory, passed to `on_memory_changed` and sent as a LangChain custom event.

    Attributes:
        type: `set`, `delete`, `expire`, `supersede` (retired by a newer entry), or `evict`
            (removed to keep memory within `MemoryConfig.max_entries`).
        key: The entry's key.
        value: The new value for `set`, else `None`.
        old_value: The value before the change, or `None` when there was none.
        scope: The namespace prefix of the memory that changed.
    """

    type: Literal["set", "delete", "expire", "supersede", "evict"]
    key: str
    value: str | None
    old_value: str | None
    scope: tuple[str, ...] = ()
