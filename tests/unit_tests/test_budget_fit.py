"""The budget fit guesses from per-entry counts but decides on real blocks.

Whatever the per-entry hints say (right, far too small, far too large), `fit_memory` returns
the largest prefix whose real block fits, as probing real blocks alone does; per-entry counts
are kept with the entry in the scope's slot and counted again only when the entry changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import approximate_tokens, calibrated_tokens, fit_memory
from langchain_contextchef.budget._fit import largest_fit, largest_fit_near
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._cache import ScopeSlot
from langchain_contextchef.render import render_memory_block
from langchain_contextchef.render._entry_tokens import entry_counters

T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)


def _entries(lengths: Sequence[int]) -> list[MemoryEntry]:
    return [
        MemoryEntry(
            key=f"k{i:03d}",
            value=" ".join(["word"] * n) + f" {i}",
            description=f"about {i}",
            created_at=T0 + timedelta(seconds=i),
            updated_at=T0 + timedelta(seconds=i),
        )
        for i, n in enumerate(lengths)
    ]


def _render(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
    return render_memory_block(full, index=index, unlisted=more)


def _reference(
    pool: list[MemoryEntry], budget: int, count: Callable[[str], int], index_mode: bool
) -> tuple[int, int]:
    """The fit by real counts alone: the largest prefix, then the most rows, that fit."""
    n_full = largest_fit(len(pool), lambda n: count(_render(pool[:n], [], len(pool) - n)) <= budget)
    if not index_mode:
        return n_full, 0
    rows = pool[n_full:]
    n_index = largest_fit(
        len(rows),
        lambda n: count(_render(pool[:n_full], rows[:n], len(rows) - n)) <= budget,
    )
    return n_full, n_index


HINTS: dict[str, Callable[[MemoryEntry], int] | None] = {
    "none": None,
    "exact-ish": lambda e: approximate_tokens(e.value) + 8,
    "too small": lambda e: 1,
    "too large": lambda e: 10_000,
}


@settings(max_examples=60, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 60), max_size=40),
    budget=st.integers(0, 900),
    index_mode=st.booleans(),
    hint=st.sampled_from(sorted(HINTS)),
    counter=st.sampled_from([approximate_tokens, calibrated_tokens]),
)
@example(  # eleven entries fit, ten do not: the "1 more not shown" line costs more than one entry
    lengths=[0] * 11, budget=147, index_mode=False, hint="exact-ish", counter=approximate_tokens
)
def test_the_fit_matches_real_blocks_whatever_the_hints(
    lengths: list[int],
    budget: int,
    index_mode: bool,
    hint: str,
    counter: Callable[[str], int],
) -> None:
    pool = _entries(lengths)
    fitted = fit_memory(
        pool,
        [],
        render=_render,
        budget=budget,
        count=counter,
        index_mode=index_mode,
        entry_tokens=HINTS[hint],
        row_tokens=HINTS[hint],
    )
    n_full, n_index = _reference(pool, budget, counter, index_mode)
    if counter(_render(pool[:n_full], pool[n_full:][:n_index], len(pool) - n_full - n_index)) > (
        budget
    ):
        assert fitted.block == ""  # not even the frame fits
        return
    # Real counts are not monotone in the prefix (the "N more not shown" line goes away when
    # all entries fit), so the reference's search and the guided one may stop at different
    # local maxima: each must be a prefix that fits and whose next entry (or row) does not.
    full, rows = len(fitted.full), len(fitted.index)
    assert fitted.full == pool[:full] and fitted.index == pool[full:][:rows]
    if full < len(pool):
        assert counter(_render(pool[: full + 1], [], len(pool) - full - 1)) > budget
    if index_mode and full + rows < len(pool):
        more = pool[full:][: rows + 1]
        assert counter(_render(fitted.full, more, len(pool) - full - rows - 1)) > budget
    if not index_mode:
        assert rows == 0
    assert fitted.block == _render(fitted.full, fitted.index, fitted.unlisted)
    assert fitted.tokens == (counter(fitted.block) if fitted.block else 0) <= budget


@pytest.mark.parametrize("guess", [0, 1, 5, 17, 18, 30, 100])
def test_largest_fit_near_finds_the_answer_from_any_guess(guess: int) -> None:
    probes: list[int] = []

    def fits(n: int) -> bool:
        probes.append(n)
        return n <= 17

    assert largest_fit_near(40, fits, guess) == 17
    if guess == 17:
        assert sorted(probes) == [17, 18]  # a right guess costs two probes


def test_entry_counts_are_kept_per_version_and_dropped_on_change() -> None:
    counted: list[str] = []

    def count(text: str) -> int:
        counted.append(text)
        return len(text.split())

    slot = ScopeSlot()
    first, other = _entries([3, 4])
    slot.put(first)
    slot.put(other)
    full, row = entry_counters(slot, "compact", count, turn=1)
    assert full(first) == full(first) and row(first) == row(first)
    assert len(counted) == 2  # once for the entry, once for its row
    changed = first.evolve(value="a much longer value than before", update_count=2)
    slot.put(changed)
    full, row = entry_counters(slot, "compact", count, turn=2)
    assert full(changed) > full(other)
    assert len(counted) == 4  # the new version, and the other entry once
    full(other)
    assert len(counted) == 4


def test_a_compile_after_one_write_counts_only_the_new_entry() -> None:
    pieces: list[str] = []

    def count(text: str) -> int:
        if text.startswith("<entry") and text.count("<entry") == 1:
            pieces.append(text)
        return calibrated_tokens(text)

    store = InMemoryStore()
    chef = ContextChef(
        store=store, memory=MemoryConfig(token_budget=400, token_counter=count), scope=("u",)
    )
    memory = chef.get_memory()
    for i in range(60):
        memory.set(f"note_{i:02d}", f"Remember detail number {i} about the project.")
    chef.compile([HumanMessage("hi")])
    first = len(pieces)
    assert 0 < first < 60  # only the entries near the budget's edge were counted
    memory.set("note_new", "One more detail.")
    payload = chef.compile([HumanMessage("hi")])
    # Only the new entry may be counted again; the others kept their counts in the slot.
    assert all('key="note_new"' in piece for piece in pieces[first:])
    assert len(pieces) - first <= 1
    assert 0 < len(payload.meta.injected_keys) < 61
    assert payload.meta.tokens["memory"] <= 400
