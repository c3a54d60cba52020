"""Guessed reads for the PostgreSQL transaction sections (`_pg_txn`): one statement per write.

A section whose caller can run it again may answer its first batch from what this process
last wrote of those rows (a row it never saw is taken as absent). At the section's end one
statement, a call of a function of the session's own (`pg_temp`, created once per
connection), takes the scope's transaction-scoped advisory lock, checks every guess, writes
and returns what it wrote; the autocommit connection commits it. A wrong guess writes
nothing and raises `Mispredicted`, and the caller runs the section again with real reads.

Why a function: its statements run one after another, each with a fresh snapshot (it is
`VOLATILE`, and a guessed section runs only under read committed), so the check that follows
the lock sees every write of the lock's last holder; a single plain statement takes its
snapshot before it takes the lock. Why `pg_temp`: nothing is added to the user's schema, no
privilege beyond a session's temporary objects is needed, and nothing outlives the session.

What a guess is checked against: the row version this process wrote, named by the row's
`xmin` (the transaction that wrote it) and `updated_at`, both returned by the write, so the
check compares a few bytes per row instead of the stored value. Rows are learnt only from
writes that return them (this module's `INSERT ... RETURNING`, used for every plain put of a
section on a store that may guess); a row read present and not written since is *unknown*,
and a batch that asks for an unknown row is read, never guessed.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

import orjson
from langgraph.store.base import GetOp, Item, PutOp

try:
    from langgraph.store.postgres.base import _namespace_to_text, _row_to_item
    from psycopg import Error as PgError
    from psycopg import errors as pg_errors
    from psycopg.adapt import PyFormat
    from psycopg.pq import Format
    from psycopg.rows import dict_row
    from psycopg.types.json import Jsonb
except ImportError:  # pragma: no cover - the postgres extra is not installed
    _namespace_to_text = _row_to_item = pg_errors = None  # type: ignore[assignment]
    PgError = Exception  # type: ignore[assignment,misc]
    PyFormat = Format = dict_row = Jsonb = None  # type: ignore[assignment,misc]

logger = logging.getLogger("langchain_contextchef.guess")

__all__ = [
    "GUESSES",
    "LOST_LIMIT",
    "Guessed",
    "Mispredicted",
    "Seen",
    "Written",
    "answer",
    "forget",
    "guesses_for",
    "is_missing_function",
    "learn_reads",
    "lost",
    "plain",
    "ready",
    "record",
    "refuse",
    "send_guarded",
    "send_puts",
    "worth_guessing",
]

Name = tuple[str, str]  # (prefix, key): a row of LangGraph's `store` table

FUNCTION = "pg_temp.contextchef_guarded_write_v1"
# The lock, the checks of the guesses (each a primary-key lookup: no plan may scan the
# table; a guess without a version is an absence), the writes (a value of `NULL` deletes),
# and what they wrote. Statuses: `ok`; `busy` (another
# session holds the scope); `stale` (a guess is wrong); `isolation` (not read committed, where
# the checks could miss the lock's last holder). Only `ok` writes anything.
_CREATE = f"""
CREATE OR REPLACE FUNCTION {FUNCTION}(
    lock_key bigint, g_p text[], g_k text[], g_x text[], g_u timestamptz[],
    w_p text[], w_k text[], w_v text[],
    OUT status text, OUT xid text, OUT created timestamptz[], OUT written timestamptz)
