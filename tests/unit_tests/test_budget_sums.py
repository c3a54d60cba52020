"""The calibrated count of a compact block is the sum of its frame's and its entries' counts.

`fit_memory(counts=CALIBRATED_COUNTS, ...)` sizes the blocks it tries from each entry's
counts without rendering them. That is only right if the sum is exact for every block:
these tests render random blocks (any text: newlines, blank lines, digits, markup, other
scripts) and compare, and check that a fit from sums chooses exactly what a fit from real
blocks chooses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import CALIBRATED_COUNTS, calibrated_tokens, fit_memory
from langchain_contextchef.budget._additive import BlockSizes
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._cache import slot_for
from langchain_contextchef.render import render_memory_block
from langchain_contextchef.render._entry_tokens import entry_counters
from tests.support.stores import RecordingStore

T0 = datetime(2026, 5, 25, tzinfo=timezone.utc)

_text = st.lists(
    st.sampled_from(
        list("ab Zé1 2_-<>&\"'\n\t.,:;/\r\x0b\u2028") + ["日本", "word", "\n\n", "  ", "2026"]
    ),
    max_size=40,
).map("".join)
_entry = st.tuples(
    _text,  # value
    st.one_of(st.none(), _text),  # description
    st.sampled_from([None, "fact", "preference"]),
    st.one_of(st.none(), st.integers(1, 5)),  # expires after this many turns
)


def _entries(specs: Sequence[tuple[str, str | None, str | None, int | None]]) -> list[MemoryEntry]:
    return [
        MemoryEntry(
            key=f"k_{i}",
            value=value,
            description=description,
            type=kind,
            expires_at_turn=None if turns is None else 3 + turns,
            created_at=T0 + timedelta(seconds=i),
            updated_at=T0 + timedelta(seconds=i),
        )
        for i, (value, description, kind, turns) in enumerate(specs)
    ]


def _renderer(allowed: list[str] | None, evicted: list[str], vocabulary: str) -> object:
    def render(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
        return render_memory_block(
            full,
            index=index,
            unlisted=more,
            allowed_keys=allowed,
            evicted_keys=evicted,
            vocabulary=vocabulary,  # type: ignore[arg-type]
            turn=3,
        )

    return render


def _unlisted(vocabulary: str) -> object:
    def line(count: int) -> str:
        block = render_memory_block([], unlisted=count, vocabulary=vocabulary)  # type: ignore[arg-type]
        return block.rsplit("\n", 1)[-1]

    return line


_frame = st.tuples(
    st.one_of(st.none(), st.lists(st.sampled_from(["k_0", "k_1", "lang"]), max_size=2)),
    st.lists(st.sampled_from(["old", "gone_2"]), max_size=2),
    st.sampled_from(["legacy", "unified"]),
)


@settings(max_examples=200, deadline=None)
@given(
    specs=st.lists(_entry, min_size=1, max_size=12),
    frame=_frame,
    n_full=st.integers(0, 12),
    n_index=st.integers(0, 12),
    more=st.integers(0, 20_000),
)
def test_a_block_counts_what_its_frame_and_entries_count(
    specs: list[tuple[str, str | None, str | None, int | None]],
    frame: tuple[list[str] | None, list[str], str],
    n_full: int,
    n_index: int,
    more: int,
) -> None:
    entries = _entries(specs)
    render = _renderer(*frame)
    full, row = entry_counters(None, "compact", CALIBRATED_COUNTS.piece, 3)
    n_full = min(n_full, len(entries))
    n_index = min(n_index, len(entries) - n_full)
    if not n_full and not n_index:
        n_full = 1
    line = _unlisted(frame[2])
    for unlisted_line in (None, line):
        sizes = BlockSizes(
            CALIBRATED_COUNTS,
            render,  # type: ignore[arg-type]
            entries,
            lambda n: entries[n:],
            full,
            row,
            unlisted_line,
        )
        for unlisted in (more, 1, more + 1_000, 0, 7):  # frames worked out from the first
            if unlisted == 0 and not n_full and not n_index:
                continue
            block = render(entries[:n_full], entries[n_full:][:n_index], unlisted)  # type: ignore[operator]
            assert sizes.size(n_full, n_index, unlisted) == calibrated_tokens(block)


@settings(max_examples=100, deadline=None)
@given(
    specs=st.lists(_entry, max_size=30),
    rest=st.lists(_entry, max_size=10),
    frame=_frame,
    budget=st.integers(0, 700),
    index_mode=st.booleans(),
    share=st.sampled_from([None, 0.3, 0.8]),
)
def test_a_fit_from_sums_chooses_what_a_fit_from_real_blocks_chooses(
    specs: list[tuple[str, str | None, str | None, int | None]],
    rest: list[tuple[str, str | None, str | None, int | None]],
    frame: tuple[list[str] | None, list[str], str],
    budget: int,
    index_mode: bool,
    share: float | None,
) -> None:
    entries = _entries(specs + rest)
    selected, unselected = entries[: len(specs)], entries[len(specs) :]
    render = _renderer(*frame)
    tokens, row_tokens = entry_counters(None, "compact", calibrated_tokens, 3)
    full, row = entry_counters(None, "compact", CALIBRATED_COUNTS.piece, 3)
    rendered: list[int] = []

    def counting(full_: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
        rendered.append(len(full_) + len(index))
        return render(full_, index, more)  # type: ignore[operator]

    common = {
        "budget": budget,
        "count": calibrated_tokens,
        "index_mode": index_mode,
        "index_share": share,
        "entry_tokens": tokens,
        "row_tokens": row_tokens,
    }
    real = fit_memory(selected, unselected, render=render, **common)  # type: ignore[arg-type]
    summed = fit_memory(
        selected,
        unselected,
        render=counting,
        counts=CALIBRATED_COUNTS,
        entry_counts=full,
        row_counts=row,
        unlisted_line=_unlisted(frame[2]),
        **common,  # type: ignore[arg-type]
    )
    assert summed == real
    # Only frames (one sample entry and row at most) and the chosen block were rendered.
    chosen = len(real.full) + len(real.index)
    assert all(n <= 2 or n == chosen for n in rendered)


_WORDS = [
    "date",
    "parser",
    "test",
    "toronto",
    "noor",
    "sister",
    "moved",
    "office",
    "lease",
    "car",
    "blue",
    "team",
    "added",
    "fixed",
]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    writes=st.lists(
        st.tuples(st.sampled_from("cud"), st.integers(0, 80), st.lists(st.sampled_from(_WORDS))),
        min_size=1,
        max_size=8,
    ),
)
def test_every_compile_after_a_write_matches_a_fresh_process(
    seed: int, writes: list[tuple[str, int, list[str]]]
) -> None:
    # One process follows the writes with its cache (rescoring, regrouping and refitting
    # after each); a new store object each time reads the scope whole, as a fresh process.
    rng = random.Random(seed)
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=250)
    chef = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
    memory = chef.get_memory()
    keys = [f"{rng.choice(_WORDS)}_{i}" for i in range(80)]
    for key in keys:
        words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 9)))
        memory.set(key, f"{words}.", description=rng.choice([None, words]))
    question = [HumanMessage("Which date parser test did the team add, and where did Noor move?")]
    chef.compile(question)
    for action, at, words in writes:
        text = " ".join(words) or "x"
        if action == "d":
            memory.delete(keys[at % len(keys)])
        elif action == "u":  # a new version of an entry, often one the block shows
            memory.set(keys[at % len(keys)], text)
        else:
            memory.set(f"new_{at}", text)
        cached = chef.compile(question)
        fresh = ContextChef(store=RecordingStore(shared), memory=config, scope=("u",))
        again = fresh.compile(question)
        assert cached.messages == again.messages
        assert cached.meta.injected_keys == again.meta.injected_keys
        assert cached.meta.indexed_keys == again.meta.indexed_keys
        assert cached.meta.tokens == again.meta.tokens
        assert dict(cached.meta.omitted) == dict(again.meta.omitted)


def test_a_compile_after_a_write_gives_the_block_a_fresh_compile_gives() -> None:
    store = InMemoryStore()
    chef = ContextChef(store=store, memory=MemoryConfig(token_budget=300), scope=("u",))
    memory = chef.get_memory()
    for i in range(200):
        memory.set(f"note_{i:03d}", f"Remember detail number {i} about the project.\nAnd more.")
    payload = chef.compile([HumanMessage("hi")])
    block = payload.meta.tokens["memory"]
    assert 0 < len(payload.meta.injected_keys) < 200
    assert 0 < block <= 300
    memory.set("note_new", "One more detail.")
    again = chef.compile([HumanMessage("hi")])
    fresh = ContextChef(store=store, memory=MemoryConfig(token_budget=300), scope=("u",))
    slot_for(store, ("u",)).invalidate()
    cold = fresh.compile([HumanMessage("hi")])
    assert again.messages == cold.messages
    assert again.meta.tokens == cold.meta.tokens
