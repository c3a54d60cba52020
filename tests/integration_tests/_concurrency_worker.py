"""One writer process for the concurrency tests: it opens its own store and runs a scenario.

Each worker builds its own connection (a `FileSystemStore` on the same folder, a
`SqliteStore` on the same file, a `PostgresStore` on the same database), so the only thing the
workers share is the backend itself, as several agent processes would.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore

from langchain_contextchef import ContextChef, Memory
from langchain_contextchef.store import FileSystemStore
from langchain_contextchef.tools import ahandle_tool, handle_tool


@contextlib.contextmanager
def open_store(kind: str, where: str) -> Iterator[BaseStore]:
    """A fresh store of `kind` on `where` (a folder, a database file, or a PostgreSQL URI)."""
    if kind == "filesystem":
        yield FileSystemStore(where)
    elif kind == "sqlite":
        from langgraph.store.sqlite import SqliteStore

        conn = sqlite3.connect(where, check_same_thread=False, isolation_level=None, timeout=60)
        conn.execute("PRAGMA busy_timeout = 60000")
        store = SqliteStore(conn)
        store.setup()
        try:
            yield store
        finally:
            conn.close()
    elif kind == "postgres":
        from langgraph.store.postgres import PostgresStore

        with PostgresStore.from_conn_string(where) as store:
            store.setup()
            yield store
    elif kind == "postgres-pool":
        from langgraph.store.postgres import PostgresStore
        from psycopg_pool import ConnectionPool

        conninfo, kwargs = pool_args(where)
        with ConnectionPool(conninfo, kwargs=kwargs, min_size=1, max_size=3, open=True) as pool:
            store = PostgresStore(pool)
            store.setup()
            yield store
    else:
        raise ValueError(kind)


def pool_args(uri: str) -> tuple[str, dict[str, Any]]:
    """A pool's conninfo without the password, and its connection kwargs carrying it.

    As a deployment that reads the password from a secret store would: a connection made
    from the conninfo alone cannot log in, so the pooled tests show the lock connection is
    made with the pool's kwargs.
    """
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    from psycopg.rows import dict_row

    params = conninfo_to_dict(uri)
    password = params.pop("password", None)
    kwargs: dict[str, Any] = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
    if password is not None:
        kwargs["password"] = password
    return make_conninfo(**{k: v for k, v in params.items() if v is not None}), kwargs


@contextlib.asynccontextmanager
async def aopen_store(kind: str, where: str) -> AsyncIterator[BaseStore]:
    """An async store of `kind` on `where`: `AsyncPostgresStore` or `AsyncSqliteStore`."""
    if kind == "postgres":
        from langgraph.store.postgres.aio import AsyncPostgresStore

        async with AsyncPostgresStore.from_conn_string(where) as store:
            await store.setup()
            yield store
    elif kind == "postgres-pool":
        from langgraph.store.postgres.aio import AsyncPostgresStore
        from psycopg_pool import AsyncConnectionPool

        conninfo, kwargs = pool_args(where)
        pool = AsyncConnectionPool(conninfo, kwargs=kwargs, min_size=1, max_size=3, open=False)
        async with pool:
            store = AsyncPostgresStore(pool)
            await store.setup()
            yield store
    elif kind == "sqlite":
        from langgraph.store.sqlite.aio import AsyncSqliteStore

        async with AsyncSqliteStore.from_conn_string(where) as astore:
            await astore.conn.execute("PRAGMA busy_timeout = 60000")
            await astore.setup()
            yield astore
    else:
        raise ValueError(kind)


def _update(memory: Memory, worker: int, count: int) -> list[str]:
    replies = []
    for i in range(count):
        args = {"action": "update", "key": "counter", "value": f"worker {worker} write {i}"}
        replies.append(handle_tool("modify_memory", args, memory, tool_call_id=f"{worker}-{i}"))
    return replies


def _create(memory: Memory, worker: int, keys: list[str], barrier: Any) -> list[str]:
    replies = []
    for key in keys:
        barrier.wait()
        args = {"key": key, "value": f"from worker {worker}"}
        replies.append(handle_tool("create_memory", args, memory))
    return replies


def _cas(memory: Memory, worker: int, rounds: int, barrier: Any) -> list[str]:
    replies = []
    for r in range(rounds):
        barrier.wait()  # everyone has finished the previous round
        entry = memory.get_entry("cas")
        assert entry is not None
        seen = entry.version
        barrier.wait()  # everyone has read the same version
        args = {
            "action": "update",
            "key": "cas",
            "value": f"round {r} by {worker}",
            "version": seen,
        }
        replies.append(handle_tool("modify_memory", args, memory))
    return replies


def _compile(store: BaseStore, scope: tuple[str, ...], count: int) -> list[list[str]]:
    chef = ContextChef(store=store, scope=scope)
    return [chef.compile([HumanMessage("hi")]).meta.injected_keys for _ in range(count)]


def _user_turns(
    store: BaseStore, scope: tuple[str, ...], rounds: int, barrier: Any
) -> list[tuple[int, list[str]]]:
    # Every round, all workers answer the same user message at once (as parallel model calls
    # of one agent run would), counting turns per user message.
    chef = ContextChef(store=store, scope=scope, turn_unit="user_message")
    seen = []
    for r in range(rounds):
        barrier.wait()
        meta = chef.compile([HumanMessage(f"question {r}", id=f"msg-{r}")]).meta
        seen.append((meta.turn, meta.injected_keys))
    return seen


def run(
    kind: str, where: str, scope: tuple[str, ...], scenario: str, worker: int, n: int, barrier: Any
) -> Any:
    """Run one scenario in this process and return its replies."""
    with open_store(kind, where) as store:
        memory = Memory(store, scope=scope)
        barrier.wait()  # every process is up and connected: start together, or none overlap
        if scenario == "update":
            return _update(memory, worker, n)
        if scenario == "create":
            return _create(memory, worker, [f"fresh-{i}" for i in range(n)], barrier)
        if scenario == "cas":
            return _cas(memory, worker, n, barrier)
        if scenario == "compile":
            return _compile(store, scope, n)
        if scenario == "user_turns":
            return _user_turns(store, scope, n, barrier)
    raise ValueError(scenario)


async def _arun(
    kind: str, where: str, scope: tuple[str, ...], scenario: str, worker: int, n: int, barrier: Any
) -> Any:
    async with aopen_store(kind, where) as store:
        memory = Memory(store, scope=scope)
        await asyncio.to_thread(barrier.wait)
        if scenario == "update":
            replies = []
            for i in range(n):
                args = {"action": "update", "key": "counter", "value": f"worker {worker} write {i}"}
                replies.append(await ahandle_tool("modify_memory", args, memory))
            return replies
        if scenario == "create":
            return await _acreate(memory, worker, [f"fresh-{i}" for i in range(n)], barrier)
        if scenario == "cas":
            return await _acas(memory, worker, n, barrier)
        if scenario == "compile":
            chef = ContextChef(store=store, scope=scope)
            return [
                (await chef.acompile([HumanMessage("hi")])).meta.injected_keys for _ in range(n)
            ]
    raise ValueError(scenario)


async def _acreate(memory: Memory, worker: int, keys: list[str], barrier: Any) -> list[str]:
    replies = []
    for key in keys:
        await asyncio.to_thread(barrier.wait)
        args = {"key": key, "value": f"from worker {worker}"}
        replies.append(await ahandle_tool("create_memory", args, memory))
    return replies


async def _acas(memory: Memory, worker: int, rounds: int, barrier: Any) -> list[str]:
    replies = []
    for r in range(rounds):
        await asyncio.to_thread(barrier.wait)  # everyone has finished the previous round
        entry = await memory.aget_entry("cas")
        assert entry is not None
        seen = entry.version
        await asyncio.to_thread(barrier.wait)  # everyone has read the same version
        args = {
            "action": "update",
            "key": "cas",
            "value": f"round {r} by {worker}",
            "version": seen,
        }
        replies.append(await ahandle_tool("modify_memory", args, memory))
    return replies


def arun(
    kind: str, where: str, scope: tuple[str, ...], scenario: str, worker: int, n: int, barrier: Any
) -> Any:
    """Run one scenario through the async API in this process."""
    return asyncio.run(_arun(kind, where, scope, scenario, worker, n, barrier))


def counted(target: Any, *args: Any) -> tuple[Any, dict[str, int]]:
    """Run `target(*args)` and return its result with the guesses it made in this process.

    The counts of guessed PostgreSQL sections that held (one round trip) and that failed
    (run again), so a test can show the guessed path really ran under concurrency.
    """
    from langchain_contextchef._sections import _pg_guess

    before = dict(_pg_guess.GUESSES)
    result = target(*args)
    return result, {k: _pg_guess.GUESSES[k] - before[k] for k in before}
