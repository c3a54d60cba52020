"""How many relevant entries a selector gets into a 500-token memory budget, per format.

A small scale test of our own: 30 services with 8 facts each (240 entries, every one with a
description), and one question per service ("Tell me everything about the billing service.")
whose relevant entries are that service's 8 facts. Each question is compiled with
`MemoryConfig(selector=..., token_budget=500)`; recall is the share of the relevant entries
injected, averaged over the questions, and precision the share of injected entries that are
relevant. The selector ranks the same way in both formats; the budget decides how many of the
ranked entries fit, and the compact format fits more of them.

(A relevance evaluation set is being built under `benchmarks/relevance/` on another branch;
this bench does not depend on it.)

Goal (issue 15): recall at 500 tokens improves with the compact format, for every selector.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.store.memory import InMemoryStore

from benchmarks._timing import goal, print_goals, print_table
from langchain_contextchef import ContextChef, MemoryConfig
from langchain_contextchef.selectors import MemorySelector, Relevant, Rerank

BUDGET = 500
SERVICES = [
    "billing",
    "auth",
    "search",
    "checkout",
    "inventory",
    "shipping",
    "payments",
    "reporting",
    "gateway",
    "catalog",
    "pricing",
    "ledger",
    "mailer",
    "scheduler",
    "analytics",
    "profile",
    "session",
    "upload",
    "thumbnail",
    "export",
    "import",
    "audit",
    "quota",
    "webhook",
    "ranking",
    "recommender",
    "notifier",
    "invoicing",
    "refunds",
    "metrics",
]
FACETS = ("owner", "language", "database", "deploy", "oncall", "runbook", "alerting", "sla")
QUICK_QUESTIONS = 6


def _entries() -> list[tuple[str, str, str]]:
    out = []
    for s, service in enumerate(SERVICES):
        for f, facet in enumerate(FACETS):
            value = (
                f"For the {service} service the {facet} is set by team {s * 8 + f}; "
                f"check the wiki page before changing the {facet}."
            )
            out.append((f"{service}_{facet}", value, f"The {facet} of the {service} service."))
    return out


def _chefs(store: InMemoryStore) -> dict[tuple[str, str], ContextChef]:
    selectors: dict[str, MemorySelector] = {"Relevant": Relevant(), "Rerank": Rerank()}
    return {
        (name, memory_format): ContextChef(
            store=store,
            memory=MemoryConfig(
                selector=selector,
                token_budget=BUDGET,
                memory_format=memory_format,  # type: ignore[arg-type]
            ),
        )
        for name, selector in selectors.items()
        for memory_format in ("verbose", "compact")
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Measure recall and precision per selector and format; print the table.

    Args:
        quick: Ask only a few of the questions.

    Returns:
        `{"name": "recall", "budget", "entries", "questions", "rows", "goals"}`.
    """
    store = InMemoryStore()
    memory = ContextChef(store=store).get_memory()
    for key, value, description in _entries():
        memory.set(key, value, description=description)
    services = SERVICES[:QUICK_QUESTIONS] if quick else SERVICES
    rows = []
    for (selector, memory_format), chef in _chefs(store).items():
        recalls, precisions, shown, tokens = [], [], [], []
        for service in services:
            question = HumanMessage(f"Tell me everything about the {service} service.")
            meta = chef.compile([SystemMessage("You are an ops assistant."), question]).meta
            relevant = {f"{service}_{facet}" for facet in FACETS}
            injected = set(meta.injected_keys)
            recalls.append(len(injected & relevant) / len(relevant))
            precisions.append(len(injected & relevant) / len(injected) if injected else 0.0)
            shown.append(len(injected))
            tokens.append(meta.tokens["memory"])
        rows.append(
            {
                "selector": selector,
                "format": memory_format,
                "recall": sum(recalls) / len(recalls),
                "precision": sum(precisions) / len(precisions),
                "entries_shown": sum(shown) / len(shown),
                "max_tokens": max(tokens),
            }
        )
    by = {(r["selector"], r["format"]): r for r in rows}
    goals = [
        goal(
            f"{selector}: recall gain of compact over verbose at {BUDGET} tokens",
            by[selector, "compact"]["recall"] - by[selector, "verbose"]["recall"],
            "> 0",
            by[selector, "compact"]["recall"] > by[selector, "verbose"]["recall"],
        )
        for selector in ("Relevant", "Rerank")
    ]
    print_table(
        f"Selector recall within a {BUDGET}-token memory budget ({len(_entries())} entries, "
        f"{len(services)} questions)",
        ["selector", "format", "recall", "precision", "entries shown", "max tokens"],
        [
            [
                r["selector"],
                r["format"],
                f"{r['recall']:.0%}",
                f"{r['precision']:.0%}",
                f"{r['entries_shown']:.1f}",
                r["max_tokens"],
            ]
            for r in rows
        ],
    )
    print_goals(goals)
    return {
        "name": "recall",
        "budget": BUDGET,
        "entries": len(_entries()),
        "questions": len(services),
        "rows": rows,
        "goals": goals,
    }


if __name__ == "__main__":
    run()
