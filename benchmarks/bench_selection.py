"""The selector's own cost at 10,000 entries, apart from the store and the embedding call.

The entries: the relevance set's 129 hand-written entries plus generated ones up to 10,000
(`benchmarks/relevance/`, the development set; the held-back second set is not read), at
their own times. The questions: the set's 120 conversations, each turned into the weighted
query a compile builds (`conversation_query`, the last three user turns).

* **selector**: `Relevant` (the default `MemoryConfig` selector: `Relevant(stable=True)`)
  selecting from the 10,000 entries with a 2,000-token budget, its result read as far as a
  budget fit reads it (the first 200 entries), timed per question. Keyword: no semantic
  scores. Hybrid: the semantic scores a store's search would return (the 100 nearest entries
  by a fake embedding, a hashed bag of words, computed before the clock starts; and, for a
  question that asks for several things, each facet's own), so the
  embedding call and the vector search are not counted; the entries' own vectors are handed
  over as a store that keeps them in memory does (`SelectionContext.entry_vectors`), so the
  hybrid time includes comparing the best entries by meaning, and choosing which entries'
  vectors a compile would read (`Relevant.vector_keys`). Three cadences: the scope unchanged
  since the last question (its keyword index up to date), right after one new entry (the
  index follows the change), and from scratch (no index: every entry scored, what every
  compile paid before this index; timed on fewer questions).
* **compile**: `ContextChef.compile` on an `InMemoryStore` holding the same entries, a
  different question each call (so no compile reuses the previous one's choice): keyword
  `Relevant`, hybrid `Relevant` (the store has a vector index over the fake embedding), and
  the plain compile (a selector that keeps creation order: no relevance at all), interleaved
  in one run; ratios to the plain compile.

Goal (issue 25): the selector's own time at 10,000 entries within 5 ms (median, keyword and
hybrid, unchanged scope and after one write).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.store.base import PutOp
from langgraph.store.memory import InMemoryStore

from benchmarks._timing import (
    fmt_ratio,
    fmt_seconds,
    goal,
    paired_samples,
    print_goals,
    print_table,
)
from benchmarks.relevance.dataset import CORE, QUESTIONS, CoreEntry
from benchmarks.relevance.filler import generate
from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.memory import MEMORY_NAMESPACE, clear_cache
from langchain_contextchef.memory._cache import ScopeSlot
from langchain_contextchef.query import conversation_query, question_facets
from langchain_contextchef.selectors import Relevant, SelectionContext

SIZE = 10_000
QUICK_SIZE = 1_000
BUDGET = 2_000
READ = 200
GOAL_S = 0.005
SCRATCH_QUESTIONS = 6
DIMS = 64
NOW = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
SYSTEM = SystemMessage("You are a helpful personal assistant.")


class HashedWords(Embeddings):
    """A fake embedding: words hashed into `dims` buckets, normalised (fast, deterministic)."""

    def __init__(self, dims: int = DIMS) -> None:
        self.dims = dims

    def _one(self, text: str) -> list[float]:
        vector = [0.0] * self.dims
        for word in text.lower().split():
            digest = hashlib.blake2b(word.strip(".,?!'\"").encode(), digest_size=4).digest()
            vector[int.from_bytes(digest, "little") % self.dims] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text."""
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """The vector of a query."""
        return self._one(text)


def _entries(size: int) -> list[MemoryEntry]:
    core: list[CoreEntry] = [*CORE, *generate(max(size - len(CORE), 0))][:size]
    out = []
    for item in core:
        at = NOW - timedelta(days=item.days_ago)
        out.append(
            MemoryEntry(
                key=item.key,
                value=item.value,
                description=item.description,
                type=item.type,
                importance=item.importance,
                created_at=at,
                updated_at=at,
            )
        )
    return out


def _messages(turns: Sequence[str]) -> list[BaseMessage]:
    messages: list[BaseMessage] = [SYSTEM]
    for position, text in enumerate(turns):
        messages.append(HumanMessage(text) if position % 2 == 0 else AIMessage(text))
    return messages


def _semantic(
    entries: Sequence[MemoryEntry], vectors: list[list[float]], query: str, embed: HashedWords
) -> dict[str, float]:
    q = embed.embed_query(query)
    scored = [
        (sum(a * b for a, b in zip(q, v, strict=True)), e.key)
        for e, v in zip(entries, vectors, strict=True)
    ]
    return {key: score for score, key in sorted(scored, reverse=True)[:100]}


