"""The last fit of a scope taken again (`budget._again`) gives what a new fit gives.

A fit after a write takes the last fit's choice when it would read the same entry objects
from long enough sequences and every "N more" line it would size has the same counts. These
tests follow writes anywhere in long rankings (appended below the block, inserted into it,
replaced, dropped, turns advanced, the "N more" number crossing a power of ten) and compare
every fit with one from real blocks, and every compile with a fresh process's; they also
check that the choice really was taken again where it may be, and never where it may not.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import (
    CALIBRATED_COUNTS,
    FitMemo,
    FittedMemory,
    calibrated_tokens,
    fit_memory,
)
from langchain_contextchef.budget._again import LastFit, fit_again
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.render import render_memory_block, unlisted_line
from langchain_contextchef.render._entry_tokens import entry_counters
from tests.support.compiles import assert_same_compile
from tests.support.fits import spliced_fits
from tests.support.stores import RecordingStore

T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)
_WORDS = ["date", "parser", "test", "noor", "moved", "lease", "car", "blue", "team", "2026"]


def _entry(rng: random.Random, name: str, turns: int | None = None) -> MemoryEntry:
    words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 12)))
    return MemoryEntry(
        key=name,
        value=f"{words}.",
        description=rng.choice([None, words[:20]]),
        type=rng.choice([None, "fact"]),
        expires_at_turn=None if turns is None else 3 + turns,
        created_at=T0 + timedelta(seconds=rng.randint(0, 10_000)),
        updated_at=T0,
    )


@contextmanager
def _taken_again() -> Iterator[list[bool]]:
    """Notes, for each fit with a memo, whether it took the last fit's choice."""
    taken: list[bool] = []

    def noting(last: LastFit | None, *args: Any) -> Any:
        found = fit_again(last, *args)
        taken.append(found is not None)
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("langchain_contextchef.budget.fit_again", noting)
        yield taken


def _fits(
    selected: Sequence[MemoryEntry],
    unselected: Sequence[MemoryEntry],
    memo: FitMemo,
    *,
    budget: int,
    index_mode: bool,
    share: float | None,
    turn: int,
) -> tuple[FittedMemory, FittedMemory]:
    """The fit with `memo`, and the fit from real blocks (no sums, no memo)."""

    def render(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
        return render_memory_block(full, index=index, unlisted=more, turn=turn)

    tokens, row_tokens = entry_counters(None, "compact", calibrated_tokens, turn)
    full, row = entry_counters(None, "compact", CALIBRATED_COUNTS.piece, turn)
    common: dict[str, Any] = {
        "render": render,
        "budget": budget,
        "count": calibrated_tokens,
        "index_mode": index_mode,
        "index_share": share,
        "entry_tokens": tokens,
        "row_tokens": row_tokens,
    }
    real = fit_memory(selected, unselected, **common)
    kept = fit_memory(
        selected,
        unselected,
        counts=CALIBRATED_COUNTS,
        entry_counts=full,
        row_counts=row,
        unlisted_line=lambda n: unlisted_line(n, "legacy"),
        memo=memo,
        **common,
    )
    return kept, real


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    size=st.integers(40, 240),
    steps=st.lists(
        st.tuples(
            st.sampled_from(["append", "append", "append", "insert", "swap", "drop", "turn"]),
            st.integers(0, 300),
        ),
        min_size=1,
        max_size=10,
    ),
    budget=st.sampled_from([60, 150, 400]),
    index_mode=st.booleans(),
    share=st.sampled_from([None, 0.3]),
    line_only=st.booleans(),
)
def test_a_fit_taken_again_is_the_fit_from_real_blocks(
    seed: int,
    size: int,
    steps: list[tuple[str, int]],
    budget: int,
    index_mode: bool,
    share: float | None,
    line_only: bool,
) -> None:
    # With `line_only` (the compact renderer's promise), a fit taken again puts the new
    # "N more" line into the last block's text instead of rendering the block.
    rng = random.Random(seed)
    entries = [
        _entry(rng, f"k_{i}", rng.choice([None] * 9 + [rng.randint(1, 4)])) for i in range(size)
    ]
    memo = FitMemo(lambda e: e.expires_at_turn is not None, line_only=line_only)
    turn = 3
    with _taken_again() as taken:
        for n, (action, at) in enumerate([("append", 0), *steps]):
            at %= len(entries)
            new = _entry(rng, f"n_{n}")
            if action == "append":  # below the block: only the "N more" number moves
                entries.append(new)
            elif action == "insert":  # anywhere, the block's entries included
                entries.insert(at, new)
            elif action == "swap":  # a new version of an entry
                entries[at] = new
            elif action == "drop" and len(entries) > 1:
                del entries[at]
            else:
                turn += 1
            cut = len(entries) * 3 // 4
            selected, unselected = entries[:cut], entries[cut:]
            kept, real = _fits(
                selected,
                unselected,
                memo,
                budget=budget,
                index_mode=index_mode,
                share=share,
                turn=turn,
            )
            assert kept == real
            if n == 0:
                assert taken[-1] is False  # nothing to take yet
            if taken[-1]:  # what it took: the same entries, from the same objects
                assert all(a is b for a, b in zip(kept.full, real.full, strict=True))


