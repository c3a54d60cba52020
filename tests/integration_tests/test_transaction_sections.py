"""Sections run as one PostgreSQL transaction (`_sections/_pg_txn.py`), and kept SQLite locks.

On a sync `PostgresStore` over one connection the plan driver runs each exclusive section as
one transaction that holds the store's connection between round trips. These tests show what
must still hold: user code inside a section (hooks that use the same store directly) runs on
a free connection and sees the section's writes; writers on two connections stay exclusive;
a section that raises keeps the writes it was told succeeded; a write guessed from what the
process saw last is run again, exactly, when another connection changed those rows; a
session whose default isolation is repeatable read still checks versions exactly. The sync
SQLite sections keep
one lock descriptor per scope; two store objects of one process still exclude each other.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.store.base import BaseStore

from langchain_contextchef import Memory, MemoryConfig
from langchain_contextchef._sections import transaction_of
from langchain_contextchef.chef import ContextChef


def psycopg_connection(uri: str) -> Any:
    """A separate autocommit connection to `uri`, as another process would hold."""
    import psycopg

    return psycopg.connect(uri, autocommit=True)


pytestmark = pytest.mark.slow

WRITERS = 4
ROUNDS = 15


def _increment(memory: Memory) -> None:
    """Compare-and-set until it wins: read the version, write the next number at it."""
    while True:
        view = memory.get_entry("n")
        assert view is not None
        result = memory.update_memory("n", str(int(view.value) + 1), version=view.version)
        if result.status == "updated":
            return
        assert result.status == "stale", result


@pytest.fixture
def pg_store(pg_database: str) -> Iterator[BaseStore]:
    from langgraph.store.postgres import PostgresStore

    with PostgresStore.from_conn_string(pg_database) as store:
        store.setup()
        yield store


def test_hooks_inside_a_section_use_the_store_directly_and_see_its_write(
    pg_store: BaseStore,
) -> None:
    seen: list[Any] = []

    def changed(event: Any) -> None:
        # User code inside the write's section: the store's connection must be free (no
        # deadlock on its lock) and the section's write already visible.
        assert transaction_of(pg_store) is None or transaction_of(pg_store).mode == "session"  # type: ignore[union-attr]
        seen.append(pg_store.get(("t", "memory"), event.key))
        pg_store.put(("t", "log"), uuid.uuid4().hex, {"key": event.key})

    chef = ContextChef(store=pg_store, memory=MemoryConfig(on_memory_changed=changed), scope=("t",))
    call = {"name": "create_memory", "args": {"key": "tabs", "value": "Tabs."}, "id": "c1"}
    result = chef.handle_tool(call)
    assert isinstance(result, ToolMessage) and result.status == "success", result
    assert seen and seen[0] is not None and seen[0].value["value"] == "Tabs."
    assert [item.value["key"] for item in pg_store.search(("t", "log"))] == ["tabs"]
    # The section went on after the hook (session lock) and ended: the next write works.
    call = {
        "name": "modify_memory",
        "args": {"action": "update", "key": "tabs", "value": "Spaces."},
        "id": "c2",
    }
    second = chef.handle_tool(call)
    assert isinstance(second, ToolMessage) and second.status == "success", second
    assert [r.version for r in chef.get_memory().history("tabs")] == [1, 2]


def test_a_section_that_raises_keeps_the_writes_it_reported(pg_store: BaseStore) -> None:
    def boom(event: Any) -> None:
        raise RuntimeError("hook failed")

    memory = Memory(pg_store, MemoryConfig(on_memory_changed=boom), scope=("r",))
    with pytest.raises(RuntimeError, match="hook failed"):
        memory.set("k", "v1")
    fresh = Memory(pg_store, scope=("r",))
    assert fresh.get("k") == "v1"
    fresh.set("k", "v2")  # the scope is not left locked
    assert [r.version for r in fresh.history("k")] == [1, 2]


def test_writers_on_separate_connections_never_lose_an_update(pg_database: str) -> None:
    from langgraph.store.postgres import PostgresStore

    scope = ("race", uuid.uuid4().hex)
    with PostgresStore.from_conn_string(pg_database) as setup_store:
        setup_store.setup()
        Memory(setup_store, scope=scope).set("n", "0")
    barrier = threading.Barrier(WRITERS)
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            with PostgresStore.from_conn_string(pg_database) as store:
                memory = Memory(store, scope=scope)
                barrier.wait()
                for _ in range(ROUNDS):
                    _increment(memory)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors
    with PostgresStore.from_conn_string(pg_database) as store:
        memory = Memory(store, scope=scope)
        assert memory.get("n") == str(WRITERS * ROUNDS)
        assert len(memory.history("n")) == WRITERS * ROUNDS + 1


def _other_takes_lock(uri: str, scope: tuple[str, ...]) -> bool:
    """Whether another connection can take the scope's advisory lock right now (then frees it)."""
    import psycopg

    from langchain_contextchef._sections import _advisory_key

    with psycopg.connect(uri, autocommit=True) as conn:
        key = _advisory_key(scope)
        row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        assert row is not None
        if row[0]:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
        return bool(row[0])