def _selector_times(
    entries: list[MemoryEntry],
    contexts: list[tuple[SelectionContext, dict[str, float]]],
    hybrid: bool,
    vectors: dict[str, list[float]] | None = None,
) -> dict[str, list[float]]:
    selector = Relevant(stable=True)

    def entry_vectors(chosen: Sequence[MemoryEntry]) -> list[Sequence[float] | None]:
        # The entries' own vectors as a store keeping them in memory hands them (a lookup).
        held = vectors or {}
        return [held.get(e.key) for e in chosen]

    slot = ScopeSlot()
    slot.reset(("bench", 1), entries, [])
    fresh = itertools.count()

    def timed(context: SelectionContext) -> float:
        start = time.perf_counter()
        if context.relevance is not None:
            # Which entries' vectors a compile reads for it (the hits and the updates that
            # may name them): the selector's work too, though done before the read.
            selector.vector_keys(context)
        chosen = selector.select(list(slot.ordered()), context)
        chosen[:READ]
        return time.perf_counter() - start

    def context_of(
        base: SelectionContext, relevance: dict[str, float], scope: bool
    ) -> SelectionContext:
        return SelectionContext(
            query=base.query,
            queries=base.queries,
            token_budget=BUDGET,
            now=NOW,
            relevance=relevance if hybrid else None,
            facet_relevance=base.facet_relevance if hybrid else {},
            entry_data=slot.derived if scope else None,
            scope=slot if scope else None,
            entry_vectors=entry_vectors if hybrid and vectors is not None else None,
        )

    timed(context_of(*contexts[0], scope=True))  # builds the index once
    unchanged = [timed(context_of(c, r, scope=True)) for c, r in contexts]
    after: list[float] = []
    new_notes = generate(len(contexts), seed=99)
    for (c, r), note in zip(contexts, new_notes, strict=True):
        at = NOW + timedelta(seconds=next(fresh))
        slot.put(MemoryEntry(key=f"new_{note.key}", value=note.value, created_at=at, updated_at=at))
        after.append(timed(context_of(c, r, scope=True)))
    scratch = [timed(context_of(c, r, scope=False)) for c, r in contexts[:SCRATCH_QUESTIONS]]
    return {"unchanged": unchanged, "after_write": after, "scratch": scratch}


def _compile_ratios(entries: list[MemoryEntry], repeats: int) -> dict[str, float]:
    embed = HashedWords()
    plain_store, indexed = InMemoryStore(), InMemoryStore(index={"embed": embed, "dims": DIMS})
    for store in (plain_store, indexed):
        ops = [PutOp((MEMORY_NAMESPACE,), e.key, e.to_stored(), index=["value"]) for e in entries]
        for low in range(0, len(ops), 1_000):
            store.batch(ops[low : low + 1_000])
        clear_cache(store)

    def chef(store: InMemoryStore, selector: Any) -> ContextChef:
        return ContextChef(store=store, memory=MemoryConfig(token_budget=BUDGET, selector=selector))

    chefs = {
        "plain": chef(plain_store, lambda found: found),
        "keyword": chef(plain_store, Relevant()),
        "hybrid": chef(indexed, Relevant()),
    }
    questions = itertools.cycle([_messages(q.turns) for q in QUESTIONS])

    def caller(name: str) -> Callable[[], object]:
        ask = chefs[name]
        current: Iterator[list[BaseMessage]] = questions

        def call() -> object:
            return ask.compile(next(current))

        return call

    samples = paired_samples({name: caller(name) for name in chefs}, repeats=repeats, warmup=2)
    return {name: statistics.median(values) for name, values in samples.items()}


def run(quick: bool = False) -> dict[str, Any]:
    """Time the selector alone and the compile with it, at 10,000 entries; print tables."""
    size = QUICK_SIZE if quick else SIZE
    entries = _entries(size)
    embed = HashedWords()
    vectors = embed.embed_documents([e.value for e in entries])
    by_key = {e.key: v for e, v in zip(entries, vectors, strict=True)}
    questions = QUESTIONS[:15] if quick else QUESTIONS
    contexts = []
    for question in questions:
        parts = conversation_query(_messages(question.turns))
        facets = {f: _semantic(entries, vectors, f, embed) for f in question_facets(question.text)}
        base = SelectionContext(query=question.text, queries=parts, facet_relevance=facets)
        contexts.append((base, _semantic(entries, vectors, question.text, embed)))
    rows = []
    figures: dict[str, Any] = {"entries": size}
    for label, hybrid in (("keyword", False), ("hybrid", True)):
        times = _selector_times(entries, contexts, hybrid, by_key)
        medians = {name: statistics.median(values) for name, values in times.items()}
        figures[label] = medians
        rows.append(
            [
                label,
                fmt_seconds(medians["unchanged"]),
                fmt_seconds(max(times["unchanged"])),
                fmt_seconds(medians["after_write"]),
                fmt_seconds(medians["scratch"]),
                fmt_ratio(medians["scratch"] / medians["unchanged"]),
            ]
        )
    print_table(
        f"Relevant's own time at {size:,} entries (budget {BUDGET:,}, first {READ} read), median per question",
        [
            "query",
            "unchanged scope",
            "slowest",
            "after one write",
            "from scratch",
            "scratch / indexed",
        ],
        rows,
    )
    compile_times = _compile_ratios(entries, 10 if quick else 20)
    plain = compile_times["plain"]
    figures["compile"] = compile_times
    print_table(
        f"Compile at {size:,} entries, a new question each call (InMemoryStore, budget {BUDGET:,})",
        ["compile", "median", "vs plain"],
        [
            [name, fmt_seconds(value), fmt_ratio(value / plain)]
            for name, value in compile_times.items()
        ],
    )
    goals = []
    if not quick:
        for label in ("keyword", "hybrid"):
            for cadence in ("unchanged", "after_write"):
                value = figures[label][cadence]
                goals.append(
                    goal(
                        f"Relevant's own time at 10,000 entries, {label}, {cadence.replace('_', ' ')}",
                        value * 1e3,
                        f"<= {GOAL_S * 1e3:.0f} ms",
                        value <= GOAL_S,
                    )
                )
    notes = [
        "selector time excludes the store and the embedding call (hybrid gets precomputed "
        "semantic scores); the compile rows include them (hybrid: InMemoryStore's vector "
        f"search over {size:,} entries with a {DIMS}-dimension fake embedding).",
    ]
    for note in notes:
        print(f"- {note}")
    print_goals(goals)
    return {"name": "selection", "figures": figures, "goals": goals, "notes": notes}


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
