"""What a process keeps of each scope between compiles, so a compile follows changes, not size.

A `ScopeSlot` holds one scope's parsed entries as of a *stamp*: the version marker every write
through the package advances in the same batch (see `_stamp`). A compile whose stamp is
unchanged reuses the slot and does O(1) store work; one that sees a newer stamp reads only
the keys the stamp's log names; only a cold or out-of-reach slot reads the whole scope.

Slots live in one registry per process, per store object and scope, evicted least recently
used when their entries together pass a byte budget (`set_cache_limit`), never all at once.
A plan looks its slot up when it runs (never holds one across runs) and changes it only
inside its scope's exclusive section, so threads never race on one.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef.memory._cache import cache_stats, slot_for

    store = InMemoryStore()
    slot = slot_for(store, ("users", "alice"))
    assert slot is slot_for(store, ("users", "alice"))
    assert cache_stats()["slots"] >= 1
    ```
"""

from __future__ import annotations

import bisect
import functools
import operator
import sys
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar, cast

from langchain_contextchef.entry import MemoryEntry

__all__ = ["ScopeSlot", "Token", "cache_stats", "clear_cache", "set_cache_limit", "slot_for"]

T = TypeVar("T")

Token = tuple[str, int]
"""A scope's stamp: the epoch (a random id, new when the stamp item is created) and a count."""

EXTERNAL_CHECK_SECONDS = 1.0
"""How often a compile of a cached scope looks for writes that bypassed the package.

Scopes of more than `CHECKED_ENTRIES_PER_INTERVAL` entries are checked proportionally less
often: the SQL stores answer the check by sorting the scope, so its cost grows with the size.
"""

CHECKED_ENTRIES_PER_INTERVAL = 1_000

_DEFAULT_LIMIT = 256 * 1024 * 1024
_LOG_LIMIT = 4_096  # changed keys a slot remembers for its indexes (see `ScopeSlot.changes`)
_ENTRY_OVERHEAD = 250  # bytes of a parsed entry beyond its texts (slotted object, datetimes)


def entry_size(entry: MemoryEntry) -> int:
    """An estimate of the memory one cached entry holds."""
    size = _ENTRY_OVERHEAD + _str_size(entry.value) + _str_size(entry.key)
    if entry.description is not None:
        size += _str_size(entry.description)
    return size


_str_size = str.__sizeof__
"""A text's size (`sys.getsizeof` of a `str`, without its look-up of `__sizeof__`)."""
_SET = functools.partial(operator.is_not, None)


def _total_size(entries: list[MemoryEntry]) -> int:
    """`entry_size` summed over `entries`, in C-level passes (the same figure)."""
    return (
        _ENTRY_OVERHEAD * len(entries)
        + sum(map(_str_size, map(_VALUE, entries)))
        + sum(map(_str_size, map(_KEY, entries)))
        + sum(map(_str_size, filter(_SET, map(_DESCRIPTION, entries))))
    )


_KEY = operator.attrgetter("key")
_VALUE = operator.attrgetter("value")
_DESCRIPTION = operator.attrgetter("description")
_STATUS = operator.attrgetter("status")
_TURN = operator.attrgetter("expires_at_turn")
_MOMENT = operator.attrgetter("expires_at")

# Whether `sys.getrefcount` says who else holds a list: CPython with its global lock (a
# free-threaded build defers and splits counts; other interpreters have no such call).
_ALONE = hasattr(sys, "getrefcount") and getattr(sys, "_is_gil_enabled", lambda: True)()
_ALONE_COUNT = 2

_order: Callable[[MemoryEntry], tuple[datetime, str]] = operator.attrgetter("created_at", "key")
"""An entry's place in creation order (key as tiebreak); C-level, no frame per entry."""