LANGUAGE plpgsql VOLATILE AS $contextchef$
DECLARE
    i integer;
    c timestamptz;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        status := 'isolation';
        RETURN;
    END IF;
    IF NOT pg_try_advisory_xact_lock(lock_key) THEN
        status := 'busy';
        RETURN;
    END IF;
    FOR i IN 1 .. coalesce(cardinality(g_p), 0) LOOP
        IF g_x[i] IS NULL THEN
            IF EXISTS (SELECT 1 FROM store s WHERE s.prefix = g_p[i] AND s.key = g_k[i]) THEN
                status := 'stale';
                RETURN;
            END IF;
        ELSIF NOT EXISTS (SELECT 1 FROM store s WHERE s.prefix = g_p[i] AND s.key = g_k[i]
                          AND s.xmin::text = g_x[i] AND s.updated_at = g_u[i]) THEN
            status := 'stale';
            RETURN;
        END IF;
    END LOOP;
    created := '{{}}';
    FOR i IN 1 .. coalesce(cardinality(w_p), 0) LOOP
        IF w_v[i] IS NULL THEN
            DELETE FROM store s WHERE s.prefix = w_p[i] AND s.key = w_k[i];
        ELSE
            INSERT INTO store AS s (prefix, key, value, created_at, updated_at, expires_at,
                                    ttl_minutes)
            VALUES (w_p[i], w_k[i], w_v[i]::jsonb, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP,
                    NULL, NULL)
            ON CONFLICT (prefix, key) DO UPDATE SET value = EXCLUDED.value,
                updated_at = CURRENT_TIMESTAMP, expires_at = EXCLUDED.expires_at,
                ttl_minutes = EXCLUDED.ttl_minutes
            RETURNING s.xmin::text, s.created_at INTO xid, c;
            created := created || c;
        END IF;
    END LOOP;
    written := CURRENT_TIMESTAMP;
    status := 'ok';
END
$contextchef$
"""


def _array(count: int, kind: str) -> str:
    # Each element its own parameter: psycopg dumps a scalar in C, an array list in Python
    # (about 40 us for a model write's seven arrays, against 6 us for their elements).
    return f"ARRAY[{', '.join(['%b'] * count)}]::{kind}[]"


@functools.lru_cache(maxsize=64)
def _call(guessed: int, written: int) -> str:
    """The function's call for `guessed` guesses and `written` writes (one text per shape)."""
    return (
        f"SELECT status, xid, created, written FROM {FUNCTION}(%b, {_array(guessed, 'text')},"
        f" {_array(guessed, 'text')}, {_array(guessed, 'text')},"
        f" {_array(guessed, 'timestamptz')}, {_array(written, 'text')},"
        f" {_array(written, 'text')}, {_array(written, 'text')})"
    )


# LangGraph's `INSERT` of puts without TTL or vectors, with what it wrote.
_INSERT = (
    "INSERT INTO store AS s (prefix, key, value, created_at, updated_at, expires_at,"
    " ttl_minutes) SELECT g.p, g.k, g.v::jsonb, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, NULL,"
    " NULL FROM unnest(%b::text[], %b::text[], %b::text[]) AS g(p, k, v)"
    " ON CONFLICT (prefix, key) DO UPDATE SET value = EXCLUDED.value,"
    " updated_at = CURRENT_TIMESTAMP, expires_at = EXCLUDED.expires_at,"
    " ttl_minutes = EXCLUDED.ttl_minutes"
    " RETURNING s.prefix, s.key, s.xmin::text AS xmin, s.created_at, s.updated_at"
)


class Mispredicted(BaseException):
    """A section ran on guessed reads the server found wrong; nothing of it was written.

    A `BaseException`, so no plan's `except Exception` takes it: the plan driver runs the
    section again from its start, with real reads.
    """


class Seen(NamedTuple):
    """A row as this process last wrote it: its value's JSON and its version."""

    text: str
    created_at: datetime
    updated_at: datetime
    xmin: str
    # Whether orjson wrote `text`, so orjson reads it back exactly (it has no integer
    # beyond 64 bits, which orjson would read as a float, and no NaN).
    fast: bool = False


class _Unknown:
    """A row stored, but not as this process last wrote it: read it, never guess it."""


_UNKNOWN = _Unknown()

# How guessed sections ended in this process ("held": one round trip; "failed": run again).
GUESSES: dict[str, int] = {"held": 0, "failed": 0}

