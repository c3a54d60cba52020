"""What every memory plan works on: one scope's namespaces, its config and its clock.

Plans are module-level functions over a `MemoryContext`; they never see the store (the driver
holds it) nor the `Memory` facade. This module also builds the ops plans send and reads their
answers, so the layout of a scope in the store is spelled in one place:

* `scope + ("memory",)`: one item per entry;
* `scope + ("memory_meta",)`: the turn clock, the eviction note, and the last version of each
  key that left memory;
* `scope + ("memory_history",)`: every replaced, deleted, superseded or expired version;
* `scope + ("notes",)`: the model's scratch notes (`context://notes/`);
* `scope + ("memory_audit",)` and `scope + ("memory_proposals",)`: the audit trail and the
  writes held for consent (see `_audit`, `_consent`).
"""

from __future__ import annotations

import logging
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import islice
from typing import Any, Literal, TypeVar

from langgraph.store.base import GetOp, Item, PutOp, SearchOp

from langchain_contextchef._plan import Io, Plan, Unreadable, gather, namespaces_under
from langchain_contextchef.entry import MemoryEntry, entries_from_stored
from langchain_contextchef.errors import DamagedEntryError
from langchain_contextchef.memory._cache import ScopeSlot, slot_for
from langchain_contextchef.memory.config import MemoryConfig
from langchain_contextchef.ttl import ParsedTTL, parse_ttl

__all__ = [
    "AUDIT_NAMESPACE",
    "CLOCK_KEY",
    "EVICTED_KEY",
    "FORGET_NAMESPACES",
    "HISTORY_NAMESPACE",
    "MEMORY_NAMESPACE",
    "META_NAMESPACE",
    "NOTES_NAMESPACE",
    "PROPOSALS_NAMESPACE",
    "MemoryContext",
    "MAX_TURN",
    "clock_op",
    "clock_turn",
    "recovered_turn",
    "now_utc",
    "scopes_under",
    "entries_and_damaged",
    "entries_of",
    "entry_of",
    "entry_op",
    "checked_entry",
    "unreadable_keys",
    "entry_put",
    "index_fields_of",
    "evicted_op",
    "own",
    "read_all",
    "read_entries",
    "read_many",
    "read_items",
    "read_one",
    "read_turn",
    "scan_op",
    "turn_of",
]

MEMORY_NAMESPACE = "memory"
"""The label under a scope that holds memory entries."""

META_NAMESPACE = "memory_meta"
"""The label under a scope that holds the turn clock (and the last version of removed keys)."""

HISTORY_NAMESPACE = "memory_history"
"""The label under a scope that keeps every replaced, deleted, superseded or expired version."""

NOTES_NAMESPACE = "notes"
"""The label under a scope that holds the model's notes (`context://notes/`)."""

AUDIT_NAMESPACE = "memory_audit"
"""The label under a scope that holds the audit trail (`MemoryConfig(audit=True)`)."""

PROPOSALS_NAMESPACE = "memory_proposals"
"""The label under a scope that holds writes awaiting, or settled by, a person's consent."""

FORGET_NAMESPACES: tuple[str, ...] = (
    MEMORY_NAMESPACE,
    HISTORY_NAMESPACE,
    META_NAMESPACE,
    NOTES_NAMESPACE,
    AUDIT_NAMESPACE,
    PROPOSALS_NAMESPACE,
)
"""Every label under a scope: what `Memory.forget` empties and what makes a scope exist."""


def scopes_under(prefix: Sequence[str] = ()) -> Plan[list[tuple[str, ...]]]:
    """Every scope under `prefix` that holds anything of its own (`FORGET_NAMESPACES`), sorted.

    The one answer to "which scopes does this store hold": `purge_store` visits these and
    `contextchef scopes` lists them.
    """
    namespaces = yield from namespaces_under(prefix)
    return sorted({ns[:-1] for ns in namespaces if ns and ns[-1] in FORGET_NAMESPACES})


CLOCK_KEY = "clock"
"""The item beside the entries that holds the turn clock."""

EVICTED_KEY = "evicted"
"""The item beside the turn clock that lists keys evicted since the last compile."""

logger = logging.getLogger(__name__)

ItemT = TypeVar("ItemT", bound=Item)

# One search must return every item of a namespace: a compile reads the whole scope at once.
BULK_LIMIT = 1_000_000


