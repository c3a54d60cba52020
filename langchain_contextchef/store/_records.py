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
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

import orjson

from langchain_contextchef.entry import format_time, parse_time

__all__ = [
    "CorruptItemError",
    "Record",
    "check_text",
    "check_value",
    "encode_document",
    "parse_document",
]


class CorruptItemError(ValueError):
    """An item file is not a valid store document (bad JSON or missing fields)."""


_SCALARS = (str, int, float, type(None))


def _is_flat(value: Mapping[str, Any]) -> bool:
    return all(isinstance(v, _SCALARS) for v in value.values())


class Record:
    """One parsed item file. Immutable by convention: it is shared through the read cache."""

    __slots__ = (
        "_blob",
        "created_at",
        "expires_ts",
        "key",
        "namespace",
        "ttl_minutes",
        "updated_at",
        "updated_ts",
        "value",
        "vectors",
    )

    def __init__(
        self,
        *,
        namespace: tuple[str, ...],
        key: str,
        value: dict[str, Any],
        created_at: datetime,
        updated_at: datetime,
        ttl_minutes: float | None,
        expires_at: datetime | None,
        vectors: dict[str, list[float]] | None,
    ) -> None:
        self.namespace = namespace
        self.key = key
        self.value = value
        self.created_at = created_at
        self.updated_at = updated_at
        self.updated_ts = updated_at.timestamp()
        self.ttl_minutes = ttl_minutes
        self.expires_ts = expires_at.timestamp() if expires_at is not None else None
        self.vectors = vectors
        # Callers get their own copy of the value, so mutating a result never alters the
        # cache. A flat dict copies cheaply; nested values are re-parsed from bytes.
        self._blob = None if _is_flat(value) else orjson.dumps(value)

    def fresh_value(self) -> dict[str, Any]:
        """Return a private copy of the value that the caller may mutate."""
        if self._blob is None:
            return dict(self.value)
        copy: dict[str, Any] = orjson.loads(self._blob)
        return copy

    def expires_at(self) -> datetime | None:
        """The moment the item expires, if it has a TTL."""
        if self.expires_ts is None:
            return None
        return datetime.fromtimestamp(self.expires_ts, tz=timezone.utc)

    def is_expired(self, now: float) -> bool:
        """Whether the item is expired at `now` (POSIX seconds)."""
        return self.expires_ts is not None and self.expires_ts <= now


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
    if isinstance(value, str):
        check_text(value, where)
        return
    if isinstance(value, bool | int | type(None)):
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
            check_value(v, f"{where}[{k!r}]")
        return
    if isinstance(value, list | tuple):
        for i, v in enumerate(value):
            check_value(v, f"{where}[{i}]")
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
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False)
    if vectors:
        # One compact line keeps long embeddings from burying the readable part.
        compact = json.dumps(dict(vectors), separators=(",", ":"), allow_nan=False)
        text = f'{text[:-2]},\n  "vectors": {compact}\n}}'
    return (text + "\n").encode("utf-8")


def _time(document: Mapping[str, Any], field: str) -> datetime:
    raw = document.get(field)
    if not isinstance(raw, str):
        msg = f"field {field!r} is not a timestamp string"
        raise CorruptItemError(msg)
    try:
        return parse_time(raw)
    except ValueError as exc:
        msg = f"field {field!r} is not an ISO-8601 timestamp"
        raise CorruptItemError(msg) from exc


def parse_document(data: bytes) -> Record:
    """Parse the bytes of an item file.

    Raises:
        CorruptItemError: If the bytes are not JSON or not a complete store document.
    """
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        msg = f"invalid JSON ({exc})"
        raise CorruptItemError(msg) from exc
    if not isinstance(document, dict):
        msg = "the document is not a JSON object"
        raise CorruptItemError(msg)
    namespace = document.get("namespace")
    if not isinstance(namespace, list) or not all(isinstance(x, str) for x in namespace):
        msg = "field 'namespace' is not a list of strings"
        raise CorruptItemError(msg)
    key = document.get("key")
    if not isinstance(key, str):
        msg = "field 'key' is not a string"
        raise CorruptItemError(msg)
    value = document.get("value")
    if not isinstance(value, dict):
        msg = "field 'value' is not a JSON object"
        raise CorruptItemError(msg)
    ttl = document.get("ttl_minutes")
    if ttl is not None and (isinstance(ttl, bool) or not isinstance(ttl, int | float)):
        msg = "field 'ttl_minutes' is not a number or null"
        raise CorruptItemError(msg)
    expires_at = _time(document, "expires_at") if document.get("expires_at") is not None else None
    vectors = document.get("vectors")
    if vectors is not None and not (
        isinstance(vectors, dict) and all(isinstance(v, list) for v in vectors.values())
    ):
        msg = "field 'vectors' is not an object of lists"
        raise CorruptItemError(msg)
    return Record(
        namespace=tuple(namespace),
        key=key,
        value=value,
        created_at=_time(document, "created_at"),
        updated_at=_time(document, "updated_at"),
        ttl_minutes=float(ttl) if ttl is not None else None,
        expires_at=expires_at,
        vectors=vectors,
    )
