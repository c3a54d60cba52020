"""Retention as plans: what the sweep retires, and `purge` for one scope or a whole store.

The compile's sweep asks `due` which entries leave memory now (TTL expiry, or past the
retention age of their type) and `sweep_ops` how they leave: to history (status `expired`,
with a note naming the rule when retention retired it) or, with `RetentionPolicy(erase=True)`,
without a trace but the version marker. `purge` does the same without a compile and also
drops history records, audit records and proposals past their age; `purge_store` runs it on
every scope under a prefix, each scope in its own exclusive section.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from langgraph.store.base import BaseStore, PutOp

from langchain_contextchef._plan import Io, Plan, gather, run_async, run_sync
from langchain_contextchef.audit import AuditRecord
from langchain_contextchef.consent import Proposal
from langchain_contextchef.entry import HistoryRecord, MemoryChangeEvent, MemoryEntry
from langchain_contextchef.memory import _audit, _consent, _history
from langchain_contextchef.memory._context import (
    MemoryContext,
    clock_op,
    entries_of,
    own,
    scan_op,
    scopes_under,
    turn_of,
)
from langchain_contextchef.memory._events import changed
from langchain_contextchef.memory._section import exclusive
from langchain_contextchef.memory.config import COMPILE, MemoryConfig
from langchain_contextchef.memory.results import PurgeReport, PurgeSummary
from langchain_contextchef.retention import RetentionPolicy

__all__ = ["apurge_store", "due", "overdue", "purge", "purge_store", "sweep_ops"]

_Record = TypeVar("_Record")


def overdue(ctx: MemoryContext, entry: MemoryEntry, now: datetime) -> bool:
    """Whether `entry` is past its type's maximum age (never without a retention policy)."""
    policy = ctx.config.retention
    return policy is not None and policy.overdue(entry, now)


def due(ctx: MemoryContext, entry: MemoryEntry, *, turn: int, now: datetime) -> bool:
    """Whether a sweep at `turn` and `now` takes `entry` out of memory."""
    return entry.is_expired(turn=turn, now=now) or overdue(ctx, entry, now)


def sweep_ops(ctx: MemoryContext, entry: MemoryEntry, *, turn: int, now: datetime) -> list[Any]:
    """The ops that take a due `entry` out of memory, with its audit record."""
    policy = ctx.config.retention
    if entry.is_expired(turn=turn, now=now) or policy is None:
        ops: list[Any] = _history.archive(ctx, entry, "expired", now=now, cause=None)
        return ops + _audit.entry_ops(ctx, "expired", entry, at=now, cause=None)
    note = policy.reason(entry)
    audit = _audit.entry_ops(
        ctx, "retained_out", entry, at=now, cause=None, actor="retention", note=note
    )
    if policy.erase:
        # No history; the version marker alone stays, so a re-created key never reuses a
        # version number.
        retired = _history.archive(ctx, entry, "expired", now=now, cause=None)
        kept = [op for op in retired if op.namespace != ctx.history_ns]
        return kept + audit
    retired = _history.archive(ctx, entry, "expired", now=now, cause=None, note=note)
    return retired + audit


def _doomed(
    items: Iterable[Any],
    parse: Callable[[Any], _Record],
    condemned: Callable[[_Record], bool],
    unreadable: tuple[type[Exception], ...] = (ValueError, TypeError),
) -> list[Any]:
    """The items whose parsed record is `condemned`; one that does not parse is not ours."""
    doomed = []
    for item in items:
        try:
            record = parse(item.value)
        except unreadable:
            continue
        if condemned(record):
            doomed.append(item)
    return doomed


def _stale_history(
    ctx: MemoryContext,
    policy: RetentionPolicy,
    items: Sequence[Any],
    erased: set[str],
    now: datetime,
) -> list[Any]:
    def stale(record: HistoryRecord) -> bool:
        when = record.recorded_at or record.entry.updated_at
        return record.key in erased or policy.record_overdue(record.entry.type, when, now)

    mine = own(ctx.history_ns, items)
    return _doomed(mine, HistoryRecord.from_stored, stale, (ValueError, TypeError, KeyError))


def _stale_audit(
    ctx: MemoryContext, policy: RetentionPolicy, items: Sequence[Any], now: datetime
) -> list[Any]:
    def stale(record: AuditRecord) -> bool:
        return policy.record_overdue(record.type, record.at, now)

    return _doomed(own(_audit.audit_ns(ctx), items), AuditRecord.from_stored, stale)


def _stale_proposals(
    ctx: MemoryContext, policy: RetentionPolicy, items: Sequence[Any], now: datetime
) -> list[Any]:
    def stale(proposal: Proposal) -> bool:
        when = proposal.decided_at or proposal.proposed_at
        return when is not None and policy.record_overdue(proposal.type, when, now)

    return _doomed(own(_consent.proposals_ns(ctx), items), Proposal.from_stored, stale)