def now_utc() -> datetime:
    """The default clock: now, as an aware UTC datetime."""
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class MemoryContext:
    """One resolved scope, its config and its clock: the only thing plans receive.

    Attributes:
        scope: The namespace prefix, already resolved (no templates).
        config: The memory's behaviour.
        now: Returns "now" as an aware datetime.
        indexed: Whether the store has a vector index, so semantic search can rank entries.
        store: The store object, for its identity only: it keys the process's cached slot
            of this scope (plans never do I/O through it). `None` disables the cache.
        newest_first: Whether the store's search lists the most recently written item
            first, so a compile can notice a write that bypassed the package.
        index_fields: What entry writes ask the store to embed: `False` (the store has no
            vector index), `None` (the fields the developer configured on the store's
            index), or our default, the entry's key, description and value as one text.
        entries_ns: `scope + ("memory",)`.
        meta_ns: `scope + ("memory_meta",)`.
        history_ns: `scope + ("memory_history",)`.
        notes_ns: `scope + ("notes",)`.
        default_ttl: `config.default_ttl`, parsed.
    """

    scope: tuple[str, ...]
    config: MemoryConfig
    now: Callable[[], datetime] = now_utc
    indexed: bool = False
    store: Any = field(default=None, repr=False, compare=False)
    newest_first: bool = False
    index_fields: list[str] | Literal[False] | None = False
    entries_ns: tuple[str, ...] = field(init=False)
    meta_ns: tuple[str, ...] = field(init=False)
    history_ns: tuple[str, ...] = field(init=False)
    notes_ns: tuple[str, ...] = field(init=False)
    default_ttl: ParsedTTL = field(init=False, repr=False)

    def __post_init__(self) -> None:
        scope = tuple(self.scope)
        object.__setattr__(self, "scope", scope)
        object.__setattr__(self, "entries_ns", (*scope, MEMORY_NAMESPACE))
        object.__setattr__(self, "meta_ns", (*scope, META_NAMESPACE))
        object.__setattr__(self, "history_ns", (*scope, HISTORY_NAMESPACE))
        object.__setattr__(self, "notes_ns", (*scope, NOTES_NAMESPACE))
        object.__setattr__(self, "default_ttl", parse_ttl(self.config.default_ttl))

    def slot(self) -> ScopeSlot | None:
        """The process's cached slot of this scope, looked up now (see `_cache`)."""
        return slot_for(self.store, self.scope) if self.store is not None else None

    @property
    def allowed_keys(self) -> tuple[str, ...] | None:
        """The keys the model may write, or `None` for any key."""
        keys = self.config.allowed_keys
        return tuple(keys) if keys is not None else None

    @property
    def memory_types(self) -> tuple[str, ...] | None:
        """The memory types writes may carry, or `None` for any type."""
        types = self.config.memory_types
        return tuple(types) if types is not None else None


# ---- ops and their answers --------------------------------------------------------------------


def scan_op(namespace: tuple[str, ...], *, filter: dict[str, Any] | None = None) -> SearchOp:
    """The op that reads every item under `namespace` in one round trip (answer with `own`)."""
    return SearchOp(namespace, filter=filter, limit=BULK_LIMIT, refresh_ttl=False)


def own(namespace: tuple[str, ...], items: Sequence[ItemT]) -> list[ItemT]:
    """The items of exactly `namespace` among search results (a search matches a prefix)."""
    return [item for item in items if tuple(item.namespace) == namespace]


ABOUT_FIELD = "about"
"""The stored field that holds what identifies an entry (key, description, value) for the
store's vector index; written only when the store has an index without configured fields."""


def index_fields_of(store: Any) -> list[str] | Literal[False] | None:
    """What entry writes on `store` embed (see `MemoryContext.index_fields`)."""
    index = getattr(store, "index_config", None)
    if not index:
        return False
    return None if index.get("fields") else [ABOUT_FIELD]


def about_text(entry: MemoryEntry) -> str:
    """What identifies an entry, as one text to embed: its key, description and value."""
    head = entry.key.replace("_", " ").replace("-", " ")
    if entry.description:
        head += f" ({entry.description})"
    return f"{head}: {entry.value}"


