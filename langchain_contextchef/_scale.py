"""Memory at scale, as plans `Memory` runs: the compile read, selection, recall and eviction.

Kept apart from `memory.py` so the core write path stays readable. Every function takes the
`Memory` whose namespaces and clock it uses; none does I/O except through plan steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from langgraph.store.base import GetOp, PutOp, SearchOp

from langchain_contextchef import _governance
from langchain_contextchef._driver import Atomic, Io, Plan
from langchain_contextchef.budget import FittedMemory, fit_memory, token_counter
from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry, Provenance
from langchain_contextchef.render import Vocabulary, render_memory_block
from langchain_contextchef.selectors import MemorySelector, SelectionContext

if TYPE_CHECKING:
    from langchain_contextchef.memory import CompileRead, Memory, MemoryConfig

RecallMode: TypeAlias = Literal["inline", "index"]
EvictPolicy: TypeAlias = Literal["least_recently_recalled"]

EVICTED_KEY = "evicted"
"""The item beside the turn clock that lists keys evicted since the last compile."""


def check_config(config: MemoryConfig) -> None:
    """Validate the scale options of a `MemoryConfig` (called from its `__post_init__`)."""
    budget = config.token_budget
    if budget is not None and (
        isinstance(budget, bool) or not isinstance(budget, int) or budget < 1
    ):
        msg = f"token_budget must be a positive int (tokens for the memory block), got {budget!r}."
        raise ValueError(msg)
    token_counter(config.token_counter)
    if config.recall not in ("inline", "index"):
        msg = (
            f"recall must be 'inline' (every selected entry in full) or 'index' (full values "
            f"for the selected, a key index for the rest), got {config.recall!r}."
        )
        raise ValueError(msg)
    cap = config.max_entries
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
        msg = f"max_entries must be a positive int or None, got {cap!r}."
        raise ValueError(msg)
    if config.evict != "least_recently_recalled":
        msg = f"evict must be 'least_recently_recalled', got {config.evict!r}."
        raise ValueError(msg)


def tracks_recall(config: MemoryConfig) -> bool:
    """Whether reads record `last_recalled_at` (only when recall mode or eviction uses it)."""
    return config.recall == "index" or config.max_entries is not None


@dataclass(frozen=True)
class ScaleRead:
    """What the compile read beyond entries and clock."""

    evicted: list[str] = field(default_factory=list)
    relevance: dict[str, float] | None = None


def _has_index(memory: Memory) -> bool:
    return bool(getattr(memory.store, "index_config", None))


def read_for_compile(
    memory: Memory, query: str | None
) -> Plan[tuple[list[MemoryEntry], int, ScaleRead]]:
    """The compile's one read batch: entries and clock, and sometimes two extras.

    The eviction note is read when entries are capped; one semantic search runs when the
    selector asks for it, there is a query, and the store has a vector index.
    """
    ops: list[Any] = [memory._search_entries_op(), memory._clock_op()]
    capped = memory.config.max_entries is not None
    if capped:
        ops.append(GetOp(memory.meta_namespace, EVICTED_KEY, refresh_ttl=False))
    selector = memory.config.selector
    semantic = (
        isinstance(selector, MemorySelector)
        and selector.uses_search
        and bool(query and query.strip())
        and _has_index(memory)
    )
    if semantic:
        assert isinstance(selector, MemorySelector)
        ops.append(
            SearchOp(memory.namespace, query=query, limit=selector.search_limit, refresh_ttl=False)
        )
    results = yield Io(ops)
    entries = memory._entries_of(results[0])
    turn = memory._turn_of(results[1])
    evicted: list[str] = []
    if capped and results[2] is not None:
        evicted = [k for k in results[2].value.get("keys", []) if isinstance(k, str)]
    relevance: dict[str, float] | None = None
    if semantic:
        relevance = {
            item.key: float(item.score)
            for item in results[-1]
            if tuple(item.namespace) == memory.namespace and item.score is not None
        }
    return entries, turn, ScaleRead(evicted, relevance)


def select(
    memory: Memory,
    entries: list[MemoryEntry],
    *,
    turn: int,
    now: datetime,
    query: str | None,
    relevance: dict[str, float] | None,
) -> tuple[list[MemoryEntry], list[MemoryEntry], dict[str, str]]:
    """Run the selector once on the active entries.

    Returns:
        The selected entries (selector order), the active entries it left out (creation
        order), and why each stored entry that will not be injected was left out.
    """
    omitted: dict[str, str] = {e.key: e.status for e in entries if e.status != "active"}
    visible = [e for e in entries if e.status == "active"]
    selector = memory.config.selector
    if selector is None:
        return visible, [], omitted
    if isinstance(selector, MemorySelector):
        context = SelectionContext(
            query=query or "",
            token_budget=memory.config.token_budget,
            count_tokens=token_counter(memory.config.token_counter).text,
            turn=turn,
            now=now,
            relevance=relevance,
        )
        chosen = list(selector.select(list(visible), context))
    else:
        chosen = list(selector(list(visible)))
    picked = {e.key for e in chosen}
    unselected = [e for e in visible if e.key not in picked]
    omitted.update((e.key, "selector") for e in unselected)
    return chosen, unselected, omitted


def consume_evicted(memory: Memory, keys: Sequence[str]) -> Plan[None]:
    """Clear the keys this compile reported from the eviction note.

    Atomic where the store can be, so an eviction racing with the compile is reported next time.
    """
    if not keys:
        return
    reported = set(keys)

    def drop(current: dict[str, Any] | None) -> dict[str, Any]:
        left = [k for k in (current or {}).get("keys", []) if k not in reported]
        return {"keys": left}

    yield Atomic(memory.meta_namespace, EVICTED_KEY, drop, known={"keys": list(keys)})


def _last_use(entry: MemoryEntry) -> datetime:
    # Never recalled: the last write stands in; a recent write also counts as a use.
    recalled = entry.last_recalled_at
    return entry.updated_at if recalled is None else max(recalled, entry.updated_at)


def enforce_cap(memory: Memory, written: str) -> Plan[list[str]]:
    """After a new key was written: evict the least recently used entries over the cap.

    The entry just written is never a candidate. Evicted entries are archived in history,
    reported through `on_memory_changed` (`evict`), and added to the note the next compile
    renders for the model.
    """
    cap = memory.config.max_entries
    if cap is None:
        return []
    items, noted = yield Io(
        [memory._search_entries_op(), GetOp(memory.meta_namespace, EVICTED_KEY, refresh_ttl=False)]
    )
    entries = memory._entries_of(items)
    excess = len(entries) - cap
    if excess <= 0:
        return []
    candidates = sorted(
        (e for e in entries if e.key != written),
        key=lambda e: (_last_use(e), e.created_at, e.key),
    )
    victims = candidates[:excess]
    now = memory._now()
    cause = Provenance(written_by="developer", source="eviction")
    ops: list[Any] = []
    for victim in victims:
        ops += _governance.retire(
            memory, victim, "deleted", now=now, cause=cause, note=f"evicted: over max_entries={cap}"
        )
    yield Io(ops)
    keys = [v.key for v in victims]

    def note(current: dict[str, Any] | None) -> dict[str, Any]:
        earlier = [k for k in (current or {}).get("keys", []) if k not in keys]
        return {"keys": [*earlier, *keys]}

    known = dict(noted.value) if noted is not None else None
    yield Atomic(memory.meta_namespace, EVICTED_KEY, note, known=known)
    for victim in victims:
        event = MemoryChangeEvent("evict", victim.key, None, victim.value, memory.scope)
        yield from memory._changed(event)
    return keys


def recall(memory: Memory, key: str) -> Plan[MemoryEntry | None]:
    """Read one entry in full; an active entry gets `last_recalled_at = now` when tracked.

    Recording a recall is not a change: no version bump, no history, no change event.
    """
    entry = yield from memory._read_one(key)
    if entry is None or entry.status != "active" or not tracks_recall(memory.config):
        return entry
    touched = entry.evolve(last_recalled_at=memory._now())
    yield Io([PutOp(memory.namespace, key, touched.to_stored(), index=["value"])])
    return touched


def fit_block(
    read: CompileRead,
    memory: Memory,
    *,
    vocabulary: Vocabulary,
    budget: int | None,
    count: Callable[[str], int],
) -> tuple[FittedMemory, dict[str, str]]:
    """Render the compile's memory block within `budget`, and say why each key is left out.

    Returns:
        The fitted block, and key -> reason for every surviving entry not shown in full
        and not indexed (`"selector"`, `"budget"`, `"quarantined"`).
    """
    index_mode = memory.config.recall == "index"

    def render(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
        return render_memory_block(
            full,
            allowed_keys=memory.allowed_keys,
            vocabulary=vocabulary,
            index=index,
            unlisted=more,
            evicted_keys=read.evicted_keys,
        )

    fitted = fit_memory(
        read.selected,
        read.unselected,
        render=render,
        budget=budget,
        count=count,
        index_mode=index_mode,
    )
    shown = {e.key for e in fitted.full} | {e.key for e in fitted.index}
    omitted = {k: why for k, why in read.omitted.items() if k not in shown}
    for entry in read.selected:
        if entry.key not in shown:
            omitted[entry.key] = "budget"
    if index_mode:  # unselected entries would have been indexed but for the budget
        for entry in read.unselected:
            if entry.key not in shown:
                omitted[entry.key] = "budget"
    return fitted, omitted
