"""Time-to-live values for memory entries.

An entry can expire after a number of turns (one turn = one compile) or after a span of
wall-clock time. The accepted spellings are:

* a bare `int` or `Turns(n)` or `{"turns": n}`: expires after `n` compiles;
* a `datetime.timedelta` or `{"ms": n}`: expires `n` milliseconds after the write;
* `None`: never expires.

Example:
    ```python
    from datetime import timedelta
    from langchain_contextchef.ttl import Turns, parse_ttl

    assert parse_ttl(3) == Turns(3)
    assert parse_ttl({"ms": 1500}) == timedelta(milliseconds=1500)
    assert parse_ttl(None) is None
    ```
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeAlias

__all__ = [
    "MAX_DURATION",
    "TTL",
    "ParsedTTL",
    "ResolvedExpiry",
    "Turns",
    "parse_ttl",
    "resolve_ttl",
]


@dataclass(frozen=True)
class Turns:
    """A TTL counted in turns: the entry is injected in exactly `n` compiles.

    Args:
        n: Number of compiles the entry survives; `0` means it is swept at the next one.
    """

    n: int

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 0:
            msg = f"Turns(n) needs a non-negative int, got {self.n!r}."
            raise ValueError(msg)


TTL: TypeAlias = int | Turns | timedelta | Mapping[str, int | float] | None
"""Every spelling of a TTL the public API accepts."""

ParsedTTL: TypeAlias = Turns | timedelta | None
"""A TTL after `parse_ttl`: turns, a duration, or never."""

_ACCEPTED = (
    "Accepted TTLs: a non-negative int or Turns(n) (turns), {'turns': n}, {'ms': n}, "
    "a non-negative datetime.timedelta, or None (never expires)."
)


MAX_DURATION = timedelta(days=1000 * 366)
"""The longest wall-clock TTL (about 1,000 years): an expiry must stay a date Python can hold."""

_TOO_LONG = "a duration longer than 1,000 years cannot be stored as an expiry date; use None"


def _bad(value: object, why: str) -> ValueError:
    return ValueError(f"Invalid ttl {value!r}: {why}. {_ACCEPTED}")


def parse_ttl(value: object) -> ParsedTTL:
    """Normalise any accepted TTL spelling to `Turns`, `timedelta` or `None`.

    Args:
        value: The TTL as given by the caller.

    Returns:
        `Turns` for turn-based TTLs, `timedelta` for wall-clock TTLs, `None` for never.

    Raises:
        ValueError: If the value is negative, a bool, NaN or infinite, a dict with other keys
            than exactly one of `turns`/`ms`, or any other type.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise _bad(value, "a bool is not a TTL")
    if isinstance(value, Turns):
        return value
    if isinstance(value, int):
        if value < 0:
            raise _bad(value, "turns cannot be negative")
        return Turns(value)
    if isinstance(value, timedelta):
        if value < timedelta(0):
            raise _bad(value, "a duration cannot be negative")
        if value > MAX_DURATION:
            raise _bad(value, _TOO_LONG)
        return value
    if isinstance(value, Mapping):
        keys = set(value)
        if keys == {"turns"}:
            turns = value["turns"]
            if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0:
                raise _bad(value, "'turns' must be a non-negative int")
            return Turns(turns)
        if keys == {"ms"}:
            ms = value["ms"]
            if (
                isinstance(ms, bool)
                or not isinstance(ms, int | float)
                or not math.isfinite(ms)
                or ms < 0
            ):
                raise _bad(value, "'ms' must be a finite, non-negative number")
            if ms > MAX_DURATION / timedelta(milliseconds=1):
                raise _bad(value, _TOO_LONG)
            return timedelta(milliseconds=ms)
        raise _bad(value, "a TTL dict has exactly one key, 'turns' or 'ms'")
    raise _bad(value, f"{type(value).__name__} is not a TTL")


@dataclass(frozen=True)
class ResolvedExpiry:
    """Where an entry stops being injected: a turn, a moment, or never (both `None`)."""

    at_turn: int | None = None
    at_time: datetime | None = None


_NEVER = ResolvedExpiry()


def resolve_ttl(ttl: ParsedTTL, *, turn: int, now: datetime) -> ResolvedExpiry:
    """Turn a parsed TTL into an absolute expiry, relative to the current turn and time.

    Args:
        ttl: A value returned by `parse_ttl`.
        turn: The turn clock at the moment of the write.
        now: The wall-clock time of the write.

    Returns:
        The absolute expiry. It replaces the entry's previous expiry wholesale.
    """
    if ttl is None:
        return _NEVER
    if isinstance(ttl, Turns):
        return ResolvedExpiry(at_turn=turn + ttl.n)
    return ResolvedExpiry(at_time=now + ttl)
