"""Fixtures of the integration tests: PostgreSQL for the session, and the four-backend `store`.

PostgreSQL is the server named by `CONTEXTCHEF_PG_URI` when it is set, otherwise a throwaway
cluster made for this session (`tests.support.postgres`). Without either, the PostgreSQL tests
skip with the reason, except under `CI=true`, where they fail.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore

from tests.support.optional import fail_in_ci_else_skip
from tests.support.postgres import (
    PostgresServer,
    create_database,
    drop_database,
    postgres_for_tests,
)
from tests.support.stores import BACKENDS, param_store

_SERVER = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def postgres_server(request: pytest.FixtureRequest) -> Iterator[PostgresServer]:
    """The session's PostgreSQL server; its `uri` is None (and says why) when there is none."""
    with postgres_for_tests() as server:
        request.config.stash[_SERVER] = server.description
        yield server


@pytest.fixture(scope="session")
def pg_server_uri(postgres_server: PostgresServer) -> str:
    """The URI of the session's PostgreSQL server; skips (fails under CI) without one."""
    if postgres_server.uri is None:
        fail_in_ci_else_skip(postgres_server.description)
    return postgres_server.uri


@pytest.fixture(scope="session")
def pg_database(pg_server_uri: str) -> Iterator[str]:
    """A throwaway PostgreSQL database for this test session; yields its URI."""
    import psycopg

    try:
        uri = create_database(pg_server_uri)
    except psycopg.OperationalError as exc:
        fail_in_ci_else_skip(f"PostgreSQL is unreachable: {exc}")
    yield uri
    drop_database(pg_server_uri, uri)


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
    yield from param_store(request, tmp_path)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Say which PostgreSQL the session used, when it used one."""
    if _SERVER in config.stash:
        terminalreporter.write_line(f"PostgreSQL: {config.stash[_SERVER]}")
