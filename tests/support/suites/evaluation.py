"""The evaluation suite: the built-in cases on fresh stores from the `local_store_factory` fixture.

Subclass `EvaluationSuite` in a test module whose fixtures provide `local_store_factory` (a
callable that makes a fresh, empty store): the unit tests run it on `InMemoryStore`, the
integration tests on SQLite and the file system.
"""

from __future__ import annotations

from collections.abc import Callable

from langgraph.store.base import BaseStore

from langchain_contextchef.evaluation import BUILTIN_CASES, run_eval


class EvaluationSuite:
    """Whole evaluation runs that must pass on every backend."""

    def test_builtin_cases_pass_on_every_local_backend(
        self, local_store_factory: Callable[[], BaseStore]
    ) -> None:
        made: list[BaseStore] = []

        def fresh() -> BaseStore:
            made.append(local_store_factory())
            return made[-1]

        report = run_eval(store_factory=fresh)
        assert len(made) == len(BUILTIN_CASES)
        assert report.problems() == []
        assert (report.precision, report.recall, report.leak_rate) == (1.0, 1.0, 0.0)