@exclusive
def purge(ctx: MemoryContext) -> Plan[PurgeReport]:
    """Apply the retention policy to this scope now, without a compile (the clock stays).

    Entries past their age (or past a TTL) leave memory as a sweep would take them; history
    records, audit records and proposals past their age are deleted. One read batch and one
    write batch. Without a retention policy only expired entries are swept.
    """
    got = yield from gather(
        items=scan_op(ctx.entries_ns),
        clock=clock_op(ctx),
        history=scan_op(ctx.history_ns),
        audit=scan_op(_audit.audit_ns(ctx)),
        proposals=scan_op(_consent.proposals_ns(ctx)),
    )
    now, turn = ctx.now(), turn_of(got.clock)
    leaving = [e for e in entries_of(ctx, got.items) if due(ctx, e, turn=turn, now=now)]
    ops: list[Any] = []
    for entry in leaving:
        ops += sweep_ops(ctx, entry, turn=turn, now=now)
    policy = ctx.config.retention
    history: list[Any] = []
    audit: list[Any] = []
    proposals: list[Any] = []
    erase = policy is not None and policy.erase
    if policy is not None:
        erased = (
            {e.key for e in leaving if not e.is_expired(turn=turn, now=now)} if erase else set()
        )
        history = _stale_history(ctx, policy, got.history, erased, now)
        audit = _stale_audit(ctx, policy, got.audit, now)
        proposals = _stale_proposals(ctx, policy, got.proposals, now)
    ops += [PutOp(item.namespace, item.key, None) for item in (*history, *audit, *proposals)]
    if ops:
        yield Io(ops)
    for entry in leaving:
        yield from changed(
            ctx, MemoryChangeEvent("expire", entry.key, None, entry.value, ctx.scope)
        )
    return PurgeReport(
        ctx.scope,
        tuple(e.key for e in leaving),
        erase,
        len(history),
        len(audit),
        len(proposals),
    )


def _context(
    scope: tuple[str, ...], config: MemoryConfig, clock: Callable[[], datetime] | None
) -> MemoryContext:
    return (
        MemoryContext(scope, config, clock) if clock is not None else MemoryContext(scope, config)
    )


def list_scopes(store: BaseStore, prefix: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """Every scope under `prefix` that holds entries, history, a clock, notes, audit or proposals.

    The scopes `purge_store` visits and `contextchef scopes` lists, sorted.

    Example:
        ```python
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef import Memory
        from langchain_contextchef.memory import list_scopes

        store = InMemoryStore()
        Memory(store, scope=("users", "ada")).set("tone", "dry")
        Memory(store, scope=("teams", "core")).set("repo", "monorepo")
        assert list_scopes(store, ("users",)) == [("users", "ada")]
        ```
    """
    return run_sync(scopes_under(tuple(prefix)), store)


async def alist_scopes(store: BaseStore, prefix: Sequence[str] = ()) -> list[tuple[str, ...]]:
    """Async `list_scopes`."""
    return await run_async(scopes_under(tuple(prefix)), store)


def _check_purge_args(store: Any, config: Any) -> None:
    if not isinstance(store, BaseStore):
        msg = f"purge_store needs a LangGraph BaseStore as store, got {type(store).__name__}."
        raise TypeError(msg)
    if not isinstance(config, MemoryConfig):
        msg = (
            f"purge_store needs a MemoryConfig as config, got {type(config).__name__} "
            f"{config!r}: pass MemoryConfig(retention=RetentionPolicy(...)), the config your "
            "memory runs with."
        )
        raise TypeError(msg)


def purge_store(
    store: BaseStore,
    config: MemoryConfig,
    *,
    prefix: Sequence[str] = (),
    clock: Callable[[], datetime] | None = None,
) -> PurgeSummary:
    """Purge every scope under `prefix` by `config.retention`, one exclusive section each.

    Meant for a cron job (`contextchef purge --store postgresql://...`): it needs no graph
    and no compile, and other writers keep working while it runs (each scope is locked only
    while it is purged). Hooks in `config` are called as a compile's sweep would call them.

    Args:
        store: Any LangGraph store (wrap it in `EncryptedStore` if it is encrypted).
        config: The memory config; its `retention` policy decides what goes.
        prefix: Purge only scopes under these labels (`()`: the whole store).
        clock: Returns "now"; injectable for tests.

    Returns:
        How many scopes were examined and what each lost.

    Example:
        ```python
        from datetime import datetime, timedelta, timezone
        from langgraph.store.memory import InMemoryStore
        from langchain_contextchef import Memory, MemoryConfig
        from langchain_contextchef.memory import purge_store
        from langchain_contextchef.retention import RetentionPolicy

        store = InMemoryStore()
        config = MemoryConfig(retention=RetentionPolicy(default=timedelta(days=30)))
        long_ago = lambda: datetime(2020, 1, 1, tzinfo=timezone.utc)
        for user in ("ada", "bob"):
            Memory(store, config, scope=("users", user), clock=long_ago).set("tone", "dry")
        summary = purge_store(store, config, prefix=("users",))
        assert (summary.scopes, summary.removed) == (2, 2)
        assert Memory(store, config, scope=("users", "ada")).get("tone") is None
        ```
    """
    _check_purge_args(store, config)
    config.refuse_async(COMPILE)
    reports: list[PurgeReport] = []
    scopes = list_scopes(store, prefix)
    for scope in scopes:
        report = run_sync(purge(_context(scope, config, clock)), store)
        if report.total:
            reports.append(report)
    return PurgeSummary(len(scopes), reports)


async def apurge_store(
    store: BaseStore,
    config: MemoryConfig,
    *,
    prefix: Sequence[str] = (),
    clock: Callable[[], datetime] | None = None,
) -> PurgeSummary:
    """Async `purge_store`."""
    _check_purge_args(store, config)
    reports: list[PurgeReport] = []
    scopes = await alist_scopes(store, prefix)
    for scope in scopes:
        report = await run_async(purge(_context(scope, config, clock)), store)
        if report.total:
            reports.append(report)
    return PurgeSummary(len(scopes), reports)
