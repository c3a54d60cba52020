"""An evaluation harness for agent memory: scripted cases, leak and relevance metrics.

The package (this face re-exports `run_eval`, `BUILTIN_CASES`, the case and report types)::

    cases             scripted cases: who writes what, the conversation, what must happen
    harness           `run_eval`: every case against a fresh store, measured from the prompts
    _play             playing one case: a fresh chef, the setup writes, then turn by turn
    metrics           pure metrics: what a compile injected, its size and scores
    _report, _table   what a run measured, per compile, case and overall; the text table
    pytest_plugin     pytest fixtures that run the evaluation against your chef
    __main__          `python -m langchain_contextchef.evaluation`

Run the built-in cases against your own chef from a test suite or from the command line
(`python -m langchain_contextchef.evaluation`). The harness replays each case against a fresh
store, reads every compiled prompt back as text, and reports injected tokens per turn, the
precision and recall of injected entries, the cross-user leak rate and the share of labelled
bad writes that were refused. A pytest plugin (`langchain_contextchef.evaluation.pytest_plugin`)
wraps it in fixtures.

Example:
    ```python
    from langgraph.store.memory import InMemoryStore
    from langchain_contextchef import ContextChef
    from langchain_contextchef.evaluation import BUILTIN_CASES, run_eval


    def leaky_chef(store, clock):
        return ContextChef(store=store, clock=clock)  # no scope: every tenant shares memory


    report = run_eval(leaky_chef, cases=BUILTIN_CASES[:1])
    assert report.leak_rate > 0
    assert run_eval(cases=BUILTIN_CASES[:1]).leak_rate == 0
    ```
"""

from __future__ import annotations

from langchain_contextchef.evaluation.cases import (
    BUILTIN_CASES,
    EvalCase,
    Principal,
    ScriptedCall,
    Turn,
    Write,
)
from langchain_contextchef.evaluation.harness import (
    DEFAULT_SCOPE,
    CaseResult,
    ChefFactory,
    EvalClock,
    EvalReport,
    StoreFactory,
    TurnResult,
    WriteOutcome,
    assert_no_leaks,
    default_chef_factory,
    format_table,
    run_eval,
)
from langchain_contextchef.evaluation.metrics import Relevance

__all__ = [
    "BUILTIN_CASES",
    "DEFAULT_SCOPE",
    "CaseResult",
    "ChefFactory",
    "EvalCase",
    "EvalClock",
    "EvalReport",
    "Principal",
    "Relevance",
    "ScriptedCall",
    "StoreFactory",
    "Turn",
    "TurnResult",
    "Write",
    "WriteOutcome",
    "assert_no_leaks",
    "default_chef_factory",
    "format_table",
    "run_eval",
]