@dataclass(eq=False)
class ScopeSlot:
    """One scope's entries as of `token`; `token is None` means nothing trustworthy is held.

    The entries are also kept in creation order (key as tiebreak) and the ones that can
    expire apart, both updated per change (a bisect and one list copy for a one-entry
    change, no sort of the whole scope).

    Attributes:
        token: The stamp the entries reflect, or `None`.
        entries: The readable entries by key.
        damaged: Keys whose stored data cannot be read.
        size: Estimated bytes the entries hold.
        extra: Per-entry derived data callers may keep while the entry is unchanged (for
            example rendered text), by key; dropped with the entry. Read it with `derived`.
        state: Data callers derive from the whole scope and update by `changes` (a
            selector's keyword index); emptied when the entries are replaced whole.
        inactive: The status of each entry that is not `active`, by key.
    """

    token: Token | None = None
    entries: dict[str, MemoryEntry] = field(default_factory=dict)
    damaged: set[str] = field(default_factory=set)
    size: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    checked_at: float = 0.0
    fills: int = 0  # how many whole reads filled the slot (see `reset`)
    _ordered: list[MemoryEntry] = field(default_factory=list, repr=False)
    # Whether `_ordered` was handed out: a caller may hold it, so the next change copies it.
    _shared: bool = field(default=False, repr=False)
    _expiring: dict[str, MemoryEntry] = field(default_factory=dict, repr=False)
    _expiring_list: list[MemoryEntry] | None = field(default=None, repr=False)
    _memo: dict[str, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    # Whether `entries` was lent (`lend_entries`): the next change copies it first.
    _lent: bool = field(default=False, repr=False)
    # Keys changed since the entries were last replaced whole (`changes`), and which whole
    # load they follow, so an index over the entries can follow them by deltas.
    _log: list[str] = field(default_factory=list, repr=False)
    _generation: int = field(default=0, repr=False)
    state: dict[Any, Any] = field(default_factory=dict, repr=False)
    inactive: dict[str, str] = field(default_factory=dict, repr=False)  # key -> status

    def ordered(self) -> list[MemoryEntry]:
        """The entries in creation order (key as tiebreak); the same list until a change.

        Callers must not modify it (it is shared until the slot changes).
        """
        self._shared = True
        return self._ordered

    def lend_entries(self) -> dict[str, MemoryEntry] | None:
        """The entries by key, for one reader to keep as its own dict (`None`: already lent).

        Until the slot next changes, the reader and the slot share one dict; the change then
        copies it, so the reader's dict stays as it was (the reader follows the change by
        `changes`, and may then change its dict itself). A scope's keyword index, built from
        the whole scope, keeps no second dict of every entry while nothing changes. One
        reader at a time: two readers changing one dict would each see the other's changes.
        """
        if self._lent:
            return None
        self._lent = True
        return self.entries

    def _own_entries(self) -> None:
        if self._lent:
            self.entries = dict(self.entries)
            self._lent = False

    def expiring(self) -> list[MemoryEntry]:
        """The entries that can expire (`MemoryEntry.can_expire`), in creation order."""
        if self._expiring_list is None:
            self._expiring_list = sorted(self._expiring.values(), key=_order)
        return self._expiring_list

    def derived(self, entry: MemoryEntry) -> dict[Any, Any]:
        """The derived data kept for `entry` while it is the slot's version of its key.

        An entry the slot does not hold (or holds in another version) gets a fresh dict that
        is not kept, so data derived from it can never be served for another version.
        """
        # `extra` only ever holds data of the version in `entries` (a change drops it), so
        # checking that version is enough; no per-entry pair is kept.
        if self.entries.get(entry.key) is not entry:
            return {}
        data: dict[Any, Any] | None = self.extra.get(entry.key)
        if data is None:
            data = self.extra[entry.key] = {}
        return data

    def changes(self, since: tuple[int, int] | None) -> tuple[tuple[int, int], list[str] | None]:
        """A mark of the entries as they stand, and the keys changed since the mark `since`.

        The keys are `None` when the log does not reach back to `since` (the entries were
        replaced whole since, or `since` is `None`): rebuild from `entries` then. Anything a
        caller keeps in `state` is dropped when the entries are replaced whole.
        """
        mark = (self._generation, len(self._log))
        if since is None or since[0] != self._generation or since[1] > mark[1]:
            return mark, None
        return mark, self._log[since[1] :]

    def _logged(self, key: str) -> None:
        if len(self._log) >= _LOG_LIMIT:  # a reader that far behind rebuilds instead
            self._generation += 1
            self._log.clear()
        self._log.append(key)

    def due_for_check(self) -> bool:
        """Whether to look for writes that bypassed the package now.

        At most once a second, and once per second per thousand entries in larger scopes, so
        the check's cost stays a small share of the compiles between checks.
        """
        now = time.monotonic()
        scale = max(1.0, len(self.entries) / CHECKED_ENTRIES_PER_INTERVAL)
        if now - self.checked_at < EXTERNAL_CHECK_SECONDS * scale:
            return False
        self.checked_at = now
        return True

    def holds(self, name: str, key: Any) -> bool:
        """Whether `remember(name, key, ...)` would answer without computing."""
        held = self._memo.get(name)
        return held is not None and held[0] == key

    def remember(self, name: str, key: Any, compute: Callable[[], T]) -> T:
        """What `compute` gives for the entries as they are and `key`, computed once.

        Derived results (a selection, a fitted block) are kept until the entries change or
        `key` differs, so an unchanged scope costs no O(n) work.
        """
        held = self._memo.get(name)
        if held is not None and held[0] == key:
            return cast("T", held[1])
        value = compute()
        self._memo[name] = (key, value)
        return value

    def _writable(self) -> None:
        # A list handed out is copied before a change unless nothing else holds it any more
        # (the compile that took it is over): a reference count of two is the slot's own
        # attribute and the call's argument. Where counts cannot tell, always copy.
        if self._shared:
            if not _ALONE or sys.getrefcount(self._ordered) > _ALONE_COUNT:
                self._ordered = list(self._ordered)
            self._shared = False

    def _unorder(self, entry: MemoryEntry) -> None:
        self._writable()
        at = bisect.bisect_left(self._ordered, _order(entry), key=_order)
        del self._ordered[at]
        if self._expiring.pop(entry.key, None) is not None:
            self._expiring_list = None

    def _reorder(self, entry: MemoryEntry) -> None:
        self._writable()
        at = bisect.bisect_left(self._ordered, _order(entry), key=_order)
        self._ordered.insert(at, entry)
        if entry.can_expire:
            self._expiring[entry.key] = entry
            self._expiring_list = None

    def reset(
        self,
        token: Token | None,
        entries: list[MemoryEntry],
        damaged: list[str],
        *,
        ordered: bool = False,
    ) -> None:
        """Replace everything held with a full read of the scope at `token`.

        `ordered` says that `entries` are in creation order already (key as tiebreak), as
        `memory._context.entries_and_damaged` gives them: they are then not sorted again.
        """
        self._load(token, entries, damaged, ordered=ordered)
        self.fills += 1
        _REGISTRY.resized()

    def _load(
        self,
        token: Token | None,
        entries: list[MemoryEntry],
        damaged: list[str],
        *,
        ordered: bool = False,
    ) -> None:
        # Whole-scope passes in C (maps and counts), a Python loop only over the entries
        # that need one (inactive, expiring): a cold read holds tens of thousands.
        self.entries = dict(zip(map(_KEY, entries), entries, strict=True))
        self._lent = False
        self.damaged = set(damaged)
        self.extra = {}
        self._memo.clear()
        self._generation += 1
        self._log.clear()
        self.state = {}
        count = len(entries)
        active = list(map(_STATUS, entries)).count("active") == count
        self.inactive = {} if active else {e.key: e.status for e in entries if e.status != "active"}
        # A full read arrives in creation order already, so the sort only confirms it (one
        # comparison per entry); no order key is kept per entry (a change bisects by `_order`).
        if ordered and len(self.entries) == count:
            self._ordered = list(entries)
        else:
            held = self.entries.values() if len(self.entries) != count else entries
            self._ordered = sorted(held, key=_order)
        self._shared = False
        lasting = (
            list(map(_TURN, entries)).count(None) == count
            and list(map(_MOMENT, entries)).count(None) == count
        )
        self._expiring = (
            {}
            if lasting
            else {
                e.key: e
                for e in self._ordered
                if e.expires_at_turn is not None or e.expires_at is not None  # `can_expire`
            }
        )
        self._expiring_list = None
        self.size = _total_size(entries)
        self.token = token

    def put(self, entry: MemoryEntry) -> None:
        """Hold `entry` (a new version replaces the old one and its derived data)."""
        self._own_entries()
        # What was derived from the entries goes first: it may be what holds the ordered list.
        self._memo.clear()
        old = self.entries.get(entry.key)
        if old is not None:
            self.size -= entry_size(old)
            self._unorder(old)
        self.entries[entry.key] = entry
        self._reorder(entry)
        self.extra.pop(entry.key, None)
        self.damaged.discard(entry.key)
        self._logged(entry.key)
        if entry.status != "active":
            self.inactive[entry.key] = entry.status
        else:
            self.inactive.pop(entry.key, None)
        self.size += entry_size(entry)

    def drop(self, key: str, *, damaged: bool = False) -> None:
        """Forget `key` (deleted, or `damaged` when its stored data cannot be read)."""
        self._own_entries()
        self._memo.clear()
        old = self.entries.pop(key, None)
        if old is not None:
            self.size -= entry_size(old)
            self._unorder(old)
        self.extra.pop(key, None)
        self._logged(key)
        self.inactive.pop(key, None)
        if damaged:
            self.damaged.add(key)
        else:
            self.damaged.discard(key)

    def invalidate(self) -> None:
        """Trust nothing held: the next compile reads the whole scope."""
        self._load(None, [], [])


class _Registry:
    """Slots per (store object, scope), least recently used first, within a byte budget."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.lock = threading.Lock()
        # Ids of stores that are gone; purged under the lock. A finalizer may run inside a
        # garbage collection anywhere, even while this thread holds the lock, so it only
        # appends here (atomic) and never takes the lock itself.
        self.dead: deque[int] = deque()
        self.slots: OrderedDict[tuple[int, tuple[str, ...]], ScopeSlot] = OrderedDict()
        # Each store object keeps its slots alive; a store that is gone takes them with it.
        self.stores: weakref.WeakKeyDictionary[Any, set[tuple[str, ...]]] = (
            weakref.WeakKeyDictionary()
        )

    def _purge(self) -> None:
        while self.dead:
            store_id = self.dead.popleft()
            for key in [k for k in self.slots if k[0] == store_id]:
                self.slots.pop(key, None)

    def slot(self, store: Any, scope: tuple[str, ...]) -> ScopeSlot:
        key = (id(store), scope)
        with self.lock:
            self._purge()
            slot = self.slots.get(key)
            if slot is None:
                slot = self.slots[key] = ScopeSlot()
                if store not in self.stores:
                    weakref.finalize(store, self.dead.append, id(store))
                self.stores.setdefault(store, set()).add(scope)
            self.slots.move_to_end(key)
            return slot

    def resized(self) -> None:
        # Evict least recently used slots (never the most recent one) until within budget.
        # An evicted slot is only unlinked, never emptied: a compile of that scope may be
        # using it right now (under its own scope's lock, not this one).
        with self.lock:
            self._purge()
            total = sum(s.size for s in self.slots.values())
            for key in list(self.slots)[:-1]:
                if total <= self.limit:
                    break
                evicted = self.slots.pop(key, None)
                total -= evicted.size if evicted is not None else 0


_REGISTRY = _Registry(_DEFAULT_LIMIT)


def slot_for(store: Any, scope: tuple[str, ...]) -> ScopeSlot:
    """The process's slot for `scope` on this store object (created empty on first use)."""
    return _REGISTRY.slot(store, scope)


def set_cache_limit(limit_bytes: int) -> None:
    """Set the byte budget of all cached scopes together (default 256 MiB).

    Raises:
        ValueError: For a negative limit.
    """
    if isinstance(limit_bytes, bool) or not isinstance(limit_bytes, int) or limit_bytes < 0:
        msg = f"The cache limit must be a non-negative number of bytes, got {limit_bytes!r}."
        raise ValueError(msg)
    _REGISTRY.limit = limit_bytes
    _REGISTRY.resized()


def clear_cache(store: Any | None = None) -> None:
    """Forget what this process caches of one store object's scopes, or of every store's.

    The next compile of each scope reads it whole. Writes through the package keep every
    process's cache in step on their own; call this after changing a store by other means (a
    migration, a raw `store.put` or `store.delete`, a restore of the database), which a
    cached scope otherwise notices only when the changed item is the newest one at its next
    check (every second, every n/1,000 seconds for a scope of n > 1,000 entries; FileSystemStore,
    SQLite, PostgreSQL), or not at all for a delete.

    Slots are unlinked, never emptied, so a compile running meanwhile finishes unharmed.

    Example:
        ```python
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef.memory import clear_cache
        from langchain_contextchef.memory._cache import slot_for

        store = InMemoryStore()
        slot = slot_for(store, ("users", "alice"))
        clear_cache(store)
        assert slot_for(store, ("users", "alice")) is not slot
        ```
    """
    with _REGISTRY.lock:
        _REGISTRY._purge()
        for key in list(_REGISTRY.slots):
            if store is None or key[0] == id(store):
                del _REGISTRY.slots[key]


def cache_stats() -> dict[str, int]:
    """How many scopes the process caches, their entries, and their estimated bytes."""
    with _REGISTRY.lock:
        _REGISTRY._purge()
        slots = list(_REGISTRY.slots.values())
    return {
        "slots": len(slots),
        "entries": sum(len(s.entries) for s in slots),
        "bytes": sum(s.size for s in slots),
        "limit": _REGISTRY.limit,
    }