def entry_put(ctx: MemoryContext, entry: MemoryEntry, before: MemoryEntry | None) -> PutOp:
    """The op that stores `entry`, embedding it only when the store indexes and its text changed.

    `before` is the version it replaces: when what the index holds for it is unchanged (a
    new type, importance or expiry), the store keeps the vectors it has (`index=False`).
    """
    value = entry.to_stored()
    if ctx.index_fields is False:
        return PutOp(ctx.entries_ns, entry.key, value, index=False)
    if ctx.index_fields is None:  # the developer's fields: re-embed unless the texts stand
        same = before is not None and (before.value, before.description) == (
            entry.value,
            entry.description,
        )
        return PutOp(ctx.entries_ns, entry.key, value, index=False if same else None)
    value[ABOUT_FIELD] = about_text(entry)
    same = before is not None and about_text(before) == value[ABOUT_FIELD]
    return PutOp(ctx.entries_ns, entry.key, value, index=False if same else [ABOUT_FIELD])


def entry_op(ctx: MemoryContext, key: str) -> GetOp:
    """The op that reads the entry at `key` (answer with `entry_of`)."""
    return GetOp(ctx.entries_ns, key, refresh_ttl=False)


def entry_of(item: Item | None) -> MemoryEntry | None:
    """The entry a `GetOp` found, or `None`.

    Raises:
        DamagedEntryError: If the stored item cannot be read as an entry.
    """
    if item is None:
        return None
    try:
        return MemoryEntry.from_stored(item.key, item.value)
    except (ValueError, TypeError, KeyError) as exc:
        raise DamagedEntryError(item.key, str(exc)) from exc


UNREADABLE_REASON = (
    "The store holds an item at this key that it cannot read (a file that is not valid "
    "JSON, not an item, or that names another namespace or key)."
)


def checked_entry(ctx: MemoryContext, key: str, item: Item | None) -> Plan[MemoryEntry | None]:
    """The entry a `GetOp` of `key` found, or `None` when the key really holds nothing.

    A store can hold an item it cannot read (a `FileSystemStore` file broken by hand),
    which its `get` answers as absent; that key is damaged, not free.

    Raises:
        DamagedEntryError: If the stored item cannot be read as an entry, or cannot be read.
    """
    if item is None:
        if (yield Unreadable(ctx.entries_ns, (key,))):
            raise DamagedEntryError(key, UNREADABLE_REASON)
        return None
    return entry_of(item)


def unreadable_keys(
    ctx: MemoryContext, keys: Sequence[str] | None = None, *, read: bool = False
) -> Plan[list[str]]:
    """The entry keys (of `keys`, or all) whose item the store holds but cannot read.

    `read`: the plan has just read the whole scope, so the store answers from that read.
    """
    if keys is not None and not keys:
        return []
    found: list[str] = yield Unreadable(ctx.entries_ns, None if keys is None else tuple(keys), read)
    for key in found:
        logger.warning("Skipping the unreadable memory entry %r in %r.", key, ctx.scope)
    return found


_CREATION_ORDER = operator.attrgetter("created_at", "key")
_CREATED = operator.attrgetter("created_at")
_NAMESPACE = operator.attrgetter("namespace")
_KEY = operator.attrgetter("key")
_VALUE = operator.attrgetter("value")


def entries_and_damaged(
    ctx: MemoryContext, items: Sequence[Item]
) -> tuple[list[MemoryEntry], list[str]]:
    """The entries among a scan's results in creation order, and the keys that are damaged.

    A damaged item is skipped with a logged warning, so one bad item never blocks its scope.
    The order is the same on every backend, whatever the store's own order, so a compile's
    block is byte-stable until memory changes.
    """
    namespace = ctx.entries_ns
    # A scan of the namespace alone holds only its own items: checked in one C-level count.
    mine = items if list(map(_NAMESPACE, items)).count(namespace) == len(items) else None
    held = own(namespace, items) if mine is None else mine
    # Equal descriptions held once (`MemoryEntry.from_stored`'s `share`).
    entries, broken = entries_from_stored(zip(map(_KEY, held), map(_VALUE, held), strict=True), {})
    for key, exc in broken:
        logger.warning("Skipping the damaged memory entry %r in %r: %s", key, ctx.scope, exc)
    _creation_sorted(entries)
    return entries, sorted(key for key, _ in broken)


def _creation_sorted(entries: list[MemoryEntry]) -> None:
    """Sort `entries` in place in creation order, key as tiebreak (`_CREATION_ORDER`).

    By creation time alone first (a C-level key, no pair per entry); only when two entries
    were created at the same moment, by the pair. Both give the same order.
    """
    entries.sort(key=_CREATED)
    times = list(map(_CREATED, entries))
    if any(map(operator.eq, times, islice(times, 1, None))):
        entries.sort(key=_CREATION_ORDER)


