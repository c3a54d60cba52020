"""One transaction per exclusive section on a sync `PostgresStore` over one connection.

The general PostgreSQL section (`_sections`) takes a session advisory lock, runs each batch of
the section as its own round trip, and releases the lock: four round trips for a write that
reads once and writes once. A section that the plan driver runs (`_plan`) on a sync
`PostgresStore` holding a single connection (not a pool, not pipeline mode) runs instead as
one transaction on that connection:

1. its first batch opens the transaction, takes the scope's *transaction-scoped* advisory lock
   (`pg_try_advisory_xact_lock`) and runs the batch's reads, pipelined: one round trip. When
   another writer holds the scope, the transaction ends (the reads are thrown away) and is
   tried again after a pause, as the session lock is;
2. a batch of writes is kept, answered at once (a put returns nothing), and sent with what
   comes next: the next batch, or the commit that ends the section (one round trip for the
   writes and the commit). The next batch never reads past an unsent write: kept writes go
   first, in order;
3. before any user code runs in the section (a hook, a runnable, a LangChain event inside a
   run, a nested section of another scope), the kept writes are sent, the scope's session
   lock is taken (at once: this session holds the scope) and the transaction commits, all
   in one round trip. The user code then finds the connection free, sees every write the
   section made, and the rest of the section runs as a general section (session lock, each
   batch on its own), still exclusive.

Each statement sent costs the server a wake-up and the client a send, so a section sends as
few as it can. On an autocommit connection (as `PostgresStore.from_conn_string` opens it) the
transaction is the pipeline's own: every statement up to the pipeline's Sync runs in one
implicit transaction, a read's answers are fetched with a flush request (which leaves that
transaction and its lock held), and the Sync that closes the pipeline commits it, or rolls it
back when a statement failed. No `BEGIN` or `COMMIT` statement is sent; on a connection that
is not autocommit they are.

The section's reads must see the last holder's commit, so its transaction runs under read
committed, whatever the session's default: there each read after the lock takes a fresh
snapshot, where under repeatable read or serializable the lock statement itself would take
the transaction's snapshot, before the lock is held. On a connection that is not autocommit
the statement after psycopg's `BEGIN` sets the level (a transaction left open there is
committed first, as the section's own commit would, and the section's begun at read
committed). On an autocommit connection the lock statement also tells the level the
pipeline's transaction runs under; when it is not read committed, that transaction is let
go before anything is read or written, and every section on that connection from then on
sends `BEGIN ISOLATION LEVEL READ COMMITTED` and `COMMIT`.

The gets of a batch are one statement of the section's own over every (namespace, key)
asked, where LangGraph's store sends one per namespace with a data-modifying CTE that
refreshes TTLs; a get that asks for a TTL refresh keeps LangGraph's query. A model write
is then three statements in two round trips: the lock and the read; the writes, committed
by the Sync.

A section the plan driver can build again (a tool's write, `model_write`) may answer its
first batch from what this process last wrote of those rows (`_pg_guess`), keep its writes,
and end with one statement: a function of the session's own that takes the lock, checks
every guess against the row versions and writes (one round trip, as LangGraph's own `put`).
A wrong guess writes nothing and raises `Mispredicted`: the driver runs the section again,
as above. A later read, or user code, checks the guesses first (the same function, without
writes, opening the transaction of step 1). So that its writes can be guessed from, such a
section sends its plain puts with an `INSERT` that returns the row versions.

Every batch a plan was told succeeded is committed, even when the section ends with an
exception (as with the general section, where each batch commits when it returns); a batch
that fails rolls the transaction back (nothing the section kept is written) and the error
reaches the plan, or the caller when it happens at the commit. The store's own lock (the one
its `batch` takes) is held from the transaction's first round trip to its commit, so no other
thread's statement joins the transaction; only plan code runs meanwhile, never user code.

Sections entered any other way (`_sections.exclusive` used directly, an async driver, a pool)
keep the general path.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from typing import Any, Literal

from langgraph.store.base import BaseStore, GetOp, ListNamespacesOp, Op, PutOp, Result, SearchOp

try:
    from langgraph.store.postgres import PostgresStore
    from langgraph.store.postgres.base import (
        _decode_ns_bytes,
        _namespace_to_text,
        _row_to_item,
        _row_to_search_item,
    )
    from psycopg.pq import TransactionStatus
    from psycopg.rows import dict_row

    _IDLE: Any = TransactionStatus.IDLE
except ImportError:  # pragma: no cover - the postgres extra is not installed
    PostgresStore = dict_row = None  # type: ignore[assignment,misc]
    _row_to_item = _row_to_search_item = _decode_ns_bytes = None  # type: ignore[assignment]
    _namespace_to_text = None  # type: ignore[assignment]
    _IDLE = None

from langchain_contextchef._sections import _pg_guess as guess
from langchain_contextchef._sections._pg_guess import Mispredicted

__all__ = ["Mispredicted", "PgTransaction", "eligible", "settle", "transaction_of"]

_POLL = (0.0005, 0.01)  # first and longest pause between tries of the lock
_NEEDS = (
    "_get_batch_GET_ops_queries",
    "_prepare_batch_search_queries",
    "_batch_put_ops",
    "_batch_search_ops",
    "_batch_list_namespaces_ops",
    "_deserializer",
    "lock",
    "conn",
)

Mode = Literal["idle", "guess", "txn", "session", "broken"]

# The lock statement of the pipeline's own transaction, which also tells its isolation level.
_LOCK_IMPLICIT = (
    "SELECT pg_try_advisory_xact_lock(%s) AS ok,"
    " current_setting('transaction_isolation') = 'read committed' AS rc"
)
_LOCK = "SELECT pg_try_advisory_xact_lock(%s) AS ok"
# Autocommit connections whose sessions were found outside read committed: their sections
# open their transaction with an explicit `BEGIN` at read committed (see the module docstring).
_EXPLICIT: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()

# Every key a batch gets, in one statement: LangGraph's own query is one statement per
# namespace, each with a data-modifying CTE that refreshes TTLs (which no op of these asks).
_GET = (
    "SELECT s.prefix, s.key, s.value, s.created_at, s.updated_at FROM store s"
    " WHERE (s.prefix, s.key) IN (SELECT * FROM unnest(%s::text[], %s::text[]))"
)
_UNEXPIRED = " AND (s.expires_at IS NULL OR s.expires_at > NOW())"

# The cursor of that one statement, or (when a get refreshes TTLs) LangGraph's own queries:
# (cursor, namespace, [(op index, key), ...]) each.
_Gets = tuple[Any, list[tuple[Any, tuple[str, ...], list[tuple[int, str]]]]]


def _cursors(got: _Gets | None) -> list[Any]:
    if got is None:
        return []
    return ([got[0]] if got[0] is not None else []) + [cur for cur, _, _ in got[1]]


# The transaction section this context runs in, per store (by id): at most one per store.
_ACTIVE: ContextVar[dict[int, PgTransaction] | None] = ContextVar(
    "contextchef_pg_transactions", default=None
)


def eligible(store: BaseStore) -> bool:
    """Whether sections on `store` may run as one transaction (see the module docstring)."""
    if PostgresStore is None or _row_to_item is None or type(store) is not PostgresStore:
        return False
    if getattr(store, "pipe", None) is not None:
        return False
    conn = getattr(store, "conn", None)
    if conn is None or hasattr(conn, "conninfo") or not hasattr(conn, "pipeline"):
        return False  # a pool: the general path, with its own lock connection
    return all(hasattr(store, name) for name in _NEEDS)


def transaction_of(store: BaseStore) -> PgTransaction | None:
    """The transaction section this context holds on `store`, if any."""
    active = _ACTIVE.get()
    return active.get(id(store)) if active else None


def settle(store: BaseStore) -> None:
    """Before user code runs: commit the section's transaction and keep the scope locked."""
    active = _ACTIVE.get()
    if active:
        txn = active.get(id(store))
        if txn is not None and txn.mode != "session":
            txn.to_session()


