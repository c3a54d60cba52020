"""Plans, and the one bridge that runs them on a store for sync and async callers.

Every operation of the package is written once, as a generator (a *plan*) that yields
*steps* - store batches, exclusive sections, user hooks, runnable calls, LangChain custom
events - and receives
their results. `run_sync` and `run_async` execute those steps; they are the only places where
the two worlds differ, so no operation has a sync and an async body.

Steps are immutable data (named tuples, like LangGraph's ops) and the drivers dispatch on them exhaustively: an unknown step is a
bug that fails loudly. When a step raises, the exception is thrown into the plan at the
`yield` that asked for it, so a plan can clean up (or handle it); a plan that does not catch
it ends with the exception.

Example:
    ```python
    from langgraph.store.base import GetOp, PutOp
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef._plan import Io, gather, run_sync


    def bump(namespace):
        got = yield from gather(current=GetOp(namespace, "n"))
        n = (got.current.value["n"] if got.current else 0) + 1
        yield Io([PutOp(namespace, "n", {"n": n})])
        return n


    store = InMemoryStore()
    assert run_sync(bump(("c",)), store) == 1
    assert run_sync(bump(("c",)), store) == 2
    ```
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Callable, Generator, Sequence
from types import SimpleNamespace
from typing import Any, NamedTuple, TypeAlias, TypeVar

from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.store.base import (
    BaseStore,
    GetOp,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchOp,
)
from typing_extensions import assert_never

from langchain_contextchef._sections import (
    Mispredicted,
    aexclusive,
    arun_batch,
    exclusive,
    run_batch,
    settle,
    transaction_of,
)
from langchain_contextchef._stored_vectors import astored_vectors, stored_vectors
from langchain_contextchef.errors import AsyncStoreError

__all__ = [
    "NO_STORE",
    "Call",
    "Emit",
    "Exclusive",
    "Invoke",
    "Io",
    "Plan",
    "Step",
    "Unreadable",
    "Vectors",
    "gather",
    "namespaces_under",
    "refuse_sync_in_event_loop",
    "run_async",
    "run_sync",
]

T = TypeVar("T")


class Io(NamedTuple):
    """Run these ops in one `batch` (one round trip) and send back the results, in op order.

    With `synced` off, the batch's writes need not be flushed to disk before it returns
    (`_sections.batch_unsynced`): for a write a power cut may undo without harm.
    """

    ops: Sequence[Op]
    synced: bool = True


class Exclusive(NamedTuple):
    """Run `plan` as one exclusive section of `scope`: no other writer of the scope runs meanwhile.

    The driver holds the store's lock for the scope (see `_sections`) while it runs the nested
    plan, and sends back the nested plan's result. Sections are re-entrant. `wrap`, when given,
    transforms the plan before it runs (the memory engine tracks its writes this way).
    `again`, when given, builds the same plan anew: the sync driver may then run the section
    on guessed reads (one PostgreSQL statement, see `_sections._pg_guess`) and, when the
    guess was wrong, run it again from its start with real reads.
    """

    scope: tuple[str, ...]
    plan: Generator[Any, Any, Any]
    wrap: Callable[[Generator[Any, Any, Any]], Generator[Any, Any, Any]] | None = None
    again: Callable[[], Generator[Any, Any, Any]] | None = None


class Call(NamedTuple):
    """Call a user hook; its result is sent back (awaited first on the async path)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    name: str


class Invoke(NamedTuple):
    """Invoke a runnable (e.g. a chat model): `invoke` on the sync path, `ainvoke` on the async."""

    runnable: Runnable[Any, Any]
    input: Any
    config: RunnableConfig | None = None


class Emit(NamedTuple):
    """Dispatch a LangChain custom event when running inside a LangChain run."""

    name: str
    data: dict[str, Any]


class Unreadable(NamedTuple):
    """Ask which of `keys` (every key when `None`) of exactly `namespace` the store holds but cannot read.

    Answered by a store with `unreadable_keys`/`aunreadable_keys` (`FileSystemStore`: a file
    broken by hand, which its reads treat as absent); any other store answers `[]`, since
    what it holds it can read.
    """

    namespace: tuple[str, ...]
    keys: tuple[str, ...] | None = None
    read: bool = False  # the plan just read the whole namespace: answer from that read


