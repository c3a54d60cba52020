"""Run evaluation cases against a `ContextChef` and measure what reached the prompts.

`run_eval` builds a fresh store and chef per case, applies the setup writes, then plays the
conversation: each turn compiles the prompt (one model call) and the scripted model replies
with the case's tool calls or answer. Memory tool calls go through `ContextChef.handle_tool`
exactly as a model's would. Every compiled prompt is read back as text to measure:

* injected tokens: the `<memory>` element, counted with `count_tokens_approximately`;
* relevance: precision and recall of the injected entries against the turn's labels;
* cross-user leaks: prompts whose injected text holds a string labelled `never` for the
  principal being served (another tenant's values, a secret);
* refused bad writes: labelled bad model-path writes that did not end up stored.

With `model=` a real chat model answers instead of the script (user turns only). What the
model does is then its own choice, so relevance and refusals of the model's writes are
reported for information; leaks, errors, secrets left in the store and the labelled setup
writes are still checked.

This module owns the entry point (`run_eval`) and the default chef under test; it re-exports
the rest of the harness from the modules that own it: `_play` (playing one case: the clock,
the scripted or real model, the measurements), `_report` (the result types and
`assert_no_leaks`) and `_table` (`format_table`).

Example:
    ```python
    from langchain_contextchef.evaluation import BUILTIN_CASES, assert_no_leaks, run_eval

    report = run_eval(cases=BUILTIN_CASES[:1])
    assert_no_leaks(report)
    assert report.leak_rate == 0.0 and report.recall == 1.0
    ```
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.chef import ContextChef
from langchain_contextchef.evaluation._play import (
    START_TIME,
    ChefFactory,
    Clock,
    EvalClock,
    StoreFactory,
    play_case,
)
from langchain_contextchef.evaluation._play import SYSTEM_PROMPT as SYSTEM_PROMPT
from langchain_contextchef.evaluation._report import (
    CaseResult,
    EvalReport,
    TurnResult,
    WriteOutcome,
    assert_no_leaks,
)
from langchain_contextchef.evaluation._table import format_table
from langchain_contextchef.evaluation.cases import BUILTIN_CASES, EvalCase
from langchain_contextchef.memory import MemoryConfig

__all__ = [
    "DEFAULT_SCOPE",
    "START_TIME",
    "CaseResult",
    "ChefFactory",
    "EvalClock",
    "EvalReport",
    "StoreFactory",
    "TurnResult",
    "WriteOutcome",
    "assert_no_leaks",
    "default_chef_factory",
    "format_table",
    "run_eval",
]

DEFAULT_SCOPE = ("tenants", "{tenant_id}", "users", "{user_id}")
"""The scope of `default_chef_factory`; the harness passes `tenant_id` and `user_id`."""


def default_chef_factory(store: BaseStore, clock: Clock) -> ContextChef:
    """The chef the harness evaluates by default: tenant-and-user scope, default write gate.

    Args:
        store: The fresh store of the case.
        clock: The harness clock.

    Returns:
        `ContextChef(store, scope=DEFAULT_SCOPE)`; `MemoryConfig()` gates model writes with
        `DEFAULT_GATE` (secrets and injection attempts refused).
    """
    return ContextChef(store=store, scope=DEFAULT_SCOPE, memory=MemoryConfig(), clock=clock)


def run_eval(
    chef_factory: ChefFactory | None = None,
    cases: Sequence[EvalCase] = BUILTIN_CASES,
    *,
    model: BaseChatModel | None = None,
    store_factory: StoreFactory = InMemoryStore,
) -> EvalReport:
    """Run evaluation cases, each against a fresh store and chef, and measure every prompt.

    Args:
        chef_factory: `(store, clock) -> ContextChef`. Build your chef on the given store,
            pass `clock=clock`, and let its scope read `tenant_id` and `user_id` from
            `configurable` (e.g. `("tenants", "{tenant_id}", "users", "{user_id}")`).
            `None` uses `default_chef_factory`.
        cases: The cases to run; the built-in ones by default.
        model: A real chat model to answer user turns instead of the script. It is bound to
            the chef's tools plus stand-ins for the case's own tools.
        store_factory: Builds a fresh, empty store per case; `InMemoryStore` by default.

    Returns:
        The report. A case that raises is recorded with its error, not re-raised.

    Raises:
        ValueError: If two cases share a name.
    """
    names = [case.name for case in cases]
    if len(set(names)) != len(names):
        msg = f"Case names must be unique, got {names!r}; rename the duplicates."
        raise ValueError(msg)
    factory = chef_factory or default_chef_factory
    results = tuple(play_case(case, factory, store_factory, model) for case in cases)
    label = "scripted" if model is None else type(model).__name__
    return EvalReport(results, model=label)