def test_a_transaction_section_holds_the_scope_and_hides_its_writes_until_it_ends(
    pg_store: BaseStore, pg_database: str
) -> None:
    # The section runs in the pipeline's own transaction (no BEGIN, no COMMIT statement):
    # between its round trips the scope's lock must stay held and its writes unseen.
    from langgraph.store.base import GetOp, PutOp

    from langchain_contextchef._sections import exclusive

    scope = ("held", uuid.uuid4().hex)
    pg_store.put((*scope, "memory"), "a", {"v": 1})
    with exclusive(pg_store, scope, transaction=True):
        txn = transaction_of(pg_store)
        assert txn is not None
        got = txn.batch([GetOp((*scope, "memory"), "a", refresh_ttl=False)])
        assert got[0] is not None and got[0].value == {"v": 1}
        assert not _other_takes_lock(pg_database, scope)
        txn.batch([PutOp((*scope, "memory"), "b", {"v": 2})])
        # A later batch reads past the kept write, in the same transaction.
        again = txn.batch([GetOp((*scope, "memory"), "b", refresh_ttl=False)])
        assert again[0] is not None and again[0].value == {"v": 2}
        assert not _other_takes_lock(pg_database, scope)
        with psycopg_connection(pg_database) as other:
            row = other.execute(
                "SELECT count(*) FROM store WHERE prefix = %s AND key = 'b'",
                (".".join((*scope, "memory")),),
            ).fetchone()
            assert row is not None and row[0] == 0  # not committed yet
    assert _other_takes_lock(pg_database, scope)
    assert pg_store.get((*scope, "memory"), "b") is not None


def test_one_read_statement_answers_like_the_store(pg_store: BaseStore) -> None:
    # The section reads every key of a batch in one statement of its own: the answers must
    # be the store's own, key by key (several namespaces, a key asked twice, missing keys).
    from langgraph.store.base import GetOp

    from langchain_contextchef._sections import exclusive

    scope = ("gets", uuid.uuid4().hex)
    entries, meta = (*scope, "memory"), (*scope, "memory_meta")
    pg_store.put(entries, "x", {"v": "x"})
    pg_store.put(entries, "y", {"v": "y"})
    pg_store.put(meta, "x", {"m": 1})
    ops = [
        GetOp(entries, "x", refresh_ttl=False),
        GetOp(meta, "x", refresh_ttl=False),
        GetOp(entries, "missing", refresh_ttl=False),
        GetOp(entries, "x", refresh_ttl=False),
        GetOp(meta, "y", refresh_ttl=False),
        GetOp(entries, "y", refresh_ttl=False),
    ]
    expected = pg_store.batch(ops)
    with exclusive(pg_store, scope, transaction=True):
        txn = transaction_of(pg_store)
        assert txn is not None
        answers = txn.batch(ops)
    assert [_shape(a) for a in answers] == [_shape(e) for e in expected]
    assert [_shape(a) for a in answers] == [
        (entries, "x", {"v": "x"}),
        (meta, "x", {"m": 1}),
        None,
        (entries, "x", {"v": "x"}),
        None,
        (entries, "y", {"v": "y"}),
    ]
    for a, e in zip(answers, expected, strict=True):
        if a is not None:
            assert (a.created_at, a.updated_at) == (e.created_at, e.updated_at)


def _shape(item: Any) -> Any:
    return None if item is None else (tuple(item.namespace), item.key, item.value)