class PgTransaction:
    """One exclusive section of `scope` on a sync `PostgresStore`, run as one transaction."""

    __slots__ = (
        "_token",
        "conn",
        "deadline",
        "guard",
        "guesses",
        "held",
        "implicit",
        "key",
        "kept",
        "learning",
        "may_guess",
        "mode",
        "noting",
        "pipe",
        "pipeline",
        "scope",
        "store",
        "timed_out",
        "timeout",
        "written",
    )

    def __init__(
        self,
        store: Any,
        scope: tuple[str, ...],
        key: int,
        timeout: float,
        timed_out: Any,
        guess_allowed: bool = False,
        learn: bool = False,
    ) -> None:
        self.store, self.scope, self.key, self.timeout = store, scope, key, timeout
        self.timed_out = timed_out  # scope, timeout -> the TimeoutError to raise
        self.conn: Any = store.conn
        self.guard: threading.Lock = store.lock
        self.held = False  # whether this section holds the store's lock
        # On an autocommit connection the pipeline's own transaction holds the section (see
        # the module docstring); otherwise psycopg opens one itself and BEGIN/COMMIT are sent.
        # (Not on a connection whose session was found outside read committed.)
        autocommit = bool(getattr(self.conn, "autocommit", False))
        self.implicit = autocommit and self.conn not in _EXPLICIT
        self.mode: Mode = "idle"
        self.kept: list[PutOp] = []
        # Writes sent in the transaction, noted once it commits: on a store where sections
        # may guess (autocommit, no TTL config), a section that may guess sends its plain
        # puts so that they return their row versions; other sections' rows become unknown.
        self.written: list[guess.Written] = []
        self.noting = self.implicit and not getattr(store, "ttl_config", None)
        # Whether the first batch may be answered from what this process wrote (the caller
        # can run the section again when the guess fails; see `Mispredicted`).
        self.may_guess = guess_allowed and self.noting
        self.learning = (learn or guess_allowed) and self.noting
        self.guesses: dict[guess.Name, guess.Seen | None] | None = None
        self.pipe: contextlib.ExitStack | None = None
        self.pipeline: Any = None
        self.deadline = 0.0
        self._token: Any = None

    # ---- the section's life ----------------------------------------------------------------

    def __enter__(self) -> PgTransaction:
        active = _ACTIVE.get()
        self._token = _ACTIVE.set({**(active or {}), id(self.store): self})
        self.deadline = time.monotonic() + self.timeout
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.mode == "guess":
                self._commit_guessed()  # or `Mispredicted`: nothing written, run it again
            elif self.mode == "txn":
                self._finish(("COMMIT",))  # every write the plan was told of is kept
                self._release()
            elif self.mode == "session":
                with self.guard:
                    self.conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
        finally:
            self.mode = "idle"
            self._release()
            _ACTIVE.reset(self._token)

    def _release(self) -> None:
        if self.held:
            self.held = False
            self.guard.release()

    # ---- batches ---------------------------------------------------------------------------

    def batch(self, ops: Sequence[Op]) -> list[Result]:
        """Run `ops` in the section: reads now, writes with the next round trip."""
        if self.mode == "session":
            return self.store.batch(ops)  # type: ignore[no-any-return]
        if self.mode == "broken":
            msg = "The section's transaction failed; start a new section."
            raise RuntimeError(msg)
        reads = [(i, op) for i, op in enumerate(ops) if type(op) is not PutOp]
        puts = [op for op in ops if type(op) is PutOp]
        results: list[Result] = [None] * len(ops)
        if self.mode == "idle" and self.may_guess and not puts and self._guess(ops, results):
            return results
        if self.mode == "guess":
            if not reads:
                self.kept.extend(puts)
                return results
            self._confirm()  # a read past the guess: check it first
        if reads or self.mode == "idle":
            self._read(reads, results)
        self.kept.extend(puts)
        return results

    def to_session(self) -> None:
        """Hold the scope with the session lock, commit what the section did (one round trip)."""
        if self.mode == "guess":
            self._confirm()  # user code runs only after the guesses are known right
        if self.mode == "txn":
            self._finish(("SELECT pg_advisory_lock(%s)", "COMMIT"))
            self._release()
            self.mode = "session"
        elif self.mode == "idle":
            self._session_lock()
            self.mode = "session"

    # ---- round trips -----------------------------------------------------------------------
    #
    # The transaction keeps one pipeline open on the connection from its first round trip to
    # its commit: leaving a pipeline costs a round trip of its own, entering one nothing.

    def _read(self, reads: list[tuple[int, Op]], results: list[Result]) -> None:
        pause = _POLL[0]
        while True:
            opening = self.mode == "idle"
            if opening:
                self._open()
            with self._failing():
                outcome = self._pipelined_reads(reads, results, opening=opening)
            if outcome == "ok":
                self.mode = "txn"
                return
            if outcome == "isolation":
                # The pipeline's transaction is not read committed: it only took the lock,
                # so its Sync lets it go; the section opens its own transaction instead.
                with self._failing():
                    self._close_pipe()
                self._release()
                self.implicit = self.noting = self.may_guess = self.learning = False
                continue
            # Someone else holds the scope: let go, wait, try again. The transaction only
            # read, so it ends with a commit: a rollback would make psycopg forget (and drop
            # on the server) every prepared statement of the connection, pipelined ones too.
            with self._failing():
                if not self.implicit:
                    self.conn.execute("COMMIT")
                self._close_pipe()  # the pipeline's Sync ends its own transaction
            self._release()
            if time.monotonic() > self.deadline:
                raise self.timed_out(self.scope, self.timeout)
            time.sleep(pause)
            pause = min(pause * 2, _POLL[1])

    def _pipelined_reads(
        self, reads: list[tuple[int, Op]], results: list[Result], *, opening: bool
    ) -> Literal["ok", "busy", "isolation"]:
        store, conn = self.store, self.conn
        kept, self.kept = self.kept, []
        if kept:
            self._send_puts(kept)
        gets = [(i, op) for i, op in reads if isinstance(op, GetOp)]
        searches = [(i, op) for i, op in reads if type(op) is SearchOp]
        listings = [(i, op) for i, op in reads if type(op) is ListNamespacesOp]
        lock_cursor = None
        if opening:
            if not self.implicit:
                self._begin_read_committed()
            lock = _LOCK_IMPLICIT if self.implicit else _LOCK
            lock_cursor = conn.execute(lock, (self.key,))
        got = self._send_gets(gets) if gets else None
        found = []
        if searches and not any(op.query for _, op in searches):  # no query to embed first
            queries, _ = store._prepare_batch_search_queries(searches)
            for (idx, _), (query, params) in zip(searches, queries, strict=True):
                cur = conn.cursor(binary=True, row_factory=dict_row)
                cur.execute(query, params)
                found.append((idx, cur))
            searches = []
        # One round trip for all of the above. In the pipeline's own transaction a fetch asks
        # the server to flush its answers, which keeps that transaction (and the lock) open;
        # otherwise the Sync does, inside the BEGIN sent first.
        if not self.implicit:
            self.pipeline.sync()
        if lock_cursor is not None:
            row = lock_cursor.fetchone()
            busy = not (row["ok"] if isinstance(row, dict) else row[0])
            isolated = self.implicit and not (row["rc"] if isinstance(row, dict) else row[1])
            if busy or isolated:
                for cur in _cursors(got) + [f[1] for f in found]:
                    cur.close()
                if isolated:
                    _EXPLICIT[conn] = True
                    return "isolation"
                return "busy"
        if got is not None:
            self._answer_gets(got, gets, results)
        for idx, cur in found:
            with cur:
                results[idx] = [
                    _row_to_search_item(
                        _decode_ns_bytes(row["prefix"]), row, loader=store._deserializer
                    )
                    for row in cur.fetchall()
                ]
        if searches or listings:
            with conn.cursor(binary=True, row_factory=dict_row) as cur:
                if searches:
                    store._batch_search_ops(searches, results, cur)
                if listings:
                    store._batch_list_namespaces_ops(listings, results, cur)
        return "ok"

    def _begin_read_committed(self) -> None:
        """Open the section's transaction at read committed, whatever the session's default."""
        conn = self.conn
        if getattr(conn, "autocommit", False):
            conn.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
        elif conn.info.transaction_status == _IDLE:
            # psycopg sends its own BEGIN first; the level is set before any query runs.
            conn.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
        else:
            # A transaction left open on the connection (psycopg opens one at a read outside
            # a section) may hold a snapshot already: commit it, as the section's own commit
            # would, and open the section's.
            conn.execute("COMMIT")
            conn.execute("BEGIN ISOLATION LEVEL READ COMMITTED")

    def _open(self) -> None:
        if not self.held:
            self.guard.acquire()
            self.held = True
        self.pipe = contextlib.ExitStack()
        self.pipeline = self.pipe.enter_context(self.conn.pipeline())

    # ---- guessed reads ---------------------------------------------------------------------
    #
    # A section whose caller can run it again (the plan driver, for the plans that ask) may
    # answer its first batch from what this process last wrote of those rows (`_pg_guess`).
    # Its writes are kept, and the section ends with one statement that locks, checks every
    # guess and writes; the autocommit connection commits it. A failed guess writes nothing
    # and raises `Mispredicted`. Before a later read or any user code, the guesses are
    # checked first (the same statement without writes, opening the section's transaction)
    # and the section goes on as usual.

    def _guess(self, ops: Sequence[Op], results: list[Result]) -> bool:
        if not all(type(op) is GetOp and not op.refresh_ttl for op in ops):
            return False
        if not guess.worth_guessing(self.store, self.scope):
            self.may_guess = False
            return False
        gets: list[GetOp] = list(ops)  # type: ignore[arg-type]
        names = [(_namespace_to_text(tuple(op.namespace)), op.key) for op in gets]
        rows = guess.guesses_for(self.store, names)
        if rows is None:
            return False  # a row this process did not write, or none it did: read
        with self.guard:
            ready = guess.ready(self.conn)
        if not ready:
            self.may_guess = False
            return False
        for idx, (op, row) in enumerate(zip(gets, rows, strict=True)):
            results[idx] = guess.answer(self.store, self.conn, op, row)
        self.guesses = dict(zip(names, rows, strict=True))
        self.mode = "guess"
        return True

    def _check(self, kept: list[PutOp]) -> guess.Guessed:
        """Call the function with the guesses and `kept` (with the store's lock held)."""
        guesses, self.guesses = self.guesses or {}, None
        self.mode = "idle"
        try:
            with self._failing():
                outcome = guess.send_guarded(self.conn, self.key, guesses, kept)
        except Exception as exc:
            if not guess.is_missing_function(exc):
                raise
            guess.lost(self.conn)  # a `DISCARD TEMP`, say: nothing was written
            raise Mispredicted from exc
        if outcome.status == "isolation":
            self.may_guess = False
            guess.refuse(self.conn)  # not read committed: this session never guesses
        return outcome

    def _confirm(self) -> None:
        """Check the guesses (one round trip); the section goes on in its transaction."""
        self._open()
        outcome = self._check([])
        if outcome.status == "ok":
            guess.record(self.store, self.scope, outcome)
            self.mode = "txn"
            return
        self.kept = []
        with self._failing():
            self._close_pipe()  # the Sync ends a transaction that wrote nothing
        self._release()
        guess.record(self.store, self.scope, outcome)
        raise Mispredicted

    def _commit_guessed(self) -> None:
        """Lock, check, write and commit: one statement."""
        if not all(guess.plain(self.store, op) for op in self.kept):
            self._confirm()  # writes LangGraph's own statements must make
            self._finish(("COMMIT",))
            return
        kept, self.kept = self.kept, []
        if not self.held:
            self.guard.acquire()
            self.held = True
        try:
            outcome = self._check(kept)
        finally:
            self._release()
        guess.record(self.store, self.scope, outcome)
        if outcome.status != "ok":
            raise Mispredicted

    def _send_gets(self, gets: list[tuple[int, GetOp]]) -> _Gets:
        """Send one statement that reads every key of `gets` (LangGraph's own to refresh TTLs)."""
        store, conn = self.store, self.conn
        if any(op.refresh_ttl for _, op in gets):
            pending = []
            for query, params, namespace, items in store._get_batch_GET_ops_queries(gets):
                cur = conn.cursor(binary=True, row_factory=dict_row)
                cur.execute(query, params)
                pending.append((cur, namespace, items))
            return (None, pending)
        prefixes = [_namespace_to_text(op.namespace) for _, op in gets]
        keys = [op.key for _, op in gets]
        query = _GET + _UNEXPIRED if getattr(store, "_omit_expired", False) else _GET
        cur = conn.cursor(binary=True, row_factory=dict_row)
        cur.execute(query, (prefixes, keys))
        return (cur, [])

    def _answer_gets(
        self,
        got: _Gets,
        gets: list[tuple[int, GetOp]],
        results: list[Result],
    ) -> None:
        store = self.store
        cursor, pending = got
        if cursor is not None:
            with cursor:
                rows = {(row["prefix"], row["key"]): row for row in cursor.fetchall()}
            for idx, op in gets:
                namespace = tuple(op.namespace)
                row = rows.get((_namespace_to_text(namespace), op.key))
                results[idx] = (
                    _row_to_item(namespace, row, loader=store._deserializer) if row else None
                )
            if self.learning:
                asked = {(_namespace_to_text(tuple(op.namespace)), op.key) for _, op in gets}
                guess.learn_reads(store, rows, asked.difference(rows))
            return
        for cur, namespace, items in pending:
            with cur:
                found = {row["key"]: row for row in cur.fetchall()}
            for idx, key in items:
                row = found.get(key)
                results[idx] = (
                    _row_to_item(namespace, row, loader=store._deserializer) if row else None
                )

    def _finish(self, statements: tuple[str, ...]) -> None:
        """Send the kept writes and `statements`, and leave the pipeline: one round trip."""
        kept, self.kept = self.kept, []
        with self._failing():
            if kept:
                self._send_puts(kept)
            for statement in statements:
                if statement == "COMMIT" and self.implicit:
                    continue  # the pipeline's Sync, as it closes, commits
                self.conn.execute(statement, (self.key,) if "%s" in statement else None)
            self._close_pipe()
            written, self.written = self.written, []
            for batch in written:
                batch.learn(self.store)

    def _send_puts(self, kept: list[PutOp]) -> None:
        if self.noting:
            written = guess.send_puts(self.store, self.conn, kept, learn=self.learning)
            self.written.append(written)
        else:
            with self.conn.cursor(binary=True, row_factory=dict_row) as cur:
                self.store._batch_put_ops(list(enumerate(kept)), cur)

    def _close_pipe(self) -> None:
        pipe, self.pipe, self.pipeline = self.pipe, None, None
        if pipe is not None:
            pipe.close()

    @contextlib.contextmanager
    def _failing(self) -> Iterator[None]:
        # A failed round trip rolls the transaction back: nothing the section kept is written.
        try:
            yield
        except BaseException:
            self.kept, self.written = [], []
            guess.forget(self.store)  # what it noted may include writes now rolled back
            with contextlib.suppress(Exception):
                self._close_pipe()
            if self.conn.info.transaction_status != 0:
                with contextlib.suppress(Exception):
                    self.conn.execute("ROLLBACK")
            self.mode = "broken" if self.mode == "txn" else "idle"
            self._release()
            raise

    def _session_lock(self) -> None:
        pause = _POLL[0]
        while True:
            with self.guard:
                row = self.conn.execute(
                    "SELECT pg_try_advisory_lock(%s) AS ok", (self.key,)
                ).fetchone()
            if row["ok"] if isinstance(row, dict) else row[0]:
                return
            if time.monotonic() > self.deadline:
                raise self.timed_out(self.scope, self.timeout)
            time.sleep(pause)
            pause = min(pause * 2, _POLL[1])
