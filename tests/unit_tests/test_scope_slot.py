"""The cached slot's derived views stay equal to recomputing them from its entries.

`ScopeSlot` keeps its entries in creation order, the entries that can expire, and per-entry
derived data (token counts, keyword features) up to date per change instead of rebuilding
them; these tests drive random puts, drops and resets and compare with a full recomputation.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import _cache
from langchain_contextchef.memory._cache import ScopeSlot

T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)
KEYS = [f"k{i}" for i in range(8)]


def _entry(key: str, minute: int, expires: bool, value: str = "v") -> MemoryEntry:
    at = T0 + timedelta(minutes=minute)
    return MemoryEntry(
        key=key,
        value=value,
        created_at=at,
        updated_at=at,
        expires_at_turn=5 if expires else None,
    )


_put = st.tuples(
    st.just("put"), st.sampled_from(KEYS), st.integers(0, 3), st.booleans(), st.text(max_size=3)
)
_drop = st.tuples(st.just("drop"), st.sampled_from(KEYS), st.booleans())
_reset = st.tuples(
    st.just("reset"), st.lists(st.tuples(st.sampled_from(KEYS), st.integers(0, 3), st.booleans()))
)


def _expected(entries: dict[str, MemoryEntry]) -> list[MemoryEntry]:
    return sorted(entries.values(), key=lambda e: (e.created_at, e.key))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_put, _drop, _reset), max_size=40))
def test_the_incremental_order_and_expiring_set_equal_a_full_recomputation(
    steps: list[tuple[object, ...]],
) -> None:
    slot = ScopeSlot()
    handed_out: list[tuple[list[MemoryEntry], list[MemoryEntry]]] = []
    for step in steps:
        if step[0] == "put":
            _, key, minute, expires, value = step
            slot.put(_entry(str(key), int(minute), bool(expires), str(value)))  # type: ignore[call-overload]
        elif step[0] == "drop":
            _, key, damaged = step
            slot.drop(str(key), damaged=bool(damaged))
        else:
            rows = {k: _entry(k, m, x) for k, m, x in step[1]}  # type: ignore[attr-defined]
            slot.reset(None, list(rows.values()), [])
        ordered = slot.ordered()
        assert ordered == _expected(slot.entries)
        assert all(a is slot.entries[a.key] for a in ordered)
        assert slot.expiring() == [e for e in ordered if e.can_expire]
        assert slot.ordered() is ordered  # the same list until the next change
        handed_out.append((ordered, list(ordered)))
    # A list handed out earlier is never changed by later puts and drops.
    for held, copy in handed_out:
        assert held == copy


def test_derived_data_is_dropped_when_the_entry_changes() -> None:
    slot = ScopeSlot()
    first = _entry("a", 0, False, "one")
    slot.put(first)
    slot.derived(first)["count"] = 3
    assert slot.derived(first) == {"count": 3}
    second = _entry("a", 0, False, "two")
    slot.put(second)
    assert slot.derived(second) == {}
    # Data derived from a version the slot no longer holds is not kept for anyone.
    slot.derived(first)["count"] = 9
    assert slot.derived(second) == {}
    slot.derived(second)["count"] = 4
    slot.drop("a")
    assert slot.derived(second) == {}
    assert "a" not in slot.extra


def test_derived_data_of_an_entry_the_slot_does_not_hold_is_not_kept() -> None:
    slot = ScopeSlot()
    held = _entry("a", 0, False)
    slot.put(held)
    stranger = _entry("a", 0, False)  # equal, but not the object the slot holds
    slot.derived(stranger)["count"] = 1
    assert slot.derived(held) == {}
    slot.invalidate()
    assert slot.derived(held) == {} and slot.extra == {}


def test_a_handed_out_order_is_copied_only_while_someone_still_holds_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copies: list[int] = []

    def counted(items: Iterable[MemoryEntry] = ()) -> list[MemoryEntry]:
        copies.append(1)
        return list(items)

    slot = ScopeSlot()
    slot.put(_entry("a", 0, False))
    monkeypatch.setattr(_cache, "list", counted, raising=False)  # the module's own copies
    held = slot.ordered()
    slot.put(_entry("b", 1, False))
    assert copies == [1]  # held by this test: the change went to a copy
    assert held == [slot.entries["a"]] and slot.ordered() is not held
    del held
    slot.ordered()  # handed out, then let go of: nothing else can see a change
    slot.put(_entry("c", 2, False))
    slot.ordered()
    slot.drop("a")
    assert copies == [1]  # changed in place, no copy of the whole scope
    assert slot.ordered() == _expected(slot.entries)