def test_a_failed_write_in_a_transaction_section_writes_nothing(pg_store: BaseStore) -> None:
    # A write the server refuses (PostgreSQL's jsonb holds no NUL character) fails the whole
    # transaction at its commit: the section's other write is not kept either, the error
    # reaches the caller, and the next section on the connection works.
    import psycopg
    from langgraph.store.base import GetOp, PutOp

    from langchain_contextchef._sections import exclusive

    scope = ("fails", uuid.uuid4().hex)
    entries = (*scope, "memory")
    with pytest.raises(psycopg.Error), exclusive(pg_store, scope, transaction=True):
        txn = transaction_of(pg_store)
        assert txn is not None
        txn.batch([GetOp(entries, "a", refresh_ttl=False)])
        txn.batch([PutOp(entries, "a", {"v": "sent before the failure"})])
        (seen,) = txn.batch([GetOp(entries, "a", refresh_ttl=False)])  # sends the put
        assert seen is not None
        txn.batch([PutOp(entries, "b", {"v": "\x00"})])
    assert pg_store.get(entries, "a") is None
    assert pg_store.get(entries, "b") is None
    memory = Memory(pg_store, scope=scope)
    memory.set("a", "after")
    assert memory.get("a") == "after"


@pytest.fixture
def ttl_store(pg_database: str) -> Iterator[BaseStore]:
    from langgraph.store.postgres import PostgresStore

    with PostgresStore.from_conn_string(
        pg_database, ttl={"default_ttl": 10, "refresh_on_read": True}
    ) as store:
        store.setup()
        yield store


def test_a_get_that_refreshes_its_ttl_still_refreshes_it_in_a_section(ttl_store: BaseStore) -> None:
    # Gets that ask for a TTL refresh keep LangGraph's own query, which refreshes it.
    from langgraph.store.base import GetOp

    from langchain_contextchef._sections import exclusive

    scope = ("ttl", uuid.uuid4().hex)
    entries = (*scope, "memory")
    ttl_store.put(entries, "a", {"v": 1}, ttl=10)

    def expiry() -> Any:
        conn: Any = ttl_store.conn  # type: ignore[attr-defined]
        with ttl_store.lock:  # type: ignore[attr-defined]
            row = conn.execute(
                "SELECT expires_at FROM store WHERE prefix = %s AND key = 'a'",
                (".".join(entries),),
            ).fetchone()
        return row["expires_at"]

    before = expiry()
    with exclusive(ttl_store, scope, transaction=True):
        txn = transaction_of(ttl_store)
        assert txn is not None
        got = txn.batch([GetOp(entries, "a", refresh_ttl=True)])
        assert got[0] is not None and got[0].value == {"v": 1}
    assert expiry() > before


def test_two_sqlite_store_objects_of_one_process_exclude_each_other(tmp_path: Path) -> None:
    from langgraph.store.sqlite import SqliteStore

    path = str(tmp_path / "store.db")
    stores = []
    for _ in range(2):
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        store = SqliteStore(conn)
        store.setup()
        stores.append(store)
    Memory(stores[0], scope=("s",)).set("n", "0")
    errors: list[BaseException] = []

    def writer(store: BaseStore) -> None:
        try:
            memory = Memory(store, scope=("s",))
            for _ in range(ROUNDS):
                _increment(memory)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(stores[i % 2],)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors
    memory = Memory(stores[0], scope=("s",))
    assert memory.get("n") == str(WRITERS * ROUNDS)
    assert len(memory.history("n")) == WRITERS * ROUNDS + 1


# ---- guessed reads: one round trip, and a wrong guess run again ------------------------------


def _tool(chef: ContextChef, name: str, args: dict[str, Any]) -> str:
    result = chef.handle_tool({"name": name, "args": args, "id": uuid.uuid4().hex[:8]})
    assert isinstance(result, ToolMessage)
    return str(result.content)


@pytest.fixture
def two_writers(pg_database: str) -> Iterator[tuple[ContextChef, ContextChef, BaseStore]]:
    """Two chefs on one scope over two connections, as two processes would write it."""
    from langgraph.store.postgres import PostgresStore

    scope = ("guess", uuid.uuid4().hex)
    with (
        PostgresStore.from_conn_string(pg_database) as a,
        PostgresStore.from_conn_string(pg_database) as b,
    ):
        a.setup()
        yield (ContextChef(store=a, scope=scope), ContextChef(store=b, scope=scope), a)


