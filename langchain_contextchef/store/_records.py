"""The on-disk form of one item: a human-readable JSON document, and its parsed record.

A file looks like this (`vectors` only appears when the store embeds items)::

    {
        "namespace": ["users", "alice"],
        "key": "prefs",
        "value": {"theme": "dark"},
        "created_at": "2026-05-25T10:00:00.000000Z",
        "updated_at": "2026-05-25T10:00:00.000000Z",
        "ttl_minutes": null,
        "expires_at": null,
    }

A parsed file is a `Record`: a plain tuple (read its fields with the index constants `NS`,
`KEY`, ...) that keeps the value as compact JSON bytes. Plain tuples of immutable values
are not tracked by Python's garbage collector, so a process that caches thousands of
records gives a full collection almost nothing to walk; a first search over 10,000 items
would otherwise pay for one or two full collections of the whole heap. Every reader gets a
fresh parse of the value (`value_of`), so mutating a result never alters the cache.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, Final

import orjson

from langchain_contextchef.entry import format_time, parse_time

__all__ = [
    "BLOB",
    "CREATED",
    "EXPIRES_TS",
    "INO",
    "KEY",
    "MTIME",
    "NS",
    "PATH",
    "SEEN",
    "SIZE",
    "TTL",
    "UPDATED",
    "UPDATED_TS",
    "VECTORS",
    "CorruptItemError",
    "Record",
    "Unreadable",
    "Vectors",
    "check_text",
    "check_value",
    "encode_document",
    "is_expired",
    "order_key",
    "parse_document",
    "restat",
    "value_of",
    "vectors_of",
]

Vectors = tuple[tuple[str, tuple[float, ...]], ...]
"""An item's embeddings: `(field path, vector)` pairs."""

Record = tuple[
    tuple[str, ...],  # NS: the namespace
    str,  # KEY
    bytes,  # BLOB: the value as compact JSON
    datetime,  # CREATED
    datetime,  # UPDATED
    float,  # UPDATED_TS: UPDATED in POSIX seconds (the search order)
    "float | None",  # TTL: minutes
    "float | None",  # EXPIRES_TS: POSIX seconds
    "Vectors | None",  # VECTORS
    str,  # PATH: the file it was read from
    int,  # INO: that file's inode ...
    int,  # MTIME: ... modification time (ns) ...
    int,  # SIZE: ... and size when it was read
    int,  # SEEN: when it was read (ns)
]
"""One parsed item file (see the module docstring)."""

NS: Final = 0
KEY: Final = 1
BLOB: Final = 2
CREATED: Final = 3
UPDATED: Final = 4
UPDATED_TS: Final = 5
TTL: Final = 6
EXPIRES_TS: Final = 7
VECTORS: Final = 8
PATH: Final = 9
INO: Final = 10
MTIME: Final = 11
SIZE: Final = 12
SEEN: Final = 13

_UTC = timezone.utc
# orjson (and most JSON readers) turn integers outside this range into floats.
_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1
_NATIVE_Z = sys.version_info >= (3, 11)  # fromisoformat reads a trailing `Z` from 3.11
_loads = orjson.loads
_INDENT = orjson.OPT_INDENT_2


def _plain(node: Any) -> Any:
    # What `check_value` lets through and orjson does not write by itself: a float subclass
    # (NumPy's float64, as many embedding models return) and a mapping that is not a dict.
    if isinstance(node, float):
        return float(node)
    if isinstance(node, Mapping):
        return dict(node)
    msg = f"a {type(node).__name__} cannot be written as JSON"
    raise TypeError(msg)


def _dumps(document: Any, option: int | None = None) -> bytes:
    return orjson.dumps(document, default=_plain, option=option)


_fromisoformat = datetime.fromisoformat


class CorruptItemError(ValueError):
    """An item file is not a valid store document (bad JSON or missing fields)."""


def value_of(record: Record) -> dict[str, Any]:
    """A private copy of the item's value, which the caller may mutate."""
    value: dict[str, Any] = _loads(record[BLOB])
    return value


def is_expired(record: Record, now: float) -> bool:
    """Whether the item is expired at `now` (POSIX seconds)."""
    expires = record[EXPIRES_TS]
    return expires is not None and expires <= now


def vectors_of(record: Record) -> dict[str, list[float]] | None:
    """The item's embeddings as a `{field path: vector}` dict (a fresh copy)."""
    vectors = record[VECTORS]
    return {path: list(vector) for path, vector in vectors} if vectors else None


def order_key(record: Record) -> tuple[float, tuple[str, ...], str]:
    """Search order: newest first, like SQLite and PostgreSQL; ties by namespace then key."""
    return (-record[UPDATED_TS], record[NS], record[KEY])


