"""`GovernanceSuite` on this folder's backends: SQLite, the file system and PostgreSQL."""

from __future__ import annotations

from tests.support.suites.governance import GovernanceSuite


class TestGovernance(GovernanceSuite):
    """The governance suite on each backend of this folder's `store` fixture."""