# What this process knows of each row, per store: `Seen`, `None` (absent), or unknown.
# Bounded; a row that fell out is taken as absent, which at worst costs a failed guess.
_ROWS_LIMIT = 1024
_ROWS: weakref.WeakKeyDictionary[Any, OrderedDict[Name, Seen | _Unknown | None]] = (
    weakref.WeakKeyDictionary()
)
_LOCK = threading.Lock()
# Per connection: whether the function is there (True), or cannot be made (False).
_READY: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()
# Per connection: how often its session lost the function; at `LOST_LIMIT` it never guesses
# again (behind a transaction-mode pooler each statement may land on another session).
LOST_LIMIT = 3
_LOST: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def ready(conn: Any) -> bool:
    """Whether `conn`'s session has the function, making it the first time (one statement).

    Call with the store's lock held and no transaction open. A session whose server refuses
    to make it (no temporary objects allowed, a read-only server: any error PostgreSQL or
    psycopg raises) never guesses; why is logged at debug level.
    """
    state = _READY.get(conn)
    if state is None:
        try:
            conn.execute(_CREATE)
            state = True
        except PgError as exc:  # a refusal only means: do not guess in this session
            logger.debug("Not guessing on this connection: making %s failed: %s", FUNCTION, exc)
            state = False
        with _LOCK:
            _READY[conn] = state
    return state


def _remember(store: Any, rows: Iterable[tuple[Name, Seen | _Unknown | None]]) -> None:
    with _LOCK:
        known = _ROWS.get(store)
        if known is None:
            known = _ROWS[store] = OrderedDict()
        for name, row in rows:
            known[name] = row
            known.move_to_end(name)
        while len(known) > _ROWS_LIMIT:
            known.popitem(last=False)


def forget(store: Any) -> None:
    """Trust nothing this process noted of `store`'s rows (a transaction rolled back)."""
    with _LOCK:
        _ROWS.pop(store, None)


def learn_reads(store: Any, present: Iterable[Name], absent: Iterable[Name]) -> None:
    """Note what a read found: rows present become unknown (their version was not read)."""
    _remember(store, [*((n, _UNKNOWN) for n in present), *((n, None) for n in absent)])


def guesses_for(store: Any, names: Sequence[Name]) -> list[Seen | None] | None:
    """The guess of each row (`None`: absent), or `None` when the batch must be read.

    A batch is guessed when no row of it is unknown and at least one was written by this
    process (a batch of rows never seen is more likely new to this process than absent).
    """
    with _LOCK:
        known = _ROWS.get(store)
        if not known:
            return None
        rows = [known.get(name) for name in names]
    if any(row is _UNKNOWN for row in rows) or not any(isinstance(r, Seen) for r in rows):
        return None
    return rows  # type: ignore[return-value]


def answer(store: Any, conn: Any, op: GetOp, row: Seen | None) -> Item | None:
    """The item a real get of `op` would return, were the guess `row` right.

    Its value is loaded from the JSON this process sent (`Seen.text`), not from the text
    PostgreSQL would return for the stored `jsonb`: equal in value, not byte for byte (the
    server may order keys differently, and gives a float such as `1e16` back as the integer
    `10000000000000000`, which the sent text kept a float).
    """
    if row is None:
        return None
    loader = conn.adapters.get_loader(_jsonb_oid(conn), Format.TEXT)(_jsonb_oid(conn), conn)
    if row.fast and loader.loads is json.loads:
        value = orjson.loads(row.text)  # the same value, in half the time
    else:
        value = loader.load(row.text.encode())
    record: Any = {
        "key": op.key,
        "value": value,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }
    return _row_to_item(tuple(op.namespace), record, loader=store._deserializer)


def _jsonb_oid(conn: Any) -> int:
    return int(conn.adapters.types["jsonb"].oid)


def plain(store: Any, op: PutOp) -> bool:
    """Whether this module makes the write `op` itself.

    Deletes and puts without a TTL or vectors to embed; anything else takes LangGraph's own
    statements.
    """
    if op.value is None:
        return True
    return op.ttl is None and (not getattr(store, "index_config", None) or op.index is False)


def _last_of_each(ops: Iterable[PutOp]) -> dict[Name, PutOp]:
    last: dict[Name, PutOp] = {}  # the last write of each row wins, as in LangGraph's batch
    for op in ops:
        last[(_namespace_to_text(tuple(op.namespace)), op.key)] = op
    return last


Text = tuple[str, bool]  # a value's JSON, and whether orjson wrote it (`Seen.fast`)


