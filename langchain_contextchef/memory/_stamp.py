"""The scope's stamp: a version that every write through the package advances with the write.

The stamp item sits beside the turn clock: `{"epoch": <random id>, "stamp": <count>, "log":
[[count, key], ...]}`. Every exclusive section runs through `tracked`, which watches the
batches its plan sends: a batch that puts or deletes entries gets the stamp's advance (and
the changed keys appended to the log) added to the same batch, so the stamp can never lag a
write, and no write path has to remember it. The stamp is read on the section's first batch
(one more op, no extra round trip) or, when a section writes before it reads, alone.

`tracked` also keeps the process's cached slot of the scope (see `_cache`) in step with the
writes it sees, so a compile right after a write in this process does no scan at all. The
log keeps the last `LOG_LIMIT` changed keys: a process whose slot is older than the log reads
the whole scope again; a restore that changes more keys than that starts a new epoch.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, TypeVar

from langgraph.store.base import GetOp, Item, PutOp

from langchain_contextchef._plan import Call, Exclusive, Invoke, Io, Plan
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._cache import ScopeSlot, Token
from langchain_contextchef.memory._context import MemoryContext

__all__ = [
    "LOG_LIMIT",
    "STAMP_KEY",
    "changes_since",
    "stamp_op",
    "token_of",
    "tracked",
]

T = TypeVar("T")

STAMP_KEY = "stamp"
"""The item beside the turn clock that holds the scope's stamp."""

LOG_LIMIT = 64
"""How many of the latest changed keys the stamp remembers."""

_MAX_STAMP = 2**53 - 2  # one more must still be an integer JSON keeps exactly


def stamp_op(ctx: MemoryContext) -> GetOp:
    """The op that reads the scope's stamp (answer with `token_of`)."""
    return GetOp(ctx.meta_ns, STAMP_KEY, refresh_ttl=False)


def _token(value: dict[str, Any] | None) -> Token | None:
    if value is None:
        return None
    epoch, stamp = value.get("epoch"), value.get("stamp")
    if not isinstance(epoch, str) or isinstance(stamp, bool) or not isinstance(stamp, int):
        return None
    if not 0 <= stamp <= _MAX_STAMP:
        return None  # damaged: a new epoch replaces it at the next write
    return epoch, stamp


def token_of(item: Item | None) -> Token | None:
    """The stamp an item holds, or `None` when the scope has none yet (nothing was written)."""
    return _token(item.value if item is not None else None)


def changes_since(item: Item | None, since: Token) -> list[str] | None:
    """The keys changed after `since`, or `None` when the log cannot say (too old, new epoch)."""
    token = token_of(item)
    if item is None or token is None or token[0] != since[0] or token[1] < since[1]:
        return None
    log = _log(item.value)
    if log is None:
        return None
    newer = [row for row in log if row[0] > since[1]]
    # The log must reach back to the first change after `since`, or some are missing.
    if token[1] - since[1] > len(newer):
        return None
    return list(dict.fromkeys(str(row[1]) for row in newer))


def _log(value: dict[str, Any]) -> list[list[Any]] | None:
    """The stamp's log as `[count, key]` rows, or `None` when any row is damaged."""
    log = value.get("log")
    if not isinstance(log, list):
        return None
    for row in log:
        if (
            not isinstance(row, list)
            or len(row) != 2
            or isinstance(row[0], bool)
            or not isinstance(row[0], int)
            or not isinstance(row[1], str)
        ):
            return None
    return log


def _advanced(current: dict[str, Any] | None, keys: Sequence[str]) -> dict[str, Any]:
    # A damaged stamp (edited by hand: a wrong type anywhere) never blocks a write: it is
    # replaced by a new epoch, which every process that cached the scope reads again.
    token = _token(current)
    log = _log(current) if current is not None else None
    if token is None or log is None or len(keys) > LOG_LIMIT:
        # No stamp yet, a damaged one, or more changes than the log holds: a new epoch, so
        # every process that cached this scope reads it again.
        return {"epoch": uuid.uuid4().hex, "stamp": 1, "log": []}
    epoch, stamp = token[0], token[1] + 1
    log = [*log, *([stamp, key] for key in keys)]
    return {"epoch": epoch, "stamp": stamp, "log": log[-LOG_LIMIT:]}


def _is_stamp_read(ctx: MemoryContext, op: Any) -> bool:
    return isinstance(op, GetOp) and tuple(op.namespace) == ctx.meta_ns and op.key == STAMP_KEY


def _stamp_answer(ctx: MemoryContext, ops: Sequence[Any], results: list[Any]) -> Item | None:
    """The answer to the plan's own read of the stamp in a batch."""
    answers = (r for op, r in zip(ops, results, strict=True) if _is_stamp_read(ctx, op))
    return next(answers)  # type: ignore[no-any-return]


def _follow(
    slot: ScopeSlot | None,
    before: Token | None,
    after: Token | None,
    changes: list[PutOp],
    *,
    filled_here: bool = False,
) -> None:
    # Keep the cached slot in step with a write it saw, if it was current before the write:
    # at the stamp `before`, or, for a scope without a stamp, read whole in this section.
    if slot is None or slot.token is None and not slot.entries:
        return  # nothing held to keep in step
    current = filled_here if slot.token is None else slot.token == before
    if not current or after is None:
        slot.invalidate()
        return
    for op in changes:
        if op.value is None:
            slot.drop(op.key)
            continue
        try:
            slot.put(MemoryEntry.from_stored(op.key, op.value))
        except (ValueError, TypeError, KeyError):
            slot.drop(op.key, damaged=True)
    slot.token = after


