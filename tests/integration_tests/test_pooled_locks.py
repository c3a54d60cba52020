"""Stores on a connection pool: the scope lock's connection is made as the pool makes its own.

The lock connection carries the pool's connection kwargs (here the password, which the
conninfo lacks), and it is closed once the store is garbage collected. The concurrency
guarantees on pooled stores are shown with real processes in `test_concurrency.py`.
"""

from __future__ import annotations

import gc

from langchain_contextchef import Memory, _sections
from tests.integration_tests._concurrency_worker import pool_args


def test_a_pooled_store_locks_with_the_pools_kwargs_and_closes_the_lock_connection(
    pg_database: str,
) -> None:
    from langgraph.store.postgres import PostgresStore
    from psycopg_pool import ConnectionPool

    conninfo, kwargs = pool_args(pg_database)
    assert "password" not in conninfo
    with ConnectionPool(conninfo, kwargs=kwargs, min_size=1, max_size=2, open=True) as pool:
        store = PostgresStore(pool)
        store.setup()
        memory = Memory(store, scope=("pooled",))
        memory.set("k", "v1")
        memory.set("k", "v2")
        assert [r.version for r in memory.history("k")] == [1, 2]
        lock_connection = _sections._PG_HOLDERS[store][0]
        assert not lock_connection.closed
        del memory, store
        gc.collect()
        assert lock_connection.closed


async def test_an_async_pooled_store_locks_with_the_pools_kwargs(pg_database: str) -> None:
    from langgraph.store.postgres.aio import AsyncPostgresStore
    from psycopg_pool import AsyncConnectionPool

    conninfo, kwargs = pool_args(pg_database)
    pool = AsyncConnectionPool(conninfo, kwargs=kwargs, min_size=1, max_size=2, open=False)
    async with pool:
        store = AsyncPostgresStore(pool)
        await store.setup()
        memory = Memory(store, scope=("apooled",))
        await memory.aset("k", "v1")
        await memory.aset("k", "v2")
        assert [r.version for r in await memory.ahistory("k")] == [1, 2]
        lock_connection = _sections._APG_HOLDERS[store][0]
        assert not lock_connection.closed
        del memory, store
        gc.collect()
        assert lock_connection.closed