def test_a_fit_is_taken_again_only_while_the_more_line_counts_the_same() -> None:
    # 80 to 120 entries, a budget that shows a few: each write appends one below the block,
    # so every "N more" number the fit sizes goes up by one and crosses 99 -> 100 once (a
    # digit more: another count, so fitted anew).
    rng = random.Random(7)
    entries = [_entry(rng, f"k_{i}") for i in range(80)]
    memo = FitMemo(lambda e: False)
    shown: set[int] = set()
    with _taken_again() as taken:
        for i in range(40):
            entries.append(_entry(rng, f"later_{i}"))
            kept, real = _fits(entries, [], memo, budget=150, index_mode=False, share=None, turn=3)
            assert kept == real
            shown.add(len(kept.full))
    assert len(shown) == 1  # the block kept its entries: only the numbers moved
    n = shown.pop()
    assert 0 < n < 20 and f"{120 - n} more stored entries" in kept.block
    # The fit sized the block with no entry, with n and with n + 1 entries: it is fitted
    # anew exactly when one of their "N more" numbers reaches 100.
    crossed = {i for i in range(40) for s in (0, n, n + 1) if 81 + i - s == 100}
    assert [i for i, took in enumerate(taken) if not took] == sorted({0} | crossed)


def test_a_write_that_changes_what_fits_is_fitted_anew() -> None:
    rng = random.Random(11)
    entries = [_entry(rng, f"k_{i}") for i in range(150)]
    memo = FitMemo(lambda e: False)
    with _taken_again() as taken:
        first, _ = _fits(entries, [], memo, budget=200, index_mode=True, share=0.3, turn=3)
        entries.append(_entry(rng, "below"))
        second, _ = _fits(entries, [], memo, budget=200, index_mode=True, share=0.3, turn=3)
        assert taken == [False, True]
        assert [e.key for e in second.full] == [e.key for e in first.full]
        # A long entry at the top: it takes the room of several others.
        entries.insert(0, entries[0].evolve(key="long", value="word " * 60))
        third, real = _fits(entries, [], memo, budget=200, index_mode=True, share=0.3, turn=3)
        assert taken[-1] is False
        assert third == real
        assert third.full[0].key == "long" and len(third.full) < len(first.full)
        # A shown entry replaced by a shorter version: more of the rest fits.
        entries[0] = entries[0].evolve(value="short")
        fourth, real = _fits(entries, [], memo, budget=200, index_mode=True, share=0.3, turn=3)
        assert taken[-1] is False
        assert fourth == real and len(fourth.full) > len(third.full)


def test_compiles_after_writes_match_a_fresh_process_and_take_the_fit_again() -> None:
    # One process follows the writes; a new store object reads the scope whole each time, as
    # a fresh process. Writes below the block are taken again; the others are fitted anew.
    rng = random.Random(3)
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=250)
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    for i in range(104):
        memory.set(f"note_{i:03d}", f"{' '.join(rng.sample(_WORDS, 4))} number {i}.")
    question = [HumanMessage("Which date parser test did the team add?")]
    first = chef.compile(question)
    shown = first.meta.injected_keys + first.meta.indexed_keys
    assert 0 < len(shown) < 40
    hidden = [f"note_{i:03d}" for i in range(104) if f"note_{i:03d}" not in shown]
    writes: list[tuple[str, str, str | None]] = [
        ("set", "unrelated_1", "Blue office lease."),
        ("set", "unrelated_2", "Car colour."),
        *[("delete", key, None) for key in hidden[:12]],  # "N more" falls past 100
        ("set", shown[0], "A date parser test the team added, with more words now."),
        ("set", "hot", "The team added a date parser test for the parser."),
        ("delete", shown[1], None),
        ("set", "unrelated_3", "Lease."),
    ]
    with _taken_again() as taken:
        for action, key, value in writes:
            if action == "set":
                assert value is not None
                memory.set(key, value)
            else:
                memory.delete(key)
            cached = chef.compile(question)
            fresh = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
            again = fresh.compile(question)
            assert_same_compile(cached, again)
    # `taken` holds the cached process's fits and the fresh ones' (never taken: a new memo).
    assert sum(taken) >= 8


@pytest.mark.parametrize("index_mode", [False, True])
def test_a_spliced_block_is_the_rendered_block(index_mode: bool) -> None:
    # Writes below the block: each fit is taken again and its block spliced from the last
    # one, byte for byte the block a fit from real blocks renders.
    rng = random.Random(5)
    entries = [_entry(rng, f"k_{i}") for i in range(120)]
    memo = FitMemo(lambda e: False, line_only=True)
    with _taken_again() as taken, spliced_fits() as made:
        for i in range(12):
            entries.append(_entry(rng, f"later_{i}"))
            kept, real = _fits(
                entries, [], memo, budget=150, index_mode=index_mode, share=None, turn=3
            )
            assert kept == real
    assert taken == [False] + [True] * 11
    assert made == [True] * 11


def test_a_block_holding_a_copy_of_its_more_line_is_rendered_notspliced_fits() -> None:
    # An entry whose value is the text of the block's own "N more" line: where the line
    # ends the block is not known from the text alone, so it is rendered (and right).
    rng = random.Random(9)
    entries = [_entry(rng, f"k_{i}") for i in range(80)]
    memo = FitMemo(lambda e: False, line_only=True)

    def fit() -> FittedMemory:
        kept, real = _fits(entries, [], memo, budget=150, index_mode=False, share=None, turn=3)
        assert kept == real
        return kept

    first = fit()
    entries.insert(0, entries[0].evolve(key="copy", value=unlisted_line(first.unlisted, "legacy")))
    second = fit()
    copy = unlisted_line(second.unlisted, "legacy")  # the same digits: the same counts
    entries[0] = entries[0].evolve(value=copy)
    with _taken_again() as taken, spliced_fits() as made:
        third = fit()
        assert third.unlisted == second.unlisted and third.block.count(copy) == 2
        entries.append(_entry(rng, "below"))  # the line says one more; the copy stays
        fourth = fit()
        assert copy in fourth.block and fourth.unlisted == third.unlisted + 1
    assert taken == [False, True]
    assert made == [False]  # the last block held the copy: rendered, not spliced
