"""Guessed reads for the PostgreSQL transaction sections (`_pg_txn`): one round trip.

A section whose caller can run it again may answer its first batch from what this process
last saw of those rows. The lock, a guard statement that checks every guess, the writes (each
a no-op unless the guard held) and the commit then go in one round trip; a wrong guess writes
nothing and raises `Mispredicted`, and the caller runs the section again with real reads.

What the process saw is kept per store, bounded, as each row's JSON text (or `None` for a row
known absent): a wrong row only costs a failed guess, since the guard checks every guess on
the server under the scope's lock.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from langgraph.store.base import PutOp

try:
    from langgraph.store.postgres.base import _namespace_to_text
    from psycopg.rows import dict_row
except ImportError:  # pragma: no cover - the postgres extra is not installed
    _namespace_to_text = dict_row = None  # type: ignore[assignment]

__all__ = [
    "GUARDED_DELETE",
    "GUARDED_INSERT",
    "GUESSES",
    "Mispredicted",
    "forget",
    "learn",
    "put_rows",
    "record",
    "seen_rows",
    "send_guard",
    "worth_guessing",
]

_OK = "contextchef.ok"  # a transaction-local setting: whether the guesses held
_LOCK_INTO_OK = f"SELECT set_config('{_OK}', pg_try_advisory_xact_lock(%s)::text, true)"
# Run after the lock's own statement, so its snapshot sees every write of the lock's last
# holder: the guessed values all stored as guessed, the guessed absences all absent.
_GUARD = (
    f"SELECT set_config('{_OK}', (current_setting('{_OK}') = 'true'"
    " AND (SELECT count(*) FROM store s"
    " JOIN unnest(%s::text[], %s::text[], %s::text[]) AS g(prefix, key, value)"
    " ON s.prefix = g.prefix AND s.key = g.key WHERE s.value = g.value::jsonb) = %s"
    " AND NOT EXISTS (SELECT 1 FROM store s"
    " WHERE (s.prefix, s.key) IN (SELECT * FROM unnest(%s::text[], %s::text[]))))::text,"
    " true) = 'true' AS ok"
)
# Writes that happen only when the guesses held (puts without TTL or vectors, as LangGraph's
# `INSERT` writes them: it cannot take a condition).
GUARDED_DELETE = (
    "DELETE FROM store WHERE (prefix, key) IN (SELECT * FROM unnest(%s::text[], %s::text[]))"
    f" AND current_setting('{_OK}') = 'true'"
)
GUARDED_INSERT = (
    "INSERT INTO store (prefix, key, value, created_at, updated_at, expires_at, ttl_minutes)"
    " SELECT g.prefix, g.key, g.value::jsonb, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, NULL, NULL"
    " FROM unnest(%s::text[], %s::text[], %s::text[]) AS g(prefix, key, value)"
    f" WHERE current_setting('{_OK}') = 'true'"
    " ON CONFLICT (prefix, key) DO UPDATE SET value = EXCLUDED.value,"
    " updated_at = CURRENT_TIMESTAMP, expires_at = EXCLUDED.expires_at,"
    " ttl_minutes = EXCLUDED.ttl_minutes"
)


class Mispredicted(BaseException):
    """A section ran on guessed reads the server found wrong; nothing of it was written.

    A `BaseException`, so no plan's `except Exception` takes it: the plan driver runs the
    section again from its start, with real reads.
    """


# How guessed sections ended in this process ("held": one round trip; "failed": run again).
GUESSES: dict[str, int] = {"held": 0, "failed": 0}

# What this process last saw of each row through a transaction section, per store: the
# value's JSON text, or `None` for a row known absent. Bounded; a wrong row only costs a
# failed guess, since the guard checks every guess on the server.
_SEEN_LIMIT = 1024
_SEEN: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[str, str], str | None]] = (
    weakref.WeakKeyDictionary()
)
_SEEN_LOCK = threading.Lock()


def learn(store: Any, rows: Iterable[tuple[tuple[str, str], str | None]]) -> None:
    with _SEEN_LOCK:
        seen = _SEEN.get(store)
        if seen is None:
            seen = _SEEN[store] = OrderedDict()
        for row, text in rows:
            seen[row] = text
            seen.move_to_end(row)
        while len(seen) > _SEEN_LIMIT:
            seen.popitem(last=False)


def forget(store: Any) -> None:
    with _SEEN_LOCK:
        _SEEN.pop(store, None)


def put_rows(ops: Iterable[PutOp]) -> list[tuple[tuple[str, str], str | None]]:
    return [
        (
            (_namespace_to_text(tuple(op.namespace)), op.key),
            None if op.value is None else json.dumps(op.value),
        )
        for op in ops
    ]


def seen_rows(store: Any, names: list[tuple[str, str]]) -> list[str | None]:
    """What this process saw of each row (`None`: absent or never seen); `[]` if nothing."""
    with _SEEN_LOCK:
        seen = _SEEN.get(store)
        return [seen.get(name) for name in names] if seen else []


def send_guard(conn: Any, key: int, guesses: dict[tuple[str, str], str | None]) -> Any:
    """Send the lock and the guard (pipelined); the cursor answers `ok`."""
    conn.execute(_LOCK_INTO_OK, (key,))
    present = [(name, text) for name, text in guesses.items() if text is not None]
    absent = [name for name, text in guesses.items() if text is None]
    cur = conn.cursor(binary=True, row_factory=dict_row)
    cur.execute(
        _GUARD,
        (
            [name[0] for name, _ in present],
            [name[1] for name, _ in present],
            [text for _, text in present],
            len(present),
            [name[0] for name in absent],
            [name[1] for name in absent],
        ),
    )
    return cur


# After a failed guess a scope is not guessed for a while (1, 2, 4, ... up to 32 sections):
# where several processes keep writing one scope, most guesses would fail and cost a round
# trip each on top of the ordinary two.
_BACKOFF_LIMIT = 32
_BACKOFF: weakref.WeakKeyDictionary[Any, dict[tuple[str, ...], list[int]]] = (
    weakref.WeakKeyDictionary()
)


def worth_guessing(store: Any, scope: tuple[str, ...]) -> bool:
    """Whether a section of `scope` may guess now (not just after failed guesses)."""
    with _SEEN_LOCK:
        state = _BACKOFF.get(store, {}).get(scope)
        if state is None or state[0] == 0:
            return True
        state[0] -= 1
        return False


def record(store: Any, scope: tuple[str, ...], *, held: bool) -> None:
    """Note how a guess of `scope` ended: held (guess freely) or failed (back off)."""
    with _SEEN_LOCK:
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