def entries_of(ctx: MemoryContext, items: Sequence[Item]) -> list[MemoryEntry]:
    """The readable entries among a scan's results, in creation order (damaged ones skipped)."""
    return entries_and_damaged(ctx, items)[0]


def clock_op(ctx: MemoryContext) -> GetOp:
    """The op that reads the turn clock (answer with `turn_of`)."""
    return GetOp(ctx.meta_ns, CLOCK_KEY, refresh_ttl=False)


MAX_TURN = 2**53 - 2
"""The highest turn a clock may hold: one more must still be an integer JSON keeps exactly."""


def clock_turn(clock: Item | None) -> int | None:
    """The turn a `clock_op` found (0 before the first compile), or `None` when it is damaged.

    Damaged: a `turn` that is not an int (`"abc"`, a bool, a float), negative, or beyond
    `MAX_TURN`. A compile recovers a damaged clock (see `_compile_read`); nothing raises.
    """
    if clock is None:
        return 0
    turn = clock.value.get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= MAX_TURN:
        return None
    return turn


def turn_of(clock: Item | None) -> int:
    """The turn a `clock_op` found (0 before the first compile, and while it is damaged).

    Writes and reads count from 0 on a damaged clock rather than fail; the next compile
    recovers the clock from the entries and reports it (`CompileMeta.repaired`).
    """
    turn = clock_turn(clock)
    return 0 if turn is None else turn


def recovered_turn(entries: Sequence[MemoryEntry]) -> int:
    """The turn a damaged clock recovers to: the latest turn the stored entries allow.

    An entry with a turn-based expiry is still stored only while the clock is below its
    `expires_at_turn` (the sweep at that turn retires it), so the clock stood at most one
    below the smallest one. Recovering there keeps the clock as close to where it was as
    the entries show while no entry expires early because of the damage. Without
    turn-based entries the turn decides nothing, and the clock restarts at 0.
    """
    turns = [
        e.expires_at_turn
        for e in entries
        if isinstance(e.expires_at_turn, int) and not isinstance(e.expires_at_turn, bool)
    ]
    return min(max(min(turns) - 1, 0), MAX_TURN) if turns else 0


def evicted_op(ctx: MemoryContext) -> GetOp:
    """The op that reads the eviction note (keys evicted since the last compile)."""
    return GetOp(ctx.meta_ns, EVICTED_KEY, refresh_ttl=False)


# ---- read plans -------------------------------------------------------------------------------


def read_one(ctx: MemoryContext, key: str) -> Plan[MemoryEntry | None]:
    """The entry at `key`, or `None`."""
    (item,) = yield Io([entry_op(ctx, key)])
    return (yield from checked_entry(ctx, key, item))


def read_many(ctx: MemoryContext, keys: Sequence[str]) -> Plan[list[MemoryEntry | None]]:
    """The entry at each key (`None` where nothing is stored), in one round trip."""
    got = yield from gather(items=[entry_op(ctx, key) for key in keys])
    missing = tuple(key for key, item in zip(keys, got.items, strict=True) if item is None)
    if missing:
        broken = yield Unreadable(ctx.entries_ns, missing)
        if broken:
            raise DamagedEntryError(broken[0], UNREADABLE_REASON)
    return [entry_of(item) for item in got.items]


def read_entries(ctx: MemoryContext) -> Plan[list[MemoryEntry]]:
    """Every entry of the scope, in creation order."""
    (items,) = yield Io([scan_op(ctx.entries_ns)])
    return entries_of(ctx, items)


def read_all(ctx: MemoryContext) -> Plan[tuple[list[MemoryEntry], int]]:
    """Every entry of the scope and the turn clock, in one round trip."""
    got = yield from gather(items=scan_op(ctx.entries_ns), clock=clock_op(ctx))
    return entries_of(ctx, got.items), turn_of(got.clock)


def read_items(namespace: tuple[str, ...]) -> Plan[list[Item]]:
    """Every item of exactly `namespace` (the notes, for instance)."""
    (items,) = yield Io([scan_op(namespace)])
    return own(namespace, items)


def read_turn(ctx: MemoryContext) -> Plan[int]:
    """The turn clock."""
    (clock,) = yield Io([clock_op(ctx)])
    return turn_of(clock)
