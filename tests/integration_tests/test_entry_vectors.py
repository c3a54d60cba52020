"""The entries' own vectors reach the selectors from every backend that keeps them.

A compile with a semantic search reads the stored vectors of the entries that search found
(one `Vectors` step: a lookup in `InMemoryStore`, one query on SQLite and PostgreSQL, the
files of a `FileSystemStore`) and hands them to the selector as
`SelectionContext.entry_vectors`, never embedding an entry again. These tests run each
backend for real (PostgreSQL with pgvector: `tests.support.pgvector`) with a deterministic
fake embedding model.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore, IndexConfig
from langgraph.store.memory import InMemoryStore
from langgraph.store.sqlite import SqliteStore
from langgraph.store.sqlite.aio import AsyncSqliteStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.selectors import Relevant, SelectionContext
from langchain_contextchef.store import FileSystemStore
from tests.support.embeddings import WordHashEmbeddings
from tests.support.optional import fail_in_ci_else_skip
from tests.support.pgvector import pgvector_server
from tests.support.postgres import PostgresServer, create_database, drop_database
from tests.support.selectors import SpySelector
from tests.support.stores import RecordingStore

pytest.importorskip("numpy")  # the selectors compare the vectors in one NumPy product

DIMS = 32
HOME_TEXT = "home (where the user lives): Lives in Berlin"
TEA_TEXT = "tea: Prefers green tea"


class _Recording(Embeddings):
    """`WordHashEmbeddings` that keeps every text it was asked to embed."""

    def __init__(self) -> None:
        self.inner = WordHashEmbeddings(DIMS)
        self.texts: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts += texts
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.texts.append(text)
        return self.inner.embed_query(text)


@pytest.fixture(scope="module")
def pgvector_uri(postgres_server: PostgresServer) -> Iterator[str]:
    """A throwaway database on a PostgreSQL server with pgvector."""
    import psycopg

    with pgvector_server(postgres_server) as server:
        if server.uri is None:
            fail_in_ci_else_skip(server.description)
        try:
            uri = create_database(server.uri)
        except psycopg.OperationalError as exc:
            fail_in_ci_else_skip(f"PostgreSQL with pgvector is unreachable: {exc}")
        yield uri
        drop_database(server.uri, uri)


def _index(model: Embeddings) -> IndexConfig:
    return {"dims": DIMS, "embed": model}


_LOADS_EXTENSIONS = hasattr(sqlite3.Connection, "enable_load_extension")
"""Whether this Python's `sqlite3` can load sqlite-vec (some builds, pyenv's among them, cannot)."""


def _sqlite_connect(path: Path) -> Any:
    # `SqliteStore` with an index loads the sqlite-vec extension into its connection; on a
    # Python whose `sqlite3` cannot load extensions, pysqlite3 (same DB-API) can.
    if _LOADS_EXTENSIONS:
        return sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    dbapi = pytest.importorskip("pysqlite3.dbapi2")
    return dbapi.connect(str(path), check_same_thread=False, isolation_level=None)


@pytest.fixture(params=["memory", "sqlite", "filesystem", "postgres"])
def indexed(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Any, _Recording]]:
    """A store of each backend with a vector index over the recording model."""
    model = _Recording()
    kind = request.param
    if kind == "memory":
        yield InMemoryStore(index=_index(model)), model
    elif kind == "filesystem":
        with FileSystemStore(tmp_path / ".context", index=_index(model)) as fs:
            yield fs, model
    elif kind == "sqlite":
        conn = _sqlite_connect(tmp_path / "s.db")
        store = SqliteStore(conn, index=_index(model))
        store.setup()
        yield store, model
        conn.close()
    else:
        from langgraph.store.postgres import PostgresStore

        uri = request.getfixturevalue("pgvector_uri")
        with PostgresStore.from_conn_string(uri, index=_index(model)) as pg:
            pg.setup()
            with pg._cursor() as cur:
                cur.execute("TRUNCATE store CASCADE")
            yield pg, model


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def aindexed(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Any, _Recording]]:
    """An async store of each backend that has one, with a vector index."""
    model = _Recording()
    kind = request.param
    if kind == "memory":
        yield InMemoryStore(index=_index(model)), model
    elif kind == "sqlite":
        if not _LOADS_EXTENSIONS:
            # aiosqlite opens its connections with this Python's `sqlite3`, which cannot load
            # sqlite-vec here, so `AsyncSqliteStore` cannot have an index on this Python at
            # all (the sync SQLite test covers the reader's query through pysqlite3).
            pytest.skip("this Python's sqlite3 cannot load extensions (sqlite-vec)")
        async with AsyncSqliteStore.from_conn_string(
            str(tmp_path / "a.db"), index=_index(model)
        ) as store:
            await store.setup()
            yield store, model
    else:
        from langgraph.store.postgres.aio import AsyncPostgresStore

        uri = request.getfixturevalue("pgvector_uri")
        async with AsyncPostgresStore.from_conn_string(uri, index=_index(model)) as pg:
            await pg.setup()
            async with pg._cursor() as cur:
                await cur.execute("TRUNCATE store CASCADE")
            yield pg, model


def _check_vectors(spy: SpySelector, model: _Recording) -> None:
    context = spy.seen[-1]
    assert context.relevance is not None  # the semantic search ran
    assert context.entry_vectors is not None
    home, tea = spy.entries["home"], spy.entries["tea"]
    got = context.entry_vectors([home, tea])
    # The vectors of the texts the store indexed when the entries were written (float32 on
    # SQLite and PostgreSQL), not recomputed: the compile embedded the question only.
    expected = WordHashEmbeddings(DIMS).embed_documents([HOME_TEXT, TEA_TEXT])
    assert list(got[0] or ()) == pytest.approx(expected[0], abs=1e-6)
    assert list(got[1] or ()) == pytest.approx(expected[1], abs=1e-6)
    assert not any("Berlin" in text or "tea" in text for text in model.texts), model.texts


def test_the_compile_hands_the_selector_each_backends_stored_vectors(
    indexed: tuple[Any, _Recording],
) -> None:
    store, model = indexed
    spy = SpySelector()
    chef = ContextChef(store=store, memory=MemoryConfig(selector=spy, token_budget=1_000))
    memory = chef.get_memory()
    memory.set("home", "Lives in Berlin", description="where the user lives")
    memory.set("tea", "Prefers green tea")
    model.texts.clear()
    chef.compile([HumanMessage("Where do I live?")])
    _check_vectors(spy, model)


async def test_the_async_compile_reads_them_with_the_stores_async_api(
    aindexed: tuple[Any, _Recording],
) -> None:
    store, model = aindexed
    spy = SpySelector()
    chef = ContextChef(store=store, memory=MemoryConfig(selector=spy, token_budget=1_000))
    memory = chef.get_memory()
    await memory.aset("home", "Lives in Berlin", description="where the user lives")
    await memory.aset("tea", "Prefers green tea")
    model.texts.clear()
    await chef.acompile([HumanMessage("Where do I live?")])
    _check_vectors(spy, model)


def test_sqlite_reads_only_the_vectors_of_changed_entries_in_one_query(tmp_path: Path) -> None:
    conn = _sqlite_connect(tmp_path / "s.db")
    store = SqliteStore(conn, index=_index(WordHashEmbeddings(DIMS)))
    store.setup()
    reads: list[str] = []
    conn.set_trace_callback(
        lambda sql: (
            reads.append(sql) if sql.startswith("SELECT key, field_name, embedding") else None
        )
    )
    spy = SpySelector()
    chef = ContextChef(store=store, memory=MemoryConfig(selector=spy, token_budget=1_000))
    memory = chef.get_memory()
    memory.set("home", "Lives in Berlin", description="where the user lives")
    memory.set("tea", "Prefers green tea")
    try:
        chef.compile([HumanMessage("Where do I live?")])
        assert len(reads) == 1 and "'home'" in reads[0] and "'tea'" in reads[0]
        chef.compile([HumanMessage("Which tea do I like?")])
        assert len(reads) == 1  # each entry version's vector is kept with the scope's cache
        memory.set("tea", "Prefers black tea")
        chef.compile([HumanMessage("Which tea do I like now?")])
        assert len(reads) == 2 and "'tea'" in reads[1] and "'home'" not in reads[1]
        got = spy.seen[-1].entry_vectors
        assert got is not None
        (tea,) = got([spy.entries["tea"]])
        new = WordHashEmbeddings(DIMS).embed_documents(["tea: Prefers black tea"])[0]
        assert list(tea or ()) == pytest.approx(new, abs=1e-6)
    finally:
        conn.close()


class _IndexedWrapper(RecordingStore):
    """A wrapper that forwards to an indexed store and says it has an index, no vector reader."""

    def __init__(self, inner: BaseStore) -> None:
        super().__init__(inner)
        self.index_config = getattr(inner, "index_config", None)


def test_a_wrapped_store_gives_no_vectors_and_the_selection_falls_back() -> None:
    inner = InMemoryStore(index=_index(WordHashEmbeddings(DIMS)))
    spy = SpySelector()
    chef = ContextChef(
        store=_IndexedWrapper(inner), memory=MemoryConfig(selector=spy, token_budget=1_000)
    )
    memory = chef.get_memory()
    memory.set("home", "Lives in Berlin", description="where the user lives")
    memory.set("tea", "Prefers green tea")
    payload = chef.compile([HumanMessage("Where do I live?")])
    context = spy.seen[-1]
    assert context.relevance is not None and context.entry_vectors is not None
    assert context.entry_vectors([spy.entries["home"], spy.entries["tea"]]) == [None, None]
    assert set(payload.meta.injected_keys) == {"home", "tea"}
    # And `Relevant` on it selects as it does without vectors.
    chef = ContextChef(
        store=_IndexedWrapper(inner), memory=MemoryConfig(selector=Relevant(), token_budget=1_000)
    )
    assert chef.compile([HumanMessage("Where do I live?")]).meta.injected_keys[0] == "home"


class _AsksForMore(SpySelector):
    """A spy whose search finds one hit and that asks for the vector of `tea` too."""

    search_limit = 1

    def vector_keys(self, context: SelectionContext) -> list[str]:
        assert context.scope is not None and context.entry_data is not None
        return [*(context.relevance or {}), "tea"]


def test_the_compile_reads_the_vectors_the_selector_names_besides_the_hits() -> None:
    model = _Recording()
    spy = _AsksForMore()
    chef = ContextChef(
        store=InMemoryStore(index=_index(model)),
        memory=MemoryConfig(selector=spy, token_budget=1_000),
    )
    memory = chef.get_memory()
    memory.set("home", "Lives in Berlin", description="where the user lives")
    memory.set("tea", "Prefers green tea")
    memory.set("cat", "The cat is called Miso")
    chef.compile([HumanMessage("Where do I live?")])
    context = spy.seen[-1]
    assert context.relevance is not None and len(context.relevance) == 1
    (hit,) = context.relevance
    assert hit != "tea"
    assert context.entry_vectors is not None
    (other,) = {"home", "cat"} - {hit}
    got = context.entry_vectors([spy.entries[k] for k in (hit, "tea", other)])
    assert got[0] is not None  # the hit's
    expected = WordHashEmbeddings(DIMS).embed_documents([TEA_TEXT])[0]
    assert list(got[1] or ()) == pytest.approx(expected, abs=1e-6)  # named by the selector
    assert got[2] is None  # neither a hit nor named: not read