def test_a_write_guessed_from_a_stale_stamp_is_run_again_and_is_exact(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, _ = two_writers
    assert _tool(a, "create_memory", {"key": "k1", "value": "One."}).startswith("Created")
    held = _pg_guess.GUESSES["held"]
    assert _tool(a, "create_memory", {"key": "k2", "value": "Two."}).startswith("Created")
    assert _pg_guess.GUESSES["held"] == held + 1  # a's own stamp, guessed right: one round trip
    assert _tool(b, "create_memory", {"key": "k3", "value": "Three."}).startswith("Created")
    failed = _pg_guess.GUESSES["failed"]
    # a guesses the stamp it wrote last; b has advanced it since, so the guard fails, nothing
    # of the guessed run is written, and the write runs again on real reads.
    assert _tool(a, "create_memory", {"key": "k4", "value": "Four."}).startswith("Created")
    assert _pg_guess.GUESSES["failed"] == failed + 1
    for chef in (a, b):
        memory = chef.get_memory()
        assert {e.key: e.value for e in memory.list()} == {
            "k1": "One.",
            "k2": "Two.",
            "k3": "Three.",
            "k4": "Four.",
        }
        assert [e.version for e in memory.list()] == [1, 1, 1, 1]
    # The stamp counted every write once, in order: a compile of either side is current.
    from langchain_contextchef.memory._stamp import STAMP_KEY

    a_store = two_writers[2]
    stored = a_store.get(a.get_memory().context.meta_ns, STAMP_KEY)
    assert stored is not None
    # (The first write starts the stamp's epoch with an empty log.)
    assert stored.value["stamp"] == 4
    assert stored.value["log"] == [[2, "k2"], [3, "k3"], [4, "k4"]]
    assert sorted(a.compile([HumanMessage("Which numbers?")]).meta.injected_keys) == [
        "k1",
        "k2",
        "k3",
        "k4",
    ]


def test_a_create_guessed_absent_after_another_writer_made_the_key_reports_it_exists(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, _ = two_writers
    assert _tool(a, "create_memory", {"key": "seed", "value": "Seed."}).startswith("Created")
    assert _tool(b, "create_memory", {"key": "x", "value": "From b."}).startswith("Created")
    # a never saw `x` and guesses it absent: the guard fails, the create runs again and
    # finds b's entry, which it leaves alone.
    failed = _pg_guess.GUESSES["failed"]
    reply = _tool(a, "create_memory", {"key": "x", "value": "From a."})
    assert _pg_guess.GUESSES["failed"] == failed + 1
    assert not reply.startswith("Created"), reply
    assert a.get_memory().get("x") == "From b."
    assert [r.version for r in a.get_memory().history("x")] == [1]


def test_an_update_guessed_from_an_entry_another_writer_changed_is_exact(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, _ = two_writers
    ma, mb = a.get_memory(), b.get_memory()
    assert _tool(a, "create_memory", {"key": "n", "value": "1"}).startswith("Created")
    assert ma.update_memory("n", "2").status == "updated"  # a has now seen version 2
    assert mb.update_memory("n", "3").status == "updated"
    # a's guess of `n` (version 2) is wrong: run again, the compare-and-set sees version 3.
    failed = _pg_guess.GUESSES["failed"]
    stale = ma.update_memory("n", "4", version=2)
    assert _pg_guess.GUESSES["failed"] == failed + 1
    assert stale.status == "stale", stale
    # The scope is not guessed right after a failed guess (a back-off): this one reads.
    held = _pg_guess.GUESSES["held"]
    assert ma.update_memory("n", "4", version=3).status == "updated"
    assert _pg_guess.GUESSES["held"] == held
    assert mb.get("n") == "4"
    assert [r.version for r in mb.history("n")] == [1, 2, 3, 4]
    reply = _tool(a, "modify_memory", {"action": "update", "key": "n", "value": "5"})
    assert "Error" not in reply, reply
    assert mb.get("n") == "5" and [r.version for r in mb.history("n")] == [1, 2, 3, 4, 5]


def test_a_delete_by_another_writer_defeats_the_guess(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, _ = two_writers
    ma, mb = a.get_memory(), b.get_memory()
    assert _tool(a, "create_memory", {"key": "d", "value": "Here."}).startswith("Created")
    assert ma.update_memory("d", "Still here.").status == "updated"
    assert mb.delete_memory("d").status == "deleted"
    # a guesses `d` present: run again, it is gone.
    failed = _pg_guess.GUESSES["failed"]
    result = ma.update_memory("d", "Back?")
    assert _pg_guess.GUESSES["failed"] == failed + 1
    assert result.status == "not_found", result
    assert mb.get("d") is None


# ---- the guessed write's one statement: the server-side check and what it may meet ---------


def _stamp_of(chef: ContextChef, store: BaseStore) -> Any:
    from langchain_contextchef.memory._stamp import STAMP_KEY

    return store.get(chef.get_memory().meta_namespace, STAMP_KEY)


def test_a_guess_is_answered_as_the_store_would_answer_it(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langgraph.store.base import GetOp
    from langgraph.store.postgres.base import _namespace_to_text

    from langchain_contextchef._sections import _pg_guess
    from langchain_contextchef.memory._stamp import STAMP_KEY

    a, _, store = two_writers
    held = _pg_guess.GUESSES["held"]
    for i in range(3):
        assert _tool(a, "create_memory", {"key": f"k{i}", "value": f"V{i}."}).startswith("Created")
    assert _pg_guess.GUESSES["held"] == held + 2  # the first write read; the next two guessed
    namespace = a.get_memory().meta_namespace
    name = (_namespace_to_text(namespace), STAMP_KEY)
    guessed = _pg_guess.guesses_for(store, [name])
    assert guessed is not None and guessed[0] is not None
    answer = _pg_guess.answer(store, store.conn, GetOp(namespace, STAMP_KEY), guessed[0])  # type: ignore[attr-defined]
    stored = store.get(namespace, STAMP_KEY)
    assert answer is not None and stored is not None
    assert (answer.value, answer.created_at, answer.updated_at) == (
        stored.value,
        stored.created_at,
        stored.updated_at,
    )


@pytest.mark.parametrize(
    "value",
    [
        {"epoch": "e1", "stamp": 2, "log": [[1, "k1"], [2, "k2"]]},  # orjson writes it
        {"big": 2**70, "low": -(2**63) - 1},  # beyond 64 bits: orjson would read floats
        {"none": None, "text": "nullable"},
        {"float": 1e16, "text": "caf\u00e9 \u2028", "nested": {"list": [1.5, True, []]}},
    ],
    ids=["stamp", "big-integers", "null", "mixed"],
)
def test_a_guessed_row_is_answered_with_the_value_the_store_holds(
    pg_store: BaseStore, value: dict[str, Any]
) -> None:
    from langgraph.store.base import GetOp, PutOp

    from langchain_contextchef._sections import _pg_guess

    conn = pg_store.conn  # type: ignore[attr-defined]
    namespace = ("guessed", "rows")
    assert _pg_guess.ready(conn)
    outcome = _pg_guess.send_guarded(conn, 7, {}, [PutOp(namespace, "row", value)])
    assert outcome.status == "ok"
    _pg_guess.record(pg_store, namespace, outcome)
    (seen,) = _pg_guess.guesses_for(pg_store, [("guessed.rows", "row")]) or [None]
    assert seen is not None
    answer = _pg_guess.answer(pg_store, conn, GetOp(namespace, "row"), seen)
    stored = pg_store.get(namespace, "row")
    assert answer is not None and stored is not None
    assert answer.value == stored.value == value
    assert [type(v) for v in answer.value.values()] == [type(v) for v in value.values()]


def test_a_guessed_write_of_a_nan_is_refused_as_the_store_refuses_it(pg_store: BaseStore) -> None:
    import psycopg
    from langgraph.store.base import PutOp

    from langchain_contextchef._sections import _pg_guess

    conn = pg_store.conn  # type: ignore[attr-defined]
    namespace = ("guessed", "nan")
    with pytest.raises(psycopg.DataError):
        pg_store.put(namespace, "plain", {"x": float("nan")})
    assert _pg_guess.ready(conn)
    # orjson would write the NaN as null and store it; the guessed write must refuse it.
    with pytest.raises(psycopg.DataError):
        _pg_guess.send_guarded(conn, 7, {}, [PutOp(namespace, "row", {"x": float("nan")})])
    assert pg_store.get(namespace, "row") is None


def test_a_row_rewritten_with_the_same_value_defeats_the_guess(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, store = two_writers
    assert _tool(a, "create_memory", {"key": "k1", "value": "One."}).startswith("Created")
    assert _tool(a, "create_memory", {"key": "k2", "value": "Two."}).startswith("Created")
    stamp = _stamp_of(a, store)
    # A plain put of the very same stamp value: the row's version changed, its value
    # did not. The check compares versions, so the guess fails and the write reads.
    store.put(tuple(stamp.namespace), stamp.key, dict(stamp.value))
    failed = _pg_guess.GUESSES["failed"]
    assert _tool(a, "create_memory", {"key": "k3", "value": "Three."}).startswith("Created")
    assert _pg_guess.GUESSES["failed"] == failed + 1
    assert _stamp_of(a, store).value["log"] == [[2, "k2"], [3, "k3"]]
    assert [e.version for e in b.get_memory().list()] == [1, 1, 1]


def test_a_guessed_write_waits_for_another_session_holding_the_scope(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
    pg_database: str,
) -> None:
    from langchain_contextchef._sections import _advisory_key, _pg_guess

    a, b, _ = two_writers
    assert _tool(a, "create_memory", {"key": "k1", "value": "One."}).startswith("Created")
    assert _tool(a, "create_memory", {"key": "k2", "value": "Two."}).startswith("Created")
    other = psycopg_connection(pg_database)
    try:
        other.execute("SELECT pg_advisory_lock(%s)", (_advisory_key(a.get_memory().scope),))
        release = threading.Timer(0.3, lambda: other.execute("SELECT pg_advisory_unlock_all()"))
        release.start()
        failed = _pg_guess.GUESSES["failed"]
        # The function finds the scope held ("busy"): nothing written, and the write runs
        # again on the ordinary path, which waits for the lock.
        started = time.monotonic()
        assert _tool(a, "create_memory", {"key": "k3", "value": "Three."}).startswith("Created")
        waited = time.monotonic() - started
        release.join()
        assert waited >= 0.25  # it waited for the other session's lock
        assert _pg_guess.GUESSES["failed"] == failed + 1
    finally:
        other.close()
    memory = b.get_memory()
    assert {e.key: e.version for e in memory.list()} == {"k1": 1, "k2": 1, "k3": 1}


def test_a_session_that_lost_the_function_makes_it_again(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, store = two_writers
    assert _tool(a, "create_memory", {"key": "k1", "value": "One."}).startswith("Created")
    assert _tool(a, "create_memory", {"key": "k2", "value": "Two."}).startswith("Created")
    with store.lock:  # type: ignore[attr-defined]
        store.conn.execute("DISCARD TEMP")  # type: ignore[attr-defined]
    failed, held = _pg_guess.GUESSES["failed"], _pg_guess.GUESSES["held"]
    assert _tool(a, "create_memory", {"key": "k3", "value": "Three."}).startswith("Created")
    assert _pg_guess.GUESSES["failed"] == failed + 1  # the call failed; nothing was written
    assert _tool(a, "create_memory", {"key": "k4", "value": "Four."}).startswith("Created")
    assert _pg_guess.GUESSES["held"] == held + 1  # made again, and guessed right
    assert {e.key: e.version for e in b.get_memory().list()} == {
        "k1": 1,
        "k2": 1,
        "k3": 1,
        "k4": 1,
    }


def test_a_session_outside_read_committed_never_guesses(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, store = two_writers
    assert _tool(a, "create_memory", {"key": "k1", "value": "One."}).startswith("Created")
    # Changed after a section ran under read committed (one that finds the session outside
    # it stops guessing on that connection before it tries).
    with store.lock:  # type: ignore[attr-defined]
        store.conn.execute("SET default_transaction_isolation = 'repeatable read'")  # type: ignore[attr-defined]
    failed = _pg_guess.GUESSES["failed"]
    # The function refuses to check guesses there (its checks could miss the lock's last
    # holder): nothing written, the write runs again, and the session never guesses again.
    assert _tool(a, "create_memory", {"key": "k2", "value": "Two."}).startswith("Created")
    assert _pg_guess.GUESSES["failed"] == failed + 1
    held = _pg_guess.GUESSES["held"]
    assert _tool(a, "create_memory", {"key": "k3", "value": "Three."}).startswith("Created")
    assert (_pg_guess.GUESSES["held"], _pg_guess.GUESSES["failed"]) == (held, failed + 1)
    assert {e.key: e.version for e in b.get_memory().list()} == {"k1": 1, "k2": 1, "k3": 1}


def test_a_guessed_delete_removes_the_entry_and_keeps_its_history(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, _ = two_writers
    assert _tool(a, "create_memory", {"key": "k1", "value": "One."}).startswith("Created")
    assert _tool(a, "create_memory", {"key": "gone", "value": "Soon gone."}).startswith("Created")
    held = _pg_guess.GUESSES["held"]
    reply = _tool(a, "modify_memory", {"action": "delete", "key": "gone"})
    assert "Error" not in reply, reply
    assert _pg_guess.GUESSES["held"] == held + 1  # every row it read was one a wrote
    memory = b.get_memory()
    assert memory.get("gone") is None
    assert [r.version for r in memory.history("gone")] == [1]
    # The deleted row is now known absent: a create of the same key guesses right again.
    assert _tool(a, "create_memory", {"key": "gone", "value": "Back."}).startswith("Created")
    assert _pg_guess.GUESSES["held"] == held + 2
    assert memory.get("gone") == "Back."
    assert memory.get_entry("gone").version == 2  # type: ignore[union-attr]


def test_a_connection_that_keeps_losing_the_function_stops_guessing(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    a, b, store = two_writers
    values = {"k0": "Zero."}
    assert _tool(a, "create_memory", {"key": "k0", "value": "Zero."}).startswith("Created")
    for i in range(1, _pg_guess.LOST_LIMIT + 1):
        # A write that guesses right (the session has the function, made if need be) ...
        held = _pg_guess.GUESSES["held"]
        values[f"p{i}"] = f"P{i}."
        assert _tool(a, "create_memory", {"key": f"p{i}", "value": f"P{i}."}).startswith("Created")
        assert _pg_guess.GUESSES["held"] == held + 1
        # ... then the session loses it: the next guess fails, the write runs again.
        with store.lock:  # type: ignore[attr-defined]
            store.conn.execute("DISCARD TEMP")  # type: ignore[attr-defined]
        failed = _pg_guess.GUESSES["failed"]
        values[f"k{i}"] = f"K{i}."
        assert _tool(a, "create_memory", {"key": f"k{i}", "value": f"K{i}."}).startswith("Created")
        assert _pg_guess.GUESSES["failed"] == failed + 1
    # At the limit this connection (as if behind a transaction-mode pooler) no longer
    # guesses at all, and its writes stay exact.
    counts = dict(_pg_guess.GUESSES)
    for i in range(3):
        values[f"n{i}"] = f"N{i}."
        assert _tool(a, "create_memory", {"key": f"n{i}", "value": f"N{i}."}).startswith("Created")
    reply = _tool(a, "modify_memory", {"action": "update", "key": "k1", "value": "Changed."})
    assert "Error" not in reply, reply
    values["k1"] = "Changed."
    assert dict(_pg_guess.GUESSES) == counts
    memory = b.get_memory()
    assert {e.key: e.value for e in memory.list()} == values
    assert {e.key: e.version for e in memory.list()} == {k: 2 if k == "k1" else 1 for k in values}
    # Another connection of the same database still guesses.
    held = _pg_guess.GUESSES["held"]
    assert _tool(b, "create_memory", {"key": "b1", "value": "B1."}).startswith("Created")
    assert _tool(b, "create_memory", {"key": "b2", "value": "B2."}).startswith("Created")
    assert _pg_guess.GUESSES["held"] == held + 1


def test_a_model_update_of_an_outdated_version_with_a_hook_is_refused_as_stale(
    two_writers: tuple[ContextChef, ContextChef, BaseStore],
) -> None:
    from langchain_contextchef._sections import _pg_guess

    _, b, store = two_writers
    changes: list[Any] = []
    a = ContextChef(
        store=store,
        memory=MemoryConfig(on_memory_changed=changes.append),
        scope=b.get_memory().scope,
    )
    ma, mb = a.get_memory(), b.get_memory()
    assert _tool(a, "create_memory", {"key": "n", "value": "1"}).startswith("Created")
    reply = _tool(a, "modify_memory", {"action": "update", "key": "n", "value": "2"})
    assert "Error" not in reply, reply  # a has now written version 2 (and guesses it)
    assert len(changes) == 2
    assert mb.update_memory("n", "3").status == "updated"
    # a's guess of `n` (version 2) is wrong: the section runs again on real reads, where
    # the compare-and-set finds version 3 and refuses the write.
    failed = _pg_guess.GUESSES["failed"]
    reply = _tool(a, "modify_memory", {"action": "update", "key": "n", "value": "4", "version": 2})
    assert _pg_guess.GUESSES["failed"] == failed + 1
    assert reply.startswith("Error: "), reply
    assert "changed since you read it" in reply, reply
    assert len(changes) == 2  # nothing changed, nothing reported
    assert ma.get("n") == mb.get("n") == "3"
    assert [r.version for r in mb.history("n")] == [1, 2, 3]
    assert mb.get_entry("n").version == 3  # type: ignore[union-attr]


# ---- sessions whose default isolation is not read committed ----------------------------------
#
# A write's section takes the scope's lock in its transaction's first statement and then reads
# the row versions it checks. Under repeatable read (or serializable) the transaction's snapshot
# would be the lock statement's, taken before the lock is held, so the reads could miss what the
# lock's last holder committed. The section runs its own transaction under read committed
# whatever the session's default: this test widens that window on purpose (the lock call sleeps
# first, through a function of the same name earlier on the session's `search_path`) and lets
# another connection commit a write inside it.

PAUSE = 0.4  # how long each lock call of the repeatable-read session sleeps first

_SCHEMA = "CREATE SCHEMA IF NOT EXISTS slowlock"
_SLOW_LOCK = f"""
CREATE OR REPLACE FUNCTION slowlock.pg_try_advisory_xact_lock(k bigint) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_sleep({PAUSE});
    RETURN pg_catalog.pg_try_advisory_xact_lock(k);
END $$;
"""


@pytest.fixture
def plain_store(pg_database: str) -> Iterator[Any]:
    """A store on an autocommit read-committed connection (the other writer)."""
    from langgraph.store.postgres import PostgresStore

    with PostgresStore.from_conn_string(pg_database) as store:
        store.setup()
        store.conn.execute(_SCHEMA)
        store.conn.execute(_SLOW_LOCK)
        yield store


def _repeatable_read_store(uri: str, autocommit: bool) -> Any:
    """A store whose session defaults to repeatable read, with the slow lock call."""
    import psycopg
    from langgraph.store.postgres import PostgresStore
    from psycopg.rows import dict_row

    conn = psycopg.connect(uri, autocommit=autocommit, row_factory=dict_row)
    conn.execute("SET search_path = slowlock, pg_catalog, public")
    if autocommit:
        conn.execute("SET default_transaction_isolation = 'repeatable read'")
    else:
        conn.commit()
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    return PostgresStore(conn)


def _wait_until_sleeping_in_lock(store: Any, pid: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        row = store.conn.execute(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE pid = %s"
            " AND wait_event = 'PgSleep' AND query LIKE %s",
            (pid, "%pg_try_advisory_xact_lock%"),
        ).fetchone()
        if row["n"]:
            return
        time.sleep(0.01)
    pytest.fail("the repeatable-read session never reached its lock call")


@pytest.mark.parametrize("autocommit", [True, False], ids=["autocommit", "transactional"])
def test_a_commit_inside_the_lock_call_is_seen_by_the_version_check(
    plain_store: Any, pg_database: str, autocommit: bool
) -> None:
    scope = ("iso", uuid.uuid4().hex)
    b = Memory(plain_store, scope=scope)
    b.set("n", "0")
    first = b.get_entry("n")
    assert first is not None
    rr_store = _repeatable_read_store(pg_database, autocommit)
    try:
        a = Memory(rr_store, scope=scope)
        pid = rr_store.conn.info.backend_pid
        answers: list[Any] = []
        errors: list[BaseException] = []

        def write_a(value: str, version: int) -> None:
            try:
                answers.append(a.update_memory("n", value, version=version))
            except BaseException as exc:  # reported by the main thread
                errors.append(exc)

        versions = [first.version]
        for round_ in range(3):
            current = versions[-1]
            # a's write at the current version is underway (its transaction has begun) when
            # b writes at that same version and commits: exactly one of them may win.
            thread = threading.Thread(target=write_a, args=(f"a{round_}", current))
            thread.start()
            _wait_until_sleeping_in_lock(plain_store, pid)
            won = b.update_memory("n", f"b{round_}", version=current)
            assert won.status == "updated", won
            thread.join(timeout=60)
            assert not errors, errors
            assert answers[-1].status == "stale", answers[-1]  # a read b's commit
            versions.append(current + 1)
            # Then a writes at the version it now reads: b's is the one a must find.
            entry = a.get_entry("n")
            assert (
                entry is not None and entry.version == current + 1 and entry.value == f"b{round_}"
            )
            thread = threading.Thread(target=write_a, args=(f"a{round_}", current + 1))
            thread.start()
            thread.join(timeout=60)
            assert not errors, errors
            assert answers[-1].status == "updated", answers[-1]
            versions.append(current + 2)
            # An outdated version from b is refused.
            assert b.update_memory("n", "late", version=current + 1).status == "stale"
        final = b.get_entry("n")
        assert final is not None and final.version == versions[-1] and final.value == "a2"
        history = b.history("n")
        assert [r.version for r in history] == list(range(first.version, versions[-1] + 1))
    finally:
        rr_store.conn.close()