def _texts(conn: Any, ops: dict[Name, PutOp]) -> dict[Name, Text]:
    """Each put's value as JSON of the same value as LangGraph's `Jsonb` would send.

    With psycopg's default `json.dumps`, orjson writes it when it surely writes the same
    value (about 20 times faster for a 2 KB stamp); otherwise the connection's own dumper.
    """
    dumper = conn.adapters.get_dumper(Jsonb, PyFormat.TEXT)(Jsonb, conn)
    fast = dumper.dumps is json.dumps
    texts: dict[Name, Text] = {}
    for name, op in ops.items():
        if op.value is None:
            continue
        value = dict(op.value)
        text = _fast_dumps(value) if fast else None
        if text is not None:
            texts[name] = (text, True)
        else:
            texts[name] = (bytes(dumper.dump(Jsonb(value))).decode(), False)
    return texts


# Types orjson writes and `json.dumps` refuses (datetimes, dataclasses) or writes its own way
# (subclasses of str, int, dict, list) make orjson raise, so `json.dumps` decides them.
_STRICT = (
    orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _fast_dumps(value: dict[str, Any]) -> str | None:
    """`value` as orjson writes it, or `None` when `json.dumps` might write another value.

    orjson refuses what `json.dumps` refuses or writes otherwise (integers beyond 64 bits,
    lone surrogates, non-string keys, the types of `_STRICT`) and writes a NaN or an
    infinity as `null`, where `json.dumps` writes a token PostgreSQL rejects: any `null` in
    the text (most often a real `None`) hands the value to `json.dumps` too. What remains
    are the types orjson writes and `json.dumps` refuses (a UUID, an enum member, a numpy
    value), which no plan of the package puts.
    """
    try:
        data = orjson.dumps(value, option=_STRICT)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return None
    if b"null" in data:
        return None
    return data.decode()


class Written:
    """Puts sent inside a section's transaction, learnt once it commits (`learn`)."""

    __slots__ = ("cursor", "gone", "texts", "unknown")

    def __init__(
        self, cursor: Any, texts: dict[Name, Text], unknown: list[Name], gone: list[Name]
    ) -> None:
        self.cursor, self.texts, self.unknown, self.gone = cursor, texts, unknown, gone

    def learn(self, store: Any) -> None:
        rows: list[tuple[Name, Seen | _Unknown | None]] = [(n, _UNKNOWN) for n in self.unknown]
        rows += [(n, None) for n in self.gone]
        if self.cursor is not None:
            with self.cursor:
                for r in self.cursor.fetchall():
                    name = (r["prefix"], r["key"])
                    text, fast = self.texts[name]
                    seen = Seen(text, r["created_at"], r["updated_at"], r["xmin"], fast)
                    rows.append((name, seen))
        _remember(store, rows)


def send_puts(store: Any, conn: Any, ops: Sequence[PutOp], *, learn: bool) -> Written:
    """Send `ops` in the open transaction; note them with `Written.learn` once it commits.

    With `learn`, plain puts go with this module's `INSERT ... RETURNING` (their rows are
    then known by version); the rest go with LangGraph's own statements (their rows become
    unknown; deleted rows absent).
    """
    last = _last_of_each(ops)
    mine = {
        name: op for name, op in last.items() if learn and op.value is not None and plain(store, op)
    }
    others = [op for name, op in last.items() if name not in mine]
    if others:
        with conn.cursor(binary=True, row_factory=dict_row) as cur:
            store._batch_put_ops(list(enumerate(others)), cur)
    texts = _texts(conn, mine)
    cursor = None
    if mine:
        cursor = conn.cursor(binary=True, row_factory=dict_row)
        names = list(mine)
        cursor.execute(
            _INSERT,
            ([n[0] for n in names], [n[1] for n in names], [t[0] for t in texts.values()]),
        )
    unknown = [
        (_namespace_to_text(tuple(op.namespace)), op.key) for op in others if op.value is not None
    ]
    gone = [(_namespace_to_text(tuple(op.namespace)), op.key) for op in others if op.value is None]
    return Written(cursor, texts, unknown, gone)


class Guessed(NamedTuple):
    """What the function answered: `status` and, when `ok`, the rows it wrote."""

    status: str
    rows: list[tuple[Name, Seen | None]]


def send_guarded(
    conn: Any,
    key: int,
    guesses: dict[Name, Seen | None],
    ops: Sequence[PutOp],
) -> Guessed:
    """Call the function: lock, check `guesses`, write `ops` (all plain), in one statement.

    Inside an open pipeline the call joins its transaction (the lock then stays held);
    otherwise the autocommit connection commits it at once.
    """
    names = list(guesses)
    rows = [guesses[name] for name in names]
    last = _last_of_each(ops)
    texts = _texts(conn, last)
    writes = list(last)
    cur = conn.cursor(binary=True, row_factory=dict_row)
    cur.execute(
        _call(len(names), len(writes)),
        (
            key,
            *[n[0] for n in names],
            *[n[1] for n in names],
            *[r.xmin if r is not None else None for r in rows],
            *[r.updated_at if r is not None else None for r in rows],
            *[n[0] for n in writes],
            *[n[1] for n in writes],
            *[texts[n][0] if n in texts else None for n in writes],  # `None`: a delete
        ),
    )
    with cur:
        row = cur.fetchone()
    if row is None or row["status"] != "ok":
        return Guessed(row["status"] if row else "stale", [])
    puts = [name for name in writes if name in texts]
    written: list[tuple[Name, Seen | None]] = [
        (name, Seen(texts[name][0], created, row["written"], row["xid"], texts[name][1]))
        for name, created in zip(puts, row["created"], strict=True)
    ]
    written += [(name, None) for name in writes if name not in texts]
    return Guessed("ok", [*guesses.items(), *written])


def record(store: Any, scope: tuple[str, ...], outcome: Guessed) -> None:
    """Note how a guess of `scope` ended: held (learn what it wrote) or failed (back off)."""
    held = outcome.status == "ok"
    if held:
        _remember(store, outcome.rows)
    with _LOCK:
        GUESSES["held" if held else "failed"] += 1
        scopes = _BACKOFF.get(store)
        if scopes is None:
            scopes = _BACKOFF[store] = {}
        if held:
            scopes.pop(scope, None)
            return
        state = scopes.setdefault(scope, [0, 0])
        state[1] = min(max(1, state[1] * 2), _BACKOFF_LIMIT)  # sections to skip
        state[0] = state[1]


# After a failed guess a scope is not guessed for a while (1, 2, 4, ... up to 32 sections):
# where several processes keep writing one scope, most guesses would fail and cost a round
# trip each on top of the ordinary two.
_BACKOFF_LIMIT = 32
_BACKOFF: weakref.WeakKeyDictionary[Any, dict[tuple[str, ...], list[int]]] = (
    weakref.WeakKeyDictionary()
)


def worth_guessing(store: Any, scope: tuple[str, ...]) -> bool:
    """Whether a section of `scope` may guess now (not just after failed guesses)."""
    with _LOCK:
        state = _BACKOFF.get(store, {}).get(scope)
        if state is None or state[0] == 0:
            return True
        state[0] -= 1
        return False


def is_missing_function(exc: BaseException) -> bool:
    """Whether `exc` says the session lost the function (a `DISCARD TEMP`, say)."""
    return pg_errors is not None and isinstance(exc, pg_errors.UndefinedFunction)


def lost(conn: Any) -> None:
    """The session lost the function: a failed guess (no back-off), then make it again.

    The `LOST_LIMIT`-th loss on one connection refuses guessing on it for good: its
    statements may be reaching sessions without the function (a transaction-mode pooler),
    where every guess would cost a round trip for nothing.
    """
    with _LOCK:
        GUESSES["failed"] += 1
        count = _LOST[conn] = _LOST.get(conn, 0) + 1
        if count >= LOST_LIMIT:
            _READY[conn] = False
        else:
            _READY.pop(conn, None)
    if count >= LOST_LIMIT:
        logger.debug("Not guessing on this connection: it lost %s %d times", FUNCTION, count)


def refuse(conn: Any) -> None:
    """Never guess on `conn` again (its session is not read committed)."""
    with _LOCK:
        _READY[conn] = False