def restat(record: Record, path: str, ino: int, mtime_ns: int, size: int, seen_ns: int) -> Record:
    """The same record, noted as read from `path` with this file signature at `seen_ns`."""
    return (*record[:PATH], path, ino, mtime_ns, size, seen_ns)


class Unreadable:
    """The stat signature of a file that could not be parsed (so it is warned about once)."""

    __slots__ = ("ino", "mtime_ns", "seen_ns", "size")

    def __init__(self, st: os.stat_result, seen_ns: int) -> None:
        self.ino = st.st_ino
        self.mtime_ns = st.st_mtime_ns
        self.size = st.st_size
        self.seen_ns = seen_ns


def check_text(text: str, where: str) -> None:
    """Check that a string can be written as UTF-8 (no lone surrogates).

    Raises:
        ValueError: If the string holds a lone surrogate code point.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        msg = f"{where} holds a lone surrogate ({exc.reason}); it cannot be written as UTF-8."
        raise ValueError(msg) from exc


def check_value(value: Any, where: str = "value") -> None:
    """Check that a value survives a JSON round trip unchanged.

    Args:
        value: The candidate.
        where: How to name the value in the error message.

    Raises:
        TypeError: On a type JSON cannot hold (sets, bytes, objects) or a non-string dict key.
        ValueError: On NaN or an infinite float, which JSON cannot represent.
    """
    if _round_trips(value) or _plainly_valid(value):
        return
    _check_value(value, where)


def _round_trips(value: Any) -> bool:
    """Whether orjson writes `value` and reads back an equal value (a dict in, a dict out).

    The quickest first pass, in C: orjson refuses what `check_value` refuses (keys that are
    not strings, lone surrogates, integers beyond 64 bits, other types) or changes it (NaN
    and infinity become null, a tuple a list, a date a string), so the copy differs and the
    slower passes decide; a value it keeps equal holds only what JSON keeps exactly.
    """
    try:
        return bool(orjson.loads(orjson.dumps(value)) == value)
    except (TypeError, ValueError):  # orjson's errors derive from these
        return False


def _plainly_valid(value: Any) -> bool:
    """Whether a value is built of plain JSON types only and holds nothing `check_value` refuses.

    A fast first pass with no error wording built per node; anything it doubts (a subclass,
    a lone surrogate, a float or integer JSON cannot keep) goes through the full check,
    which names the offending place.
    """
    kind = type(value)
    if kind is str:
        return value.isascii() or _encodable(value)
    if kind is dict:
        for k, v in value.items():
            if type(k) is not str or not (k.isascii() or _encodable(k)) or not _plainly_valid(v):
                return False
        return True
    if kind is list or kind is tuple:
        return all(map(_plainly_valid, value))
    if kind is int:
        return bool(_INT_MIN <= value <= _INT_MAX)
    if kind is float:
        return math.isfinite(value)
    return value is None or kind is bool


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_value(value: Any, where: str) -> None:
    if isinstance(value, str):
        check_text(value, where)
        return
    if isinstance(value, bool | type(None)):
        return
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            msg = (
                f"{where} is {value}, beyond what JSON readers keep exactly (64-bit integers); "
                "store it as a string instead."
            )
            raise ValueError(msg)
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            msg = f"{where} is {value!r}; JSON cannot store NaN or infinity. Store a string or null instead."
            raise ValueError(msg)
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                msg = (
                    f"{where} has the key {k!r} of type {type(k).__name__}; JSON object keys "
                    "must be strings. Convert the key with str() first."
                )
                raise TypeError(msg)
            check_text(k, f"a key of {where}")
            _check_value(v, f"{where}[{k!r}]")
        return
    if isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _check_value(v, f"{where}[{i}]")
        return
    msg = (
        f"{where} is a {type(value).__name__}, which is not JSON-serialisable. Store only "
        "dicts, lists, strings, numbers, booleans and None."
    )
    raise TypeError(msg)


def encode_document(
    *,
    namespace: tuple[str, ...],
    key: str,
    value: Mapping[str, Any],
    created_at: datetime,
    updated_at: datetime,
    ttl_minutes: float | None,
    expires_at: datetime | None,
    vectors: Mapping[str, list[float]] | None,
) -> bytes:
    """Render one item as indented UTF-8 JSON; the value must already pass `check_value`."""
    document = {
        "namespace": list(namespace),
        "key": key,
        "value": value,
        "created_at": format_time(created_at),
        "updated_at": format_time(updated_at),
        "ttl_minutes": ttl_minutes,
        "expires_at": format_time(expires_at) if expires_at is not None else None,
    }
    # orjson writes the same indented layout as `json.dumps(indent=2, ensure_ascii=False)`
    # (only a float's exponent may be spelled shorter, `1e-7` for `1e-07`), about a hundred
    # times faster: a model write encodes two or three documents.
    text = _dumps(document, option=_INDENT)
    if vectors:
        # One compact line keeps long embeddings from burying the readable part.
        compact = _dumps(dict(vectors))
        text = b"".join([text[:-2], b',\n  "vectors": ', compact, b"\n}"])
    return text + b"\n"


def _time(document: Mapping[str, Any], field: str) -> datetime:
    raw = document.get(field)
    if type(raw) is not str:
        msg = f"field {field!r} is not a timestamp string"
        raise CorruptItemError(msg)
    # Fast path for the store's own form, `2026-05-25T10:00:00.000000Z`; anything else
    # goes through the general parser.
    if len(raw) == 27 and raw[26] == "Z":
        try:
            if _NATIVE_Z:
                return datetime.fromisoformat(raw)
            return datetime.fromisoformat(raw[:26]).replace(tzinfo=_UTC)
        except ValueError:
            pass
    try:
        return parse_time(raw)
    except ValueError as exc:
        msg = f"field {field!r} is not an ISO-8601 timestamp"
        raise CorruptItemError(msg) from exc


def _vectors(raw: Any) -> Vectors | None:
    if raw is None:
        return None
    if type(raw) is not dict:
        msg = "field 'vectors' is not an object of lists"
        raise CorruptItemError(msg)
    pairs = []
    for path, vector in raw.items():
        if type(vector) is not list or not all(type(x) is float or type(x) is int for x in vector):
            msg = "field 'vectors' is not an object of lists of numbers"
            raise CorruptItemError(msg)
        pairs.append((path, tuple(float(x) for x in vector)))
    return tuple(pairs)


def parse_document(
    data: bytes,
    path: str = "",
    ino: int = 0,
    mtime_ns: int = 0,
    size: int = 0,
    seen_ns: int = 0,
    namespace_hint: tuple[str, ...] | None = None,
    values: dict[str, dict[str, Any]] | None = None,
) -> Record:
    """Parse the bytes of an item file into a `Record` (noting where it was read from).

    `namespace_hint` is the namespace the caller expects; when the document names the same
    one, the record shares that tuple instead of allocating its own. `values`, when given,
    receives the parsed value under `path`: a private copy nothing else holds, which a
    search may hand out once instead of decoding the record's copy again.

    Raises:
        CorruptItemError: If the bytes are not JSON or not a complete store document.
    """
    try:
        document = _loads(data)
    except orjson.JSONDecodeError as exc:
        msg = f"invalid JSON ({exc})"
        raise CorruptItemError(msg) from exc
    if type(document) is not dict:
        msg = "the document is not a JSON object"
        raise CorruptItemError(msg)
    get = document.get
    namespace = get("namespace")
    if type(namespace) is not list:
        msg = "field 'namespace' is not a list of strings"
        raise CorruptItemError(msg)
    for label in namespace:
        if type(label) is not str:
            msg = "field 'namespace' is not a list of strings"
            raise CorruptItemError(msg)
    key = get("key")
    if type(key) is not str:
        msg = "field 'key' is not a string"
        raise CorruptItemError(msg)
    value = get("value")
    if type(value) is not dict:
        msg = "field 'value' is not a JSON object"
        raise CorruptItemError(msg)
    ttl = get("ttl_minutes")
    if ttl is not None:
        if type(ttl) is not int and type(ttl) is not float:
            msg = "field 'ttl_minutes' is not a number or null"
            raise CorruptItemError(msg)
        ttl = float(ttl)
    expires = get("expires_at")
    expires_ts = _time(document, "expires_at").timestamp() if expires is not None else None
    # The store's own timestamps take the fast path inline; anything else goes to `_time`.
    raw = get("updated_at")
    if _NATIVE_Z and type(raw) is str and len(raw) == 27 and raw[26] == "Z":
        try:
            updated = _fromisoformat(raw)
        except ValueError:
            updated = _time(document, "updated_at")
    else:
        updated = _time(document, "updated_at")
    if raw == get("created_at") and type(raw) is str:
        created = updated  # a never-updated item: one parse, one shared object
    else:
        created = _time(document, "created_at")
    labels = tuple(namespace)
    blob = _dumps(value)
    if values is not None:
        values[path] = value
    return (
        namespace_hint if namespace_hint is not None and labels == namespace_hint else labels,
        key,
        blob,
        created,
        updated,
        updated.timestamp(),
        ttl,
        expires_ts,
        _vectors(get("vectors")),
        path,
        ino,
        mtime_ns,
        size,
        seen_ns,
    )
