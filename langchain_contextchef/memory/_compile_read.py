"""The compile read: what one compile learns from memory, in one plan.

In one exclusive section of the scope: one bulk read (plus the eviction note and a semantic
search when they apply), the expiry sweep decided on the turn this compile claims (hooks,
then one batch that retires the expired entries to history, advances the clock and clears
the eviction note it reports). After the section, the selector runs exactly once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph.store.base import Item, PutOp, SearchOp

from langchain_contextchef._plan import Call, Io, Plan, Unreadable, gather
from langchain_contextchef._sections import SIDE_FIELD
from langchain_contextchef.budget import token_counter
from langchain_contextchef.entry import MemoryChangeEvent, MemoryEntry, collector_paused
from langchain_contextchef.memory import _retention
from langchain_contextchef.memory._cache import ScopeSlot
from langchain_contextchef.memory._context import (
    CLOCK_KEY,
    MemoryContext,
    clock_op,
    clock_turn,
    entries_and_damaged,
    entry_op,
    evicted_op,
    own,
    recovered_turn,
    scan_op,
    unreadable_keys,
)
from langchain_contextchef.memory._entry_vectors import read_entry_vectors
from langchain_contextchef.memory._events import changed
from langchain_contextchef.memory._recall import evicted_note_ops
from langchain_contextchef.memory._section import exclusive
from langchain_contextchef.memory._stamp import changes_since, stamp_op, token_of
from langchain_contextchef.memory.results import CompileRead
from langchain_contextchef.query import fuse_part_scores, question_facets
from langchain_contextchef.selectors import (
    EntryVectors,
    MemorySelector,
    RankedEntries,
    Relevant,
    SelectionContext,
)

__all__ = ["compile_read", "select"]

logger = logging.getLogger(__name__)


def _semantic_search(
    ctx: MemoryContext, parts: Sequence[tuple[str, float]]
) -> tuple[list[SearchOp], list[float], tuple[str, ...]] | None:
    # One semantic search per query part (a user turn), all in the compile's read batch, when
    # the selector asks for it, there is a query, and the store has a vector index; then one
    # per facet of a question that asks for several things, so an entry that answers one of
    # them is close to something. The facets' scores are kept apart (`facet_relevance`): the
    # selector covers the facets with them, and the question's own similarity is not diluted.
    selector = ctx.config.active_selector
    texts: dict[str, float] = {}
    for text, weight in parts:
        if text.strip() and weight > 0:
            texts[text[:_QUERY_CHARS]] = texts.get(text[:_QUERY_CHARS], 0.0) + weight
    if not (isinstance(selector, MemorySelector) and selector.uses_search and texts):
        return None
    if not ctx.indexed:
        return None
    facets = tuple(dict.fromkeys(question_facets(parts[0][0])))
    limit = selector.search_limit
    ops = [
        SearchOp(ctx.entries_ns, query=t[:_QUERY_CHARS], limit=limit, refresh_ttl=False)
        for t in (*texts, *facets)
    ]
    return ops, list(texts.values()), facets


_QUERY_CHARS = 1_000
"""The longest text one semantic search embeds (a pasted document is cut)."""


def select(
    ctx: MemoryContext,
    entries: list[MemoryEntry],
    *,
    turn: int,
    now: datetime,
    query: str | None,
    relevance: dict[str, float] | None,
    queries: Sequence[tuple[str, float]] = (),
    scope: ScopeSlot | None = None,
    facet_relevance: Mapping[str, Mapping[str, float]] | None = None,
    vectors: EntryVectors | None = None,
) -> tuple[Sequence[MemoryEntry], list[MemoryEntry], dict[str, str]]:
    """Run the selector once on the active entries.

    `scope` is the slot whose entries `entries` are, as they stand: the selector may keep
    indexes there and follow its changes (`SelectionContext.scope`). `vectors` are the
    entries' stored vectors the compile read (`SelectionContext.entry_vectors`).

    Returns:
        The selected entries (selector order), the active entries it left out (creation
        order), and why each stored entry that will not be injected was left out.
    """
    if scope is not None:  # the slot keeps the inactive ones: no pass over every entry
        omitted = dict(scope.inactive)
        visible = [e for e in entries if e.status == "active"] if omitted else entries
    else:
        omitted = {e.key: e.status for e in entries if e.status != "active"}
        visible = [e for e in entries if e.status == "active"]
    selector = ctx.config.active_selector
    if selector is None:
        return visible, [], omitted
    if isinstance(selector, MemorySelector):
        derived = slot.derived if (slot := ctx.slot()) is not None else None
        context = SelectionContext(
            query=query or "",
            queries=tuple(queries),
            facet_relevance=facet_relevance or {},
            token_budget=ctx.config.token_budget,
            count_tokens=token_counter(ctx.config.token_counter).text,
            turn=turn,
            now=now,
            relevance=relevance,
            entry_data=derived,
            scope=scope,
            entry_vectors=vectors,
        )
        # `Relevant` does not change the list it is given: no copy of the scope for it.
        made = selector.select(visible if type(selector) is Relevant else list(visible), context)
        if isinstance(made, RankedEntries) and made.complete and len(made) == len(visible):
            return made, [], omitted  # every entry, in an order computed as it is read
        chosen = list(made)
    else:
        chosen = list(selector(list(visible)))
    picked = {e.key for e in chosen}
    unselected = [e for e in visible if e.key not in picked]
    omitted.update((e.key, "selector") for e in unselected)
    return chosen, unselected, omitted


@dataclass(frozen=True)
class _Swept:
    """What the exclusive part of a compile found and did."""

    entries: list[MemoryEntry]
    damaged: list[str]
    turn: int
    expired: list[MemoryEntry]
    evicted: list[str]
    relevance: dict[str, float] | None
    unchanged: ScopeSlot | None  # the slot, when `entries` are its entries as they stand
    repaired: list[str]
    facets: dict[str, dict[str, float]]  # each facet's own similarities (see `select`)


def _current_entries(
    ctx: MemoryContext, slot: ScopeSlot | None, stamp: Item | None, scanned: list[Item] | None
) -> Plan[tuple[list[MemoryEntry], list[str]]]:
    """The scope's entries in creation order, and its damaged keys, reading only what changed.

    With the stamp unchanged since this process last read the scope, nothing is read; with a
    newer stamp whose log reaches back, only the keys it names; otherwise the whole scope
    (`scanned`, when the caller already read it).
    """
    token = token_of(stamp)
    if scanned is None and slot is not None and token is not None and slot.token is not None:
        changed = [] if slot.token == token else changes_since(stamp, slot.token)
        if changed is not None:
            got = yield from gather(items=[entry_op(ctx, key) for key in changed])
            gone = [key for key, item in zip(changed, got.items, strict=True) if item is None]
            broken = set((yield from unreadable_keys(ctx, gone)))
            for key, item in zip(changed, got.items, strict=True):
                if item is None:
                    slot.drop(key, damaged=key in broken)
                    continue
                try:
                    slot.put(MemoryEntry.from_stored(item.key, item.value))
                except (ValueError, TypeError, KeyError):
                    slot.drop(key, damaged=True)
            slot.token = token
            return slot.ordered(), sorted(slot.damaged)
    if scanned is None:
        (scanned,) = yield Io([scan_op(ctx.entries_ns)])
    with collector_paused():  # a whole scope: many small objects and no cycles
        entries, damaged = entries_and_damaged(ctx, scanned)
    # Items the store holds but cannot read (a file broken by hand) are absent from the scan.
    unreadable = yield from unreadable_keys(ctx, read=True)
    if unreadable:
        damaged = sorted({*damaged, *unreadable})
    if slot is not None:
        with collector_paused():
            slot.reset(token, entries, damaged, ordered=True)  # `entries_and_damaged` sorted them
        # The slot's own list (the same entries, in the same order): the compile then sees
        # that it holds the scope as it stands, and selects over the slot's index at once.
        return slot.ordered(), damaged
    return entries, damaged


def _written_behind(ctx: MemoryContext, slot: ScopeSlot, newest: list[Item]) -> bool:
    """Whether the newest stored entry differs from what the slot holds for its key.

    A write that bypassed the package (a raw `store.put`) advances no stamp; on stores that
    list the newest item first it is still the newest item, so this catches it.
    """
    ours = own(ctx.entries_ns, newest)
    if not ours or ours[0].key in slot.damaged:
        return False
    item = ours[0]
    try:
        stored = MemoryEntry.from_stored(item.key, item.value)
    except (ValueError, TypeError, KeyError):
        return True
    return slot.entries.get(item.key) != stored


@exclusive
def _sweep_and_advance(
    ctx: MemoryContext, parts: Sequence[tuple[str, float]], marker: str | None
) -> Plan[_Swept]:
    # Alone in the scope: this compile claims turn `turn` (no other compile can), decides
    # expiry on it, and writes the sweep and the advanced clock in one batch.
    capped = ctx.config.max_entries is not None
    search = _semantic_search(ctx, parts)
    slot = ctx.slot()
    # A process that holds nothing of the scope reads it whole in the first batch anyway.
    cold = slot is None or slot.token is None
    probe = not cold and slot is not None and ctx.newest_first and slot.due_for_check()
    got = yield from gather(
        items=scan_op(ctx.entries_ns) if cold else None,
        clock=clock_op(ctx),
        stamp=stamp_op(ctx),
        evicted=evicted_op(ctx) if capped else None,
        hits=search[0] if search is not None else None,
        newest=SearchOp(ctx.entries_ns, limit=1, refresh_ttl=False) if probe else None,
    )
    entries, damaged = yield from _current_entries(ctx, slot, got.stamp, got.items)
    if (
        probe
        and slot is not None
        and (
            _written_behind(ctx, slot, got.newest)
            or not slot.damaged.issuperset((yield from unreadable_keys(ctx)))
        )
    ):
        slot.invalidate()
        entries, damaged = yield from _current_entries(ctx, slot, got.stamp, None)
    turn, repaired = yield from _clock(ctx, got.clock, entries)
    # Turns per user message: a compile for the message that already claimed a turn (the
    # marker stored with the clock) claims that same turn again and leaves the clock alone.
    same_message = not repaired and _same_message(got.clock, marker)
    if same_message:
        turn = max(turn - 1, 0)
    evicted: list[str] = []
    if got.evicted is not None:
        noted = got.evicted.value.get("keys")
        evicted = [k for k in noted if isinstance(k, str)] if isinstance(noted, list) else []
    relevance: dict[str, float] | None = None
    facets: dict[str, dict[str, float]] = {}
    if search is not None:
        per_part = [
            {
                item.key: float(item.score)
                for item in own(ctx.entries_ns, hits)
                if item.score is not None
            }
            for hits in got.hits
        ]
        weights = search[1]
        facets = dict(zip(search[2], per_part[len(weights) :], strict=True))
        relevance = fuse_part_scores(list(zip(per_part, weights, strict=False)))

    now = ctx.now()
    fresh = slot is not None and entries is slot.ordered()
    # Only entries with an expiry can expire, unless retention ages every entry by its type;
    # the slot keeps which ones can up to date per change.
    expiring = (
        slot.expiring() if slot is not None and fresh and ctx.config.retention is None else entries
    )
    expired = [e for e in expiring if _retention.due(ctx, e, turn=turn, now=now)]
    if ctx.config.on_memory_expired is not None:
        for entry in expired:
            yield Call(ctx.config.on_memory_expired, (entry,), "on_memory_expired")
    ops: list[Any] = []
    for entry in expired:
        ops += _retention.sweep_ops(ctx, entry, turn=turn, now=now)
    if not same_message:
        clock: dict[str, Any] = {"turn": turn + 1}
        if marker is not None:
            clock["marker"] = marker
        # On a SQLite file the stored clock names the record beside it that holds its
        # unflushed advances (`_sections._side_clock`): every write of the clock keeps it.
        side = got.clock.value.get(SIDE_FIELD) if got.clock is not None else None
        if isinstance(side, str) and not repaired:
            clock[SIDE_FIELD] = side
        ops.append(PutOp(ctx.meta_ns, CLOCK_KEY, clock, index=False))
    ops += evicted_note_ops(ctx, evicted, evicted)
    if ops:
        yield Io(ops, _must_sync(ops, expiring, marker))
    for entry in expired:
        event = MemoryChangeEvent("expire", entry.key, None, entry.value, ctx.scope)
        yield from changed(ctx, event)
    gone = {e.key for e in expired}
    if not gone:
        unchanged = slot if fresh else None
        return _Swept(
            entries, damaged, turn, expired, evicted, relevance, unchanged, repaired, facets
        )
    kept = [e for e in entries if e.key not in gone]
    return _Swept(kept, damaged, turn, expired, evicted, relevance, None, repaired, facets)


def _clock(
    ctx: MemoryContext, clock: Item | None, entries: list[MemoryEntry]
) -> Plan[tuple[int, list[str]]]:
    """The turn this compile claims, and `["clock"]` when the stored clock was damaged.

    A damaged clock (a turn that is not an int in range, or an item the store cannot read)
    never blocks the scope: the turn is recovered from the entries (`recovered_turn`), the
    compile's clock write repairs it, and the compile reports it in `repaired`.
    """
    turn = clock_turn(clock)
    if turn is not None and (
        clock is not None or not (yield Unreadable(ctx.meta_ns, (CLOCK_KEY,)))
    ):
        return turn, []
    found = clock.value.get("turn") if clock is not None else "an unreadable item"
    recovered = recovered_turn(entries)
    logger.warning(
        "The turn clock of %r is damaged (%r); recovered to turn %d from the entries.",
        ctx.scope,
        found,
        recovered,
    )
    return recovered, [CLOCK_KEY]


def _must_sync(ops: list[Any], expiring: list[MemoryEntry], marker: str | None) -> bool:
    """Whether this compile's batch must be flushed to disk before the compile goes on.

    A batch that only advances the clock need not be, while no entry's expiry counts turns
    and turns are counted per model call: other processes see the advance at once and a
    crash keeps it, so the clock stays exact; a power cut may take it back to its last
    flushed value, which then shows in `meta.turn` only. Anything else (a sweep, an eviction
    note, a clock that a turn TTL or a per-message marker depends on) is flushed.
    """
    return (
        len(ops) != 1
        or marker is not None
        or any(entry.expires_at_turn is not None for entry in expiring)
    )


def _same_message(clock: Item | None, marker: str | None) -> bool:
    return marker is not None and clock is not None and clock.value.get("marker") == marker


def compile_read(
    ctx: MemoryContext,
    query: str | None = None,
    queries: Sequence[tuple[str, float]] = (),
    marker: str | None = None,
) -> Plan[CompileRead]:
    """Sweep expired entries, advance the turn clock once, and select what to inject.

    The read, the sweep and the clock's advance are one exclusive section of the scope, so
    concurrent compiles each claim their own turn and an entry with `{"turns": n}` is
    injected at most `n` times. Selection (pure) runs after the section.

    Args:
        ctx: The scope.
        query: The last user message.
        queries: The relevance query built from the conversation, as weighted parts (see
            `langchain_contextchef.query`); the store's semantic search runs once per part.
        marker: Counts turns per user message: a marker of the last user message, stored
            with the clock. The clock advances only when it differs from the stored one;
            otherwise this compile claims the same turn as the last one. `None` advances
            on every compile (one turn per model call).
    """
    parts = tuple(queries) if queries else (((query, 1.0),) if query else ())
    swept = yield from _sweep_and_advance(ctx, parts, marker)
    vectors: EntryVectors | None = None

    def choose() -> tuple[Sequence[MemoryEntry], list[MemoryEntry], dict[str, str]]:
        selected, unselected, omitted = select(
            ctx,
            swept.entries,
            turn=swept.turn,
            now=ctx.now(),
            query=query,
            relevance=swept.relevance,
            queries=queries,
            scope=swept.unchanged,
            facet_relevance=swept.facets,
            vectors=vectors,
        )
        omitted.update((key, "damaged") for key in swept.damaged)
        return selected, unselected, omitted

    # Without a selector the choice depends on the entries alone: kept while they stand. A
    # `Relevant` choice depends on the query too (and on nothing else that changes: not the
    # turn, not the time): kept per query while the entries stand.
    selector = ctx.config.active_selector
    reuse: ScopeSlot | None = None
    reuse_key: object = ctx.config
    if selector is None:
        reuse = swept.unchanged
    elif type(selector) is Relevant and swept.unchanged is not None:
        reuse = swept.unchanged
        reuse_key = _relevant_key(ctx, selector, query, queries, swept)
    if (
        swept.relevance
        and isinstance(selector, MemorySelector)
        and not (reuse is not None and reuse.holds("selection", reuse_key))
    ):
        # The stored vectors of the entries the semantic search found, in one read after the
        # section (only when the selection is computed): the selector compares them.
        held = swept.unchanged
        by_key = held.entries if held is not None else {e.key: e for e in swept.entries}
        derived = slot.derived if (slot := ctx.slot()) is not None else None
        asked = SelectionContext(relevance=swept.relevance, scope=held, entry_data=derived)
        keys = selector.vector_keys(asked)
        vectors = yield from read_entry_vectors(ctx, by_key, keys)
    selected, unselected, omitted = (
        reuse.remember("selection", reuse_key, choose) if reuse is not None else choose()
    )
    return CompileRead(
        selected,
        swept.entries,
        [e.key for e in swept.expired],
        swept.turn + 1,
        unselected=unselected,
        omitted=omitted,
        evicted_keys=swept.evicted,
        damaged_keys=swept.damaged,
        reuse=reuse,
        repaired=swept.repaired,
        reuse_key=reuse_key,
    )


def _relevant_key(
    ctx: MemoryContext,
    selector: Relevant,
    query: str | None,
    queries: Sequence[tuple[str, float]],
    swept: _Swept,
) -> object:
    """What a `Relevant` selection depends on besides the scope's entries."""
    relevance = swept.relevance
    semantic = None if relevance is None else tuple(sorted(relevance.items()))
    facets = tuple((f, tuple(sorted(s.items()))) for f, s in swept.facets.items())
    return (ctx.config, query, tuple(queries), semantic, facets, selector.reuse_token())
