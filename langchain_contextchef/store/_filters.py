"""Search filters with LangGraph's operators, evaluated on parsed item values.

A filter maps a field to an expected value or to an operator object:

* `{"kind": "rule"}` – equality (a dict matches nested fields, a list matches element-wise);
* `{"meta.source": "chat"}` – a dotted field reaches into nested objects;
* `{"score": {"$gte": 0.5, "$lt": 0.9}}` – `$eq $ne $gt $gte $lt $lte`.

A missing field compares like `None` (as in LangGraph's in-memory and SQLite stores).
Ordering operators compare numbers with numbers and strings with strings; any other pair
(including a missing field) does not match rather than raising.

Field names must be plain field paths – letters, digits, `_`, `-` and `.` – the rule
LangGraph's `SqliteStore` enforces before it builds SQL, so a filter accepted here runs
unchanged on the SQL stores.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["FIELD_PATH", "OPERATORS", "matches", "validate_filter"]

OPERATORS = frozenset({"$eq", "$ne", "$gt", "$gte", "$lt", "$lte"})
"""Operators a filter may use."""

FIELD_PATH = re.compile(r"[a-zA-Z0-9_.-]+")
"""What a filter field name may be (the pattern LangGraph's SQL store accepts)."""


def validate_filter(filter_: Mapping[str, Any] | None) -> None:
    """Reject filters this store cannot evaluate, before anything runs.

    Raises:
        ValueError: If a field name is not a plain field path, or an operator object uses an
            unknown `$` operator.
        TypeError: If the filter or one of its field names is of the wrong type.
    """
    if filter_ is None:
        return
    if not isinstance(filter_, Mapping):
        msg = f"A search filter must be a dict of field -> value, got {type(filter_).__name__}."
        raise TypeError(msg)
    for field, expected in filter_.items():
        if not isinstance(field, str):
            msg = f"Filter field names must be strings, got {field!r}."
            raise TypeError(msg)
        if not FIELD_PATH.fullmatch(field):
            msg = (
                f"Invalid filter key {field!r}: use a plain field name or dotted path of "
                "letters, digits, '_', '-' and '.' (e.g. 'kind' or 'meta.source'); LangGraph's "
                "SQL stores refuse anything else."
            )
            raise ValueError(msg)
        if isinstance(expected, Mapping) and _is_operator_object(expected):
            unknown = sorted(k for k in expected if k not in OPERATORS)
            if unknown:
                msg = (
                    f"Unsupported filter operator(s) {unknown} on field {field!r}; "
                    f"use one of {sorted(OPERATORS)}."
                )
                raise ValueError(msg)


def matches(value: Mapping[str, Any], filter_: Mapping[str, Any] | None) -> bool:
    """Whether an item value satisfies every condition of the filter."""
    if not filter_:
        return True
    for field, expected in filter_.items():
        actual = _lookup(value, field)
        if isinstance(expected, Mapping) and _is_operator_object(expected):
            if not all(_apply(actual, op, operand) for op, operand in expected.items()):
                return False
        elif not _equal(actual, expected):
            return False
    return True


def _is_operator_object(expected: Mapping[Any, Any]) -> bool:
    return any(isinstance(k, str) and k.startswith("$") for k in expected)


def _lookup(value: Mapping[str, Any], field: str) -> Any:
    # A literal top-level field wins; otherwise a dotted path walks nested objects.
    if field in value:
        return value[field]
    current: Any = value
    for part in field.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return None
        current = current[part]
    return current


def _equal(actual: Any, expected: Any) -> bool:
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return False
        return all(_equal(actual.get(k), v) for k, v in expected.items())
    if isinstance(expected, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(expected)
            and all(_equal(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return bool(actual == expected)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _apply(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return _equal(actual, operand)
    if op == "$ne":
        return not _equal(actual, operand)
    if _is_number(actual) and _is_number(operand):
        pass
    elif not (isinstance(actual, str) and isinstance(operand, str)):
        return False
    if op == "$gt":
        return bool(actual > operand)
    if op == "$gte":
        return bool(actual >= operand)
    if op == "$lt":
        return bool(actual < operand)
    return bool(actual <= operand)