def _classify(ctx: MemoryContext, ops: Sequence[Any]) -> tuple[list[PutOp], bool, bool]:
    """The entry changes in a batch, whether it writes the stamp, whether it reads it."""
    changes: list[PutOp] = []
    writes_stamp = reads_stamp = False
    entries_ns, meta_ns = ctx.entries_ns, ctx.meta_ns
    for op in ops:
        kind = type(op)
        if kind is PutOp:
            namespace = op.namespace
            if type(namespace) is not tuple:  # a list names the same namespace
                namespace = tuple(namespace)
            if namespace == entries_ns:
                changes.append(op)
            elif op.key == STAMP_KEY and namespace == meta_ns:
                writes_stamp = True
        elif kind is GetOp and op.key == STAMP_KEY and tuple(op.namespace) == meta_ns:
            reads_stamp = True
    return changes, writes_stamp, reads_stamp


class _Tracker:
    """The stamp as one exclusive section knows it, shared by the plans nested inside it."""

    def __init__(
        self, ctx: MemoryContext, slot: ScopeSlot | None, wrote: list[bool] | None = None
    ) -> None:
        self.ctx = ctx
        self.slot = slot
        self.wrote = wrote  # gets one mark per batch that advanced the stamp
        self.stamp: dict[str, Any] | None = None
        self.known = False  # whether `stamp` is the stored stamp item's current value
        self.fills = 0  # the slot's whole reads when the stamp was learnt

    def _learn(self, item: Item | None) -> None:
        self.stamp, self.known = (dict(item.value) if item is not None else None), True
        # A whole read of the slot after this point reflects the scope as this section sees it.
        self.fills = self.slot.fills if self.slot is not None else 0

    def _restart(self) -> None:
        # The plan wrote the stamp itself (forget deletes it): caches start over.
        self.stamp, self.known = None, False
        if self.slot is not None:
            self.slot.invalidate()

    def drive(self, plan: Plan[T]) -> Plan[T]:
        """Run `plan` through this tracker; sections nested in it for the same scope too.

        A batch that changes entries gets the stamp's advance (and, when the stamp is not
        known yet, a read of it first); a batch sent before the stamp is known reads it too.
        """
        ctx = self.ctx
        reply: Any = None
        failure: BaseException | None = None
        while True:
            try:
                step = plan.send(reply) if failure is None else plan.throw(failure)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
            reply, failure = None, None
            try:
                kind = type(step)
                if kind is Io:
                    ops: Sequence[Any] = step.ops  # type: ignore[union-attr]
                    changes, writes_stamp, reads_stamp = _classify(ctx, ops)
                    if writes_stamp:
                        reply = yield step
                        self._restart()
                        continue
                    if changes and not self.known:  # a write before any read
                        (item,) = yield Io([stamp_op(ctx)])
                        self._learn(item)
                    sent = list(ops)
                    read_here = not self.known and not reads_stamp
                    if read_here:
                        sent.append(stamp_op(ctx))
                    before = _token(self.stamp) if self.known else None
                    # A section that writes to a scope with no stamp yet (written before
                    # stamps existed, or only behind the package's back) gives it one, so
                    # later compiles can trust what they cached.
                    advance = bool(changes) or (
                        self.known and self.stamp is None and any(type(op) is PutOp for op in ops)
                    )
                    if advance:
                        keys = list(dict.fromkeys(op.key for op in changes))
                        self.stamp = _advanced(self.stamp, keys)
                        sent.append(PutOp(ctx.meta_ns, STAMP_KEY, self.stamp, index=False))
                    # A batch that advances the stamp is always flushed: compiles trust it.
                    results = yield Io(sent, step.synced or advance)  # type: ignore[union-attr]
                    if advance:
                        if self.wrote is not None:
                            self.wrote.append(True)
                        slot = self.slot
                        filled_here = (
                            slot is not None and before is None and slot.fills > self.fills
                        )
                        _follow(slot, before, _token(self.stamp), changes, filled_here=filled_here)
                    elif not self.known:
                        self._learn(
                            results[len(ops)] if read_here else _stamp_answer(ctx, ops, results)
                        )
                    reply = results[: len(ops)] if len(sent) > len(ops) else results
                elif kind is Exclusive and step.scope == ctx.scope:  # type: ignore[union-attr]
                    # Already alone in this scope: run the nested section inline, tracked here.
                    reply = yield from self.drive(step.plan)  # type: ignore[union-attr]
                else:
                    reply = yield step
                    if kind is Call or kind is Invoke:
                        # User code ran: a hook may have written this scope, stamp included.
                        self.known = False
            except Exception as exc:  # thrown into the plan, like the driver does
                failure = exc


def tracked(
    ctx: MemoryContext,
    plan: Plan[T],
    slot: ScopeSlot | None = None,
    wrote: list[bool] | None = None,
) -> Plan[T]:
    """Run `plan`, advancing the scope's stamp in every batch that changes entries.

    Args:
        ctx: The scope.
        plan: The plan of an exclusive section.
        slot: The process's cached slot of the scope, kept in step with the writes.
        wrote: Gets one `True` appended per batch that advanced the stamp.

    Returns:
        The plan's result.
    """
    return (yield from _Tracker(ctx, slot, wrote).drive(plan))
