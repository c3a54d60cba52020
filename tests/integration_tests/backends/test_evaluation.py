"""`EvaluationSuite` on this folder's backends: SQLite and the file system."""

from __future__ import annotations

from tests.support.suites.evaluation import EvaluationSuite


class TestEvaluation(EvaluationSuite):
    """The evaluation suite on each backend of this folder's `local_store_factory` fixture."""
