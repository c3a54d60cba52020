"""Argument checks shared by the developer path and the model path.

They raise for developer mistakes (`ValueError`/`TypeError` with a message that says what to
pass); the model path turns the same conditions into refusals before calling them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["UNSET", "check_importance", "check_key", "check_supersedes", "check_text"]


def check_key(key: object) -> str:
    """Return `key` if it is a usable memory key.

    Raises:
        ValueError: For a key that is not a non-empty string, starts or ends with whitespace,
            or holds a NUL character.
    """
    if not isinstance(key, str) or not key.strip():
        msg = f"A memory key must be a non-empty string, got {key!r}."
        raise ValueError(msg)
    if key != key.strip():
        # " lang" and "lang" would be two look-alike entries.
        msg = (
            f"A memory key may not start or end with whitespace, got {key!r}; use {key.strip()!r}."
        )
        raise ValueError(msg)
    if "\x00" in key:
        msg = "A memory key cannot contain NUL characters."
        raise ValueError(msg)
    return key


def check_text(name: str, value: object, *, optional: bool = False) -> None:
    """Raise unless `value` is a string without NUL characters (or `None` when `optional`).

    NUL is refused on every backend alike: PostgreSQL cannot store it in JSON, so accepting
    it elsewhere would make the same write succeed or fail depending on the store.

    Raises:
        TypeError: For a value that is not a string.
        ValueError: For a string holding a NUL character.
    """
    if value is None and optional:
        return
    if not isinstance(value, str):
        msg = f"The memory {name} must be a string, got {type(value).__name__}."
        raise TypeError(msg)
    if "\x00" in value:
        msg = (
            f"The memory {name} cannot contain NUL characters (\\x00): PostgreSQL cannot "
            "store them, so no store takes them. Remove them; nothing was written."
        )
        raise ValueError(msg)


def check_importance(importance: object) -> None:
    """Raise `ValueError` unless `importance` is a finite number or `None`."""
    if importance is None:
        return
    if (
        isinstance(importance, bool)
        or not isinstance(importance, int | float)
        or not math.isfinite(importance)
    ):
        msg = f"importance must be a finite number or None, got {importance!r}."
        raise ValueError(msg)


def check_supersedes(key: str, supersedes: Sequence[str]) -> tuple[str, ...]:
    """The distinct keys `key` supersedes, in order.

    Raises:
        TypeError: For a bare string instead of a list.
        ValueError: For a bad key, or `key` superseding itself.
    """
    if isinstance(supersedes, str):
        msg = f"supersedes must be a list of keys, e.g. [{supersedes!r}], not a string."
        raise TypeError(msg)
    keys = tuple(dict.fromkeys(check_key(k) for k in supersedes))
    if key in keys:
        msg = f"The entry {key!r} cannot supersede itself; list only other keys."
        raise ValueError(msg)
    return keys


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
"""Marks an argument the caller did not pass (so `ttl=None` can mean "never expire")."""