class Vectors(NamedTuple):
    """Ask for the stored embeddings of `keys` of exactly `namespace`, never embedding anew.

    Answered with `{key: {field path: vector}}` for the keys the store holds vectors of, read
    where the store keeps them (`_stored_vectors`: one batched query on SQLite and
    PostgreSQL, a lookup in memory or in the files); `{}` from a store that keeps none or
    whose vectors cannot be read (a wrapper such as `EncryptedStore`, a custom store).
    """

    namespace: tuple[str, ...]
    keys: tuple[str, ...]


Step: TypeAlias = Io | Exclusive | Call | Invoke | Emit | Unreadable | Vectors
Plan: TypeAlias = Generator[Step, Any, T]

# What a named read may hold: one op, a tuple of ops, or nothing (a read this plan skips).
_Read: TypeAlias = "Op | Sequence[Op] | None"
_OPS = (GetOp, SearchOp, PutOp, ListNamespacesOp)


def gather(**reads: _Read) -> Plan[SimpleNamespace]:
    """Run several named reads in one batch and answer them by name, never by position.

    Each keyword is one op, a sequence of ops (answered as a list), or `None` (answered
    `None`, no op sent), so a plan can skip a read without shifting any other answer.

    Returns:
        A namespace with one attribute per keyword.
    """
    ops: list[Op] = []
    slots: dict[str, int | slice | None] = {}
    for name, read in reads.items():
        if read is None:
            slots[name] = None
        elif isinstance(read, _OPS):  # ops are NamedTuples, so test them before sequences
            slots[name] = len(ops)
            ops.append(read)
        else:
            slots[name] = slice(len(ops), len(ops) + len(read))
            ops.extend(read)
    results = (yield Io(ops)) if ops else []
    answers: dict[str, Any] = {}
    for name, slot in slots.items():
        if slot is None:
            answers[name] = None
        elif isinstance(slot, slice):
            answers[name] = list(results[slot])
        else:
            answers[name] = results[slot]
    return SimpleNamespace(**answers)


NAMESPACE_PAGE = 1000


def namespaces_under(prefix: Sequence[str] = ()) -> Plan[list[tuple[str, ...]]]:
    """Every namespace of the store under `prefix` (all of them for `()`), sorted.

    The one paging loop over `list_namespaces`: a page shorter than the page size is the last.
    """
    condition = (MatchCondition("prefix", tuple(prefix)),) if prefix else None
    found: set[tuple[str, ...]] = set()
    offset = 0
    while True:
        (page,) = yield Io((ListNamespacesOp(condition, limit=NAMESPACE_PAGE, offset=offset),))
        found.update(tuple(namespace) for namespace in page)
        if len(page) < NAMESPACE_PAGE:
            return sorted(found)
        offset += NAMESPACE_PAGE


def _inside_run() -> bool:
    config = var_child_runnable_config.get()
    return bool(config and config.get("callbacks"))


def _refuse_awaitable(step: Call, reply: Any) -> None:
    if inspect.iscoroutine(reply):
        reply.close()
    msg = (
        f"The {step.name} hook returned an awaitable, which a sync call cannot wait "
        "for. Use the async method (e.g. `acompile`, `aset`) or give a sync hook."
    )
    raise TypeError(msg)


def _execute_sync(step: Step, store: BaseStore) -> Any:
    # Inside a section run as one PostgreSQL transaction (`_pg_txn`), batches go through it,
    # and it commits before any user code runs (a hook, a runnable, an event, a section of
    # another scope), keeping the scope locked.
    match step:
        case Io(ops, synced):
            txn = transaction_of(store)
            if txn is not None:
                return txn.batch(ops)
            return run_batch(store, ops, synced)
        case Exclusive(scope, inner, wrap, again):
            txn = transaction_of(store)
            if txn is not None and txn.scope != scope:
                settle(store)
            plan = wrap(inner) if wrap else inner
            try:
                with exclusive(store, scope, transaction=True, guess=again is not None):
                    return run_sync(plan, store)
            except Mispredicted:
                # Nothing of the guessed run was written, and no user code ran in it.
                plan.close()
                assert again is not None
                retry = again()
                with exclusive(store, scope, transaction=True, guess="learn"):
                    return run_sync(wrap(retry) if wrap else retry, store)
        case Invoke(runnable, value, config):
            settle(store)
            return runnable.invoke(value, config)
        case Call(fn, args):
            settle(store)
            reply = fn(*args)
            if inspect.isawaitable(reply):
                _refuse_awaitable(step, reply)
            return reply
        case Unreadable(namespace, keys, read):
            report = getattr(store, "unreadable_keys", None)
            return list(report(namespace, keys, read=read)) if callable(report) else []
        case Vectors(namespace, keys):
            settle(store)  # its own query, outside a section's transaction
            return stored_vectors(store, namespace, keys)
        case Emit(name, data):
            if _inside_run():
                settle(store)
                # No parent run after all: the hooks already fired, the event has no audience.
                with contextlib.suppress(RuntimeError):
                    dispatch_custom_event(name, data)
            return None
        case _:
            assert_never(step)


