"""The backends the shared suites run on here: every one but `InMemoryStore`.

The unit tests run each suite of `tests.support.suites` on `InMemoryStore`; the thin modules
of this folder run the same suites on a file-backed `SqliteStore`, `FileSystemStore` and
PostgreSQL, through these fixtures (they override the four-backend `store` of the parent
folder, so no case runs twice).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore

from langchain_contextchef.store import FileSystemStore
from tests.support.stores import close_store, make_local_store, param_store

SERVER_AND_FILE_BACKENDS = ["sqlite", "filesystem", "postgres"]
FILE_BACKENDS = ["sqlite", "filesystem"]


@pytest.fixture(params=SERVER_AND_FILE_BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseStore]:
    """SQLite (a file), the file system and PostgreSQL in turn."""
    yield from param_store(request, tmp_path)


@pytest.fixture(params=FILE_BACKENDS)
def local_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseStore]:
    """The server-less backends other than `InMemoryStore`: SQLite and the file system."""
    yield from param_store(request, tmp_path)


@pytest.fixture
async def aiosqlite_store(tmp_path: Path) -> AsyncIterator[BaseStore]:
    """LangGraph's `AsyncSqliteStore` on a temporary file."""
    from langgraph.store.sqlite.aio import AsyncSqliteStore

    async with AsyncSqliteStore.from_conn_string(str(tmp_path / "store.db")) as store:
        await store.setup()
        yield store


@pytest.fixture(params=SERVER_AND_FILE_BACKENDS)
def astore(request: pytest.FixtureRequest, tmp_path: Path) -> BaseStore:
    """Async SQLite (a file), the file system and PostgreSQL in turn."""
    # A plain fixture that picks an async one: an async fixture cannot request another
    # async fixture by name while the event loop is already running.
    if request.param == "filesystem":
        return FileSystemStore(tmp_path / ".context")
    name = "aiosqlite_store" if request.param == "sqlite" else "apg_store"
    picked: BaseStore = request.getfixturevalue(name)
    return picked


@pytest.fixture(params=FILE_BACKENDS)
def local_store_factory(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[], BaseStore]]:
    """Makes a fresh, empty store of the parameter's kind, each in a folder of its own."""
    made: list[BaseStore] = []

    def make() -> BaseStore:
        folder = tmp_path / f"store{len(made)}"
        folder.mkdir()
        made.append(make_local_store(request.param, folder))
        return made[-1]

    yield make
    for built in made:
        close_store(built)
