"""A batch's operations, checked before anything touches the disk.

`prepare` validates every op of a `FileSystemStore.batch` (namespaces, keys, values, TTLs,
filters, index fields) and turns its puts into `PendingPut`s: the `Write` to commit plus the
texts still to embed. An invalid op raises here, so a bad batch writes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    Op,
    PutOp,
    SearchOp,
    validate_op_namespace,
)

from langchain_contextchef.store._filters import validate_filter
from langchain_contextchef.store._records import check_text, check_value
from langchain_contextchef.store._semantic import SemanticIndex, Texts
from langchain_contextchef.store._writer import Write

__all__ = ["PendingPut", "check_put_target", "prepare"]


class PendingPut(NamedTuple):
    """A validated put: the change to commit, once its texts are embedded."""

    write: Write
    """The change, without vectors yet."""
    texts: Texts
    """The `(field path, text)` pairs to embed into `write.vectors`."""


def check_put_target(namespace: tuple[str, ...], key: str, *, public: bool) -> None:
    """Check where a value is about to be written.

    Args:
        namespace: The item's namespace: a non-empty tuple of valid labels.
        key: The item's key.
        public: Called from `put`/`atomic_update`, where the root label `"langgraph"` is
            reserved (a batch may write there, as LangGraph's own stores allow).

    Raises:
        InvalidNamespaceError: On an invalid or reserved namespace.
        TypeError: If the key is not a string.
        ValueError: On a NUL or other unstorable character.
    """
    if not isinstance(namespace, tuple):
        msg = f"A namespace must be a tuple of strings, got {type(namespace).__name__}."
        raise InvalidNamespaceError(msg)
    validate_op_namespace(GetOp(namespace, key))
    if not namespace:
        msg = "Namespace cannot be empty: give at least one label, e.g. ('memory',)."
        raise InvalidNamespaceError(msg)
    if public and namespace[0] == "langgraph":
        # As in LangGraph's BaseStore.put: the label is reserved for LangGraph itself,
        # which writes there through batch().
        msg = f'The root namespace label "langgraph" is reserved by LangGraph. Got: {namespace}'
        raise InvalidNamespaceError(msg)
    for label in namespace:
        check_text(label, f"the namespace label {label!r}")
    if not isinstance(key, str):
        msg = f"An item key must be a string, got {type(key).__name__}."
        raise TypeError(msg)
    if "\x00" in key:
        msg = f"An item key cannot contain a NUL character ('\\x00'): {key!r}."
        raise ValueError(msg)
    check_text(key, f"the key {key!r}")


def prepare(ops: list[Op], index: SemanticIndex | None) -> list[PendingPut]:
    """Validate every op and build the writes, the last put of an item winning.

    Raises:
        InvalidNamespaceError: On an invalid namespace.
        TypeError: On a value that is not a JSON-serialisable dict, or a bad `index`.
        ValueError: On an unknown op, a NUL in a key, NaN in a value, a bad TTL or filter.
    """
    pending: dict[tuple[tuple[str, ...], str], PendingPut] = {}
    for op in ops:
        if isinstance(op, PutOp):
            pending[(op.namespace, op.key)] = _prepare_put(op, index)
        elif isinstance(op, GetOp | ListNamespacesOp):
            validate_op_namespace(op)
        elif isinstance(op, SearchOp):
            validate_op_namespace(op)
            validate_filter(op.filter)
        else:
            msg = f"Unknown store operation {type(op).__name__}; expected Get/Put/Search/ListNamespaces ops."
            raise ValueError(msg)
    return list(pending.values())


def _prepare_put(op: PutOp, index: SemanticIndex | None) -> PendingPut:
    if op.value is None:
        validate_op_namespace(op)
        if not isinstance(op.key, str):
            msg = f"An item key must be a string, got {type(op.key).__name__}."
            raise TypeError(msg)
        return PendingPut(Write(op.namespace, op.key, None), [])
    check_put_target(op.namespace, op.key, public=False)
    if not isinstance(op.value, Mapping):
        msg = (
            f"A store value must be a dict, got {type(op.value).__name__}. "
            "Wrap it, e.g. {'value': ...}."
        )
        raise TypeError(msg)
    value = dict(op.value)
    check_value(value)
    ttl = op.ttl
    if ttl is not None and (
        isinstance(ttl, bool) or not isinstance(ttl, int | float) or not math.isfinite(ttl)
    ):
        msg = f"ttl must be a finite number of minutes or None, got {ttl!r}."
        raise ValueError(msg)
    if (
        op.index is not None
        and op.index is not False
        and not (isinstance(op.index, list) and all(isinstance(f, str) for f in op.index))
    ):
        msg = f"index must be None, False or a list of field paths, got {op.index!r}."
        raise TypeError(msg)
    texts = index.texts_for(value, op.index) if index is not None else []
    keep = op.index is False  # LangGraph's stores keep an item's vectors when not re-indexed
    return PendingPut(Write(op.namespace, op.key, value, ttl_minutes=ttl, keep_vectors=keep), texts)
