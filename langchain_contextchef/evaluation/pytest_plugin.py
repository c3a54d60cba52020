"""Pytest fixtures that run the memory evaluation against your own chef.

Enable it with one line in your `conftest.py`:

    pytest_plugins = ["langchain_contextchef.evaluation.pytest_plugin"]

Then override `contextchef_factory` (and optionally `contextchef_store_factory` or
`contextchef_eval_cases`) to point the harness at your configuration, and use the report:

    @pytest.fixture
    def contextchef_factory():
        def make(store, clock):
            return ContextChef(store=store, scope=("orgs", "{tenant_id}", "{user_id}"), clock=clock)
        return make

    def test_memory_does_not_leak(contextchef_eval):
        assert_no_leaks(contextchef_eval)
        assert contextchef_eval.recall == 1.0

Fixtures:

* `contextchef_factory`: `(store, clock) -> ContextChef`; `default_chef_factory` by default.
* `contextchef_store_factory`: `() -> BaseStore`; `InMemoryStore` by default.
* `contextchef_eval_cases`: the cases to run; `BUILTIN_CASES` by default.
* `contextchef_eval`: the `EvalReport` of running those cases.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from langgraph.store.memory import InMemoryStore

from langchain_contextchef.evaluation.cases import BUILTIN_CASES, EvalCase
from langchain_contextchef.evaluation.harness import (
    ChefFactory,
    EvalReport,
    StoreFactory,
    assert_no_leaks,
    default_chef_factory,
    run_eval,
)

__all__ = [
    "assert_no_leaks",
    "contextchef_eval",
    "contextchef_eval_cases",
    "contextchef_factory",
    "contextchef_store_factory",
]


@pytest.fixture
def contextchef_factory() -> ChefFactory:
    """The chef under evaluation; override it to evaluate your own configuration."""
    return default_chef_factory


@pytest.fixture
def contextchef_store_factory() -> StoreFactory:
    """Builds one fresh store per case; override it to evaluate another backend."""
    return InMemoryStore


@pytest.fixture
def contextchef_eval_cases() -> Sequence[EvalCase]:
    """The cases to run; override it to add your own or pick some of the built-in ones."""
    return BUILTIN_CASES


@pytest.fixture
def contextchef_eval(
    contextchef_factory: ChefFactory,
    contextchef_store_factory: StoreFactory,
    contextchef_eval_cases: Sequence[EvalCase],
) -> EvalReport:
    """The evaluation report of `contextchef_eval_cases` against `contextchef_factory`."""
    return run_eval(
        contextchef_factory,
        contextchef_eval_cases,
        store_factory=contextchef_store_factory,
    )
