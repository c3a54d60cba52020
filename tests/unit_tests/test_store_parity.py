"""One set of store scenarios run on InMemoryStore, SqliteStore and FileSystemStore.

Where LangGraph's own stores agree, FileSystemStore must agree too. Known disagreements
between LangGraph's stores are left out on purpose:

* result order of a non-query search (InMemoryStore: insertion order; SqliteStore: newest
  `updated_at` first at one-second resolution) – compared here as sets plus pagination
  invariants; FileSystemStore's own order is pinned in test_filesystem_store.py;
* `list_namespaces` after a delete (InMemoryStore keeps listing emptied namespaces);
* nested filters (SqliteStore reads `{"meta": {...}}` as operators and InMemoryStore does
  not follow dotted paths) – FileSystemStore supports both, tested on its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    PutOp,
    SearchOp,
)

from tests.support.stores import LOCAL_BACKENDS, make_local_store, param_store


@pytest.fixture(params=LOCAL_BACKENDS)
def st(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseStore]:
    yield from param_store(request, tmp_path)


@pytest.fixture(params=LOCAL_BACKENDS)
async def ast(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BaseStore]:
    if request.param == "sqlite":
        # SqliteStore is sync-only (its abatch raises NotImplementedError); LangGraph's async
        # SQLite flavour over the same kind of file-backed database stands in for it.
        from langgraph.store.sqlite.aio import AsyncSqliteStore

        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "astore.db")) as store:
            await store.setup()
            yield store
        return
    yield make_local_store(request.param, tmp_path)


def _ids(items: list[Any]) -> set[tuple[tuple[str, ...], str]]:
    return {(tuple(i.namespace), i.key) for i in items}


def _seed(store: BaseStore) -> None:
    docs = {
        (("docs", "a"), "1"): {"kind": "note", "n": 1, "meta": {"src": "chat", "lang": "en"}},
        (("docs", "a"), "2"): {"kind": "rule", "n": 5, "meta": {"src": "file", "lang": "en"}},
        (("docs", "b"), "3"): {"kind": "note", "n": 10, "meta": {"src": "chat", "lang": "fr"}},
        (("docs", "b", "c"), "4"): {"kind": "rule", "n": 20, "meta": {"src": "chat"}},
        (("docsx",), "5"): {"kind": "note", "n": 7, "meta": {"src": "chat"}},
        (("other",), "6"): {"kind": "note", "n": 3, "meta": {"src": "file"}},
    }
    for (ns, key), value in docs.items():
        store.put(ns, key, value)


def test_put_get_overwrite_delete(st: BaseStore) -> None:
    ns = ("users", "alice")
    assert st.get(ns, "prefs") is None
    st.put(ns, "prefs", {"theme": "dark", "nested": {"a": [1, 2.5, None, True]}, "uni": "é🧠"})
    item = st.get(ns, "prefs")
    assert item is not None
    assert item.value == {"theme": "dark", "nested": {"a": [1, 2.5, None, True]}, "uni": "é🧠"}
    assert item.key == "prefs"
    assert tuple(item.namespace) == ns
    assert item.updated_at >= item.created_at
    st.put(ns, "prefs", {"theme": "light"})
    again = st.get(ns, "prefs")
    assert again is not None
    assert again.value == {"theme": "light"}
    assert again.updated_at >= item.updated_at
    st.delete(ns, "prefs")
    assert st.get(ns, "prefs") is None
    st.delete(ns, "prefs")  # deleting a missing item is not an error
    assert st.get(ns, "prefs") is None


def test_namespaces_are_independent(st: BaseStore) -> None:
    st.put(("a",), "k", {"v": 1})
    st.put(("a", "b"), "k", {"v": 2})
    st.put(("ab",), "k", {"v": 3})
    assert [st.get(ns, "k").value["v"] for ns in [("a",), ("a", "b"), ("ab",)]] == [1, 2, 3]  # type: ignore[union-attr]


def test_search_namespace_prefix(st: BaseStore) -> None:
    _seed(st)
    assert _ids(st.search(("docs",))) == {
        (("docs", "a"), "1"),
        (("docs", "a"), "2"),
        (("docs", "b"), "3"),
        (("docs", "b", "c"), "4"),
    }
    assert _ids(st.search(("docs", "b"))) == {(("docs", "b"), "3"), (("docs", "b", "c"), "4")}
    assert _ids(st.search(("nope",))) == set()
    assert len(st.search((), limit=100)) == 6


@pytest.mark.parametrize(
    ("filter_", "expected"),
    [
        ({"kind": "note"}, {"1", "3", "5", "6"}),
        ({"kind": "note", "n": 1}, {"1"}),
        ({"n": {"$eq": 5}}, {"2"}),
        ({"n": {"$ne": 5}}, {"1", "3", "4", "5", "6"}),
        ({"n": {"$gt": 5}}, {"3", "4", "5"}),
        ({"n": {"$gte": 5}}, {"2", "3", "4", "5"}),
        ({"n": {"$lt": 5}}, {"1", "6"}),
        ({"n": {"$lte": 5}}, {"1", "2", "6"}),
        ({"n": {"$gt": 2, "$lt": 10}}, {"2", "5", "6"}),
        ({"kind": "rule", "n": {"$gte": 10}}, {"4"}),
        ({"kind": "missing"}, set()),
    ],
)
def test_search_filters(st: BaseStore, filter_: dict[str, Any], expected: set[str]) -> None:
    _seed(st)
    assert {i.key for i in st.search((), filter=filter_, limit=100)} == expected


def test_search_limit_offset_pages(st: BaseStore) -> None:
    for i in range(12):
        st.put(("pages",), f"k{i:02d}", {"i": i})
    full = st.search(("pages",), limit=100)
    assert len(full) == 12
    assert len(st.search(("pages",))) == 10  # default limit
    pages = [st.search(("pages",), limit=5, offset=o) for o in (0, 5, 10)]
    assert [len(p) for p in pages] == [5, 5, 2]
    keys = [i.key for p in pages for i in p]
    assert keys == [i.key for i in full]  # pages concatenate to the full, stable order
    assert st.search(("pages",), limit=5, offset=20) == []


def test_search_items_have_no_score_without_query(st: BaseStore) -> None:
    st.put(("s",), "k", {"v": 1})
    [hit] = st.search(("s",))
    assert hit.score is None
    assert hit.value == {"v": 1}


def test_list_namespaces_variants(st: BaseStore) -> None:
    for ns in [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "e"),
        ("x", "b", "c"),
        ("x", "y"),
    ]:
        st.put(ns, "k", {"v": 1})
    assert st.list_namespaces() == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "e"),
        ("x", "b", "c"),
        ("x", "y"),
    ]
    assert st.list_namespaces(prefix=("a",)) == [("a", "b", "c"), ("a", "b", "d"), ("a", "e")]
    assert st.list_namespaces(suffix=("c",)) == [("a", "b", "c"), ("x", "b", "c")]
    assert st.list_namespaces(prefix=("*", "b")) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("x", "b", "c"),
    ]
    assert st.list_namespaces(suffix=("b", "*")) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("x", "b", "c"),
    ]
    assert st.list_namespaces(prefix=("a",), suffix=("d",)) == [("a", "b", "d")]
    assert st.list_namespaces(max_depth=1) == [("a",), ("x",)]
    assert st.list_namespaces(max_depth=2) == [("a", "b"), ("a", "e"), ("x", "b"), ("x", "y")]
    assert st.list_namespaces(limit=2) == [("a", "b", "c"), ("a", "b", "d")]
    assert st.list_namespaces(limit=2, offset=3) == [("x", "b", "c"), ("x", "y")]
    assert st.list_namespaces(prefix=("zzz",)) == []


def test_batch_mixed_ops_read_before_writes(st: BaseStore) -> None:
    st.put(("m",), "old", {"v": 0})
    results = st.batch(
        [
            PutOp(("m",), "new", {"v": 1}),
            GetOp(("m",), "new"),
            GetOp(("m",), "old"),
            SearchOp(("m",), limit=10),
            ListNamespacesOp(limit=10),
            PutOp(("m",), "old", None),
            PutOp(("m",), "twice", {"v": "first"}),
            PutOp(("m",), "twice", {"v": "second"}),
        ]
    )
    assert results[0] is None
    assert results[1] is None  # reads see the store as it was before the batch's writes
    assert results[2] is not None and results[2].value == {"v": 0}
    assert _ids(results[3]) == {(("m",), "old")}
    assert results[4] == [("m",)]
    assert results[5:] == [None, None, None]
    assert st.get(("m",), "old") is None
    assert st.get(("m",), "new").value == {"v": 1}  # type: ignore[union-attr]
    assert st.get(("m",), "twice").value == {"v": "second"}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "namespace",
    [("langgraph", "x"), ("a.b",), ("",), ("ok", ""), ("nul\x00",)],
)
def test_invalid_namespaces_rejected(st: BaseStore, namespace: tuple[str, ...]) -> None:
    with pytest.raises(InvalidNamespaceError):
        st.put(namespace, "k", {"v": 1})
    assert st.search((), limit=100) == []


async def test_async_twins(ast: BaseStore) -> None:
    await ast.aput(("as", "one"), "k1", {"n": 1})
    await ast.aput(("as", "two"), "k2", {"n": 2})
    item = await ast.aget(("as", "one"), "k1")
    assert item is not None and item.value == {"n": 1}
    hits = await ast.asearch(("as",), filter={"n": {"$gte": 2}})
    assert _ids(hits) == {(("as", "two"), "k2")}
    assert await ast.alist_namespaces(prefix=("as",)) == [("as", "one"), ("as", "two")]
    results = await ast.abatch([GetOp(("as", "two"), "k2"), PutOp(("as", "two"), "k2", None)])
    assert results[0] is not None and results[0].value == {"n": 2}
    assert await ast.aget(("as", "two"), "k2") is None
    await ast.adelete(("as", "one"), "k1")
    assert await ast.asearch(("as",)) == []
