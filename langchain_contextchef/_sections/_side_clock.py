"""The turn clock's advances on a SQLite file, kept in a small file beside the scope's lock.

A compile whose only write is the clock's advance (nothing in the scope depends on the exact
value surviving a power cut) would otherwise commit a transaction per model call: SQLite
creates its rollback journal, writes pages to it and to the database, and unlinks it. Instead
the advance is written over a 32-byte file next to the scope's lock file (the lock folder
beside the database), inside the same exclusive section, without a flush: every process of
this package sees it at once (the section's lock orders them), a killed process keeps it, and
only a power cut can take it back.

The record counts only against the stored clock it was made for. The stored clock item gets a
random `sidecar` id the first time a compile takes this path (one ordinary unflushed write),
the record names that id, and a read of the clock applies the record only while the stored
item still carries it: anything that writes the clock another way (a snapshot restore, a raw
`store.put`, a repair) drops the id, and the record is ignored from then on. A compile that
writes the clock to the database (a sweep, a turn TTL in the scope, turns per user message)
keeps the id and writes the current turn, so the database catches up; the larger of the two
counts wins.

Record layout: `b"CCT1"`, the id's 16 bytes, the turn as an unsigned 64-bit little-endian
integer, and a CRC-32 of those 28 bytes. A torn, truncated or zeroed record (a power cut)
fails the check and counts as absent: the clock falls back to the stored item.
"""

from __future__ import annotations

import contextlib
import functools
import os
import struct
import threading
import uuid
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.store.base import GetOp, Item, Op, PutOp, Result

from langchain_contextchef._sections._sqlite_lock import lock_path

__all__ = ["SIDE_FIELD", "apply", "divert", "sidecar_value"]

SIDE_FIELD = "sidecar"
"""The stored clock's field that names the record its advances are kept in."""

_CLOCK_KEY = "clock"
_META = "memory_meta"
_LAYOUT = struct.Struct("<4s16sQ")
_MAGIC = b"CCT1"
_SIZE = _LAYOUT.size + 4
_FDS: dict[tuple[int, str], int] = {}
_FDS_GUARD = threading.Lock()
_FDS_LIMIT = 1024
_USABLE = hasattr(os, "pread") and hasattr(os, "pwrite")  # not on Windows: the database keeps it


@functools.lru_cache(maxsize=1024)
def _record_path(database: str, scope: tuple[str, ...]) -> str:
    return lock_path(database, scope)[: -len(".lock")] + ".clock"


def _fd(path: str) -> int:
    # Kept open per process (opening is most of the cost); a forked child opens its own. The
    # caller holds `_FDS_GUARD`, so no descriptor is closed while another thread uses it.
    token = (os.getpid(), path)
    fd = _FDS.get(token)
    if fd is None:
        if len(_FDS) >= _FDS_LIMIT:
            for old in _FDS.values():
                with contextlib.suppress(OSError):
                    os.close(old)
            _FDS.clear()
        fd = _FDS[token] = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    return fd


def _read(path: str) -> tuple[str, int] | None:
    """The record's id (hex) and turn, or `None` when it is absent or fails its check."""
    try:
        with _FDS_GUARD:
            data = os.pread(_fd(path), _SIZE, 0)
    except OSError:
        return None
    if len(data) != _SIZE or zlib.crc32(data[:-4]) != int.from_bytes(data[-4:], "little"):
        return None
    magic, side, turn = _LAYOUT.unpack(data[:-4])
    if magic != _MAGIC:
        return None
    return side.hex(), turn


def _write(path: str, side: str, turn: int) -> bool:
    body = _LAYOUT.pack(_MAGIC, bytes.fromhex(side), turn)
    data = body + zlib.crc32(body).to_bytes(4, "little")
    try:
        with _FDS_GUARD:
            return os.pwrite(_fd(path), data, 0) == _SIZE
    except OSError:
        return False


def sidecar_value(value: Mapping[str, Any]) -> str | None:
    """The record id a stored clock value carries, or `None`."""
    side = value.get(SIDE_FIELD)
    if type(side) is not str or len(side) != 32:
        return None
    try:
        bytes.fromhex(side)
    except ValueError:
        return None
    return side


def _clock_scope(op: GetOp | PutOp) -> tuple[str, ...] | None:
    namespace = tuple(op.namespace)
    if op.key != _CLOCK_KEY or not namespace or namespace[-1] != _META:
        return None
    return namespace[:-1]


def divert(database: str, ops: Sequence[Op]) -> tuple[list[Result] | None, Sequence[Op]]:
    """Take a clock-only advance off the database, if it can be.

    `ops` is an unflushed batch. When it is exactly one put of a scope's clock whose value
    names a record (`sidecar`), the advance is written to the record and nothing is left for
    the database. A clock put without an id gets a fresh one, and goes to the database once.

    Returns:
        The batch's results when it was taken off the database (else `None`), and the ops
        the database is still to run.
    """
    if not _USABLE or len(ops) != 1 or type(ops[0]) is not PutOp:
        return None, ops
    op = ops[0]
    scope = _clock_scope(op)
    value = dict(op.value) if op.value is not None else {}
    turn = value.get("turn")
    if scope is None or type(turn) is not int or turn < 0 or set(value) - {"turn", SIDE_FIELD}:
        return None, ops
    side = sidecar_value(value)
    if side is not None:
        if _write(_record_path(database, scope), side, turn):
            return [None], ops
        return None, ops
    # The first advance on this path: the stored clock gets its id (written once).
    fresh = {"turn": turn, SIDE_FIELD: uuid.uuid4().hex}
    return None, [PutOp(op.namespace, op.key, fresh, index=False)]


def apply(database: str, ops: Sequence[Op], results: list[Result]) -> list[Result]:
    """Answer the batch's clock reads with the record's turn where it counts."""
    if not _USABLE:
        return results
    for i, op in enumerate(ops):
        if type(op) is not GetOp or op.key != _CLOCK_KEY:
            continue
        item = results[i]
        if not isinstance(item, Item) or type(item.value) is not dict:
            continue
        side = sidecar_value(item.value)
        scope = _clock_scope(op)
        if side is None or scope is None:
            continue
        record = _read(_record_path(database, scope))
        if record is None or record[0] != side:
            continue
        stored = item.value.get("turn")
        if type(stored) is int and stored >= record[1]:
            continue
        # Advanced past the stored clock without a marker: a per-message marker stored with
        # an older turn names a message that no longer holds the latest turn.
        value = {k: v for k, v in item.value.items() if k != "marker"}
        value["turn"] = record[1]
        results[i] = Item(
            value=value,
            key=item.key,
            namespace=item.namespace,
            created_at=item.created_at,
            updated_at=item.updated_at,
        )
    return results
