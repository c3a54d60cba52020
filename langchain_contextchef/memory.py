"""`Memory`: the `memory` namespace of a scope, with TTL, a turn clock, validation and hooks.

Entries are LangGraph items under `scope + ("memory",)`; the turn clock is one item under
`scope + ("memory_meta",)`, beside them, so a new process on the same store continues the count.

Two write paths:

* the developer path (`set`, `delete`) writes directly and bypasses `allowed_keys` and the veto;
* the model path (`create_memory`, `update_memory`, `delete_memory`) checks `allowed_keys`,
  then existence, then the `on_memory_update` veto, and returns a `WriteResult` that says
  exactly what happened, so tools can tell the model.

Every operation is written once, as a plan executed by `_driver.run_sync` or `run_async`.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import Memory, MemoryConfig

    memory = Memory(InMemoryStore(), MemoryConfig(allowed_keys=["lang"]))
    memory.set("persona", "A terse senior engineer")
    assert memory.get("persona") == "A terse senior engineer"
    assert memory.create_memory("tone", "dry").status == "not_allowed"
    assert memory.create_memory("lang", "Python").status == "created"
    ```
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Literal, TypeAlias

from langgraph.store.base import BaseStore, GetOp, Item, PutOp, SearchOp

from langchain_contextchef._driver import Atomic, Call, Emit, Io, Plan, run_async, run_sync
from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry, Provenance
from langchain_contextchef.prompt import MemoryPlacement
from langchain_contextchef.ttl import TTL, Turns, parse_ttl, resolve_ttl

__all__ = [
    "MEMORY_NAMESPACE",
    "UNSET",
    "META_NAMESPACE",
    "CompileRead",
    "Memory",
    "MemoryConfig",
    "WriteResult",
    "WriteStatus",
]

MEMORY_NAMESPACE = "memory"
"""The label under a scope that holds memory entries."""

META_NAMESPACE = "memory_meta"
"""The label under a scope that holds the turn clock."""

_CLOCK_KEY = "clock"
_BULK_LIMIT = 1_000_000  # one bulk read must see every entry; pages beyond are read on demand

EntryList: TypeAlias = list[MemoryEntry]
Selector: TypeAlias = Callable[[list[MemoryEntry]], Sequence[MemoryEntry]]
VetoHook: TypeAlias = Callable[[str, "str | None", "str | None"], "bool | Awaitable[bool]"]
ChangedHook: TypeAlias = Callable[[MemoryChangeEvent], "None | Awaitable[None]"]
ExpiredHook: TypeAlias = Callable[[MemoryEntry], "None | Awaitable[None]"]
WriteStatus: TypeAlias = Literal[
    "created", "updated", "deleted", "not_allowed", "not_found", "already_exists", "vetoed"
]


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
"""Marks an argument the caller did not pass (so `ttl=None` can mean "never expire")."""


@dataclass(frozen=True, kw_only=True)
class MemoryConfig:
    """How memory behaves. Construction-time config, so tool schemas stay static.

    Attributes:
        default_ttl: TTL for every write that does not pass one (`None`: never expire).
        allowed_keys: When set, the only keys the model may write; becomes the key enum of
            `create_memory` and is enforced again at dispatch. Developer writes are not limited.
        selector: Chooses what is injected, once per compile, after the expiry sweep; it gets
            the entries in creation order and may filter, sort or truncate them.
        memory_placement: Where the volatile memory data lands in the prompt.
        on_memory_update: The veto, `(key, new_value, old_value) -> bool`, run before every
            model write (`new_value` is `None` for a delete). `False` blocks the write.
        on_memory_changed: Notified after every set, delete and expiry.
        on_memory_expired: Called with each entry the sweep is about to delete.
    """

    default_ttl: TTL = None
    allowed_keys: Sequence[str] | None = None
    selector: Selector | None = None
    memory_placement: MemoryPlacement = "after_system"
    on_memory_update: VetoHook | None = None
    on_memory_changed: ChangedHook | None = None
    on_memory_expired: ExpiredHook | None = None

    def __post_init__(self) -> None:
        parse_ttl(self.default_ttl)  # fail at construction, not at the first write
        if self.allowed_keys is not None:
            keys = list(self.allowed_keys)
            if isinstance(self.allowed_keys, str) or not all(
                isinstance(k, str) and k for k in keys
            ):
                msg = "allowed_keys must be a list of non-empty strings, e.g. ['persona', 'lang']."
                raise ValueError(msg)
            if len(set(keys)) != len(keys):
                msg = f"allowed_keys has duplicates: {keys!r}."
                raise ValueError(msg)
            object.__setattr__(self, "allowed_keys", tuple(keys))
        if self.memory_placement not in ("after_system", "before_history_tail"):
            msg = (
                f"memory_placement must be 'after_system' or 'before_history_tail', "
                f"got {self.memory_placement!r}."
            )
            raise ValueError(msg)


@dataclass(frozen=True)
class WriteResult:
    """What a model-path write did.

    Attributes:
        status: `created`, `updated`, `deleted` (success) or `not_allowed`, `not_found`,
            `already_exists`, `vetoed` (nothing was written).
        key: The key the write addressed.
        entry: The entry after the write; for `already_exists` the current entry; else `None`.
        allowed_keys: The allowed keys, for `not_allowed` messages.
    """

    status: WriteStatus
    key: str
    entry: MemoryEntry | None = None
    allowed_keys: tuple[str, ...] | None = None

    @property
    def ok(self) -> bool:
        """Whether the write happened."""
        return self.status in ("created", "updated", "deleted")


@dataclass(frozen=True)
class CompileRead:
    """What one compile learned from memory, after sweep, advance and selection.

    Attributes:
        selected: The entries to inject, in the selector's order.
        entries: Every surviving entry, in creation order.
        expired_keys: Keys the sweep deleted, in creation order.
        turn: The turn clock after this compile advanced it (= compiles completed).
    """

    selected: list[MemoryEntry]
    entries: list[MemoryEntry]
    expired_keys: list[str]
    turn: int


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _order(entries: list[MemoryEntry]) -> list[MemoryEntry]:
    # Creation order, key as tiebreak: the same on every backend, whatever its own order.
    return sorted(entries, key=lambda e: (e.created_at, e.key))


def _check_key(key: object) -> str:
    if not isinstance(key, str) or not key.strip():
        msg = f"A memory key must be a non-empty string, got {key!r}."
        raise ValueError(msg)
    if "\x00" in key:
        msg = "A memory key cannot contain NUL characters."
        raise ValueError(msg)
    return key


def _check_text(name: str, value: object, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str):
        msg = f"The memory {name} must be a string, got {type(value).__name__}."
        raise TypeError(msg)


def _check_importance(importance: object) -> None:
    if importance is None:
        return
    if (
        isinstance(importance, bool)
        or not isinstance(importance, int | float)
        or not math.isfinite(importance)
    ):
        msg = f"importance must be a finite number or None, got {importance!r}."
        raise ValueError(msg)


class Memory:
    """Persistent key-value memory in one scope of a LangGraph store.

    Args:
        store: Any LangGraph `BaseStore` (`FileSystemStore`, `InMemoryStore`, `SqliteStore`,
            `PostgresStore`, ...). Async methods need a store with a working `abatch`.
        config: Memory behaviour; defaults to `MemoryConfig()`.
        scope: The namespace prefix of this memory, already resolved (no templates).
        clock: Returns "now" as an aware datetime; injectable for tests.
    """

    def __init__(
        self,
        store: BaseStore,
        config: MemoryConfig | None = None,
        *,
        scope: Sequence[str] = (),
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.store = store
        self.config = config or MemoryConfig()
        self.scope = tuple(scope)
        self.namespace = (*self.scope, MEMORY_NAMESPACE)
        self.meta_namespace = (*self.scope, META_NAMESPACE)
        self._now = clock or _utcnow
        self._default_ttl = parse_ttl(self.config.default_ttl)

    def __repr__(self) -> str:
        return f"Memory(scope={self.scope!r}, store={type(self.store).__name__})"

    @property
    def allowed_keys(self) -> tuple[str, ...] | None:
        """The keys the model may write, or `None` for any key."""
        keys = self.config.allowed_keys
        return tuple(keys) if keys is not None else None

    @property
    def placement(self) -> MemoryPlacement:
        """Where the memory data block lands in compiled prompts."""
        return self.config.memory_placement

    # ---- plans: every operation written once --------------------------------------------------

    def _entry_of(self, item: Item | None) -> MemoryEntry | None:
        return MemoryEntry.from_stored(item.key, item.value) if item is not None else None

    def _changed(self, event: MemoryChangeEvent) -> Plan[None]:
        if self.config.on_memory_changed is not None:
            yield Call(self.config.on_memory_changed, (event,), "on_memory_changed")
        yield Emit(
            "contextchef_memory_changed",
            {
                "type": event.type,
                "key": event.key,
                "value": event.value,
                "old_value": event.old_value,
                "scope": list(event.scope),
            },
        )

    def _read_one(self, key: str) -> Plan[MemoryEntry | None]:
        (item,) = yield Io([GetOp(self.namespace, key, refresh_ttl=False)])
        return self._entry_of(item)

    def _read_all(self) -> Plan[tuple[list[MemoryEntry], int]]:
        search = SearchOp(self.namespace, limit=_BULK_LIMIT, refresh_ttl=False)
        items, clock = yield Io([search, GetOp(self.meta_namespace, _CLOCK_KEY, refresh_ttl=False)])
        entries = [
            MemoryEntry.from_stored(item.key, item.value)
            for item in items
            if tuple(item.namespace) == self.namespace
        ]
        return _order(entries), self._turn_of(clock)

    @staticmethod
    def _turn_of(clock: Item | None) -> int:
        return int(clock.value.get("turn", 0)) if clock is not None else 0

    def _write(
        self,
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
    ) -> Plan[MemoryEntry]:
        now = self._now()
        parsed = self._default_ttl if ttl is UNSET else parse_ttl(ttl)
        expiry = resolve_ttl(parsed, turn=turn, now=now)
        if existing is None:
            entry = MemoryEntry(
                key=key,
                value=value,
                description=description,
                created_at=now,
                updated_at=now,
                update_count=1,
                importance=importance,
                expires_at_turn=expiry.at_turn,
                expires_at=expiry.at_time,
                type=type,
                provenance=provenance,
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
                provenance=provenance if provenance is not None else existing.provenance,
            )
        yield Io([PutOp(self.namespace, key, entry.to_stored(), index=["value"])])
        old = existing.value if existing is not None else None
        yield from self._changed(MemoryChangeEvent("set", key, value, old, self.scope))
        return entry

    def _set(
        self,
        key: str,
        value: str,
        *,
        description: str | None,
        ttl: Any,
        importance: float | None,
        type: str | None,
        provenance: Provenance | None,
    ) -> Plan[MemoryEntry]:
        _check_key(key)
        _check_text("value", value)
        _check_text("description", description, optional=True)
        _check_text("type", type, optional=True)
        _check_importance(importance)
        parsed = self._default_ttl if ttl is UNSET else parse_ttl(ttl)  # validate before I/O
        needs_turn = isinstance(parsed, Turns)
        ops: list[Any] = [GetOp(self.namespace, key, refresh_ttl=False)]
        if needs_turn:
            ops.append(GetOp(self.meta_namespace, _CLOCK_KEY, refresh_ttl=False))
        results = yield Io(ops)
        turn = self._turn_of(results[1]) if needs_turn else 0
        return (
            yield from self._write(
                key,
                value,
                description=description,
                ttl=ttl,
                importance=importance,
                type=type,
                provenance=provenance,
                existing=self._entry_of(results[0]),
                turn=turn,
            )
        )

    def _delete(self, key: str) -> Plan[bool]:
        _check_key(key)
        existing = yield from self._read_one(key)
        if existing is None:
            return False
        yield Io([PutOp(self.namespace, key, None)])
        yield from self._changed(MemoryChangeEvent("delete", key, None, existing.value, self.scope))
        return True

    def _not_allowed(self, key: str) -> WriteResult | None:
        allowed = self.allowed_keys
        if allowed is not None and key not in allowed:
            return WriteResult("not_allowed", key, allowed_keys=allowed)
        return None

    def _veto(self, key: str, value: str | None, old: str | None) -> Plan[bool]:
        hook = self.config.on_memory_update
        if hook is None:
            return True
        verdict = yield Call(hook, (key, value, old), "on_memory_update")
        return bool(verdict)

    def _model_write(
        self,
        key: str,
        value: str,
        *,
        description: str | None,
        provenance: Provenance | None,
        must_exist: bool,
    ) -> Plan[WriteResult]:
        _check_key(key)
        _check_text("value", value)
        _check_text("description", description, optional=True)
        refused = self._not_allowed(key)
        if refused is not None:
            return refused
        ops: list[Any] = [GetOp(self.namespace, key, refresh_ttl=False)]
        if isinstance(self._default_ttl, Turns):
            ops.append(GetOp(self.meta_namespace, _CLOCK_KEY, refresh_ttl=False))
        results = yield Io(ops)
        existing = self._entry_of(results[0])
        if must_exist and existing is None:
            return WriteResult("not_found", key)
        if not must_exist and existing is not None:
            return WriteResult("already_exists", key, existing)
        old = existing.value if existing is not None else None
        if not (yield from self._veto(key, value, old)):
            return WriteResult("vetoed", key)
        entry = yield from self._write(
            key,
            value,
            description=description,
            ttl=UNSET,
            importance=None,
            type=None,
            provenance=provenance,
            existing=existing,
            turn=self._turn_of(results[1]) if len(results) > 1 else 0,
        )
        return WriteResult("updated" if must_exist else "created", key, entry)

    def _model_delete(self, key: str) -> Plan[WriteResult]:
        _check_key(key)
        refused = self._not_allowed(key)
        if refused is not None:
            return refused
        existing = yield from self._read_one(key)
        if existing is None:
            return WriteResult("not_found", key)
        if not (yield from self._veto(key, None, existing.value)):
            return WriteResult("vetoed", key)
        yield Io([PutOp(self.namespace, key, None)])
        yield from self._changed(MemoryChangeEvent("delete", key, None, existing.value, self.scope))
        return WriteResult("deleted", key, existing)

    def _compile(self) -> Plan[CompileRead]:
        entries, turn = yield from self._read_all()
        now = self._now()
        expired = [e for e in entries if e.is_expired(turn=turn, now=now)]
        if expired:
            if self.config.on_memory_expired is not None:
                for entry in expired:
                    yield Call(self.config.on_memory_expired, (entry,), "on_memory_expired")
            yield Io([PutOp(self.namespace, e.key, None) for e in expired])
            for entry in expired:
                event = MemoryChangeEvent("expire", entry.key, None, entry.value, self.scope)
                yield from self._changed(event)
            gone = {e.key for e in expired}
            entries = [e for e in entries if e.key not in gone]

        def advance(current: dict[str, Any] | None) -> dict[str, Any]:
            return {"turn": int((current or {}).get("turn", turn)) + 1}

        clock = yield Atomic(self.meta_namespace, _CLOCK_KEY, advance, known={"turn": turn})
        visible = [e for e in entries if e.status == "active"]
        selector = self.config.selector
        selected = list(selector(list(visible))) if selector is not None else visible
        return CompileRead(selected, entries, [e.key for e in expired], int(clock["turn"]))

    def _snapshot(self) -> Plan[dict[str, Any]]:
        entries, turn = yield from self._read_all()
        return {
            "version": 1,
            "turn": turn,
            "entries": [{"key": e.key, **e.to_stored()} for e in entries],
        }

    def _restore(self, snapshot: Mapping[str, Any]) -> Plan[None]:
        restored = _parse_snapshot(snapshot)  # validate everything before touching the store
        current, _ = yield from self._read_all()
        keep = {e.key for e in restored[0]}
        ops: list[Any] = [PutOp(self.namespace, e.key, None) for e in current if e.key not in keep]
        ops += [PutOp(self.namespace, e.key, e.to_stored(), index=["value"]) for e in restored[0]]
        ops.append(PutOp(self.meta_namespace, _CLOCK_KEY, {"turn": restored[1]}, index=False))
        yield Io(ops)

    def _refuse_async_hooks(self, *names: str) -> None:
        # The driver can only notice an async hook once it has been called, which on a
        # compile is after the sweep has deleted entries and before the clock advances.
        # Checking up front keeps a sync call all-or-nothing.
        for name in names:
            hook = getattr(self.config, name)
            # `type(hook).__call__` catches objects with an `async def __call__`.
            if hook is not None and (
                inspect.iscoroutinefunction(hook)
                or inspect.iscoroutinefunction(type(hook).__call__)
            ):
                msg = (
                    f"The {name} hook is async, which a sync call cannot wait for. Use the "
                    "async method (e.g. `aread_for_compile`, `aset`) or give a sync hook."
                )
                raise TypeError(msg)

    # ---- developer path -----------------------------------------------------------------------

    def set(
        self,
        key: str,
        value: str,
        *,
        description: str | None = None,
        ttl: TTL | _Unset = UNSET,
        importance: float | None = None,
        type: str | None = None,
        provenance: Provenance | None = None,
    ) -> MemoryEntry:
        """Write an entry directly (developer path: no `allowed_keys`, no veto).

        Args:
            key: The entry's key.
            value: The text to remember.
            description: What the entry is for; `None` keeps the current description.
            ttl: A TTL (see `langchain_contextchef.ttl`); unset takes `default_ttl`, `None`
                never expires. A rewrite replaces the previous expiry wholesale.
            importance: Yours to set and interpret; `None` keeps the current one.
            type: An optional memory type such as `preference`; `None` keeps the current one.
            provenance: Where the fact came from; defaults to "written by the developer".

        Returns:
            The stored entry.

        Raises:
            ValueError: For an empty key or an invalid TTL or importance.
            TypeError: For a value or description that is not a string.
        """
        self._refuse_async_hooks("on_memory_changed")
        return run_sync(
            self._set(
                key,
                value,
                description=description,
                ttl=ttl,
                importance=importance,
                type=type,
                provenance=provenance,
            ),
            self.store,
        )

    async def aset(
        self,
        key: str,
        value: str,
        *,
        description: str | None = None,
        ttl: TTL | _Unset = UNSET,
        importance: float | None = None,
        type: str | None = None,
        provenance: Provenance | None = None,
    ) -> MemoryEntry:
        """Async `set`."""
        return await run_async(
            self._set(
                key,
                value,
                description=description,
                ttl=ttl,
                importance=importance,
                type=type,
                provenance=provenance,
            ),
            self.store,
        )

    def get(self, key: str) -> str | None:
        """Return the value stored at `key`, or `None`."""
        entry = self.get_entry(key)
        return entry.value if entry is not None else None

    async def aget(self, key: str) -> str | None:
        """Async `get`."""
        entry = await self.aget_entry(key)
        return entry.value if entry is not None else None

    def get_entry(self, key: str) -> MemoryEntry | None:
        """Return the whole entry stored at `key`, or `None`."""
        return run_sync(self._read_one(_check_key(key)), self.store)

    async def aget_entry(self, key: str) -> MemoryEntry | None:
        """Async `get_entry`."""
        return await run_async(self._read_one(_check_key(key)), self.store)

    def delete(self, key: str) -> bool:
        """Delete an entry directly (developer path). Returns whether something was deleted."""
        self._refuse_async_hooks("on_memory_changed")
        return run_sync(self._delete(key), self.store)

    async def adelete(self, key: str) -> bool:
        """Async `delete`."""
        return await run_async(self._delete(key), self.store)

    def list(self) -> EntryList:
        """Every entry in creation order, including expired ones not yet swept."""
        return run_sync(self._read_all(), self.store)[0]

    async def alist(self) -> EntryList:
        """Async `list`."""
        return (await run_async(self._read_all(), self.store))[0]

    def _read_turn(self) -> Plan[int]:
        (clock,) = yield Io([GetOp(self.meta_namespace, _CLOCK_KEY, refresh_ttl=False)])
        return self._turn_of(clock)

    @property
    def turn(self) -> int:
        """The persisted turn clock: how many compiles this scope has seen."""
        return run_sync(self._read_turn(), self.store)

    async def aturn(self) -> int:
        """Async `turn`."""
        return await run_async(self._read_turn(), self.store)

    # ---- model path ---------------------------------------------------------------------------

    def create_memory(
        self,
        key: str,
        value: str,
        description: str | None = None,
        *,
        provenance: Provenance | None = None,
    ) -> WriteResult:
        """Create an entry for the model: allowed keys, then "must not exist", then the veto."""
        self._refuse_async_hooks("on_memory_update", "on_memory_changed")
        plan = self._model_write(
            key, value, description=description, provenance=provenance, must_exist=False
        )
        return run_sync(plan, self.store)

    async def acreate_memory(
        self,
        key: str,
        value: str,
        description: str | None = None,
        *,
        provenance: Provenance | None = None,
    ) -> WriteResult:
        """Async `create_memory`."""
        plan = self._model_write(
            key, value, description=description, provenance=provenance, must_exist=False
        )
        return await run_async(plan, self.store)

    def update_memory(
        self,
        key: str,
        value: str,
        description: str | None = None,
        *,
        provenance: Provenance | None = None,
    ) -> WriteResult:
        """Update an entry for the model: allowed keys, then "must exist", then the veto."""
        self._refuse_async_hooks("on_memory_update", "on_memory_changed")
        plan = self._model_write(
            key, value, description=description, provenance=provenance, must_exist=True
        )
        return run_sync(plan, self.store)

    async def aupdate_memory(
        self,
        key: str,
        value: str,
        description: str | None = None,
        *,
        provenance: Provenance | None = None,
    ) -> WriteResult:
        """Async `update_memory`."""
        plan = self._model_write(
            key, value, description=description, provenance=provenance, must_exist=True
        )
        return await run_async(plan, self.store)

    def delete_memory(self, key: str) -> WriteResult:
        """Delete an entry for the model: allowed keys, then "must exist", then the veto."""
        self._refuse_async_hooks("on_memory_update", "on_memory_changed")
        return run_sync(self._model_delete(key), self.store)

    async def adelete_memory(self, key: str) -> WriteResult:
        """Async `delete_memory`."""
        return await run_async(self._model_delete(key), self.store)

    # ---- compile, snapshot --------------------------------------------------------------------

    def read_for_compile(self) -> CompileRead:
        """Sweep expired entries, advance the turn clock once, and select what to inject.

        One bulk read of the scope, the sweep (hooks, then one batched delete), the advance
        (atomic on stores that support it), then the selector, exactly once.
        """
        self._refuse_async_hooks("on_memory_expired", "on_memory_changed")
        return run_sync(self._compile(), self.store)

    async def aread_for_compile(self) -> CompileRead:
        """Async `read_for_compile`."""
        return await run_async(self._compile(), self.store)

    def snapshot(self) -> dict[str, Any]:
        """Return a JSON-serialisable copy of every entry and the turn clock."""
        return run_sync(self._snapshot(), self.store)

    async def asnapshot(self) -> dict[str, Any]:
        """Async `snapshot`."""
        return await run_async(self._snapshot(), self.store)

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        """Replace this scope's entries and turn clock with a snapshot's.

        Raises:
            ValueError: If the snapshot is malformed; the store is then left unchanged.
        """
        run_sync(self._restore(snapshot), self.store)

    async def arestore(self, snapshot: Mapping[str, Any]) -> None:
        """Async `restore`."""
        await run_async(self._restore(snapshot), self.store)


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
        key = _check_key(item.get("key"))
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
    _check_text("description", entry.description, optional=True)
    _check_text("type", entry.type, optional=True)
    _check_importance(entry.importance)
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
