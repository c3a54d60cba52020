"""Exclusive sections: a write plan runs alone in its scope and advances the scope's stamp.

`exclusive` (a decorator) and `exclusively` (for a plan already built) put a plan inside one
`Exclusive` step, so the driver holds the scope's lock while it runs (see `_sections`), and
inside `_stamp.tracked`, so every batch that changes entries also advances the stamp and the
process's cached slot follows. Every plan that writes entries runs this way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from langchain_contextchef._plan import Exclusive, Plan
from langchain_contextchef.memory._context import MemoryContext
from langchain_contextchef.memory._stamp import tracked

__all__ = ["exclusive", "exclusively", "guessable"]

T = TypeVar("T")
P = ParamSpec("P")


def exclusively(
    ctx: MemoryContext, plan: Plan[T], again: Callable[[], Plan[T]] | None = None
) -> Plan[T]:
    """Run an already built plan as one exclusive section of its scope (see `exclusive`).

    `again` builds the same plan anew, for a driver that runs the section on guessed reads
    and must run it again when they were wrong (see `guessable`).
    """
    wrote: list[bool] = []  # the tracker notes each batch that changed entries

    def rerun() -> Plan[Any]:
        # The guessed run's writes were never stored, but the cached slot followed them.
        slot = ctx.slot() if wrote else None
        if slot is not None:
            slot.invalidate()
        wrote.clear()
        assert again is not None
        return again()

    step = Exclusive(
        ctx.scope,
        plan,
        wrap=functools.partial(_track, ctx, wrote),
        again=rerun if again is not None else None,
    )
    try:
        result = yield step
    except Exception:
        # A section run as one transaction (`_pg_txn`) may fail at its commit, after the
        # cached slot followed its writes: trust nothing cached then.
        slot = ctx.slot() if wrote else None
        if slot is not None:
            slot.invalidate()
        raise
    return cast("T", result)


def _track(ctx: MemoryContext, wrote: list[bool], plan: Plan[Any]) -> Plan[Any]:
    return tracked(ctx, plan, ctx.slot(), wrote)


def exclusive(
    plan: Callable[Concatenate[MemoryContext, P], Plan[T]],
) -> Callable[Concatenate[MemoryContext, P], Plan[T]]:
    """Make a plan one exclusive section of its scope: it reads, checks and writes alone.

    Concurrent writers (threads, processes, machines, as far as the backend allows: see
    `_sections`) never interleave a read-check-write, and every write advances the scope's
    stamp in the same batch (see `_stamp`). Sections are re-entrant, so exclusive plans
    compose.
    """

    @functools.wraps(plan)
    def section(ctx: MemoryContext, /, *args: P.args, **kwargs: P.kwargs) -> Plan[T]:
        return (yield from exclusively(ctx, plan(ctx, *args, **kwargs)))

    return section


def guessable(
    plan: Callable[Concatenate[MemoryContext, P], Plan[T]],
) -> Callable[Concatenate[MemoryContext, P], Plan[T]]:
    """`exclusive`, for a plan that may run on guessed reads and be run again.

    On a sync `PostgresStore` over one connection, the section's first reads may be answered
    from what this process last wrote, checked on the server in the one statement that also
    takes the lock and writes (see `_sections._pg_guess`); when a guess is wrong nothing was
    written and the plan runs again from its start with real reads. The plan
    must do nothing outside the store before its section ends but through plan steps (a hook
    or a runnable confirms the guess before it runs).
    """

    @functools.wraps(plan)
    def section(ctx: MemoryContext, /, *args: P.args, **kwargs: P.kwargs) -> Plan[T]:
        def build() -> Plan[T]:
            return plan(ctx, *args, **kwargs)

        return (yield from exclusively(ctx, build(), build))

    return section
