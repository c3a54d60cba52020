"""Fixtures of the integration tests: PostgreSQL, and the four-backend `store`.

PostgreSQL is the server `CONTEXTCHEF_PG_URI` names. Outside CI a missing server skips the
PostgreSQL cases; under `CI=true` it fails them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore

from tests.support.stores import BACKENDS, close_store, make_local_store


def _pg_uri_or_skip() -> str:
    uri = os.environ.get("CONTEXTCHEF_PG_URI")
    if uri:
        return uri
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true but CONTEXTCHEF_PG_URI is not set: PostgreSQL tests must run in CI.")
    pytest.skip("no PostgreSQL server configured (set CONTEXTCHEF_PG_URI)")


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A throwaway PostgreSQL database for this test session; yields its URI."""
    import psycopg

    base = _pg_uri_or_skip()
    name = f"contextchef_test_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but PostgreSQL at CONTEXTCHEF_PG_URI is unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    uri = base.rsplit("/", 1)[0] + "/" + name
    yield uri
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_store(pg_database: str) -> Iterator[BaseStore]:
    """A LangGraph `PostgresStore` on an emptied table."""
    from langgraph.store.postgres import PostgresStore

    with PostgresStore.from_conn_string(pg_database) as store:
        store.setup()
        with store._cursor() as cur:
            cur.execute("TRUNCATE store")
        yield store


@pytest.fixture
async def apg_store(pg_database: str) -> AsyncIterator[BaseStore]:
    """A LangGraph `AsyncPostgresStore` on an emptied table."""
    from langgraph.store.postgres.aio import AsyncPostgresStore

    async with AsyncPostgresStore.from_conn_string(pg_database) as store:
        await store.setup()
        async with store._cursor() as cur:
            await cur.execute("TRUNCATE store")
        yield store


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseStore]:
    """Every backend in turn: in-memory, SQLite, file system and PostgreSQL."""
    if request.param == "postgres":
        yield request.getfixturevalue("pg_store")
        return
    built = make_local_store(request.param, tmp_path)
    yield built
    close_store(built)