async def _execute_async(step: Step, store: BaseStore) -> Any:
    match step:
        case Io(ops, synced):
            return await arun_batch(store, ops, synced)
        case Exclusive(scope, inner, wrap, _):
            async with aexclusive(store, scope):
                return await run_async(wrap(inner) if wrap else inner, store)
        case Invoke(runnable, value, config):
            return await runnable.ainvoke(value, config)
        case Call(fn, args):
            reply = fn(*args)
            return (await reply) if inspect.isawaitable(reply) else reply
        case Unreadable(namespace, keys, read):
            report = getattr(store, "aunreadable_keys", None)
            return list(await report(namespace, keys, read=read)) if callable(report) else []
        case Vectors(namespace, keys):
            return await astored_vectors(store, namespace, keys)
        case Emit(name, data):
            if _inside_run():
                with contextlib.suppress(RuntimeError):
                    await adispatch_custom_event(name, data)
            return None
        case _:
            assert_never(step)


def _event_loop_of(store: Any) -> tuple[Any, Any]:
    """The async-only LangGraph store (through wrappers) and the loop it is bound to."""
    for _ in range(8):  # EncryptedStore and similar wrappers hold the real store in `.store`
        loop = getattr(store, "_loop", None)
        if loop is not None:
            return store, loop
        inner = getattr(store, "store", None)
        if not isinstance(inner, BaseStore) or inner is store:
            break
        store = inner
    return None, None


def _async_store_message(store: BaseStore) -> str:
    return (
        f"{type(store).__name__} is an async store and this call came from its event loop, "
        "where its sync API cannot run. Use the async methods: await chef.acompile(...), "
        "await chef.ahandle_tool(...), the prompt's ainvoke, or Memory's a-methods "
        "(await memory.aset(...), aget, alist, ...)."
    )


def refuse_sync_in_event_loop(store: BaseStore) -> None:
    """Raise a clear error before a sync call on an async store inside its own event loop.

    LangGraph's `AsyncPostgresStore` and `AsyncSqliteStore` would raise `InvalidStateError`
    from deep inside the first store call; this says which async method to use instead.

    Raises:
        AsyncStoreError: When `store` (or the store it wraps) is bound to the running loop.
    """
    inner, loop = _event_loop_of(store)
    if loop is None:
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        return
    if running is loop:
        raise AsyncStoreError(_async_store_message(inner))


def run_sync(plan: Plan[T], store: BaseStore) -> T:
    """Execute a plan with the store's sync API.

    Raises:
        TypeError: If a hook returns an awaitable; async hooks need the async method.
        AsyncStoreError: If `store` is an async store called from its own event loop.
    """
    refuse_sync_in_event_loop(store)
    reply: Any = None
    failure: BaseException | None = None
    while True:
        try:
            step = plan.send(reply) if failure is None else plan.throw(failure)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        failure = None
        try:
            reply = _execute_sync(step, store)
        except asyncio.InvalidStateError as exc:  # an async store reached another way
            reply, failure = None, AsyncStoreError(_async_store_message(store))
            failure.__cause__ = exc
        except Exception as exc:  # handed to the plan, which re-raises unless it handles it
            reply, failure = None, exc


async def run_async(plan: Plan[T], store: BaseStore) -> T:
    """Execute a plan with the store's async API; awaits async hooks."""
    reply: Any = None
    failure: BaseException | None = None
    while True:
        try:
            step = plan.send(reply) if failure is None else plan.throw(failure)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        failure = None
        try:
            reply = await _execute_async(step, store)
        except Exception as exc:
            reply, failure = None, exc


class _NoStore(BaseStore):
    """The store of a plan that must not touch storage (memory disabled); any access is a bug."""

    def batch(self, ops: Any) -> Any:
        msg = "memory is disabled here, so no store access is possible"
        raise RuntimeError(msg)

    async def abatch(self, ops: Any) -> Any:
        return self.batch(ops)


NO_STORE: BaseStore = _NoStore()
"""Run a plan with this when it has no memory: it answers without I/O or fails loudly."""
