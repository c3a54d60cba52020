"""TTL parsing and resolution: every accepted spelling, and a clear error for nonsense."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import MemoryConfig
from langchain_contextchef.ttl import ResolvedExpiry, Turns, parse_ttl, resolve_ttl

NOW = datetime(2026, 5, 25, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, None),
        (0, Turns(0)),
        (3, Turns(3)),
        ({"turns": 20}, Turns(20)),
        ({"turns": 0}, Turns(0)),
        (Turns(7), Turns(7)),
        ({"ms": 1500}, timedelta(milliseconds=1500)),
        ({"ms": 0}, timedelta(0)),
        ({"ms": 2.5}, timedelta(microseconds=2500)),
        (timedelta(hours=1), timedelta(hours=1)),
        (timedelta(0), timedelta(0)),
    ],
)
def test_every_accepted_spelling_normalises(given: Any, expected: Any) -> None:
    assert parse_ttl(given) == expected


def test_bare_int_and_turns_dict_are_the_same_thing() -> None:
    assert parse_ttl(20) == parse_ttl({"turns": 20}) == parse_ttl(Turns(20))


@pytest.mark.parametrize(
    "bad",
    [
        -1,
        True,
        False,
        {"turns": -2},
        {"turns": 1.5},
        {"turns": True},
        {"turns": "3"},
        {"ms": -1},
        {"ms": math.nan},
        {"ms": math.inf},
        {"ms": True},
        {"ms": "1000"},
        {"ms": 10, "turns": 1},
        {"seconds": 5},
        {},
        timedelta(seconds=-1),
        1.5,
        math.nan,
        "3",
        [3],
    ],
    ids=repr,
)
def test_nonsense_raises_a_value_error_listing_what_is_accepted(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"Invalid ttl") as caught:
        parse_ttl(bad)
    message = str(caught.value)
    assert "Accepted TTLs" in message
    assert "{'turns': n}" in message
    assert "{'ms': n}" in message


@pytest.mark.parametrize("bad", [-1, True, 2.0, "2"], ids=repr)
def test_turns_rejects_anything_but_a_non_negative_int(bad: Any) -> None:
    with pytest.raises(ValueError, match="non-negative int"):
        Turns(bad)


def test_resolve_turns_counts_from_the_current_turn() -> None:
    assert resolve_ttl(Turns(5), turn=1, now=NOW) == ResolvedExpiry(at_turn=6)


def test_resolve_duration_counts_from_now() -> None:
    expiry = resolve_ttl(timedelta(seconds=5), turn=9, now=NOW)
    assert expiry == ResolvedExpiry(at_time=NOW + timedelta(seconds=5))
    assert expiry.at_turn is None


def test_resolve_none_never_expires() -> None:
    assert resolve_ttl(None, turn=3, now=NOW) == ResolvedExpiry(at_turn=None, at_time=None)


def _entry(**expiry: Any) -> MemoryEntry:
    return MemoryEntry(key="k", value="v", created_at=NOW, updated_at=NOW, **expiry)


def test_an_entry_expires_when_the_turn_reaches_its_expiry_turn() -> None:
    entry = _entry(expires_at_turn=2)
    assert not entry.is_expired(turn=1, now=NOW)
    assert entry.is_expired(turn=2, now=NOW)
    assert entry.is_expired(turn=3, now=NOW)


def test_an_entry_expires_from_its_expiry_moment_on() -> None:
    entry = _entry(expires_at=NOW + timedelta(seconds=1))
    assert not entry.is_expired(turn=0, now=NOW + timedelta(milliseconds=999))
    assert entry.is_expired(turn=0, now=NOW + timedelta(seconds=1))


def test_an_entry_without_expiry_never_expires() -> None:
    assert not _entry().is_expired(turn=10**9, now=NOW + timedelta(days=10**5))


def test_a_bad_default_ttl_fails_at_construction() -> None:
    with pytest.raises(ValueError, match="Invalid ttl"):
        MemoryConfig(default_ttl=-3)
    with pytest.raises(ValueError, match="Invalid ttl"):
        MemoryConfig(default_ttl={"hours": 1})
