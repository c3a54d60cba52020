"""The calibrated count of a compact block is the sum of its frame's and its entries' counts.

`fit_memory(counts=CALIBRATED_COUNTS, ...)` sizes the blocks it tries from each entry's
counts without rendering them. That is only right if the sum is exact for every block:
these tests render random blocks (any text: newlines, blank lines, digits, markup, other
scripts) and compare, and check that a fit from sums chooses exactly what a fit from real
blocks chooses.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore

from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.budget import CALIBRATED_COUNTS, calibrated_tokens, fit_memory
from langchain_contextchef.budget._additive import BlockSizes, FitMemo
from langchain_contextchef.budget._fit import PrefixSums
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory._cache import slot_for
from langchain_contextchef.render import render_memory_block
from langchain_contextchef.render._entry_tokens import entry_counters
from tests.support.compiles import assert_same_compile
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


def _renderer(
    allowed: list[str] | None, evicted: list[str], vocabulary: str, turn: int = 3
) -> object:
    def render(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
        return render_memory_block(
            full,
            index=index,
            unlisted=more,
            allowed_keys=allowed,
            evicted_keys=evicted,
            vocabulary=vocabulary,  # type: ignore[arg-type]
            turn=turn,
        )

    return render


def _counting(render: Any, rendered: list[int]) -> Any:
    # The same renderer, noting how many entries and rows each block it renders has.
    def counting(full: Sequence[MemoryEntry], index: Sequence[MemoryEntry], more: int) -> str:
        rendered.append(len(full) + len(index))
        return str(render(full, index, more))

    return counting


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
        assert_same_compile(cached, again)


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


# ---- what one fit keeps for the next (`FitMemo`) ---------------------------------------------


def test_prefix_sums_reuse_the_same_objects_and_compute_the_rest() -> None:
    seen: list[str] = []

    def size(word: str) -> int:
        seen.append(word)
        return len(word)

    words = ["a", "bb", "ccc", "dddd"]
    first = PrefixSums(words, size, operator.add, 0)
    assert [first(n) for n in range(5)] == [0, 1, 3, 6, 10]
    seen.clear()
    changed = [words[0], words[1], "x" * 7, words[3]]  # a new third item: sums part there
    again = PrefixSums(changed, size, operator.add, 0, first.kept())
    assert [again(n) for n in range(5)] == [0, 1, 3, 10, 14]
    assert seen == ["x" * 7, "dddd"]  # the first two were not counted again
    # A volatile item is summed, never kept: the next sums count it (and what follows) again.
    third = PrefixSums(changed, size, operator.add, 0, None, lambda w: w.startswith("x"))
    assert third(4) == 14
    assert third.kept() == (changed[:2], [0, 1, 3])


@settings(max_examples=120, deadline=None)
@given(
    specs=st.lists(_entry, min_size=1, max_size=30),
    steps=st.lists(
        st.tuples(
            st.sampled_from(["keep", "swap", "insert", "drop", "turn"]),
            st.integers(0, 40),
            _entry,
        ),
        min_size=1,
        max_size=6,
    ),
    frame=_frame,
    budget=st.integers(0, 700),
    index_mode=st.booleans(),
    share=st.sampled_from([None, 0.3, 0.8]),
)
def test_a_fit_with_a_memo_chooses_what_a_fit_without_one_chooses(
    specs: list[tuple[str, str | None, str | None, int | None]],
    steps: list[tuple[str, int, tuple[str, str | None, str | None, int | None]]],
    frame: tuple[list[str] | None, list[str], str],
    budget: int,
    index_mode: bool,
    share: float | None,
) -> None:
    # One memo across a run of fits whose rankings change as after writes: an entry replaced
    # by a new version, one inserted or dropped anywhere, the turn advanced (entries with a
    # turn TTL show the turns left, so their counts change). Each fit must equal the fit from
    # real blocks, without falling back to one (which a stale sum would cause).
    entries = _entries(specs)
    memo = FitMemo(lambda e: e.expires_at_turn is not None)
    turn = 3
    for action, at, spec in [("keep", 0, specs[0]), *steps]:
        at = at % (len(entries) + 1)
        new = _entries([spec])[0].evolve(key=f"n_{len(entries)}_{at}")
        if action == "swap" and at < len(entries):
            entries[at] = new
        elif action == "insert":
            entries.insert(at, new)
        elif action == "drop" and at < len(entries) and len(entries) > 1:
            del entries[at]
        if action == "turn" or at % 2:  # turns left reach 0: "after this turn" counts apart
            turn += 1
        cut = len(entries) * 2 // 3
        selected, unselected = entries[:cut], entries[cut:]

        render = _renderer(*frame, turn=turn)
        tokens, row_tokens = entry_counters(None, "compact", calibrated_tokens, turn)
        full, row = entry_counters(None, "compact", CALIBRATED_COUNTS.piece, turn)
        common = {
            "render": render,
            "budget": budget,
            "count": calibrated_tokens,
            "index_mode": index_mode,
            "index_share": share,
            "entry_tokens": tokens,
            "row_tokens": row_tokens,
        }
        real = fit_memory(selected, unselected, **common)  # type: ignore[arg-type]
        rendered: list[int] = []
        counting = _counting(render, rendered)
        summed = fit_memory(
            selected,
            unselected,
            counts=CALIBRATED_COUNTS,
            entry_counts=full,
            row_counts=row,
            unlisted_line=_unlisted(frame[2]),
            memo=memo,
            **{**common, "render": counting},  # type: ignore[arg-type]
        )
        assert summed == real
        # The sums were right (nothing stale was reused): no fit again on real blocks, which
        # renders every block it tries.
        chosen = len(real.full) + len(real.index)
        assert all(n <= 2 or n == chosen for n in rendered)


def test_compiles_after_writes_count_turn_ttls_down_as_a_fresh_process() -> None:
    # Entries that show the turns they have left are never served from an earlier fit.
    shared = InMemoryStore()
    config = MemoryConfig(token_budget=200)
    chef = ContextChef(store=shared, memory=config, scope=("u",), turn_unit="user_message")
    memory = chef.get_memory()
    for i in range(40):
        memory.set(f"fact_{i:02d}", f"The team note number {i} about the parser test.")
    for i in range(3):
        memory.set(f"short_{i}", f"A parser test note that lasts a while ({i}).", ttl=6 + i)
    for turn in range(5):
        question = [HumanMessage(f"How is the parser test going? ({turn})")]
        memory.set(f"later_{turn}", f"Written after turn {turn}.")
        cached = chef.compile(question)
        fresh = ContextChef(store=shared, memory=config, scope=("u",), turn_unit="user_message")
        slot_for(shared, ("u",)).invalidate()
        again = fresh.compile(question)  # the same user message: the same turn
        assert cached.meta.turn == again.meta.turn
        assert cached.messages == again.messages
        assert cached.meta.injected_keys == again.meta.injected_keys
        assert cached.meta.indexed_keys == again.meta.indexed_keys
