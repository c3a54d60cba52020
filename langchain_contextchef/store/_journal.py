"""Rename journals: how earlier versions made a multi-item batch all-or-nothing.

New batches go through the redo log (`_redo`); a root written by an earlier version may
still hold a journal of a writer that crashed, and recovery completes it. Such a batch ran
this protocol while holding the write lock of
every folder it touches (`_writer.Writer.commit`):

1. every new item is written to a temporary file (in the staging folder `.tmp/`) and
   flushed (`fsync`); a failure here (a full disk) removes those temporary files, so
   nothing changed;
2. a journal listing every rename (temporary file -> item file) and every delete is written
   to `.journal/` under a temporary name, flushed, and renamed to `<lock>.<id>.wal`: from
   that instant the batch is committed;
3. the renames and deletes run, and the folders are flushed;
4. the journal is deleted.

Recovery, on the first use of a store and whenever a writer meets a journal it holds a lock
of, replays a `.wal` journal (a rename whose temporary file is gone already happened; a
delete of a missing file already happened), so a process killed at any point leaves either
the whole batch or none of it. A journal still under its temporary name was never committed:
it is discarded, together with the temporary item files of its batch.

The journal's file name starts with the first (smallest) lock name its writer holds, so a
recovering process can tell a live writer (that lock is held) from a dead one.

A journal is a line of JSON followed by a line with its SHA-256, so a damaged one is noticed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any, NamedTuple

from langchain_contextchef.store._paths import ITEM_SUFFIX, JOURNAL_SUFFIX, is_temp_name

__all__ = [
    "Journal",
    "JournalOp",
    "decode_journal",
    "encode_journal",
    "journal_file_name",
    "lock_of_journal_file",
]

_FORMAT = 1


class JournalOp(NamedTuple):
    """One step of a committed batch."""

    parts: tuple[str, ...]
    """The item's folder below the root, as encoded folder names."""
    name: str
    """The item's file name."""
    tmp: str | None
    """The temporary file to rename over `name`; `None` deletes `name`."""
    staged: bool = False
    """Whether `tmp` is in the root's staging folder (else in the item's own folder)."""


class Journal(NamedTuple):
    """A committed batch: the folder locks its writer held and its steps, in order."""

    locks: tuple[str, ...]
    ops: tuple[JournalOp, ...]


def journal_file_name(first_lock: str) -> str:
    """A fresh journal file name for a writer whose smallest held lock is `first_lock`."""
    return f"{first_lock.removesuffix('.lock')}.{secrets.token_hex(8)}{JOURNAL_SUFFIX}"


def lock_of_journal_file(file_name: str) -> str:
    """The lock file name a journal (or its temporary file) belongs to."""
    return file_name.lstrip(".").split(".", 1)[0] + ".lock"


def encode_journal(journal: Journal) -> bytes:
    """Serialise a journal with its checksum."""
    payload = json.dumps(
        {
            "format": _FORMAT,
            "locks": list(journal.locks),
            "ops": [[list(op.parts), op.name, op.tmp, op.staged] for op in journal.ops],
        },
        ensure_ascii=True,
        separators=(",", ":"),
    )
    digest = hashlib.sha256(payload.encode("ascii")).hexdigest()
    return f"{payload}\n{digest}\n".encode("ascii")


def decode_journal(data: bytes) -> Journal | None:
    """Parse a journal; `None` if it is damaged (bad checksum, JSON or shape)."""
    try:
        payload, digest = data.decode("ascii").rstrip("\n").split("\n")
        if hashlib.sha256(payload.encode("ascii")).hexdigest() != digest:
            return None
        document: Any = json.loads(payload)
        if document.get("format") != _FORMAT:
            return None
        locks = tuple(str(lock) for lock in document["locks"])
        ops = tuple(
            JournalOp(
                tuple(str(p) for p in parts),
                str(name),
                None if tmp is None else str(tmp),
                staged is True,
            )
            for parts, name, tmp, staged in document["ops"]
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if not all(_safe_op(op) for op in ops):
        return None  # a journal may only name entries of folders below the root
    return Journal(locks, ops)


def _plain(name: str) -> bool:
    return bool(name) and name not in {".", ".."} and not set(name) & {"/", "\\", "\x00"}


def _safe_op(op: JournalOp) -> bool:
    if not op.parts or not all(_plain(p) and not p.startswith(".") for p in op.parts):
        return False
    if not (_plain(op.name) and not op.name.startswith(".") and op.name.endswith(ITEM_SUFFIX)):
        return False
    if op.tmp is None:
        return True
    if op.staged:
        return _plain(op.tmp) and not op.tmp.startswith(".") and op.tmp.endswith(".tmp")
    return _plain(op.tmp) and is_temp_name(op.tmp)
