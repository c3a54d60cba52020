"""One bridge between Memory's plans and a store, for sync and async callers.

Memory's operations are written once, as generators that yield *steps* (store batches, user
hooks, runnable calls, LangChain custom events) and receive their results. `run_sync` and `run_async` execute
those steps; they are the only places that differ between the two worlds, so no operation has
a sync and an async body.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.store.base import BaseStore, Op

__all__ = ["NO_STORE", "Atomic", "Call", "Emit", "Invoke", "Io", "Plan", "run_async", "run_sync"]

T = TypeVar("T")


@dataclass(frozen=True)
class Io:
    """Run these ops in one `batch` (one round-trip) and send back the results."""

    ops: Sequence[Op]


@dataclass(frozen=True)
class Atomic:
    """Read-modify-write one item; atomically on stores that support it (see `FileSystemStore`).

    `fn` receives the current value (or `None`) and returns the new one, which is sent back.
    Stores without an atomic update apply `fn` to `known`, the value the plan already read,
    and write the result: one write, no second read, but concurrent writers may collide.
    """

    namespace: tuple[str, ...]
    key: str
    fn: Callable[[dict[str, Any] | None], dict[str, Any]]
    known: dict[str, Any] | None = None


@dataclass(frozen=True)
class Call:
    """Call a user hook; its result is sent back (awaited first on the async path)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    name: str


@dataclass(frozen=True)
class Invoke:
    """Invoke a runnable (e.g. a chat model): `invoke` on the sync path, `ainvoke` on the async."""

    runnable: Runnable[Any, Any]
    input: Any
    config: RunnableConfig | None = None


@dataclass(frozen=True)
class Emit:
    """Dispatch a LangChain custom event when running inside a LangChain run."""

    name: str
    data: dict[str, Any]


Step: TypeAlias = Io | Atomic | Call | Invoke | Emit
Plan: TypeAlias = Generator[Step, Any, T]


def _inside_run() -> bool:
    config = var_child_runnable_config.get()
    return bool(config and config.get("callbacks"))


def _atomic_sync(store: BaseStore, step: Atomic) -> dict[str, Any]:
    update = getattr(store, "atomic_update", None)
    if callable(update):
        result: dict[str, Any] = update(step.namespace, step.key, step.fn)
        return result
    new = step.fn(step.known)
    store.put(step.namespace, step.key, new, index=False)
    return new


async def _atomic_async(store: BaseStore, step: Atomic) -> dict[str, Any]:
    update = getattr(store, "aatomic_update", None)
    if callable(update):
        result: dict[str, Any] = await update(step.namespace, step.key, step.fn)
        return result
    new = step.fn(step.known)
    await store.aput(step.namespace, step.key, new, index=False)
    return new


def run_sync(plan: Plan[T], store: BaseStore) -> T:
    """Execute a plan with the store's sync API.

    Raises:
        TypeError: If a hook returns an awaitable; async hooks need the async method.
    """
    reply: Any = None
    while True:
        try:
            step = plan.send(reply)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        if isinstance(step, Io):
            reply = store.batch(step.ops)
        elif isinstance(step, Atomic):
            reply = _atomic_sync(store, step)
        elif isinstance(step, Invoke):
            reply = step.runnable.invoke(step.input, step.config)
        elif isinstance(step, Call):
            reply = step.fn(*step.args)
            if inspect.isawaitable(reply):
                if inspect.iscoroutine(reply):
                    reply.close()
                msg = (
                    f"The {step.name} hook returned an awaitable, which a sync call cannot wait "
                    "for. Use the async method (e.g. `acompile`, `aset`) or give a sync hook."
                )
                plan.close()
                raise TypeError(msg)
        else:
            reply = None
            if _inside_run():
                # No parent run after all: the hooks already fired, the event has no audience.
                with contextlib.suppress(RuntimeError):
                    dispatch_custom_event(step.name, step.data)


async def run_async(plan: Plan[T], store: BaseStore) -> T:
    """Execute a plan with the store's async API; awaits async hooks."""
    reply: Any = None
    while True:
        try:
            step = plan.send(reply)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        if isinstance(step, Io):
            reply = await store.abatch(step.ops)
        elif isinstance(step, Atomic):
            reply = await _atomic_async(store, step)
        elif isinstance(step, Invoke):
            reply = await step.runnable.ainvoke(step.input, step.config)
        elif isinstance(step, Call):
            reply = step.fn(*step.args)
            if inspect.isawaitable(reply):
                reply = await reply
        else:
            reply = None
            if _inside_run():
                with contextlib.suppress(RuntimeError):
                    await adispatch_custom_event(step.name, step.data)


class _NoStore(BaseStore):
    """The store of a plan that must not touch storage (memory disabled); any access is a bug."""

    def batch(self, ops: Any) -> Any:
        msg = "memory is disabled here, so no store access is possible"
        raise RuntimeError(msg)

    async def abatch(self, ops: Any) -> Any:
        return self.batch(ops)


NO_STORE: BaseStore = _NoStore()
"""Run a plan with this when it has no memory: it answers without I/O or fails loudly."""
