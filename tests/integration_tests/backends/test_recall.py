"""`RecallSuite` on this folder's backends: SQLite, the file system and PostgreSQL."""

from __future__ import annotations

from tests.support.suites.recall import RecallSuite


class TestRecall(RecallSuite):
    """The recall suite on each backend of this folder's `store` fixture."""
